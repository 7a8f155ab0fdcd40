"""Stage 7, the turn structure: set-up, then rounds of phases (and a turn per player), until the end.

The flow keeps its place in a `Cursor` (which part, round, turn and phase comes next), so a match can
start again from any phase boundary: that is how a match is cloned and pickled (see `interpreter.run.match`).
A phase that asks a player is a generator; the flow is a generator of asks that the step API, `sim`
and any bot drive by sending answers.
"""

from __future__ import annotations

from typing import Any

from .runtime import GameOver, State

SETUP, ROUND, TURN, AFTER, OVER = range(5)


class Cursor:
    """A place in the flow: `phase` is the phase of `part` to run next, -1 while that part is still to be
    entered (entering a round resets its counters, entering a turn counts it and sets the active player)."""

    __slots__ = ("first", "part", "phase", "round", "seat")

    def __init__(self, part: int = SETUP, round: int = 0, first: int = 0, seat: int = 0, phase: int = -1) -> None:
        self.part = part
        self.round = round
        self.first = first  # the first player when this round's turns began (their order)
        self.seat = seat  # the index of the current turn in that order
        self.phase = phase

    def __reduce__(self):
        return Cursor, (self.part, self.round, self.first, self.seat, self.phase)


def run_flow(game, st: State, cur: Cursor, after_setup=None, mark=None):
    """Run the flow from `cur` (a fresh Cursor: from the start). Yields the asks of the phases and
    returns the winners declared by `end the game` ([] when it names none: the scores decide), or None
    when the rounds ran out.

    `mark(cursor)` is called just before each phase that asks starts, with a cursor at that phase and
    the state as the phase will find it: a point the match can start again from. (The place is kept in
    locals while the flow runs; a Cursor is made only for `mark`.)"""
    flow = game.flow
    round_counters, round_player_counters = game.resets["round"]
    turn_counters, turn_player_counters = game.resets["turn"]
    initial, player_initial = st.layout.game_counters, st.layout.player_counters  # at this player count
    turns = flow["turn"]
    part, rnd, first, seat, phase = cur.part, cur.round, cur.first, cur.seat, cur.phase
    try:
        if part == SETUP:
            if phase < 0:
                st.active, phase = st.first, 0
            phases = flow["setup"]
            for i in range(phase, len(phases)):
                fn, asks = phases[i]
                if asks:
                    if mark is not None:
                        mark(Cursor(SETUP, 0, 0, 0, i))
                    yield from fn(st)
                else:
                    fn(st)
            if after_setup is not None:
                after_setup(st)
            part, rnd, phase = ROUND, 1, -1
        if part in (ROUND, TURN):
            phases = flow["round"]
            while rnd <= game.rounds:
                if part == ROUND:
                    if phase < 0:
                        st.round = rnd
                        for k in round_counters:
                            st.gc[k] = initial[k]
                        for k in round_player_counters:
                            st.pc[k] = [player_initial[k]] * st.n
                        st.active, phase = st.first, 0
                    for i in range(phase, len(phases)):
                        fn, asks = phases[i]
                        if asks:
                            if mark is not None:
                                mark(Cursor(ROUND, rnd, 0, 0, i))
                            yield from fn(st)
                        else:
                            fn(st)
                    if turns:
                        part, first, seat, phase = TURN, st.first, 0, -1
                    elif st.log.__class__ is list:  # a kept log (not a watched match's quiet one)
                        st.log.append(snapshot(st))
                if part == TURN:
                    order = st.orders[first]
                    while seat < len(order):
                        if phase < 0:
                            st.active = order[seat]
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
                                    mark(Cursor(TURN, rnd, first, seat, i))
                                yield from fn(st)
                            else:
                                fn(st)
                        if st.log.__class__ is list:
                            st.log.append(snapshot(st))
                        seat, phase = seat + 1, -1
                part, rnd, phase = ROUND, rnd + 1, -1
            part, phase = AFTER, -1
        if part == AFTER:
            if phase < 0:
                st.active, phase = st.first, 0
            phases = flow["after_last_round"]
            for i in range(phase, len(phases)):
                fn, asks = phases[i]
                if asks:
                    if mark is not None:
                        mark(Cursor(AFTER, 0, 0, 0, i))
                    yield from fn(st)
                else:
                    fn(st)
    except GameOver as over:
        return over.winners if over.winners is not None else []  # ended by the rules, winners by score
    return None


def snapshot(st: State) -> dict[str, Any]:
    """The omniscient `state` log line: every zone's card ids by owner, face-down cards, counters."""
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
    return {"type": "state", "round": st.round, "turn": st.turn or None, "first": st.first,
            "zones": zones, "face_down": down, "counters": counters(st)}


def counters(st: State) -> dict[str, Any]:
    """Every counter by name: a game counter's value, a player counter's list of values by seat."""
    game, player = st.table_counters
    named: dict[str, Any] = {name: st.gc[i] for i, name in game}
    named.update({name: list(st.pc[i]) for i, name in player})
    return named


def finish(game, st: State, declared: list[int] | None) -> tuple[list[int], list[int]]:
    """Scores and winners: the winners the game declared, else (also when it named nobody) the best
    score with tie-breaks (ties share the win)."""
    scores = [game.score(st, p) if game.score else 0 for p in range(st.n)]
    named = sorted(p for p in set(declared or ()) if 0 <= p < st.n)
    if named:
        return scores, named
    keys = [(scores[p], *(tb(st, p) for tb in game.tiebreaks)) for p in range(st.n)]
    best = max(keys)
    return scores, [p for p in range(st.n) if keys[p] == best]
