"""Stage 6, the state of one match (`State`): its zones, who knows which card, counters, whose turn, its chance hook
(`State.below`, every random draw), and the errors a match ends with (`RuleError`, `GameOver`, `DealOver`)."""

from __future__ import annotations

import copy
import random
from typing import Any

from ..lang.asks import K_BOOL, K_CARD, K_NUMBER, K_PLAYER, K_TEXT  # noqa: F401  (the kinds of an ask)
from ..limits import MAX_CHECK_STEPS, MAX_STEPS
from ..load.model import HIDDEN, OWNER, PUBLIC  # noqa: F401  (HIDDEN: for readers of a state)
from .events import Flipped, Rolled, SeatsChanged
from .random_bots import seeded

TOP, BOTTOM, RANDOM = 0, -1, -2


class DealOver(Exception):
    """Raised by `end the deal` (and by the flow when a phase ends with one player left in)."""


class GameOver(Exception):
    """Raised by `end the game`; carries the declared winners (or None to rank by score)."""

    def __init__(self, winners: list[int] | None = None) -> None:
        super().__init__()
        self.winners = winners


class RuleError(Exception):
    """Game content did something impossible at run time (an authoring bug found during play).

    Raised out of a match, its message starts with the DSL text's `file:line:col` and it knows the
    match's `seed` and how many `decisions` had been made (so the match can be replayed to that point)."""

    def __init__(self, message: str, seed: int | None = None, decisions: int | None = None) -> None:
        super().__init__(message)
        self.seed, self.decisions = seed, decisions

    def __reduce__(self):  # keeps seed and decisions across processes (sim's workers)
        return RuleError, (str(self), self.seed, self.decisions)


class ChecksTooLong(RuleError):
    """A match's invariants and checks ran past their own step budget (`MAX_CHECK_STEPS`)."""


DECISIONS, CHANCE_USED = 14, 15  # where a frozen state keeps its decisions and its count of chance outcomes


class State:
    """Everything that changes during one match."""

    __slots__ = (
        "active",
        "after",
        "before",
        "chance_used",
        "checking",
        "checks_left",
        "deal",
        "decisions",
        "depth",
        "face",
        "first",
        "gc",
        "gone",
        "known",
        "layout",
        "log",
        "n",
        "orders",
        "others",
        "out",
        "pc",
        "props",
        "rng",
        "round",
        "rounds_played",
        "steps",
        "steps_max",
        "table_counters",
        "turn",
        "watch",
        "zone_of",
        "zones",
    )

    def __init__(self, layout: Any, n: int, seed: int, log: list | None, max_steps: int = MAX_STEPS) -> None:
        self.layout = layout  # the numbered layout for this player count (model.Setup)
        self.n = n
        self.zones: list[list[int]] = list(map(list, layout.start_zones))
        self.zone_of: list[int] = [*layout.start_zone_of]  # (a list display: no call of `list`)
        self.face: list[bool] = [*layout.start_face]
        self.known: list[int] = [0] * len(self.face)  # kept only where it is read: in a logged or watched match
        self.gc: list[int] = [*layout.game_counters]
        self.pc: list[list[int]] = [[v] * n for v in layout.player_counters]  # a row of n of each one's initial value
        self.props = layout.props
        self.first = 0
        self.active = 0
        self.round = 0
        self.turn = 0
        self.deal = 0  # the deal being played (1-based; 0 during set-up)
        self.rounds_played = 0  # rounds begun in the whole match (`round` counts within the deal)
        self.out = 0  # bit mask of the seats knocked out (for the deal or the match)
        self.gone = 0  # …of those knocked out of the match (a subset of `out`)
        self.rng: Any = seeded(random.Random, seed)  # or an object with its `_randbelow` (chance drawn another way)
        self.log = log
        self.orders, self.others, self.after, self.before = layout.seats(0)
        self.decisions = 0
        self.table_counters: tuple = ((), ())
        self.chance_used = 0  # chance outcomes drawn so far (a snapshot copies the generator only when it moved)
        self.watch: Any = None  # a match's observer of who sees what (`information.Watcher`), or None
        self.steps = self.steps_max = max_steps  # steps left to the match's rules (see `out_of_steps`)
        self.checks_left = MAX_CHECK_STEPS  # steps left to the match's invariants and checks (`checked`)
        self.checking = False  # an invariant or check is being worked out (on its own budget)
        self.depth = 0  # nested calls now running (0 between phases)

    # ---- chance: the one hook
    def below(self, n: int) -> int:
        """A uniformly random int in [0, n): every chance outcome of the match comes from here."""
        if n > 1:
            self.chance_used += 1
            return self.rng._randbelow(n)  # randrange's own core: same stream, less work
        return 0

    # ---- copies: a match is a value
    def freeze(self, rng_state: tuple | None = None) -> tuple:
        """Everything that changes during a match, copied (for `thaw`): the basis of clone and pickle.
        `rng_state` may pass the chance generator's state if it is known not to have moved."""
        rng = self.rng
        if rng_state is None:
            rng_state = rng.getstate() if type(rng) is random.Random else _copy_chance(rng)
        return ([z[:] for z in self.zones], self.zone_of[:], self.face[:], self.known[:], self.gc[:],
                [v[:] for v in self.pc], self.first, self.active, self.round, self.turn, self.deal,
                self.rounds_played, self.out, self.gone, self.decisions, self.chance_used,
                (self.steps, self.steps_max, self.checks_left), rng_state)

    @classmethod
    def thaw(cls, layout: Any, n: int, frozen: tuple, log: list | None, table_counters: tuple) -> State:
        """A new state from a `freeze`d one (which stays untouched, so it can be thawed again)."""
        st = cls.__new__(cls)
        zones, zone_of, face, known, gc, pc, st.first, st.active, st.round, st.turn, st.deal, st.rounds_played, \
            st.out, st.gone, st.decisions, st.chance_used, (st.steps, st.steps_max, st.checks_left), rng_state = frozen
        st.zones = [z[:] for z in zones]
        st.zone_of, st.face, st.known, st.gc = zone_of[:], face[:], known[:], gc[:]
        st.pc = [v[:] for v in pc]
        st.layout, st.n, st.props = layout, n, layout.props
        st.orders, st.others, st.after, st.before = layout.seats(st.out)
        st.log, st.table_counters = log, table_counters
        st.watch = None
        st.depth = 0  # a state is frozen between phases, where no call is running
        st.checking = False
        if rng_state[0] == "object":
            st.rng = _copy_chance(rng_state[1])[1]
        else:
            st.rng = random.Random.__new__(random.Random)
            st.rng.setstate(rng_state)
        return st


    # ---- what the rules did, told to the watcher and the log (called only in a logged or watched match:
    # the caller checks `st.log is not None`, so a quiet match pays nothing)
    def flipped(self, c: int, up: bool) -> None:
        """Card `c` was turned face `up` or down where it lies."""
        if self.watch is not None:
            self.watch.flipped(self, c)
        if self.log.__class__ is list:
            self.log.append(Flipped.log(self.layout, c, up))

    def rolled(self, sides: int, result: int) -> None:
        """A die of `sides` sides was rolled: `result`."""
        if self.watch is not None:
            self.watch.rolled(self, sides, result)
        if self.log.__class__ is list:
            self.log.append(Rolled.log(sides, result))

    def seats_changed(self, what: str, fields: tuple) -> None:
        """Who is in changed: `what` is `knock_out` (fields: player, until) or `back_in` (players); `fields`
        as (name, value) pairs sorted by name (see `events.SeatsChanged`)."""
        if self.watch is not None:
            self.watch.seats_changed(self, what, fields)
        if self.log.__class__ is list:
            self.log.append(SeatsChanged.log(what, fields))


class Quiet(list):
    """The log of a match that is watched but not logged: the rules' hooks run (who sees what is kept
    up to date), nothing is stored."""

    __slots__ = ()

    def append(self, line: Any) -> None:
        pass


def _copy_chance(rng: Any) -> tuple[str, Any]:
    """A copy of a chance generator other than a plain `random.Random` (a test's scripted one)."""
    if isinstance(rng, random.Random):
        other = type(rng).__new__(type(rng))
        other.setstate(rng.getstate())
        other.__dict__.update(copy.deepcopy(vars(rng)))
        return "object", other
    return "object", copy.deepcopy(rng)
