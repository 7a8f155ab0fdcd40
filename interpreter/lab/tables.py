"""The figures as text (the report's and compare's summary on stdout) and as CSV files (`report --csv DIR`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..files import write_whole
from ..i18n import Words

_EN = Words("en")


def pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def ci_pct(fig: dict[str, Any]) -> str:
    low, high = fig["ci"]
    return f"{pct(fig['rate'])} [{pct(low)}, {pct(high)}]"


def num(x: float | None, digits: int = 2) -> str:
    return "—" if x is None else f"{x:,.{digits}f}"


def ci_num(fig: dict[str, Any], digits: int = 2) -> str:
    if fig["mean"] is None:
        return "—"
    if not fig["ci"]:
        return num(fig["mean"], digits)
    return f"{num(fig['mean'], digits)} [{num(fig['ci'][0], digits)}, {num(fig['ci'][1], digits)}]"


def strongest_cards(f: dict[str, Any], count: int = 8) -> list[dict[str, Any]]:
    """Cards whose choosing (else holding at the end) goes with winning or losing the most, real ones first."""
    rows = []
    for card in f["cards"]:
        for what in ("chosen", "at_end"):
            effect = card[what]["effect"]
            if effect["diff"] is not None and card[what]["n"] >= 1:
                rows.append({"card": card, "what": what, **effect})
                break
    rows.sort(key=lambda r: (not r["real"], -abs(r["diff"])))
    return rows[:count]


def summary_text(f: dict[str, Any], w: Words = _EN) -> str:
    """The report in a few lines of text, in the words of `w`'s language."""
    out = [w("report.title", title=f["title"], games=w.n(f["games"], "match"), players=w.n(f["players"], "player"),
             bots=", ".join(dict.fromkeys(f["bots"])), first=f["seed"], last=f["seed"] + f["games"] - 1,
             wins=w(f"score_wins.{f['wins']}"))]
    out.append("  " + w("report.seats"))
    for s in f["seats"]:
        out.append(f"    P{s['seat']} {s['bot']:<12} {ci_pct(s)}")
    eq = f["equal_seats"]
    verdict = w("report.equal_yes") if eq["equal"] else w("report.equal_no")
    out.append("  " + w("report.equal", chi2=eq["chi2"], df=eq["df"], p=eq["p"], verdict=verdict))
    fp = f["first_player"]
    out.append("  " + w("report.first", rate=ci_pct(fp), fair=pct(fp["fair"])))
    out.append("  " + w("report.shared", shared=ci_pct(f["shared_wins"]), capped=ci_pct(f["capped"])))
    length = f["length"]
    out.append("  " + w("report.length", turns=ci_num(length["turns"]), rounds=ci_num(length["rounds"]),
                        decisions=ci_num(length["decisions"], 1)))
    out.append("  " + w("report.scores", scores=", ".join(f"P{s['seat']} {ci_num(s)}" for s in f["scores"])))
    out.append("  " + w("report.margin", margin=ci_num(f["margin"]), changes=ci_num(f["lead_changes"]),
                        leader=ci_pct(f["leader_at_half"])))
    out += _detail_lines(f, w)
    e = f["enough"]
    widest = max((r["width"] for r in e["figures"] if r["unit"] == "rate"), default=0.0)
    out.append("  " + w("report.enough", width=100 * widest, target=100 * e["target_width"], n=e["suggested_n"]))
    if "stopped" in f:
        out.append(f"  {f['stopped']}")
    out.append("  " + w("report.speed", rate=f["games_per_s"], seconds=f["seconds"]))
    return "\n".join(out)


def _detail_lines(f: dict[str, Any], w: Words = _EN) -> list[str]:
    """The report's figures past the seats, the lengths and the scores: per round, game counters, win rate by
    group, skill, the skill ladder and the cards that go most with winning or losing."""
    out: list[str] = []
    thin = w("report.thin")
    for name, fig in f["per_round"].items():
        out.append("  " + w("report.per_round", name=name, rate=pct(fig["per_round"]), rounds=fig["rounds"]))
    if f["counters"]:
        out.append("  " + w("report.counters", values=", ".join(f"{k} {ci_num(v)}" for k, v in f["counters"].items())))
    if f["groups"]["rows"]:
        out.append("  " + w("report.by_group", group=f["groups"]["title"]))
        for g in f["groups"]["rows"]:
            out.append(f"    {g['group']:<24} {ci_pct(g)}  n={g['n']}{thin if g['thin'] else ''}")
    if f["skill"]:
        out.append("  " + w("report.skill"))
        for s in f["skill"]:
            out.append(f"    {s['bot']:<16} {ci_pct(s)}  {w('report.edge')} {pct(s['edge'])}  n={s['n']}")
    return out + skill_lines(f.get("skill_ladder"), w) + _card_lines(strongest_cards(f), w)


def _card_lines(strong: list[dict[str, Any]], w: Words = _EN) -> list[str]:
    """The cards that go most with winning or losing, one a line (none: no line)."""
    if not strong:
        return []
    out = ["  " + w("report.cards")]
    for r in strong:
        card = r["card"]
        low, high = r["ci"]
        mark = w("verdict.real") if r["real"] else w("verdict.noise")
        out.append(f"    {card['name']:<24} {r['what']:<7} {w('report.points', diff=100 * r['diff'])} "
                   f"[{100 * low:+.1f}, {100 * high:+.1f}] {mark}{w('report.thin') if card['thin'] else ''}")
    return out


def rung_line(r: dict[str, Any], w: Words = _EN) -> str:
    """One skill rung in a line: A's win rate against B, the fair share, the skill index."""
    if not r["n"]:
        return w("rung.none", a=r["a"], b=r["b"])
    low, high = r["index_ci"]
    mark = w("rung.better") if r["better"] else w("rung.worse") if r["worse"] else w("rung.same")
    return w("rung.line", a=r["a"], b=r["b"], rate=ci_pct(r), n=r["n"], fair=pct(r["fair"]), index=r["index"],
             low=low, high=high, verdict=mark) + (w("report.thin") if r["thin"] else "")


def skill_lines(ladder: dict[str, Any] | None, w: Words = _EN) -> list[str]:
    """The skill section as summary lines (none when it was not measured)."""
    if not ladder:
        return []
    matters = ladder["matters"]
    out = ["  " + w("skill.matters", verdict=matters["verdict"])
           + (w("skill.index", base=ladder["base"], index=matters["index"], low=matters["ci"][0],
                high=matters["ci"][1]) if matters["index"] is not None else "")]
    out += [f"    {rung_line(r, w)}" for r in ladder["rungs"]]
    return out


def compare_text(f: dict[str, Any], w: Words = _EN) -> str:
    """compare's figures as text: each difference, its interval, real or noise."""
    out = [w("compare.title", a=f["a"], b=f["b"], games=f["games"], players=w.n(f["players"], "player"))]
    out.append(f"  {w('compare.figure'):<30}{'A':>10}{'B':>10}{'B − A':>10}   {w('compare.interval'):<20}"
               f"{w('compare.verdict')}")
    for r in f["figures"]:
        rate = "rate" in r["figure"] or "share" in r["figure"] or "wins" in r["figure"]
        show = (lambda x: pct(x)) if rate else (lambda x: num(x))
        ci = w("compare.exactly") if r["ci"] and r["ci"][0] == r["ci"][1] else \
            (f"[{show(r['ci'][0])}, {show(r['ci'][1])}]" if r["ci"] else "—")
        verdict = w("verdict.sure") if r["sure"] else w("verdict.maybe") if r["real"] else w("verdict.noise")
        out.append(f"  {r['figure']:<30}{show(r['a']):>10}{show(r['b']):>10}{show(r['diff']):>10}   {ci:<20}"
                   f"{verdict}")
    out.append("  " + w("compare.real", figures=", ".join(f["real"]) or w("compare.none")))
    if f["maybe"]:
        out.append("  " + w("compare.maybe", n=len(f["figures"]), alarms=f["expected_false_alarms"],
                            figures=", ".join(f["maybe"])))
    out.append("  " + w("compare.same", same=f["identical_matches"], games=f["games"]))
    return "\n".join(out)


def _csv(rows: Iterable[dict[str, Any]], columns: list[str]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if row.get(c) is None else row.get(c) for c in columns])
    return buffer.getvalue().encode("utf-8")


def _rate_row(fig: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {**extra, "n": fig["n"], "k": fig["k"], "rate": fig["rate"], "low": fig["ci"][0], "high": fig["ci"][1]}


def _mean_row(fig: dict[str, Any], **extra: Any) -> dict[str, Any]:
    ci = fig["ci"] or [None, None]
    return {**extra, "n": fig["n"], "mean": fig["mean"], "low": ci[0], "high": ci[1], "sd": fig["sd"],
            **fig["quantiles"]}


RATE = ["n", "k", "rate", "low", "high"]
MEAN = ["n", "mean", "low", "high", "sd", "p5", "p25", "median", "p75", "p95"]


def csv_files(f: dict[str, Any]) -> dict[str, bytes]:
    """Every table of the report as CSV text, by file name."""
    rates = [_rate_row(s, figure=f"seat {s['seat']} win rate", bot=s["bot"]) for s in f["seats"]]
    rates.append(_rate_row(f["first_player"], figure="first player win rate"))
    rates.append(_rate_row(f["shared_wins"], figure="shared wins"))
    rates.append(_rate_row(f["capped"], figure="stopped by a safety cap"))
    rates.append(_rate_row(f["leader_at_half"], figure="leader at half-time wins"))
    rates += [_rate_row(s, figure=f"{s['bot']} win rate") for s in f["skill"]]
    means = [_mean_row(f["length"][k], figure=k) for k in ("turns", "rounds", "decisions")]
    means += [_mean_row(s, figure=f"seat {s['seat']} score") for s in f["scores"]]
    means.append(_mean_row(f["margin"], figure="margin of victory"))
    means.append(_mean_row(f["lead_changes"], figure="lead changes"))
    means += [_mean_row(v, figure=f"{k} at the end") for k, v in f["counters"].items()]
    means += [_mean_row(v, figure=f"{k} at the end (per seat)") for k, v in f["seat_counters"].items()]
    cards = []
    for card in f["cards"]:
        row: dict[str, Any] = {"id": card["id"], "name": card["name"], "kind": card["kind"], "thin": card["thin"]}
        for what in ("chosen", "at_end", "in_round"):
            fig = card[what]
            row[f"{what}_n"] = fig["n"]
            row[f"{what}_share"] = fig["share"]
            row[f"win_{what}"] = fig["win"]["rate"]
            row[f"win_not_{what}"] = fig["win_not"]["rate"]
            effect = fig["effect"]
            row[f"{what}_effect"] = effect["diff"]
            row[f"{what}_effect_low"] = effect["ci"][0] if effect["ci"] else None
            row[f"{what}_effect_high"] = effect["ci"][1] if effect["ci"] else None
        cards.append(row)
    card_columns = ["id", "name", "kind", "thin"] + [
        f"{c}" for what in ("chosen", "at_end", "in_round")
        for c in (f"{what}_n", f"{what}_share", f"win_{what}", f"win_not_{what}", f"{what}_effect",
                  f"{what}_effect_low", f"{what}_effect_high")]
    files = {
        "rates.csv": _csv(rates, ["figure", "bot", *RATE]),
        "means.csv": _csv(means, ["figure", *MEAN]),
        "groups.csv": _csv([_rate_row(g, group=g["group"]) for g in f["groups"]["rows"]], ["group", *RATE]),
        "leader.csv": _csv([_rate_row(r, round=r["round"]) for r in f["leader_wins"]], ["round", *RATE]),
        "cards.csv": _csv(cards, card_columns),
        "enough.csv": _csv(f["enough"]["figures"], ["figure", "unit", "n", "width", "needed"]),
    }
    if f.get("skill_ladder"):
        files["skill.csv"] = _csv([_rung_row(r) for r in f["skill_ladder"]["rungs"]], RUNG)
    return files


RUNG = ["a", "b", "n", "wins", "rate", "low", "high", "fair", "index", "index_low", "index_high", "score_margin",
        "score_margin_low", "score_margin_high", "needed"]


def _rung_row(r: dict[str, Any]) -> dict[str, Any]:
    margin = r["score_margin"]
    ci = margin["ci"] or [None, None]
    return {"a": r["a"], "b": r["b"], "n": r["n"], "wins": r["wins"], "rate": r["rate"], "low": r["ci"][0],
            "high": r["ci"][1], "fair": r["fair"], "index": r["index"], "index_low": r["index_ci"][0],
            "index_high": r["index_ci"][1], "score_margin": margin["mean"], "score_margin_low": ci[0],
            "score_margin_high": ci[1], "needed": r["needed"]}


def write_csv(folder: str, f: dict[str, Any]) -> None:
    """Write every table into `folder`, each file whole."""
    for name, data in csv_files(f).items():
        write_whole(Path(folder) / name, data)
