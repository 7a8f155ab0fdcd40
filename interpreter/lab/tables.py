"""The figures as text (the report's and compare's summary on stdout) and as CSV files (`report --csv DIR`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..files import write_whole


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


def summary_text(f: dict[str, Any]) -> str:
    """The report in a few lines of text."""
    out = [f"{f['title']}: {f['games']} matches, {f['players']} players, bots {', '.join(dict.fromkeys(f['bots']))}, "
           f"seeds {f['seed']}–{f['seed'] + f['games'] - 1} ({f['wins']} score wins)"]
    out.append("  win rate by seat (95% interval):")
    for s in f["seats"]:
        out.append(f"    P{s['seat']} {s['bot']:<12} {ci_pct(s)}")
    eq = f["equal_seats"]
    verdict = "no evidence against equal seats" if eq["equal"] else "the seats are NOT equal"
    out.append(f"  all seats equal? chi-square {eq['chi2']:.2f}, df {eq['df']}, p = {eq['p']:.3g}: {verdict}")
    fp = f["first_player"]
    out.append(f"  first player wins {ci_pct(fp)} (fair share {pct(fp['fair'])})")
    out.append(f"  shared wins {ci_pct(f['shared_wins'])}; stopped by a safety cap {ci_pct(f['capped'])}")
    length = f["length"]
    out.append(f"  length: turns {ci_num(length['turns'])}, rounds {ci_num(length['rounds'])}, "
               f"decisions {ci_num(length['decisions'], 1)}")
    out.append("  mean score by seat: " + ", ".join(f"P{s['seat']} {ci_num(s)}" for s in f["scores"]))
    out.append(f"  margin of victory {ci_num(f['margin'])}; lead changes {ci_num(f['lead_changes'])}; "
               f"the leader at half-time wins {ci_pct(f['leader_at_half'])}")
    out += _detail_lines(f)
    e = f["enough"]
    widest = max((r["width"] for r in e["figures"] if r["unit"] == "rate"), default=0.0)
    out.append(f"  enough matches? the widest rate interval is {100 * widest:.1f} points; for "
               f"{100 * e['target_width']:.0f} points every figure needs -n {e['suggested_n']:,}")
    if "stopped" in f:
        out.append(f"  {f['stopped']}")
    out.append(f"  {f['games_per_s']:.3g} matches/s, {f['seconds']:.2f} s")
    return "\n".join(out)


def _detail_lines(f: dict[str, Any]) -> list[str]:
    """The report's figures past the seats, the lengths and the scores: per round, game counters, win rate by
    group, skill, the skill ladder and the cards that go most with winning or losing."""
    out: list[str] = []
    for name, fig in f["per_round"].items():
        out.append(f"  {name} per round: {pct(fig['per_round'])} ({fig['rounds']} rounds)")
    if f["counters"]:
        out.append("  game counters at the end: " + ", ".join(f"{k} {ci_num(v)}" for k, v in f["counters"].items()))
    if f["groups"]["rows"]:
        out.append(f"  win rate by {f['groups']['title']}:")
        for g in f["groups"]["rows"]:
            out.append(f"    {g['group']:<24} {ci_pct(g)}  n={g['n']}{'  (thin)' if g['thin'] else ''}")
    if f["skill"]:
        out.append("  skill (win rate by bot, against the fair share):")
        for s in f["skill"]:
            out.append(f"    {s['bot']:<16} {ci_pct(s)}  edge {pct(s['edge'])}  n={s['n']}")
    return out + skill_lines(f.get("skill_ladder")) + _card_lines(strongest_cards(f))


def _card_lines(strong: list[dict[str, Any]]) -> list[str]:
    """The cards that go most with winning or losing, one a line (none: no line)."""
    if not strong:
        return []
    out = ["  cards that go most with winning or losing "
           "(win rate when chosen, or in own zones at the end, minus when not):"]
    for r in strong:
        card = r["card"]
        low, high = r["ci"]
        mark = "real" if r["real"] else "noise"
        out.append(f"    {card['name']:<24} {r['what']:<7} {100 * r['diff']:+.1f} points "
                   f"[{100 * low:+.1f}, {100 * high:+.1f}] {mark}{'  (thin)' if card['thin'] else ''}")
    return out


def rung_line(r: dict[str, Any]) -> str:
    """One skill rung in a line: A's win rate against B, the fair share, the skill index."""
    if not r["n"]:
        return f"{r['a']} vs {r['b']}: no match finished"
    low, high = r["index_ci"]
    mark = "better" if r["better"] else "worse" if r["worse"] else "no evidence either way"
    return (f"{r['a']} vs {r['b']}: {ci_pct(r)} of {r['n']} matches (fair {pct(r['fair'])}), skill index "
            f"{r['index']:+.2f} [{low:+.2f}, {high:+.2f}]: {mark}{'  (thin)' if r['thin'] else ''}")


def skill_lines(ladder: dict[str, Any] | None) -> list[str]:
    """The skill section as summary lines (none when it was not measured)."""
    if not ladder:
        return []
    matters = ladder["matters"]
    out = [f"  does skill matter? {matters['verdict']}"
           + (f" (skill index of {ladder['base']} against random {matters['index']:+.2f} "
              f"[{matters['ci'][0]:+.2f}, {matters['ci'][1]:+.2f}]; 0: no better than random, 1: wins every match)"
              if matters["index"] is not None else "")]
    out += [f"    {rung_line(r)}" for r in ladder["rungs"]]
    return out


def compare_text(f: dict[str, Any]) -> str:
    """compare's figures as text: each difference, its interval, real or noise."""
    out = [f"{f['a']}  vs  {f['b']}: {f['games']} paired matches (the same seeds and bots), {f['players']} players"]
    out.append(f"  {'figure':<30}{'A':>10}{'B':>10}{'B − A':>10}   95% interval        verdict")
    for r in f["figures"]:
        rate = "rate" in r["figure"] or "share" in r["figure"] or "wins" in r["figure"]
        show = (lambda x: pct(x)) if rate else (lambda x: num(x))
        ci = "exactly" if r["ci"] and r["ci"][0] == r["ci"][1] else \
            (f"[{show(r['ci'][0])}, {show(r['ci'][1])}]" if r["ci"] else "—")
        verdict = "REAL" if r["sure"] else "maybe" if r["real"] else "noise"
        out.append(f"  {r['figure']:<30}{show(r['a']):>10}{show(r['b']):>10}{show(r['diff']):>10}   {ci:<20}"
                   f"{verdict}")
    out.append(f"  real differences: {', '.join(f['real']) or 'none'}")
    if f["maybe"]:
        out.append(f"  maybe (their own interval leaves out 0, but of {len(f['figures'])} figures about "
                   f"{f['expected_false_alarms']:.1f} would by chance alone): {', '.join(f['maybe'])}")
    out.append(f"  ({f['identical_matches']} of {f['games']} matches came out the same in both)")
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
