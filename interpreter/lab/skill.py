"""The report's skill section: does skill matter, and how much?

`--skill KIND:N` names a search bot with an iteration budget. Three rungs are played, each a bot A at one seat
against a bot B at every other seat, A seated one place further each match (so it sits in every seat equally
often and seat effects cancel out):

1. KIND:N against random — does playing well win at all?
2. KIND:2N against KIND:N — does twice the thinking still pay (the skill trace of Ludii's concepts)?
3. KIND:4N against KIND:2N — and twice again?

Each rung gives A's win rate (a win shared by k seats counts 1/k, so a bot no better than B wins 1/P) with its
Wilson interval, its edge over that fair share and the *skill index* (rate − 1/P) / (1 − 1/P): 0 for a bot no
better than B, 1 for one that wins every match, −1/(P−1) for one that never wins — one scale for any player count.
"Does skill matter" is the first rung's index: its interval above 0 says yes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from . import stats
from .collect import BotError, Record

RUNGS = 3


def ladder(base: str) -> list[tuple[str, str]]:
    """The rungs (A, B) of a skill ladder from `KIND:N`: KIND:N against random, KIND:2N against KIND:N, KIND:4N
    against KIND:2N. BotError for a name that is not a bot with an iteration budget."""
    from ..bots import BotNameError, check

    try:
        kind, budget = check(base)
    except BotNameError as err:
        raise BotError(f"--skill: {err}") from None
    if budget is None or budget.iterations is None:
        raise BotError(f"--skill {base}: name a search bot with a number of iterations, e.g. ismcts:16 (a time "
                       "budget would make the figures depend on the machine)")
    n = budget.iterations
    names = [f"{kind}:{n << k}" for k in range(RUNGS)]
    return [(names[0], "random"), *[(names[k], names[k - 1]) for k in range(1, RUNGS)]]


def seating(a: str, b: str, players: int) -> tuple[str, ...]:
    """A rung's bots by seat in its first match (the job rotates them: A is at seat i mod P in match i)."""
    return (a, *[b] * (players - 1))


def part(a: str, b: str) -> str:
    """The name a rung's records carry in the raw results file."""
    return f"{a} vs {b}"


def rung_figures(a: str, b: str, records: Sequence[Record], players: int, lowest_wins: bool,
                 width: float) -> dict[str, Any]:
    """A's win rate against B over a rung's records, its edge and skill index with intervals, and A's score against
    the mean of B's seats (per match, a t interval)."""
    n = len(records)
    fair = 1 / players
    won = 0.0
    margins = []
    for r in records:
        seat = r["bots"].index(a)
        winners = r["winners"]
        if seat in winners:
            won += 1 / len(winners)
        others = [s for p, s in enumerate(r["scores"]) if p != seat]
        margins.append(r["scores"][seat] - math.fsum(others) / len(others))
    low, high = stats.wilson(won, n)
    rate = won / n if n else None
    margin, m_low, m_high = stats.mean_ci(margins)
    finite = math.isfinite(m_low) and math.isfinite(m_high)
    return {
        "a": a, "b": b, "n": n, "wins": won, "rate": rate, "ci": [low, high], "fair": fair,
        "edge": None if rate is None else rate - fair, "edge_ci": [low - fair, high - fair],
        "index": None if rate is None else _index(rate, fair), "index_ci": [_index(low, fair), _index(high, fair)],
        "better": bool(n and low > fair), "worse": bool(n and high < fair), "thin": n < stats.THIN,
        "score_margin": {"mean": margin if n else None, "ci": [m_low, m_high] if finite else None,
                         "better_is": "lower" if lowest_wins else "higher"},
        "needed": stats.n_for_rate_width(rate if rate is not None else fair, width),
    }


def _index(rate: float, fair: float) -> float:
    return (rate - fair) / (1 - fair)


def skill_figures(base: str, parts: Sequence[tuple[str, str, Sequence[Record]]], players: int, lowest_wins: bool,
                  width: float) -> dict[str, Any]:
    """The skill section over each rung's records, and its answer: does skill matter, does more search pay."""
    rungs = [rung_figures(a, b, records, players, lowest_wins, width) for a, b, records in parts]
    first = rungs[0] if rungs else None
    if first is None or not first["n"]:
        verdict = "not measured"
    elif first["better"]:
        verdict = "yes"
    elif first["worse"]:
        verdict = "the search bot does worse than random"
    else:
        verdict = "no evidence"
    deeper = [r for r in rungs[1:] if r["n"]]
    return {
        "base": base, "rungs": rungs,
        "matters": {"index": first["index"] if first else None, "ci": first["index_ci"] if first else None,
                    "verdict": verdict},
        "more_search_pays": [r["better"] for r in deeper],
    }
