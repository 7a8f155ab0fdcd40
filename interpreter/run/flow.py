"""Stage 7, the turn structure: set-up, then deals of rounds of phases (and a turn per player still in),
until the end.

The flow keeps its place in a `Cursor` (which part, deal, round, turn and phase comes next), so a match
can start again from any phase boundary: that is how a match is cloned and pickled (see
`interpreter.run.match`). A phase that asks a player is a generator; the flow is a generator of asks that
the step API, `sim` and any bot drive by sending answers.
"""

from __future__ import annotations

import contextlib
from typing import Any

from .runtime import DealOver, GameOver, RuleError, State, back_in, out_of_steps

SETUP, DEAL, ROUND, TURN, AFTER_DEAL, AFTER, OVER = range(7)


class Cursor:
    """A place in the flow: `phase` is the phase of `part` to run next, -1 while that part is still to be
    entered (entering a deal or a round resets its counters, entering a turn counts it and sets the
    active player). `capped`: the current deal's rounds ran to their safety cap (`at_most`)."""

    __slots__ = ("capped", "deal", "first", "part", "phase", "round", "seat")

    def __init__(self, part: int = SETUP, round: int = 0, first: int = 0, seat: int = 0, phase: int = -1,
                 deal: int = 0, capped: bool = False) -> None:
        self.part = part
        self.round = round
        self.first = first  # the first player when this round's turns began (their order)
        self.seat = seat  # the index of the current turn in that order (every seat, knocked out or not)
        self.phase = phase
        self.deal = deal
        self.capped = capped

    def __reduce__(self):
        return Cursor, (self.part, self.round, self.first, self.seat, self.phase, self.deal, self.capped)


def run_flow(game, st: State, cur: Cursor, after_setup=None, mark=None, ended=None):
    """Run the flow from `cur` (a fresh Cursor: from the start). Yields the asks of the phases and
    returns `(winners, capped)`: the winners declared by `end the game` ([] when it names none: the scores
    decide) or None when the match ran its course; `capped`, whether a safety cap (`at_most` of rounds or
    deals) stopped it.

    `mark(cursor)` is called just before each phase that asks starts, with a cursor at that phase and
    the state as the phase will find it: a point the match can start again from. (The place is kept in
    locals while the flow runs; a Cursor is made only for `mark`.)

    `ended(st, part)` is called at the end of every turn (TURN) and of every round that runs its course
    (ROUND), where the state snapshot is written (the checks of `checks:`)."""
    flow = game.flow
    deal_counters, deal_player_counters = game.resets["deal"]
    round_counters, round_player_counters = game.resets["round"]
    turn_counters, turn_player_counters = game.resets["turn"]
    initial, player_initial = st.layout.game_counters, st.layout.player_counters  # at this player count
    turns, rounds, until = flow["turn"], game.rounds, game.rounds_until
    circle = st.layout.orders  # every seat in turn order: a knocked-out seat's turn is skipped when it comes
    knocks = game.knocks_out  # (a game that never knocks anyone out skips those tests)
    round_steps = 1 + (st.n if turns else 0)  # a round and its turns, charged as steps when it begins
    part, deal, rnd, first, seat, phase, capped = cur.part, cur.deal, cur.round, cur.first, cur.seat, cur.phase, \
        cur.capped
    try:
        if part == SETUP:
            if phase < 0:
                st.active, phase = st.first, 0
            phases = flow["setup"]
            try:
                yield from _phases(st, phases, phase, mark, lambda i: Cursor(SETUP, 0, 0, 0, i))
            except DealOver as over:
                raise _no_deal(over, "in set-up") from None
            if after_setup is not None:
                after_setup(st)
            part, deal, phase = DEAL, 1, -1
        while part < AFTER:
            try:
                if part == DEAL:
                    if phase < 0:
                        st.steps -= 1
                        if st.steps < 0:
                            out_of_steps(st, game.flow_at["deals"])
                        st.deal, st.round, capped = deal, 0, False
                        for k in deal_counters:
                            st.gc[k] = initial[k]
                        for k in deal_player_counters:
                            st.pc[k] = [player_initial[k]] * st.n
                        if st.out != st.gone:
                            back_in(st)
                        st.active, phase = st.first, 0
                    phases = flow["deal"]
                    for i in range(phase, len(phases)):
                        fn, asks = phases[i]
                        if asks:
                            if mark is not None:
                                mark(Cursor(DEAL, 0, 0, 0, i, deal))
                            yield from fn(st)
                        else:
                            fn(st)
                        if knocks and st.out and len(st.orders[0]) <= 1:
                            raise DealOver  # one player is left in: the deal ends with this phase
                    part, rnd, phase = ROUND, 1, -1
                if part in (ROUND, TURN):
                    phases = flow["round"]
                    while rnd <= rounds:
                        if part == ROUND:
                            if phase < 0:
                                if until is not None and until(st, st.first):
                                    break
                                st.steps -= round_steps
                                if st.steps < 0:
                                    out_of_steps(st, game.flow_at["rounds"])
                                st.round = rnd
                                st.rounds_played += 1
                                for k in round_counters:
                                    st.gc[k] = initial[k]
                                for k in round_player_counters:
                                    st.pc[k] = [player_initial[k]] * st.n
                                st.active, phase = st.first, 0
                            for i in range(phase, len(phases)):
                                fn, asks = phases[i]
                                if asks:
                                    if mark is not None:
                                        mark(Cursor(ROUND, rnd, 0, 0, i, deal))
                                    yield from fn(st)
                                else:
                                    fn(st)
                                if knocks and st.out and len(st.orders[0]) <= 1:
                                    raise DealOver
                            if turns:
                                part, first, seat, phase = TURN, st.first, 0, -1
                            elif st.log.__class__ is list:  # a kept log (not a watched match's quiet one)
                                st.log.append(snapshot(st, game.has_deals))
                        if part == TURN:
                            order = circle[first]
                            while seat < len(order):
                                if phase < 0:
                                    p = order[seat]
                                    if knocks and st.out >> p & 1:  # knocked out: no turn
                                        seat += 1
                                        continue
                                    st.active = p
                                    st.turn += 1
                                    for k in turn_counters:
                                        st.gc[k] = initial[k]
                                    for k in turn_player_counters:
                                        st.pc[k] = [player_initial[k]] * st.n
                                    phase = 0
                                for i in range(phase, len(turns)):
                                    fn, asks = turns[i]
                                    if asks:
                                        if mark is not None:
                                            mark(Cursor(TURN, rnd, first, seat, i, deal))
                                        yield from fn(st)
                                    else:
                                        fn(st)
                                    if knocks and st.out and len(st.orders[0]) <= 1:
                                        raise DealOver
                                if st.log.__class__ is list:
                                    st.log.append(snapshot(st, game.has_deals))
                                if ended is not None:
                                    ended(st, TURN)
                                seat, phase = seat + 1, -1
                                if until is not None and until(st, st.first):
                                    break
                            else:
                                if ended is not None:
                                    ended(st, ROUND)
                                part, rnd, phase = ROUND, rnd + 1, -1
                                continue
                            if ended is not None:
                                ended(st, ROUND)
                            break  # the rounds' condition holds after a turn
                        if ended is not None:
                            ended(st, ROUND)
                        part, rnd, phase = ROUND, rnd + 1, -1
                    else:
                        capped = game.rounds_capped  # the deal's rounds ran to their number, or to the cap
                    part, phase = AFTER_DEAL, -1
            except DealOver:  # `end the deal`, or a phase ended with one player left in
                part, phase = AFTER_DEAL, -1
            if phase < 0:
                st.active, phase = st.first, 0
            phases = flow["after_deal"]
            with contextlib.suppress(DealOver):  # the deal is over already: its other after-deal phases are skipped
                yield from _phases(st, phases, phase, mark,
                                   lambda i, d=deal, c=capped: Cursor(AFTER_DEAL, 0, 0, 0, i, d, c))
            if game.has_deals and st.log.__class__ is list:
                st.log.append(snapshot(st, True))  # the deal as it ends (scored)
            if st.gone and st.n - bin(st.gone).count("1") <= 1:
                part = AFTER  # one player (or none) is left in the match
            elif game.deals_until is not None and game.deals_until(st, st.first):
                part = AFTER
            elif deal >= game.deals:
                part, capped = AFTER, capped or game.deals_capped
            else:
                part, deal, phase = DEAL, deal + 1, -1
            if part == AFTER:
                phase = -1
        if part == AFTER:
            if phase < 0:
                st.active, phase = st.first, 0
            phases = flow["after_last_round"]
            try:
                yield from _phases(st, phases, phase, mark, lambda i, d=deal, c=capped: Cursor(AFTER, 0, 0, 0, i, d, c))
            except DealOver as over:
                raise _no_deal(over, "after the last round") from None
    except GameOver as over:
        return (over.winners if over.winners is not None else []), False  # ended by the rules
    return None, capped


def _no_deal(over: DealOver, where: str) -> RuleError:
    """A deal ending where no deal is played: a rule failure, placed at the statement that raised it."""
    return RuleError(f"`end the deal` {where}, where no deal is played: it belongs in the phases of a deal "
                     "(deal, round, turn, after_deal)").with_traceback(over.__traceback__)


def _phases(st: State, phases: list, start: int, mark, at):
    """Run `phases` from index `start` (the once-a-match and once-a-deal parts; the rounds and turns run
    theirs inline, being the hot path). `at(i)`: the cursor of phase i, for `mark`."""
    for i in range(start, len(phases)):
        fn, asks = phases[i]
        if asks:
            if mark is not None:
                mark(at(i))
            yield from fn(st)
        else:
            fn(st)


def snapshot(st: State, deals: bool = False) -> dict[str, Any]:
    """The omniscient `state` log line: every zone's card ids by owner, face-down cards, counters (and,
    in a game of deals, the deal; where players are knocked out, who)."""
    t = st.layout
    zones: dict[str, Any] = {}
    for zi, cards in enumerate(st.zones):
        name, _, seat = t.zone_names[zi].partition("@")
        ids = [t.card_ids[c] for c in cards]
        if seat:
            zones.setdefault(name, {})[seat] = ids
        else:
            zones[name] = ids
    down = [t.card_ids[c] for cards in st.zones for c in cards if not st.face[c]]
    line = {"type": "state", "round": st.round, "turn": st.turn or None, "first": st.first,
            "zones": zones, "face_down": down, "counters": counters(st)}
    if deals:
        line["deal"] = st.deal
    if st.out:
        line["out"] = [p for p in range(st.n) if st.out >> p & 1]
    return line


def counters(st: State) -> dict[str, Any]:
    """Every counter by name: a game counter's value, a player counter's list of values by seat."""
    game, player = st.table_counters
    named: dict[str, Any] = {name: st.gc[i] for i, name in game}
    named.update({name: list(st.pc[i]) for i, name in player})
    return named


def finish(game, st: State, declared: list[int] | None) -> tuple[list[int], list[int]]:
    """Scores and winners: the winners the game declared, else (also when it named nobody) the best
    score with tie-breaks, all in the direction of `result.wins` (ties share the win), among the players
    not knocked out of the match (unless `result.knocked_out: score`, or nobody is left)."""
    n, score, tiebreaks = st.n, game.score, game.tiebreaks
    scores = [score(st, p) for p in range(n)] if score else [0] * n
    if declared:
        named = sorted({p for p in declared if 0 <= p < n})
        if named:
            return scores, named
    if tiebreaks:
        keys: list = [(scores[p], *[tb(st, p) for tb in tiebreaks]) for p in range(n)]
        if game.lowest_wins:
            keys = [tuple(-v for v in key) for key in keys]
    else:
        keys = [-v for v in scores] if game.lowest_wins else scores
    if st.gone and not game.out_can_win:
        ranked = [p for p in range(n) if not st.gone >> p & 1] or list(range(n))  # all out together: all ranked
        best = max(keys[p] for p in ranked)
        return scores, [p for p in ranked if keys[p] == best]
    best = max(keys)
    return scores, [p for p in range(n) if keys[p] == best]
