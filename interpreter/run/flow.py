"""Stage 7, the turn structure: set-up, then deals of rounds of phases (and a turn per player still in),
until the end.

The flow keeps its place in a `Cursor` (which part, deal, round, turn and phase comes next), so a match
can start again from any phase boundary: that is how a match is cloned and pickled (see
`interpreter.run.match`). A phase that asks a player is a generator; the flow is a generator of asks that
the step API, `sim` and any bot drive by sending answers.
"""

from __future__ import annotations

from collections.abc import Callable
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


def run_flow(game, st: State, cur: Cursor, after_setup=None, mark=None, ended=None, reading=None):
    """Run the flow from `cur` (a fresh Cursor: from the start). Yields the asks of the phases and
    returns `(winners, capped)`: the winners declared by `end the game` ([] when it names none: the scores
    decide) or None when the match ran its course; `capped`, whether a safety cap (`at_most` of rounds or
    deals) stopped it.

    `mark(cursor)` is called just before each phase that asks starts, with a cursor at that phase and
    the state as the phase will find it: a point the match can start again from. (The place is kept in
    a `_Walk` while the flow runs; a Cursor is made only for `mark`.)

    `ended(st, part)` is called at the end of every turn (TURN) and of every round that runs its course
    (ROUND), where the state snapshot is written (the checks of `checks:`).

    `reading()`, given with `mark`, is called just before each phase that may read a card's face
    (`game.face_readers`): what a determinization asks of the match (see `free_worlds`).

    This loop runs the phases of one part after another (a deal's, a round's, a turn's…) and is the only
    generator between the driver and a phase; where the flow goes next is `_Walk`'s to say."""
    walk = _Walk(game, st, cur, after_setup, ended)
    phases: list | None = walk.start()
    try:
        while phases is not None:
            try:
                if mark is None:  # (the hot path: no marks)
                    knocks = walk.knocks
                    for fn in (phases if not walk.phase else phases[walk.phase:]):
                        if (asks := fn(st)) is not None:  # a phase that asks is a generator (one that does not: None)
                            yield from asks
                        if knocks and st.out and len(st.orders[0]) <= 1:
                            raise DealOver  # one player is left in: the deal ends with this phase
                else:
                    yield from _run_marked(walk, phases, mark, reading)
                phases = walk.then(walk)
            except DealOver as over:  # `end the deal`, or a phase ended with one player left in
                phases = walk.deal_over(over)
    except GameOver as over:
        return (over.winners if over.winners is not None else []), False  # ended by the rules
    return None, walk.capped


def _run_marked(walk: _Walk, phases: list, mark, reading) -> Any:
    """Run the phases of the part under way from `walk.phase`, with `mark` before each phase that asks, `reading`
    before each that may read a card's face, and (where players are knocked out) the deal ended by a phase that
    leaves one player in."""
    st, knocks = walk.st, walk.knocks
    readers = walk.game.face_readers if reading is not None else ()
    for i in range(walk.phase, len(phases)):
        fn = phases[i]
        if fn in readers:
            reading()
        if fn in walk.asking:
            mark(walk.cursor(i))
            yield from fn(st)
        else:
            fn(st)
        if knocks and _one_left(st):
            raise DealOver  # one player is left in: the deal ends with this phase


def _one_left(st: State) -> bool:
    """Whether players are knocked out and one (or none) is left in."""
    return st.out != 0 and len(st.orders[0]) <= 1


class _Walk:
    """Where the flow is and where it goes next: each method that begins a part (set-up, a deal, a round,
    a turn, the after-deal and after-last-round phases) does what entering it does (counters reset, steps
    charged, the active player set), returns that part's phases, to run from `phase`, and sets `then`: what
    gives the phases to run once they ran to their end (None: the flow is over). (A part resumed from a
    Cursor is not entered again.)"""

    then: Callable[[_Walk], list | None]

    __slots__ = (
        "after_setup",
        "asking",
        "capped",
        "circle",
        "deal",
        "deal_resets",
        "ended",
        "first",
        "flow",
        "game",
        "knocks",
        "knocks_out",
        "part",
        "phase",
        "rnd",
        "round_phases",
        "round_resets",
        "round_steps",
        "rounds",
        "seat",
        "st",
        "then",
        "turn_resets",
        "turns",
        "turns_only",
        "until",
    )

    def __init__(self, game, st: State, cur: Cursor, after_setup, ended) -> None:
        self.game, self.st, self.after_setup, self.ended = game, st, after_setup, ended
        self.flow, self.asking = _phases(game)
        self.turns, self.round_phases = self.flow["turn"], self.flow["round"]
        self.turns_only = not self.round_phases and bool(self.turns)  # a round begins with its first turn
        self.rounds, self.until = game.rounds, game.rounds_until
        self.circle = st.layout.orders  # every seat in turn order: a knocked-out seat's turn is skipped when it comes
        self.round_steps = 1 + (st.n if self.turns else 0)  # a round and its turns, charged as steps when it begins
        self.deal_resets, self.round_resets, self.turn_resets = _part_resets(game, st.layout)
        self.part, self.deal, self.rnd, self.first, self.seat, self.phase, self.capped = \
            cur.part, cur.deal, cur.round, cur.first, cur.seat, cur.phase, cur.capped
        self.knocks_out = game.knocks_out  # (a game that never knocks anyone out skips those tests)
        self.knocks = False  # whether the part under way ends the deal when one player is left in

    def cursor(self, i: int) -> Cursor:
        """The place of phase `i` of the part under way, for `mark`."""
        part = self.part
        if part == TURN:
            return Cursor(TURN, self.rnd, self.first, self.seat, i, self.deal)
        if part == ROUND:
            return Cursor(ROUND, self.rnd, 0, 0, i, self.deal)
        if part == DEAL:
            return Cursor(DEAL, 0, 0, 0, i, self.deal)
        if part == SETUP:
            return Cursor(SETUP, 0, 0, 0, i)
        return Cursor(part, 0, 0, 0, i, self.deal, self.capped)

    # ---- the parts, begun
    def start(self) -> list:
        """The phases to run first: those of the cursor's part, entered unless the cursor is inside it."""
        part = self.part
        self.knocks = DEAL <= part <= TURN and self.knocks_out
        if self.phase < 0:
            return _BEGIN[part](self)
        self.then = _THEN[part]
        return self.flow[_PHASES[part]]

    def setup(self) -> list:
        self.part, self.phase, self.knocks, self.then = SETUP, 0, False, _Walk.setup_done
        self.st.active = self.st.first
        return self.flow["setup"]

    def begin_deal(self) -> list:
        st = self.st
        self.part, self.phase, self.knocks, self.then = DEAL, 0, self.knocks_out, _Walk.deal_phases_done
        st.steps -= 1
        if st.steps < 0:
            out_of_steps(st, self.game.flow_at["deals"])
        st.deal, st.round, self.capped = self.deal, 0, False
        if self.deal_resets is not None:
            _reset(st, self.deal_resets)
        if st.out != st.gone:
            back_in(st)
        st.active = st.first
        return self.flow["deal"]

    def begin_round(self) -> list:
        """The round part entered: `next_round`'s answer."""
        self.part, self.knocks, self.then = ROUND, self.knocks_out, _round_done
        return self.next_round()

    def next_round(self) -> list:
        """In the round part, the next round's phases (its first turn's, if it has none of its own), or (its
        number past the rounds', or the rounds' condition holding) the after-deal phases."""
        st, rnd = self.st, self.rnd
        if rnd > self.rounds:
            self.capped = self.game.rounds_capped  # the deal's rounds ran to their number, or to the cap
            return self.after_deal()
        if self.until is not None and self.until(st, st.first):
            return self.after_deal()
        st.steps -= self.round_steps
        if st.steps < 0:
            out_of_steps(st, self.game.flow_at["rounds"])
        st.round = rnd
        st.rounds_played += 1
        resets = self.round_resets  # (written out: a round is the hot path)
        if resets is not None:
            gc, pc = st.gc, st.pc
            for k, v in resets[0]:
                gc[k] = v
            for k, row in resets[1]:
                pc[k] = [*row]
        st.active = st.first
        self.phase = 0
        if self.turns_only:  # straight to the round's turns
            self.first, self.seat = st.first, 0
            return self.begin_turn()
        return self.round_phases

    def begin_turn(self) -> list:
        """The next turn's phases (a knocked-out seat has none), or the next round's once every seat had its turn."""
        st = self.st
        order = self.circle[self.first]
        seat = self.seat
        if self.knocks:
            while seat < len(order) and st.out >> order[seat] & 1:  # knocked out: no turn
                seat += 1
            self.seat = seat
        if seat >= len(order):
            return self.round_over()
        self.part, self.phase, self.knocks, self.then = TURN, 0, self.knocks_out, _turn_done
        st.active = order[seat]
        st.turn += 1
        if self.turn_resets is not None:
            _reset(st, self.turn_resets)
        return self.turns

    def round_over(self) -> list:
        """Every seat had its turn: the round's end, and the next round."""
        if self.ended is not None:
            self.ended(self.st, ROUND)
        self.rnd += 1
        self.part, self.knocks, self.then = ROUND, self.knocks_out, _round_done
        return self.next_round()

    def after_deal(self) -> list:
        self.part, self.phase, self.knocks, self.then = AFTER_DEAL, 0, False, _Walk.deal_done
        self.st.active = self.st.first
        return self.flow["after_deal"]

    def after(self) -> list:
        self.part, self.phase, self.knocks, self.then = AFTER, 0, False, _Walk.over
        self.st.active = self.st.first
        return self.flow["after_last_round"]

    # ---- a part's phases ran to their end: the phases to run next
    def setup_done(self) -> list:
        if self.after_setup is not None:
            self.after_setup(self.st)
        self.deal = 1
        return self.begin_deal()

    def deal_phases_done(self) -> list:
        self.rnd = 1
        return self.begin_round()

    def round_done(self) -> list:
        st = self.st
        if self.turns:
            self.first, self.seat = st.first, 0
            return self.begin_turn()
        if st.log.__class__ is list:  # a kept log (not a watched match's quiet one)
            st.log.append(snapshot(st, self.game.has_deals))
        if self.ended is not None:
            self.ended(st, ROUND)
        self.rnd += 1
        return self.next_round()  # (the part is the round's already)

    def turn_done(self) -> list:
        """After a turn: the next seat's turn (entered here as `begin_turn` enters it: a turn is the hot path),
        else (a seat to skip, or the round's last turn played) `begin_turn`'s or `round_over`'s answer, or the
        after-deal phases once the rounds' condition holds."""
        st = self.st
        if st.log.__class__ is list:
            st.log.append(snapshot(st, self.game.has_deals))
        if self.ended is not None:
            self.ended(st, TURN)
        self.seat += 1
        if self.until is not None and self.until(st, st.first):
            if self.ended is not None:
                self.ended(st, ROUND)
            return self.after_deal()  # the rounds' condition holds after a turn
        seat, order = self.seat, self.circle[self.first]
        if self.knocks:
            return self.begin_turn()  # a seat knocked out is skipped there
        if seat >= len(order):
            return self.round_over()
        self.phase = 0
        st.active = order[seat]
        st.turn += 1
        if self.turn_resets is not None:
            _reset(st, self.turn_resets)
        return self.turns

    def deal_done(self) -> list:
        """After a deal's after-deal phases: the next deal's phases, or the after-last-round phases."""
        st, game = self.st, self.game
        if game.has_deals and st.log.__class__ is list:
            st.log.append(snapshot(st, True))  # the deal as it ends (scored)
        if st.gone and st.n - bin(st.gone).count("1") <= 1:
            return self.after()  # one player (or none) is left in the match
        if game.deals_until is not None and game.deals_until(st, st.first):
            return self.after()
        if self.deal >= game.deals:
            self.capped = self.capped or game.deals_capped
            return self.after()
        self.deal += 1
        return self.begin_deal()

    def over(self) -> None:
        return None

    def deal_over(self, over: DealOver) -> list | None:
        """The phases to run once `end the deal` (or a knock-out) stopped the part under way."""
        part = self.part
        if part == SETUP:
            raise _no_deal(over, "in set-up") from None
        if part == AFTER:
            raise _no_deal(over, "after the last round") from None
        if part == AFTER_DEAL:
            return self.deal_done()  # the deal is over already: its other after-deal phases are skipped
        return self.after_deal()


_round_done, _turn_done = _Walk.round_done, _Walk.turn_done  # (read as globals on the hot path)
_BEGIN = {SETUP: _Walk.setup, DEAL: _Walk.begin_deal, ROUND: _Walk.begin_round, TURN: _Walk.begin_turn,
          AFTER_DEAL: _Walk.after_deal, AFTER: _Walk.after}
_THEN = {SETUP: _Walk.setup_done, DEAL: _Walk.deal_phases_done, ROUND: _Walk.round_done, TURN: _Walk.turn_done,
         AFTER_DEAL: _Walk.deal_done, AFTER: _Walk.over}
_PHASES = {SETUP: "setup", DEAL: "deal", ROUND: "round", TURN: "turn", AFTER_DEAL: "after_deal",
           AFTER: "after_last_round"}


def _phases(game) -> tuple[dict[str, list], frozenset]:
    """The phase functions of each part of the game's flow (`game.flow`'s, without whether each asks) and the
    set of those that ask, worked out once for the game's flow. A phase that asks is a generator function: the
    flow's hot loop runs what its call gives where that is not None, and needs no other test."""
    found = _PHASE_FUNCTIONS.get(id(game.flow))
    if found is not None and found[0] is game.flow:
        return found[1], found[2]
    plain = {part: [fn for fn, _ in phases] for part, phases in game.flow.items()}
    asking = frozenset(fn for phases in game.flow.values() for fn, asks in phases if asks)
    _PHASE_FUNCTIONS[id(game.flow)] = (game.flow, plain, asking)
    return plain, asking


_PHASE_FUNCTIONS: dict[int, tuple[Any, dict[str, list], frozenset]] = {}
"""`_phases`'s by the id of the game's flow: that flow, its parts' phase functions and those that ask."""


Resets = tuple[tuple[tuple[int, Any], ...], tuple[tuple[int, list[Any]], ...]]


def _part_resets(game, layout: Any) -> tuple[Resets | None, Resets | None, Resets | None]:
    """What a deal, a round and a turn reset as each begins (see `_resets`), for the game's layout at a player
    count: worked out for its first match and kept (the layout and the game's resets kept with them, so that an
    entry is never taken for another's)."""
    found = _RESETS.get(id(layout))
    resets = game.resets  # the counters a deal, a round, a turn resets as it begins (by index)
    if found is not None and found[0] is layout and found[1] is resets:
        return found[2]
    parts = (_resets(layout, resets["deal"]), _resets(layout, resets["round"]), _resets(layout, resets["turn"]))
    _RESETS[id(layout)] = (layout, resets, parts)
    return parts


_RESETS: dict[int, tuple[Any, Any, tuple[Resets | None, Resets | None, Resets | None]]] = {}
"""`_part_resets`'s by the layout's id: the layout, the game's resets and what each part resets."""


def _resets(layout: Any, which: tuple[list[int], list[int]]) -> Resets | None:
    """What a part resets as it begins, ready to set (None: nothing): each game counter's index and its initial
    value at the layout's player count, each player counter's index and a row of its initial value for every seat
    (copied at each reset). (Plain loops set them: `any(map(gc.__setitem__, …))` makes three iterators a reset,
    each of which costs more than the loop.)"""
    counters, player_counters = which
    if not counters and not player_counters:
        return None
    initial, player_initial, n = layout.game_counters, layout.player_counters, layout.n
    return (tuple((k, initial[k]) for k in counters), tuple((k, [player_initial[k]] * n) for k in player_counters))


def _reset(st: State, resets: Resets) -> None:
    """Counters back to their initial values (those a deal or a turn resets as it begins; see `_resets`)."""
    gc, pc = st.gc, st.pc
    for k, v in resets[0]:
        gc[k] = v
    for k, row in resets[1]:
        pc[k] = [*row]


def _no_deal(over: DealOver, where: str) -> RuleError:
    """A deal ending where no deal is played: a rule failure, placed at the statement that raised it."""
    return RuleError(f"`end the deal` {where}, where no deal is played: it belongs in the phases of a deal "
                     "(deal, round, turn, after_deal)").with_traceback(over.__traceback__)


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
    # (comprehensions: a Python function called by map from C enters the interpreter afresh, each call costing
    # some 600 machine instructions more than a call from Python code; bytecode counts do not show it)
    scores = [score(st, p) for p in range(n)] if score else [0] * n
    if declared:
        named = sorted({p for p in declared if 0 <= p < n})
        if named:
            return scores, named
    if tiebreaks:
        if len(tiebreaks) == 1:
            tiebreak = tiebreaks[0]
            keys: list = [(scores[p], tiebreak(st, p)) for p in range(n)]
        else:
            keys = [(scores[p], *[tb(st, p) for tb in tiebreaks]) for p in range(n)]
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
