"""A match played on to its end quietly, as fast as `sim`: the rollout of a search bot.

A `Match` pays at every decision for what a seat may later ask about (the record of who saw what,
labels, the history, copies at phase boundaries). A rollout needs none of it: `rollout(m, pick)`
rebuilds `m`'s running flow without log or watcher (`Match._quiet_flow`, the `sim` treatment) and
drives it with a bare bot loop to the end. `m` itself is left as it was, so a clone or a determinized
copy can be rolled out any number of times. A copy stepped into for one play-out only is played on in
place instead (`spend=True`): its own flow made quiet, nothing rebuilt, the copy used up.

A rollout may stop short of the end (`horizon`): at the first question asked once the match has gone past
the deal, or the round, of a point given (`Horizon.at`), scored there by the game's result as if the match
ended then (its score, in the direction of `result.wins`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .failures import RULE_FAILURES, rule_error
from .flow import finish
from .match import Match, RandomBot

HORIZONS = ("match", "deal", "round")  # how far a play-out goes: to the end, or of the deal or round under way


class Rollout(NamedTuple):
    """How a rollout ended."""

    scores: list[int]
    winners: list[int]
    decisions: int  # decisions made by the rollout (the match's own before it not counted)
    stopped: bool = False  # stopped at its horizon, before the match's end (scores and winners as of there)


class Horizon(NamedTuple):
    """Where a rollout stops: at the first question once a deal after `deal` has begun or (with `rounds` not
    None) more than `rounds` rounds of the match have begun."""

    deal: int
    rounds: int | None

    @staticmethod
    def at(m: Match, part: str) -> Horizon | None:
        """The horizon of `m` as it stands (`deal`: the end of the deal under way; `round`: of the round under
        way, or of the deal's phases before its first round; `match`: None, the match's end). Set-up counts
        as part of the first deal."""
        if part not in HORIZONS:
            raise ValueError(f"a horizon is one of {', '.join(HORIZONS)}, not {part!r}")
        if part == "match":
            return None
        st = m.st
        return Horizon(max(st.deal, 1), st.rounds_played if part == "round" else None)

    def passed(self, m: Match) -> bool:
        """Whether `m` has gone past this horizon (or is over)."""
        if m.over:
            return True
        st = m.st
        return st.deal > self.deal or (self.rounds is not None and st.rounds_played > self.rounds)


def rollout(m: Match, pick: Callable[[int], int] | RandomBot, spend: bool = False,
            horizon: Horizon | None = None, first: tuple[int, int] | None = None) -> Rollout:
    """Play `m` on to its end with `pick(n)` (an option in 0..n-1) answering every question, the seats
    of a simultaneous choice in the order they are asked (those that answered already keep their
    answers): the same match as answering through the step API, without anything a seat may read.
    `pick` is a callable or a `RandomBot` (whose draws are then written out in the loop, as `sim` does).
    `spend`: `m` is a copy of no further use, so its own running flow is played on, made quiet, rather
    than a quiet one rebuilt from its kept base; `m` is used up (nobody is asked in it afterwards).
    `horizon`: stop at the first question past it (at once, if `m` is past it already), scored as it stands.
    `first`: (place, option): of the answers `pick` would give to the pending question (the seats still to answer
    it, in the order asked), the one at `place` is `option` instead, drawn by no call of `pick`; the rest as above."""
    if m.failure is not None:
        raise m.failure
    if m.over:
        assert m.scores is not None and m.winners is not None
        return Rollout(list(m.scores), list(m.winners), 0)
    choose: Callable[[int], int] = pick.pick if isinstance(pick, RandomBot) else pick
    bot = getattr(choose, "__self__", None)
    bits = bot.getrandbits if getattr(choose, "__func__", None) is RandomBot.pick else None  # type: ignore[union-attr]
    st, flow, ask = m._spent_flow() if spend else m._quiet_flow()
    declared, stopped, made = _played(m, st, flow, ask, choose, bits, horizon, first)
    st.decisions = _decisions(m) + made
    try:
        scores, winners = finish(m.game, st, declared)
    except RULE_FAILURES as err:
        raise rule_error(m.game, err, m.seed, st.decisions) from err
    return Rollout(scores, winners, made, stopped)


def _played(m: Match, st, flow, ask, choose: Callable[[int], int], bits, horizon: Horizon | None,
            first: tuple[int, int] | None = None):
    """`rollout`'s loop: the questions of `flow` (at `ask`) answered by `choose` (by `bits` where it is a random
    bot's pick, written out; the pending one's answer at `first[0]` is `first[1]`) up to the end or `horizon`;
    the result the flow declared (None at the horizon), whether it stopped at the horizon, and how many answers
    it made."""
    send = flow.send
    answered = m._answers
    made = 0
    last_deal, last_rounds = (horizon.deal, horizon.rounds) if horizon is not None else (_NEVER, None)
    if last_rounds is None:
        last_rounds = _NEVER
    try:
        if first is not None and not (st.deal > last_deal or st.rounds_played > last_rounds):
            ask, made, answered = _first_answered(ask, answered, choose, first, send)
        while not (st.deal > last_deal or st.rounds_played > last_rounds):
            if ask[0] == -1:  # a simultaneous choice: every seat answers, in the order asked
                values = _answers_together(ask[1], answered, choose)
                made += len(values) - sum(a[0] in answered for a in ask[1])
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
        return stop.value[0], False, made
    except RULE_FAILURES as err:
        raise rule_error(m.game, err, m.seed, _decisions(m) + made) from err
    flow.close()  # at the horizon: the match scored as if it ended here
    return None, True, made



def _first_answered(ask, answered: dict, choose: Callable[[int], int], first: tuple[int, int], send):
    """The pending question answered, the answer at `first[0]` among those chosen being `first[1]`: the next
    question, the answers made and the answers still kept (none after a simultaneous question)."""
    place, option = first
    calls = 0

    def chosen(n: int) -> int:
        nonlocal calls
        calls += 1
        return option if calls == place + 1 else choose(n)

    if ask[0] == -1:
        values = _answers_together(ask[1], answered, chosen)
        return send(values), len(values) - sum(a[0] in answered for a in ask[1]), {}
    options = ask[1]
    return send(options[chosen(len(options))]), 1, answered


def _answers_together(asks, answered: dict, choose: Callable[[int], int]) -> list:
    """Each seat's answer to a simultaneous choice, in the order asked: those given already, the others chosen."""
    return [answered[a[0]] if a[0] in answered else a[1][choose(len(a[1]))] for a in asks]


_NEVER = 1 << 62  # a deal or a round count no match reaches


def _decisions(m: Match) -> int:
    """The decisions `m` made so far (a copy not yet rebuilt keeps the number aside)."""
    kept = m.__dict__.get("_decisions")
    return kept if kept is not None else m.st.decisions
