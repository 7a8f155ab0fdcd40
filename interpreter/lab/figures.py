"""The balance report's figures, from the records of many matches: each with its 95% interval and its sample size.

Rates have Wilson intervals, means t intervals; a difference of two rates (a card chosen or not) has the normal
interval of a difference. The unit of a per-seat or per-card rate is a seat in a match (P of them a match).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..game import Game
from . import stats
from .collect import Record, card_labels, counter_names

LEADER_ROUNDS = 40
"""Rounds for which "the leader at the end of round r goes on to win" is given (later rounds are rarer)."""


def rate(k: int, n: int) -> dict[str, Any]:
    """A rate with its Wilson interval and sample size."""
    low, high = stats.wilson(k, n)
    return {"k": k, "n": n, "rate": k / n if n else None, "ci": [low, high], "thin": n < stats.THIN}


def mean(xs: Sequence[float]) -> dict[str, Any]:
    """A mean with its t interval, spread, quartiles and sample size."""
    m, low, high = stats.mean_ci(xs)
    finite = math.isfinite(low) and math.isfinite(high)
    q = stats.quantiles(xs)
    return {"mean": m if xs else None, "ci": [low, high] if finite else None, "n": len(xs), "sd": stats.std(xs),
            "quantiles": dict(zip(("p5", "p25", "median", "p75", "p95"), q, strict=True)) if q else {}}


def difference(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """a − b of two independent rates, with the normal interval of a difference."""
    if not a["n"] or not b["n"]:
        return {"diff": None, "ci": None, "real": False}
    pa, pb = a["rate"], b["rate"]
    d = pa - pb
    se = math.sqrt(pa * (1 - pa) / a["n"] + pb * (1 - pb) / b["n"])
    low, high = d - stats.Z95 * se, d + stats.Z95 * se
    return {"diff": d, "ci": [low, high], "real": bool(se > 0 and (low > 0 or high < 0))}


def report_figures(game: Game, records: Sequence[Record], players: int, bots: Sequence[str], seed: int,
                   width: float = 0.04) -> dict[str, Any]:
    """Every figure of the report over `records` (`width`: the target width of a rate's interval, for the
    number of matches each figure needs)."""
    n = len(records)
    wins = [sum(p in r["winners"] for r in records) for p in range(players)]
    seats = [{"seat": p, "bot": bots[p] if not records or "bots" not in records[0] else "(rotating)",
              **rate(wins[p], n)} for p in range(players)]
    chi2, df, p_value = stats.equal_shares(wins)
    fair = 1 / players
    first_wins = sum(r["first"] in r["winners"] for r in records)
    first = rate(first_wins, n)
    first["fair"] = fair
    first["edge"] = first["rate"] - fair if n else None
    shared = rate(sum(len(r["winners"]) > 1 for r in records), n)
    figures: dict[str, Any] = {
        "game": game.name, "title": game.title, "players": players, "bots": list(bots), "seed": seed, "games": n,
        "wins": "lowest" if game.lowest_wins else "highest",
        "seats": seats,
        "equal_seats": {"chi2": chi2, "df": df, "p": p_value, "equal": p_value >= 0.05},
        "first_player": first,
        "shared_wins": shared,
        "length": {k: mean([r[k] for r in records]) for k in ("turns", "rounds", "decisions")},
        "length_counts": {k: sorted(Counter(r[k] for r in records).items()) for k in ("turns", "decisions")},
        "capped": rate(sum(r["capped"] for r in records), n),
        "scores": [{"seat": p, **mean([r["scores"][p] for r in records])} for p in range(players)],
        "margin": mean([_margin(r, game.lowest_wins) for r in records]),
        "lead_changes": mean([_lead_changes(r["leaders"]) for r in records]),
        "leader_wins": _leader_wins(records),
        "leader_at_half": rate(*_leader_at_half(records)),
    }
    figures["counters"], figures["seat_counters"], figures["per_round"] = _counters(game, records)
    figures["groups"] = _groups(game, records)
    figures["cards"], figures["kinds"] = _cards(game, records)
    figures["skill"] = _skill(records, bots) if any(b != "random" for b in bots) else []
    figures["enough"] = _enough(figures, width)
    return figures


def _margin(r: Record, lowest: bool) -> float:
    """How far the best score is ahead of the next (0 when shared)."""
    scores = sorted(r["scores"], reverse=not lowest)
    return abs(scores[0] - scores[1]) if len(scores) > 1 else 0


def _lead_changes(leaders: Sequence[int]) -> int:
    """Times the one seat ahead changed from round to round (a round with no one ahead changes nothing)."""
    changes, last = 0, -1
    for leader in leaders:
        if leader >= 0:
            changes += last >= 0 and leader != last
            last = leader
    return changes


def _leader_wins(records: Sequence[Record]) -> list[dict[str, Any]]:
    """For each round r: of the matches with one seat ahead at its end, how often that seat won."""
    out = []
    for k in range(LEADER_ROUNDS):
        led = [(r["leaders"][k], r["winners"]) for r in records if len(r["leaders"]) > k and r["leaders"][k] >= 0]
        if not led:
            break
        out.append({"round": k + 1, **rate(sum(seat in winners for seat, winners in led), len(led))})
    return out


def _leader_at_half(records: Sequence[Record]) -> tuple[int, int]:
    """Matches with one seat ahead halfway through (by rounds) and how many of them it won."""
    k = n = 0
    for r in records:
        leaders = r["leaders"]
        if leaders:
            seat = leaders[(len(leaders) - 1) // 2]
            if seat >= 0:
                n += 1
                k += seat in r["winners"]
    return k, n


def _counters(game: Game, records: Sequence[Record]) -> tuple[dict, dict, dict]:
    names, seat_names = counter_names(game)
    counters = {name: mean([r["counters"][i] for r in records]) for i, name in enumerate(names)}
    seat_counters = {name: mean([v for r in records for v in r["seat_counters"][i]])
                     for i, name in enumerate(seat_names)}
    rounds = sum(r["rounds"] for r in records)
    per_round = {}
    for i, name in enumerate(names):
        if name in game.report_per_round and rounds:
            total = sum(r["counters"][i] for r in records)
            per_round[name] = {"per_round": total / rounds, "rounds": rounds,
                               "per_match": counters[name]}
    return counters, seat_counters, per_round


def _groups(game: Game, records: Sequence[Record]) -> dict[str, Any]:
    """Win rate by the game's declared group (`report: by:`), per seat in a match."""
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for r in records:
        for p, group in enumerate(r["groups"]):
            played[group] += 1
            won[group] += p in r["winners"]
    return {"title": game.report_title if game.report_by else None,
            "rows": [{"group": g, **rate(won[g], played[g])} for g in sorted(played)]}


def _cards(game: Game, records: Sequence[Record]) -> tuple[list[dict], list[dict]]:
    """Per card definition (and per kind): how often a seat chose it, and its win rate when chosen, in the seat's
    own zones at the end, there at the end of any round — each against not."""
    labels = card_labels(game)
    kinds = sorted({kind for _, _, kind in labels if kind})
    kind_of = [kinds.index(kind) if kind else -1 for _, _, kind in labels]
    count = len(labels)
    seats = 0
    tallies = {what: ([0] * count, [0] * count) for what in ("chosen", "at_end", "in_round")}  # (seats, wins) with it
    kind_tallies = {what: ([0] * len(kinds), [0] * len(kinds)) for what in ("chosen", "at_end", "in_round")}
    seat_wins = 0
    for r in records:
        winners = r["winners"]
        for p in range(len(r["scores"])):
            seats += 1
            won = p in winners
            seat_wins += won
            for what, (with_, wins_with) in tallies.items():
                k_with, k_wins = kind_tallies[what]
                seen_kinds = set()
                for d in r[what][p]:
                    with_[d] += 1
                    wins_with[d] += won
                    if kind_of[d] >= 0:
                        seen_kinds.add(kind_of[d])
                for k in seen_kinds:
                    k_with[k] += 1
                    k_wins[k] += won

    def row(i: int, table: dict, base: dict[str, Any]) -> dict[str, Any]:
        out = dict(base)
        for what, (with_, wins_with) in table.items():
            yes = rate(wins_with[i], with_[i])
            no = rate(seat_wins - wins_with[i], seats - with_[i])
            out[what] = {"share": with_[i] / seats if seats else None, "n": with_[i], "win": yes, "win_not": no,
                         "effect": difference(yes, no)}
        out["thin"] = min(with_[i] for with_, _ in table.values() if with_[i]) < stats.THIN \
            if any(with_[i] for with_, _ in table.values()) else True
        return out

    cards = [row(i, tallies, {"id": cid, "name": name, "kind": kind}) for i, (cid, name, kind) in enumerate(labels)]
    by_kind = [row(i, kind_tallies, {"kind": kind}) for i, kind in enumerate(kinds)]
    return cards, by_kind


def _skill(records: Sequence[Record], bots: Sequence[str]) -> list[dict[str, Any]]:
    """Win rate of each bot over the seats it sat in (each match's own seating when the bots rotate), against
    its fair share (1/P)."""
    players = len(bots)
    out = []
    for name in dict.fromkeys(bots):
        won = sat = 0
        for r in records:
            seating = r.get("bots", bots)
            for p in range(players):
                if seating[p] == name:
                    sat += 1
                    won += p in r["winners"]
        figure = rate(won, sat)
        figure["edge"] = figure["rate"] - 1 / players if figure["n"] else None
        out.append({"bot": name, "fair": 1 / players, **figure})
    return out


def _enough(figures: dict[str, Any], width: float) -> dict[str, Any]:
    """How many matches each rate figure needs for an interval `width` wide, and the -n that gives them all."""
    needs = {f"seat {s['seat']} win rate": s for s in figures["seats"]}
    needs["first player win rate"] = figures["first_player"]
    needs["capped share"] = figures["capped"]
    rows = []
    for name, fig in needs.items():
        if fig["rate"] is None:
            continue
        rows.append({"figure": name, "unit": "rate", "n": fig["n"], "width": fig["ci"][1] - fig["ci"][0],
                     "needed": stats.n_for_rate_width(fig["rate"], width)})
    turns = figures["length"]["turns"]
    if turns["n"] > 1:
        rows.append({"figure": "mean turns (±0.5 turn)", "unit": "turns", "n": turns["n"],
                     "width": turns["ci"][1] - turns["ci"][0] if turns["ci"] else None,
                     "needed": stats.n_for_mean_width(turns["sd"], 1.0)})
    return {"target_width": width, "figures": rows, "suggested_n": max((r["needed"] for r in rows), default=0)}
