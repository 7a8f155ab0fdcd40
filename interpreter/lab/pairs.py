"""`meeple compare`'s figures: the same matches (seeds, bot generators) of two versions of a game, each figure's
difference B − A with a paired 95% interval, and a verdict of which differences are real.

A difference is `real` when its interval leaves out 0 and it stays significant with every figure tested together
(Holm's method, 5% in all); `maybe` when only its own interval leaves out 0 (with twenty figures, about one such
is chance alone); `noise` otherwise.

Pairing is what makes small changes visible: where the rules allow, both versions deal the same cards and the
bots draw the same numbers, so most of the chance cancels out of each match's difference.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ..game import Game
from . import stats
from .collect import Record, counter_names
from .figures import _lead_changes, _margin


def _per_match(game: Game, players: int) -> dict[str, Callable[[Record], float]]:
    """Each compared figure as a value of one match."""
    lowest = game.lowest_wins
    out: dict[str, Callable[[Record], float]] = {}
    for p in range(players):
        out[f"seat {p} win rate"] = partial(_won, p)
    out["first player win rate"] = lambda r: float(r["first"] in r["winners"])
    out["shared wins"] = lambda r: float(len(r["winners"]) > 1)
    for k in ("turns", "rounds", "decisions"):
        out[f"mean {k}"] = partial(_field, k)
    out["capped share"] = lambda r: float(r["capped"])
    for p in range(players):
        out[f"seat {p} mean score"] = partial(_score, p)
    out["mean margin of victory"] = lambda r: float(_margin(r, lowest))
    out["mean lead changes"] = lambda r: float(_lead_changes(r["leaders"]))
    return out


def _won(p: int, r: Record) -> float:
    return float(p in r["winners"])


def _field(k: str, r: Record) -> float:
    return float(r[k])


def _score(p: int, r: Record) -> float:
    return float(r["scores"][p])


def compare_figures(game_a: Game, game_b: Game, records_a: Sequence[Record], records_b: Sequence[Record],
                    players: int, bots: Sequence[str], seed: int) -> dict[str, Any]:
    """Every figure of both versions over the same matches, with the paired difference B − A."""
    assert [r["index"] for r in records_a] == [r["index"] for r in records_b]
    values = _per_match(game_a, players)
    names_a, _ = counter_names(game_a)
    names_b, _ = counter_names(game_b)
    rows = []
    for name, value in values.items():
        rows.append({"figure": name, **stats.paired([value(r) for r in records_a], [value(r) for r in records_b])})
    for name in [c for c in names_a if c in names_b]:
        ia, ib = names_a.index(name), names_b.index(name)
        rows.append({"figure": f"mean {name} at the end",
                     **stats.paired([float(r["counters"][ia]) for r in records_a],
                                    [float(r["counters"][ib]) for r in records_b])})
    for row, sure in zip(rows, stats.holm([r["p"] for r in rows]), strict=True):
        row["sure"] = sure and row["real"]
    same = sum(ra == rb for ra, rb in zip(_outcomes(records_a), _outcomes(records_b), strict=True))
    return {
        "game": game_a.name, "players": players, "bots": list(bots), "seed": seed, "games": len(records_a),
        "figures": rows,
        "real": [r["figure"] for r in rows if r["sure"]],
        "maybe": [r["figure"] for r in rows if r["real"] and not r["sure"]],
        "noise": [r["figure"] for r in rows if not r["real"]],
        "identical_matches": same,
        "expected_false_alarms": 0.05 * len(rows),
    }


def _outcomes(records: Sequence[Record]) -> list[tuple]:
    return [(tuple(r["scores"]), tuple(r["winners"]), r["decisions"]) for r in records]
