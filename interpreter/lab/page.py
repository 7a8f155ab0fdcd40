"""The report as one self-contained HTML page: tables, and plots drawn by matplotlib (Agg) as inline SVG. Nothing
is fetched: no script, font, style sheet or image from elsewhere, so it opens offline."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from typing import Any

from .tables import ci_num, ci_pct, num, pct, strongest_cards

LEADER_PLOT_N = 10
"""Rounds reached by fewer matches with a leader than this are left out of the leader plot (its band would fill
the plot)."""

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1000px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: .92em; }
td, th { padding: .2em .7em; border-bottom: 1px solid #eee; text-align: right; }
td:first-child, th:first-child { text-align: left; }
.thin { color: #a60; } .real { font-weight: bold; } .note { color: #555; font-size: .9em; }
figure { margin: 0; } svg { max-width: 100%; height: auto; }
"""


def _svg(draw: Callable[[Any], None], size: tuple[float, float] = (7.0, 3.2)) -> str:
    """One plot as inline SVG (text drawn as paths: no font is fetched). A bare `Figure`, without pyplot: no
    global state, no display, and a second less to import."""
    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": "meeple", "font.size": 9}):
        fig = Figure(figsize=size)
        ax = fig.subplots()
        draw(ax)
        fig.tight_layout()
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return re.sub(r"\s*<metadata>.*?</metadata>", "", text[text.index("<svg"):], count=1, flags=re.DOTALL)


def _errors(figs: list[dict[str, Any]]) -> list[list[float]]:
    """Error bar lengths below and above each rate."""
    return [[f["rate"] - f["ci"][0] for f in figs], [f["ci"][1] - f["rate"] for f in figs]]


def _rates_plot(labels: list[str], figs: list[dict[str, Any]], fair: float | None, title: str) -> str:
    figs_known = [f if f["rate"] is not None else {**f, "rate": 0.0, "ci": [0.0, 0.0]} for f in figs]

    def draw(ax: Any) -> None:
        ax.bar(range(len(figs_known)), [f["rate"] for f in figs_known], yerr=_errors(figs_known), capsize=4,
               color="#4c78a8")
        if fair is not None:
            ax.axhline(fair, color="#e45756", linestyle="--", label=f"fair share {fair:.0%}")
            ax.legend(loc="upper right")
        ax.set_xticks(range(len(labels)), labels, rotation=30 if len(labels) > 6 else 0, ha="right"
                      if len(labels) > 6 else "center")
        ax.set_ylabel("win rate")
        ax.set_title(title)
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")

    return _svg(draw)


def _length_plot(counts: dict[str, list[list[int]]]) -> str:
    def draw(ax: Any) -> None:
        pairs = counts["turns"]
        ax.bar([v for v, _ in pairs], [c for _, c in pairs], color="#72b7b2", width=0.9)
        ax.set_xlabel("turns (rounds where a game has no turns)")
        ax.set_ylabel("matches")
        ax.set_title("Game length")

    return _svg(draw)


def _scores_plot(scores: list[dict[str, Any]]) -> str:
    def draw(ax: Any) -> None:
        boxes = []
        for s in scores:
            q = s["quantiles"]
            if q:
                boxes.append({"label": f"P{s['seat']}", "whislo": q["p5"], "q1": q["p25"], "med": q["median"],
                              "q3": q["p75"], "whishi": q["p95"], "mean": s["mean"], "fliers": []})
        ax.bxp(boxes, showmeans=True)
        ax.set_ylabel("final score")
        ax.set_title("Score by seat (quartiles, whiskers 5%–95%, triangle: mean)")

    return _svg(draw)


def _leader_plot(rows: list[dict[str, Any]]) -> str:
    def draw(ax: Any) -> None:
        xs = [r["round"] for r in rows]
        ax.plot(xs, [r["rate"] for r in rows], marker="o", color="#4c78a8")
        ax.fill_between(xs, [r["ci"][0] for r in rows], [r["ci"][1] for r in rows], alpha=0.25, color="#4c78a8")
        ax.set_ylim(0, 1)
        ax.set_xlabel("end of round")
        ax.set_ylabel("leader goes on to win")
        ax.set_title("How often the leader at each round wins (decisiveness)")
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")

    return _svg(draw)


def _cards_plot(rows: list[dict[str, Any]]) -> str:
    def draw(ax: Any) -> None:
        ys = list(range(len(rows)))[::-1]
        diffs = [r["diff"] for r in rows]
        errors = [[r["diff"] - r["ci"][0] for r in rows], [r["ci"][1] - r["diff"] for r in rows]]
        colours = ["#e45756" if r["real"] else "#bab0ac" for r in rows]
        ax.barh(ys, diffs, xerr=errors, color=colours, capsize=3)
        ax.axvline(0, color="#333", linewidth=0.8)
        ax.set_yticks(ys, [f"{r['card']['name']} ({r['what']})" for r in rows])
        ax.set_xlabel("win rate with it minus without it (red: real)")
        ax.xaxis.set_major_formatter(lambda v, _: f"{v:+.0%}")
        ax.set_title("Cards that go most with winning or losing")

    return _svg(draw, (7.0, 0.35 * len(rows) + 1.2))


def _table(head: list[str], rows: list[list[str]], classes: list[str] | None = None) -> str:
    out = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for i, row in enumerate(rows):
        cls = f' class="{classes[i]}"' if classes and classes[i] else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>")
    return "\n".join(out) + "</table>"


def html_page(f: dict[str, Any]) -> str:
    """The whole report page."""
    e = html.escape
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{e(f['title'])}: balance "
             f"report</title><style>{STYLE}</style></head><body>",
             f"<h1>{e(f['title'])}: balance report</h1>",
             f"<p>{f['games']:,} matches, {f['players']} players, bots {e(', '.join(f['bots']))}, seeds {f['seed']}–"
             f"{f['seed'] + f['games'] - 1}; the {e(f['wins'])} score wins. Every figure has its 95% interval "
             "(Wilson for rates, t for means) and the number of matches (or seats) it stands on; figures on fewer "
             f"than 30 are marked thin.</p>"]
    if "stopped" in f:
        parts.append(f"<p class=\"thin\">{e(f['stopped'])}</p>")
    seats = f["seats"]
    eq = f["equal_seats"]
    parts.append("<h2>Fairness</h2>")
    parts.append(_rates_plot([f"P{s['seat']} {s['bot']}" for s in seats], seats, 1 / f["players"],
                             "Win rate by seat"))
    parts.append(_table(["seat", "bot", "wins", "win rate [95%]"],
                        [[f"P{s['seat']}", s["bot"], s["k"], ci_pct(s)] for s in seats]))
    verdict = "no evidence against equal seats" if eq["equal"] else "the seats are not equal"
    fp = f["first_player"]
    parts.append(f"<p>All seats equal? Chi-square {eq['chi2']:.2f} on {eq['df']} degrees of freedom, p = "
                 f"{eq['p']:.3g}: <b>{verdict}</b>. The first player wins {ci_pct(fp)} of {fp['n']:,} matches "
                 f"(fair share {pct(fp['fair'])}). Shared wins: {ci_pct(f['shared_wins'])}.</p>")
    parts.append("<h2>Length</h2>")
    parts.append(_length_plot(f["length_counts"]))
    parts.append(_table(["", "mean [95%]", "sd", "5%", "median", "95%"],
                        [[k, ci_num(v), num(v["sd"]), v["quantiles"].get("p5", ""), v["quantiles"].get("median", ""),
                          v["quantiles"].get("p95", "")] for k, v in f["length"].items()]))
    parts.append(f"<p>Stopped by a safety cap of the flow: {ci_pct(f['capped'])}.</p>")
    parts.append("<h2>Scores and drama</h2>")
    parts.append(_scores_plot(f["scores"]))
    parts.append(_table(["seat", "mean score [95%]", "sd"],
                        [[f"P{s['seat']}", ci_num(s), num(s["sd"])] for s in f["scores"]]))
    parts.append(f"<p>Margin of victory {ci_num(f['margin'])}; lead changes a match {ci_num(f['lead_changes'])}; "
                 f"the leader at half-time wins {ci_pct(f['leader_at_half'])}.</p>")
    steady = [r for r in f["leader_wins"] if r["n"] >= LEADER_PLOT_N]
    if steady:
        parts.append(_leader_plot(steady))
    if f["per_round"] or f["counters"] or f["seat_counters"]:
        parts.append("<h2>Counters</h2>")
        rows = [[f"{k} per round", pct(v["per_round"]), v["rounds"]] for k, v in f["per_round"].items()]
        rows += [[f"{k} at the end", ci_num(v), v["n"]] for k, v in f["counters"].items()]
        rows += [[f"{k} at the end (a seat)", ci_num(v), v["n"]] for k, v in f["seat_counters"].items()]
        parts.append(_table(["counter", "value [95%]", "n"], rows))
    if f["groups"]["rows"]:
        groups = f["groups"]["rows"]
        parts.append(f"<h2>Win rate by {e(f['groups']['title'])}</h2>")
        parts.append(_rates_plot([g["group"] for g in groups], groups, 1 / f["players"], ""))
        parts.append(_table(["group", "seats", "win rate [95%]"], [[g["group"], g["n"], ci_pct(g)] for g in groups],
                            ["thin" if g["thin"] else "" for g in groups]))
    parts.append(_skill_section(f))
    parts.append(_cards_section(f))
    parts.append(_enough_section(f))
    parts.append(f"<p class=\"note\">{f['games_per_s']:.3g} matches/s, {f['seconds']:.2f} s.</p></body></html>")
    return "\n".join(parts)


def _skill_section(f: dict[str, Any]) -> str:
    """Does skill matter: the ladder of `--skill` (a plot of each rung's win rate against its fair share) and each
    bot of `--bots` against the fair share."""
    e = html.escape
    out = ["<h2>Skill</h2>"]
    ladder = f.get("skill_ladder")
    if ladder:
        matters = ladder["matters"]
        rungs = ladder["rungs"]
        said = f"<p>Does skill matter? <b>{e(matters['verdict'])}</b>"
        if matters["index"] is not None:
            low, high = matters["ci"]
            said += (f": {e(ladder['base'])} against random has a skill index of {matters['index']:+.2f} "
                     f"[{low:+.2f}, {high:+.2f}] (0: no better than random, 1: wins every match)")
        out.append(said + ". Each rung seats bot A at one seat and bot B at every other, A one seat further each "
                   "match; a win shared by k seats counts 1/k, so a bot no better than B wins the fair share.</p>")
        known = [r for r in rungs if r["n"]]
        if known:
            out.append(_rates_plot([f"{r['a']} vs {r['b']}" for r in known], known, known[0]["fair"],
                                   "Skill ladder: A's win rate against B"))
        out.append(_table(["A", "B", "matches", "A's win rate [95%]", "fair share", "skill index [95%]",
                           "A's score minus B's [95%]"],
                          [[r["a"], r["b"], r["n"], ci_pct(r), pct(r["fair"]), _index(r),
                            ci_num(r["score_margin"])] for r in rungs],
                          ["thin" if r["thin"] else "real" if r["better"] else "" for r in rungs]))
    if f["skill"]:
        out.append(_table(["bot", "seats", "win rate [95%]", "edge over the fair share"],
                          [[s["bot"], s["n"], ci_pct(s), pct(s["edge"])] for s in f["skill"]]))
    if len(out) == 1:
        out.append("<p class=\"note\">Not measured: <code>--skill ismcts:16</code> plays a search bot against random "
                   "and at doubling budgets against itself; <code>--bots</code> with <code>--rotate</code> sets "
                   "bots of your own against each other.</p>")
    return "\n".join(out)


def _index(r: dict[str, Any]) -> str:
    if r["index"] is None:
        return "—"
    return f"{r['index']:+.2f} [{r['index_ci'][0]:+.2f}, {r['index_ci'][1]:+.2f}]"


def _cards_section(f: dict[str, Any]) -> str:
    out = ["<h2>Cards</h2>",
           "<p>Per card, over every seat of every match: how often the seat chose it in a decision, had it in its "
           "own zones at the end, or there at the end of some round, and its win rate then against not. "
           "A difference is <b>real</b> when its interval leaves out 0; it tells what goes with winning, "
           "not what causes it.</p>"]
    strong = strongest_cards(f, 15)
    if strong:
        out.append(_cards_plot(strong))
    rows, classes = [], []
    for c in f["cards"]:
        row = [c["name"], c["kind"]]
        for what in ("chosen", "at_end", "in_round"):
            fig = c[what]
            effect = fig["effect"]
            row += [pct(fig["share"]), pct(fig["win"]["rate"]), _effect(effect)]
        rows.append(row)
        classes.append("thin" if c["thin"] else "")
    out.append(_table(["card", "kind", "chosen", "win", "effect (points)", "in own zones at the end", "win", "effect",
                       "at a round's end", "win", "effect"], rows, classes))
    if f["kinds"]:
        out.append(_table(["kind", "chosen", "win when chosen", "in own zones at the end", "win then"],
                          [[k["kind"], pct(k["chosen"]["share"]), pct(k["chosen"]["win"]["rate"]),
                            pct(k["at_end"]["share"]), pct(k["at_end"]["win"]["rate"])] for k in f["kinds"]]))
    return "\n".join(out)


def _effect(effect: dict[str, Any]) -> str:
    """A difference of two win rates in points, with its interval."""
    if effect["diff"] is None:
        return "—"
    low, high = effect["ci"]
    return f"{100 * effect['diff']:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]{' real' if effect['real'] else ''}"


def _enough_section(f: dict[str, Any]) -> str:
    e = f["enough"]
    rows = [[r["figure"], r["n"], "—" if r["width"] is None else f"{100 * r['width']:.1f} points"
             if r["unit"] == "rate" else num(r["width"]), f"{r['needed']:,}"]
            for r in e["figures"]]
    return ("<h2>How many matches are enough?</h2>"
            f"<p>For a rate interval {100 * e['target_width']:.0f} points wide (and ±0.5 on mean turns), every "
            f"figure below needs <b>-n {e['suggested_n']:,}</b>.</p>"
            + _table(["figure", "matches", "interval width now", "matches needed"], rows))
