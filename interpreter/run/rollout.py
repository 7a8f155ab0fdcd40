"""A match played on to its end quietly, as fast as `sim`: the rollout of a search bot.

A `Match` pays at every decision for what a seat may later ask about (the record of who saw what,
labels, the history, copies at phase boundaries). A rollout needs none of it: `rollout(m, pick)`
rebuilds `m`'s running flow without log or watcher (`Match._quiet_flow`, the `sim` treatment) and
drives it with a bare bot loop to the end. `m` itself is left as it was, so a clone or a determinized
copy can be rolled out any number of times. A copy stepped into for one play-out only is played on in
place instead (`spend=True`): its own flow made quiet, nothing rebuilt, the copy used up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .failures import RULE_FAILURES, rule_error
from .flow import finish
from .match import Match, RandomBot


class Rollout(NamedTuple):
    """How a rollout ended."""

    scores: list[int]
    winners: list[int]
    decisions: int  # decisions made by the rollout (the match's own before it not counted)


def rollout(m: Match, pick: Callable[[int], int] | RandomBot, spend: bool = False) -> Rollout:
    """Play `m` on to its end with `pick(n)` (an option in 0..n-1) answering every question, the seats
    of a simultaneous choice in the order they are asked (those that answered already keep their
    answers): the same match as answering through the step API, without anything a seat may read.
    `pick` is a callable or a `RandomBot` (whose draws are then written out in the loop, as `sim` does).
    `spend`: `m` is a copy of no further use, so its own running flow is played on, made quiet, rather
    than a quiet one rebuilt from its kept base; `m` is used up (nobody is asked in it afterwards)."""
    if m.failure is not None:
        raise m.failure
    if m.over:
        assert m.scores is not None and m.winners is not None
        return Rollout(list(m.scores), list(m.winners), 0)
    choose: Callable[[int], int] = pick.pick if isinstance(pick, RandomBot) else pick
    bot = getattr(choose, "__self__", None)
    bits = bot.getrandbits if getattr(choose, "__func__", None) is RandomBot.pick else None  # type: ignore[union-attr]
    st, flow, ask = m._spent_flow() if spend else m._quiet_flow()
    send = flow.send
    answered = m._answers
    made = 0
    try:
        while True:
            if ask[0] == -1:  # a simultaneous choice: every seat answers, in the order asked
                values = []
                for a in ask[1]:
                    if a[0] in answered:
                        values.append(answered[a[0]])
                    else:
                        values.append(a[1][choose(len(a[1]))])
                        made += 1
                answered = {}
                ask = send(values)
            else:
                options = ask[1]
                made += 1
                n = len(options)
                if bits is None:
                    r = choose(n)
                else:  # RandomBot.pick: no draw with one option, else getrandbits(k) until below n
                    r = 0
                    if n > 1:
                        k = n.bit_length()
                        r = bits(k)
                        while r >= n:
                            r = bits(k)
                ask = send(options[r])
    except StopIteration as stop:
        declared = stop.value[0]
    except RULE_FAILURES as err:
        raise rule_error(m.game, err, m.seed, _decisions(m) + made) from err
    st.decisions = _decisions(m) + made
    try:
        scores, winners = finish(m.game, st, declared)
    except RULE_FAILURES as err:
        raise rule_error(m.game, err, m.seed, st.decisions) from err
    return Rollout(scores, winners, made)


def _decisions(m: Match) -> int:
    """The decisions `m` made so far (a copy not yet rebuilt keeps the number aside)."""
    kept = m.__dict__.get("_decisions")
    return kept if kept is not None else m.st.decisions
