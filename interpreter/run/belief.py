"""Stage 7, what a seat may believe: a determinization is another legal match, with a history of its own,
that the seat cannot tell from the real one.

`determinize(match, seat, rng)` draws such a world in three steps:

1. **Where the seat loses track** (`_trace`). Walking the match's recorded events, every card's life is
   cut into *paths* at the points where the seat can no longer tell it from others: a shuffle (the cards
   of the zone, each back apart) and a player's unseen choice of a card that leaves their hand (any card
   of the hand could have gone). Such a point is a *mix*: the world may send the mixed cards down any of
   the mixed paths (a choice keeps the order of the cards that stay, as a hand does; it mixes the cards of
   the hand with the back of the one that left; a card an answer named that leaves the hand only at a later
   turn leaves by what the rules do then, not by that choice, and is no mix). A path the seat
   sees (a move, flip or glimpse it sees, its own options and answers, what it sees now) must carry a
   card of the same face, and so must every path from the set-up, which is every match's. A look at
   several cards of another player's hand shows which faces lie there, not which card lies where: its
   paths carry those faces in some order (drawn at random for each world), so a later move of a card by
   its place in that hand, unseen, may have taken any of them.
2. **Which card goes down each path** (`_assign`): back from the last mix to the first, each mix is
   asked for the faces its paths need later, and passes the needs it cannot meet on to free paths that
   reach it (chosen at random among those that could bring the face); then forward, each mix hands out
   its cards: the needed faces where they are needed, the rest at random (a shuffle), or the card of a
   hand drawn uniformly among those that fit (a choice). The random choices go to a shuffle's paths in an
   order that hangs on what the seat saw, not on which real card went where (`_by_role`): two matches the
   seat cannot tell apart, given one generator, draw one world.
3. **The world played** (`_Replay`): a new match from the start whose shuffles deal the orders drawn;
   a roll, and any outcome after an answer whose moves the seat all saw, comes out as the real one did; every
   other outcome (a random card, player or place) is drawn anew by its real probabilities (see `_Source`);
   each answer is given again, a card by the card its path carries, and another seat's secret answer,
   or its pick of a card the seat did not see that stays where it is, is drawn anew uniformly among the
   options after which the seat observes the same. The rules decide what they imply: a player who did
   not follow suit held none of it, a hand that said "go fish" lacked the rank. Where a world parts from
   what the seat observed, it is mended: two cards the seat cannot tell apart, dealt by one shuffle, are
   swapped from that shuffle on, or a player's unseen choice from its hand takes another card of it (tried
   on a copy replayed from its kept base, first in the zones the failing answer touched and with the faces
   the seat was told of); a mended world is then played once more from its start, so that its whole
   history is its own.

Where every drawing from the start fails, the match is rebuilt from its seed and walked, a world drawn every
round of answers and carried on to the next (`_walked`); past that, `NoConsistentWorld`. The real match is never
returned; its shuffles are drawn anew, a world keeps neither the real seed nor a copy of the real generator, and its
chance after the present comes from `rng`.

The match keeps, per seat (`_Belief`), the walk of step 1 (carried on from where it stopped) and its last
world with a copy of it before every answer that dealt a shuffle: a draw at the same point moves on from
that world by a swap, and a draw after the match moved on carries it on (see `determinize`); either plays
the world again from the copy before the first shuffle it changed, not from the match's start. A world
that cannot be carried on is drawn again from one of its last shuffles (`_redealt`) before a new one is
drawn from the start (`_drawn`). A copy of the match starts from its beliefs (`carry`).
"""

from __future__ import annotations

import json
import random
import re
import weakref
from collections.abc import Container, Iterable, Sequence
from contextlib import suppress
from itertools import compress, filterfalse, islice, repeat
from operator import contains, eq, gt, is_, is_not, itemgetter, ne, or_
from typing import Any, NamedTuple

from ..lang.compiled import ANY_ZONE
from .events import SAY, SEATS, TABLE
from .information import (
    _KEPT,
    ASK,
    DECIDE,
    FLIP,
    MOVE,
    ROLL,
    SHOW,
    SHUFFLE,
    _catch_up,
    back_key,
    card_index,
    fork_cache,
    new_cache,
    render,
    view_json,
)
from .runtime import K_CARD, OWNER, PUBLIC, RuleError

DEFAULT_TRIES = 20
_KIND = itemgetter(0)  # an event's kind
DEFAULT_REPAIRS = 60
DEFAULT_MOVES = 2
DEFAULT_PROBES = 3000  # swaps tried, in all, to mend the worlds of one draw
REDEALT_SHUFFLES = 2  # where a world cannot be carried on, the last shuffles it is drawn again from (`_redealt`)
# where the quick and the thorough drawings all failed (their mends sharing a budget, the first drawings may
# leave the others none): drawings mended the quick way, each with probes // PATIENT_SHARE of its own
PATIENT_TRIES = 12
PATIENT_SHARE = 3
# where those failed too: drawings mended the quick way, each with a budget of its own, that first swap the
# card an answer named where the seat did not see which (`_Replay.own_card_first`)
TARGETED_TRIES = 24
# a drawing's choices taken again where a mix before them found no card that fits (`_passed_down`)
_BACKTRACKS = 40
# the probes a carried world mended the thorough way may take, where the quick mends found none (`_carried`)
CARRIED_THOROUGH = DEFAULT_PROBES // 3
THOROUGH_TRIES = 10  # drawings mended the thorough way (`_Replay.repair_thorough`) once the quick ones found none
# past the quick drawings, every FURTHEST_EVERY-th drawing of a stage (the 2nd, the 4th...; 0: none) starts from the
# cards of the drawing that got furthest so far, as its mends left them (`_drawn`)
FURTHEST_EVERY = 2
# where every drawing from the start failed: the match rebuilt and walked, a world drawn every WALK_EVERY answers and
# carried on to the next (0: one per player; `_walked`)
WALK_EVERY = 0


def match_class(m) -> Any:
    """The engine's match class, read off a match given: the root of its class (a copy not yet rebuilt and a
    match of a subclass are of classes derived from it). So the stages a match calls on need not import the
    match module back."""
    return m.__class__.__mro__[-2]


class NoConsistentWorld(Exception):
    """No world consistent with what the seat observed was found within the budget."""


class _Misfit(Exception):
    """The world being played parts from what the seat observed; `reached`: how many of the seat's
    observations it matched first."""

    def __init__(self, message: str, reached: int = 0, blocked: Any = None, instead: bool = False) -> None:
        super().__init__(message)
        # `blocked`: (a player, its card options in the world) where the world asked it to choose a card where the
        # real match did not (`instead`), or where the answer was none of them (see `_Replay.repair_thorough`)
        self.reached, self.blocked, self.instead = reached, blocked, instead
        self.moved_last = -1  # the card the world moved last before it parted, the seat seeing it move (`last_move`)


class _Unanswered(_Misfit):
    """No answer of another player's to its question fits what the seat observed (see `_Replay.redraw`)."""


class _Parted(Exception):
    """An option of `_Replay.redraw` parted from what the seat observed: raised as the line that differs is recorded
    (`reached`: how many of the seat's observations matched first), so that the option's flow goes no further."""

    def __init__(self, reached: int) -> None:
        super().__init__(reached)
        self.reached = reached


class _Checked(list):
    """A world's record of events while `_Replay.redraw` plays an option: each event is rendered for the seat as it
    is recorded and its line compared with the seat's own (`want`, from the `at`-th on), `_Parted` at the first that
    differs or goes past them. A line of a kept kind is one of its event alone (`information.render`); past a
    glimpse (whose lines are sorted as a run) nothing more is checked here: the option is compared when it ends."""

    __slots__ = ("at", "last", "match", "seat", "want")

    def __init__(self, events: list[tuple], match: Any, seat: int, want: Sequence[str], at: int,
                 last: str | None) -> None:
        super().__init__(events)
        self.match, self.seat, self.want, self.at, self.last = match, seat, want, at, last

    def append(self, event: tuple) -> None:
        list.append(self, event)
        if self.at < 0:
            return
        if event[0] not in _KEPT:
            self.at = -1
            return
        lines, self.last = render(self.match, self.seat, [event], self.last)
        for line in lines:
            if self.at >= len(self.want) or line != self.want[self.at]:
                raise _Parted(self.at)
            self.at += 1


class _Plan:
    """The drawing a world is played along: the paths each shuffle deals (in order) and the card on each
    path. Changed in place while a world is mended, so that copies of it deal the drawing as it is now."""

    __slots__ = ("card", "deals")

    def __init__(self, deals: list[list[int]], card: list[int]) -> None:
        self.deals, self.card = deals, card


class _Source:
    """A world's chance outcomes as drawn so far, shared by the world and its copies: (n, outcome), an
    outcome -1 for a shuffle of n cards. While the world is played again, the next ones are drawn as they
    come (`_WorldChance._next`), a copy of the real match's generator kept in step with it (`stream`: it
    tells where the world's chance parts from the real match's); that copy is dropped once the world is
    drawn, so a world never holds what could tell the real match's chance to come.

    Which outcomes the seat saw is told by the language: a roll is heard by the whole table, so a roll
    comes out as the real one did (`rolls`: per answer, the real rolls after it, as (sides, result)); so does
    every outcome after an answer whose moves the seat all saw (the card a random pick took, where it went).
    Every other outcome (a random card, player or place after an answer that moved a card the seat did not
    see move: `unseen`) is drawn anew from `rng`, by its real probabilities, never taken from the real match;
    where the seat did see it, the world that parts is played again with other outcomes (see
    `_Replay.step`), so that the seat's observations pick the outcomes that fit.
    `drawn`: the answers (-1: the set-up) after which an outcome was drawn anew."""

    __slots__ = ("anew", "anews", "drawn", "events", "kept", "reals", "rng", "rolls", "run_at", "run_saved", "save_at",
                 "saved", "stream", "timeline", "unseen")

    def __init__(self, stream: random.Random | None) -> None:
        self.events: list[tuple[int, int]] = []
        self.reals: list[tuple[int, int]] = []  # the real generator's outcomes, by place (kept: see `_Replay.chanced`)
        self.stream = stream
        self.rng: random.Random | None = None
        self.rolls: dict[int, list[tuple[int, int]]] = {}
        self.drawn: set[int] = set()
        self.unseen: set[int] = set()  # the answers after which the rules moved a card the seat did not see move
        self.anew = 0  # the outcomes drawn anew so far
        # a drawn world's trades of cards (`_WorldChance.swaps`), for it to be played again from its start
        self.timeline: tuple[tuple[int, dict[int, int]], ...] = ()
        self.anews: list[tuple[int, int, int]] = []  # each: (answer, its k-th outcome, where the world's record stood)
        # (answer, k): its k-th outcome drew a card the seat saw move (the real outcome is kept: `_Replay.chanced`)
        self.kept: set[tuple[int, int]] = set()
        # an attempt that may be rewound draws its outcomes from the `save_at`-th on; where the real generator's copy
        # stood there, taken when the attempt first draws from it (see `rewind`)
        self.save_at: int | None = None
        self.saved: tuple | None = None
        # the same for a run of other seats' answers drawn anew, which may be drawn again whole (`_Replay.ran`)
        self.run_at: int | None = None
        self.run_saved: tuple | None = None

    def attempt(self, mark: int) -> None:
        """An attempt (an option of another seat's answer, or chance drawn again) draws its outcomes from the `mark`-th
        on, and may be rewound to there (`rewind`)."""
        self.save_at, self.saved = mark, None

    def release(self) -> None:
        """The world is drawn: it keeps neither the copy of the real generator nor any state of it (the belief keeps
        where it stands), nor the generator of the outcomes drawn anew."""
        self.stream = self.rng = self.saved = self.save_at = self.run_saved = self.run_at = None

    def run_from(self, mark: int | None) -> None:
        """A run of answers drawn anew may start here, its outcomes drawn from the `mark`-th on (None: read back from an
        earlier drawing, none drawn): where the real generator's copy stood there is taken when the run first draws
        from it, as for an attempt (`attempt`)."""
        self.run_at, self.run_saved = mark, None

    def rewind_run(self, mark: int) -> None:
        """The outcomes a run drew from the `mark`-th on dropped, the real generator's copy set back where it stood
        (see `rewind`): the run is drawn again, with outcomes of its own, not those of the draw that failed (read back,
        they are another chance than the new answers' where these draw otherwise, and every world after parts)."""
        self.run_saved = self._set_back(mark, self.run_at, self.run_saved)

    def rewind(self, mark: int) -> None:
        """The outcomes drawn from the `mark`-th on dropped (an attempt that failed: another is drawn from there), and
        with them what the real generator's copy gave for them, that copy set back where it stood (`attempt`): so that
        the real outcomes a later attempt reads follow its own chance, not that of one dropped (which may have drawn
        more or fewer outcomes, and so put the copy out of step with the real match for every world after it)."""
        self.saved = self._set_back(mark, self.save_at, self.saved)

    def _set_back(self, mark: int, at: int | None, saved: tuple | None) -> tuple | None:
        """The outcomes from the `mark`-th on dropped; where the real generator's copy was `saved` at the `at`-th, that
        copy set back and its outcomes since dropped too: None (the state is used up), else `saved` as it was."""
        del self.events[mark:]
        if saved is None or at != mark or self.stream is None:
            return saved
        del self.reals[mark:]
        self.stream.setstate(saved)
        return None


class _WorldChance:
    """A world's chance: its shuffles deal the drawing's orders, in turn; every other outcome is the real
    match's as the seat saw it (see `_Source`). A value: a copy goes on from the same point."""

    __slots__ = ("at", "picked", "plan", "pos", "rolled", "source", "swap", "swaps", "used", "watch")

    def __init__(self, plan: _Plan, source: _Source) -> None:
        self.plan, self.source, self.pos, self.used = plan, source, 0, 0
        self.at, self.rolled = -1, 0  # the answer being given (-1: the set-up), and the rolls it made so far
        self.picked = 0  # and its other outcomes so far
        self.watch: Any = None  # the world's record of events, where its outcomes drawn anew are placed
        # the cards this world traded for those the drawing puts on a path (card -> card; see `_Replay.aligned`):
        # a random pick drawn anew that took another card than the real one, each goes the other's way since
        self.swap: dict[int, int] = {}
        # each trade as it came: (the outcomes drawn before it, `swap` from then on), so that the world played again
        # from its start (`replayed`) deals as it did
        self.swaps: tuple[tuple[int, dict[int, int]], ...] = ()

    def begin(self, d: int) -> None:
        """Answer `d` is given next: its chance follows the real match's after that answer."""
        self.at, self.rolled, self.picked = d, 0, 0

    def card(self, c: int) -> int:
        """The card of this world that goes the way the drawing sends card `c`."""
        return self.swap.get(c, c) if self.swap else c

    def _next(self, n: int, shuffle: bool) -> int:
        source, i = self.source, self.pos
        if i < len(source.events):
            m, outcome = source.events[i]
            if m != n or (outcome < 0) != shuffle:
                raise _Misfit("chance where the real match had other chance")
        else:
            stream = source.stream
            if stream is None:
                raise _Misfit("chance past what was drawn")
            reals = source.reals
            real: int | None
            if source.save_at == i == len(reals) and source.saved is None:  # (where an attempt may be rewound to)
                source.saved = stream.getstate()
            if source.run_at == i == len(reals) and source.run_saved is None:  # (and a run)
                source.run_saved = stream.getstate()
            if i < len(reals):  # drawn before, then drawn again: the real generator went past it already
                # (a world whose chance went another way than the real match's has no real outcome here)
                real = reals[i][1] if reals[i][0] == n and (reals[i][1] < 0) == shuffle else None
            else:
                if shuffle:  # the real shuffle's draws, one per card but the last
                    for k in range(n - 1, 0, -1):
                        stream._randbelow(k + 1)  # type: ignore[attr-defined]
                drew = -1 if shuffle else stream._randbelow(n)  # type: ignore[attr-defined]
                reals.append((n, drew))
                real = drew
            outcome = -1 if shuffle else self._drawn(n, real)
            source.events.append((n, outcome))
        self.pos = i + 1
        return outcome

    def _drawn(self, n: int, real: int | None) -> int:
        """An outcome of n not read back (`real`: the real match's, where the world is in step with it): the real
        roll the table heard, where the answer's next roll is one of n sides; the real outcome where the seat saw
        every card the rules moved after the answer, or where the card such an outcome drew anew moved in the
        seat's sight (`_Source.kept`); else drawn anew by its real probabilities (a random card, player or place:
        see `_Source`)."""
        source = self.source
        rolls = source.rolls.get(self.at, ())
        if self.rolled < len(rolls) and rolls[self.rolled][0] == n:
            self.rolled += 1
            return rolls[self.rolled - 1][1] - 1
        j = self.picked
        self.picked += 1
        if real is not None and (self.at not in source.unseen or (self.at, j) in source.kept):
            return real
        if source.rng is None:
            raise _Misfit("chance past what was drawn")
        source.drawn.add(self.at)
        source.anew += 1
        if self.watch is not None:  # where in the world's record it was drawn (see `_Replay.learned_seen`)
            source.anews.append((self.at, j, len(self.watch.events)))
        return source.rng.randrange(n)

    def _randbelow(self, n: int) -> int:
        return self._next(n, False)

    __call__ = _randbelow  # a chance function, as `Match` takes one

    def shuffled(self, cards: list[int]) -> list[int]:
        """The order this world's next shuffle deals."""
        self._next(len(cards), True)
        plan = self.plan
        if self.used >= len(plan.deals):
            raise _Misfit("a shuffle the real match did not have")
        order = [plan.card[s] for s in plan.deals[self.used]]
        timeline = self.source.timeline
        while timeline and self.swaps != timeline and timeline[len(self.swaps)][0] < self.pos:
            self.swaps = timeline[:len(self.swaps) + 1]  # (a world played again from its start: see `swaps`)
            self.swap = self.swaps[-1][1]
        if self.swap:
            order = [self.swap.get(c, c) for c in order]
        self.used += 1
        if sorted(order) != sorted(cards):
            raise _Misfit("a shuffle of other cards")
        return order

    def __deepcopy__(self, memo: dict) -> _WorldChance:
        other = _WorldChance(self.plan, self.source)
        other.pos, other.used, other.at, other.rolled, other.picked = self.pos, self.used, self.at, self.rolled, \
            self.picked
        other.swap, other.swaps = self.swap, self.swaps  # (replaced, never changed in place)
        return other


class _Trace:
    """Step 1's result for one seat (see the module), grown as the match goes on (see `_Tracer`)."""

    __slots__ = ("alive", "arranged", "chosen", "deal_at", "dealing", "deals", "drawn", "end", "glimpses",
                 "grouped", "hid", "kept", "last", "left", "marks", "maybe", "mix_answer", "mix_deal", "mixes",
                 "named", "need", "needed", "origin", "picked", "picks", "rolls", "sighted", "unseen", "zone")

    def __init__(self) -> None:
        self.origin: list[int] = []  # the mix each path comes out of (-1: the set-up)
        self.need: list[Any] = []  # the face a path must carry (None: free)
        self.needed: list[int] = []  # the paths made free whose face the seat saw since, in the order it did
        self.sighted: dict[int, int] = {}  # path -> the last event at which the seat saw its card (not the set-up)
        # a look at several cards of another player's hand: (the paths, the faces shown), the faces on those paths
        # in some order (the seat saw which faces lie there, not which card lies where); `grouped`: their paths
        self.glimpses: list[tuple[list[int], list[Any]]] = []
        self.grouped: set[int] = set()
        # (kind, incoming, outgoing paths): kind -1 a shuffle, else a choice from a hand (in order), kind
        # the place of the card that left
        self.mixes: list[tuple[int, list[int], list[int]]] = []
        self.deals: list[list[int]] = []  # per shuffle (of two cards or more): the paths in the order dealt
        self.mix_deal: dict[int, int] = {}  # a shuffle's mix -> its index in `deals`
        self.mix_answer: dict[int, int] = {}  # a choice's mix -> the answer that chose the card
        self.picks: list[int] = []  # per answer: the path of the card answered (-1: not a card)
        self.alive: list[list[int]] = []  # per answer: each card's path as it was asked
        self.zone: list[list[int]] = []  # per answer: each card's zone as it was asked
        self.chosen: set[int] = set()  # paths of cards a player chose to send out of a hand unseen
        self.left: set[int] = set()  # answers naming a card of another's that then left its hand or moved unseen
        self.marks: list[int] = []  # per answer: where its events start in the match's record
        self.dealing: set[int] = set()  # the answers after which the match shuffled (before the next one)
        self.deal_at: list[int] = []  # per shuffle in `deals`: the answers given before it
        self.named: dict[int, frozenset] = {}  # the seat's observation j -> the faces it names (see `_faces_named`)
        self.rolls: dict[int, list[tuple[int, int]]] = {}  # answer (-1: the set-up) -> the rolls after it (`_Source`)
        self.drawn: set[int] = set()  # the answers after which a world drew an outcome anew (see `_Replay.step`)
        # the answers after which the real match may have drawn such an outcome (its chance used past its shuffles'
        # and rolls'), and how many it drew so far
        self.maybe: set[int] = set()
        self.picked = 0
        self.unseen: set[int] = set()  # the answers (-1: the set-up) after which a card moved the seat did not see
        self.hid: dict[int, list[tuple[int, int]]] = {}  # answer -> those moves, as (event, the card's path)
        self.kept: set[tuple[int, int]] = set()  # outcomes a world learned the seat saw (see `_Source.kept`)
        self.end = 0  # the match's events walked
        # path -> the event at which its card last moved (on that path): what tells paths apart in the seat's eyes
        # (where each card went last), not which card the real match sent down them (see `_by_role`)
        self.last: dict[int, int] = {}
        self.arranged: list[tuple[int, int]] = []  # the set-up's moves (before any answer): (card, its path)

    def copy(self) -> _Trace:
        """An independent copy: every container the walk or a world grows copied (a mix's, a deal's or an answer's
        own lists are made whole and never changed after)."""
        other = _Trace.__new__(_Trace)
        for name in _Trace.__slots__:  # (every slot: one added later is copied too)
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list | dict | set) else value)
        other.hid = {d: moves[:] for d, moves in self.hid.items()}  # (the lists of the last answer grow)
        other.rolls = {d: rolls[:] for d, rolls in self.rolls.items()}
        return other

    def path(self, need: Any) -> int:
        """A new path, needing `need` (a face, or None)."""
        self.need.append(need)
        self.origin.append(len(self.mixes))
        return len(self.need) - 1


class _Tracer:
    """Step 1 for one seat, kept with the match: the walk over its events goes on from where it stopped.

    Every card's life is cut into paths where `seat` loses track of it (see the module). A need, once
    known, holds for good: what the seat saw of a path is a fact of the match."""

    def __init__(self, match, seat: int) -> None:
        t = match.layout
        self.t, self.seat, self.bit = t, seat, 1 << seat
        faces = self.faces = t.face_ids
        self.backs = [back_key(t, c) for c in range(len(faces))]
        self.ids = card_index(t)
        tr = self.tr = _Trace()
        self.seg = [tr.path(faces[c]) for c in range(len(faces))]  # the set-up is every match's
        tr.origin = [-1] * len(self.seg)
        self.zones = [list(z) for z in t.start_zones]
        self.zone_of = list(t.start_zone_of)
        self.face = list(t.start_face)
        # card -> (answer, who answered) naming it: linked to the card's path as asked, or, if the card
        # moves before the rules touch the answering player's zones otherwise and within the same turn, to its
        # path after that move
        self.waiting: dict[int, list[tuple[int, int]]] = {}
        self.turn: tuple = (-1, -1)  # the round and turn of the last table event walked
        # the look at another player's hand being walked: (its zone, its last event, the cards shown so far)
        self.look: tuple[int, int, list[int]] | None = None
        self.decisions: list[tuple] = []  # the match's answers, as recorded
        self.chanced = 0  # the chance outcomes the match's shuffles and rolls walked so far drew
        self.seen_at = -1  # the match's events walked when the cards it sees now were last looked at (`advance`)
        # per zone: whether a rule that may read a card's face may reach the cards lying there (`Game.face_zones`)
        names = match.game.face_zones
        self.reach = [names is None or name.partition("@")[0] in names for name in t.zone_names]

    def copy(self) -> _Tracer:
        """An independent copy, to walk on apart (the layout's tables shared)."""
        other = _Tracer.__new__(_Tracer)
        other.__dict__.update(self.__dict__)
        other.tr = self.tr.copy()
        other.seg, other.zone_of, other.face, other.decisions = self.seg[:], self.zone_of[:], self.face[:], \
            self.decisions[:]
        other.zones = [z[:] for z in self.zones]
        other.waiting = {c: named[:] for c, named in self.waiting.items()}
        return other

    def advance(self, match) -> _Trace:
        """The trace of the match as it is now (the events since the last call walked)."""
        tr = self.tr
        last = len(tr.picks) - 1
        self.walk(match._watch.events)
        # the outcomes of neither a shuffle nor a roll (a random card, player, place)
        picked = match.st.chance_used - self.chanced
        if picked > tr.picked:
            tr.picked = picked
            tr.maybe.update(range(last, len(tr.picks)))
        saw, end = self.saw, tr.end
        if end != self.seen_at:  # (else nothing happened since: the same cards are seen, at the same point)
            self.seen_at = end
            for c in self.seen_now(match.st):
                saw(c, end)
        return tr

    def walk(self, events: list[tuple]) -> None:
        """The events from the last walked on, each told to the step of its kind (a look at a hand ends at the
        first event that shows no more of it)."""
        walk = {MOVE: self.moved, SHUFFLE: self.shuffled, FLIP: self.flipped, SHOW: self.shown, ASK: self.asked,
                DECIDE: self.decided, TABLE: self.tabled, ROLL: self.rolled}
        start = self.tr.end
        for i, e in enumerate(islice(events, start, None), start):
            kind = e[0]
            if kind != SHOW and self.look is not None:
                self.looked()
            step = walk.get(kind)
            if step is not None:
                step(i, e)
        if self.look is not None:
            self.looked()
        self.tr.end = len(events)

    def seen_now(self, st) -> list[int]:
        """The cards the seat sees now (`seen_by`, for this seat only), by their paths (`_by_role`), not by the
        cards' ids: the order they join `needed` in."""
        tr, t, seat, bit = self.tr, self.t, self.seat, self.bit
        known, face, zone_of, vis, owner = st.known, st.face, st.zone_of, t.zone_vis, t.zone_owner
        grouped, seg = tr.grouped, self.seg
        now: list[int] = []
        for c in range(len(self.faces)):
            if known[c] & bit:
                if seg[c] not in grouped or vis[zone_of[c]] != OWNER or owner[zone_of[c]] == seat:
                    now.append(c)  # (a card of a look at a hand, still there: which one is not known)
            elif face[c]:
                zi = zone_of[c]
                if vis[zi] == PUBLIC or (vis[zi] == OWNER and owner[zi] == seat):
                    now.append(c)
        if len(now) > 1:
            role = _role(tr)
            now.sort(key=lambda c: role(seg[c]))
        return now

    # ---- what each event tells the seat
    def moved(self, i: int, e: tuple) -> None:
        _, c, src, at, dst, to, up, before, after = e
        tr, waiting, seg = self.tr, self.waiting, self.seg
        s = seg[c]
        if (before | after) & self.bit:  # (`saw`, written out: this runs at every move)
            if tr.need[s] is None:
                tr.needed.append(s)
                tr.need[s] = self.faces[c]
            tr.sighted[s] = i
        else:
            d = len(tr.picks) - 1
            tr.unseen.add(d)
            tr.hid.setdefault(d, []).append((i, s))
        if waiting and c in waiting:
            self.named_moved(c, src, at, before, after)
            s = seg[c]
        tr.last[s] = i
        if not tr.picks:
            tr.arranged.append((c, s))
        zones = self.zones
        del zones[src][at]
        zones[dst].insert(to if to >= 0 else ~to, c)
        self.zone_of[c] = dst
        self.face[c] = up
        if waiting:
            if c in waiting:
                self.link(c)
            else:  # another card: the rules went on past the answers naming cards of these zones
                self.release(src)
                self.release(dst)

    def named_moved(self, c: int, src: int, at: int, before: int, after: int) -> None:
        """A card an answer named moved from zone `src`, where it lay at `at` (`before`, `after`: who could see it
        there, and where it went)."""
        t, tr, bit, waiting = self.t, self.tr, self.bit, self.waiting
        if t.zone_vis[src] == OWNER and t.zone_owner[src] != self.seat and not after & bit:
            mixes = len(tr.mixes)
            self.chose(self.zones[src], at)  # which card of that hand the player chose, the seat did not see
            if len(tr.mixes) > mixes:
                tr.mix_answer[mixes] = min(d for d, _ in waiting[c])
            tr.left.update(d for d, _ in waiting[c])
        elif not (before | after) & bit:
            # an answer's card that moves out of the seat's sight (a card taken from a hidden pile into a hand):
            # a world takes the card its drawing puts on that path, as it does for a card that leaves a hand
            # unseen; another card drawn there would leave the cards the drawing sends on elsewhere
            tr.left.update(d for d, _ in waiting[c])

    def tabled(self, i: int, e: tuple) -> None:
        """The counters or the turn changed: once another turn or round begins, the answers naming cards that
        have not moved lapse. A card named at a turn that moves at a later one moves by what the rules do then
        (Go Fish: the cards of the rank another player asks for at its turn), not as the naming player's choice
        of which card left its hand."""
        now = e[1][:2]
        if now != self.turn:
            self.turn = now
            self.waiting.clear()

    def shuffled(self, i: int, e: tuple) -> None:
        zi, order = e[1], e[2]
        tr = self.tr
        self.zones[zi] = list(order)
        first = len(tr.mixes)
        by_back: dict[tuple, list[int]] = {}  # the cards the seat does not see, each back apart
        t, backs = self.t, self.backs
        vis = t.zone_vis[zi]
        # (`sees`, for the zone at once: the cards face up in a zone the seat sees into are those it sees)
        face = self.face
        unseen = [c for c in order if not face[c]] if vis == PUBLIC or (
            vis == OWNER and t.zone_owner[zi] == self.seat) else order
        for c in unseen:
            by_back.setdefault(backs[c], []).append(c)
        # each back apart, in the order of their paths in (not of their backs' first places in the real order)
        for group in sorted(by_back.values(), key=lambda group: min(self.seg[c] for c in group)):
            if len(group) > 1:
                tr.mixes.append((-1, [self.seg[c] for c in group], self.renewed(group)))
        for o in range(first, len(tr.mixes)):
            tr.mix_deal[o] = len(tr.deals)
        if len(order) > 1:  # a shuffle of one card or none draws nothing
            self.chanced += len(order) - 1
            tr.deals.append([self.seg[c] for c in order])
            tr.deal_at.append(len(tr.picks))
            tr.dealing.add(len(tr.picks) - 1)

    def rolled(self, i: int, e: tuple) -> None:
        """A roll, heard by the whole table: a world rolls the same after the same answer (a die of one side
        draws nothing)."""
        if e[1] > 1:
            self.tr.rolls.setdefault(len(self.tr.picks) - 1, []).append((e[1], e[2]))
            self.chanced += 1

    def flipped(self, i: int, e: tuple) -> None:
        c, before, after = e[1], e[5], e[6]
        self.face[c] = e[4]
        if (before | after) & self.bit:
            self.saw(c, i)

    def shown(self, i: int, e: tuple) -> None:
        c, to, zi = e[1], e[2], e[3]
        t = self.t
        if to == self.seat and t.zone_vis[zi] == OWNER and t.zone_owner[zi] != to:
            look = self.look  # a card of another player's hand: the cards of one look are taken together
            if look is not None and (look[0] != zi or look[1] != i - 1):
                self.looked()
                look = None
            self.look = (zi, i, [*look[2], c] if look is not None else [c])
        elif to == self.seat or e[5] & self.bit:
            self.saw(c, i)

    def looked(self) -> None:
        """The look at another player's hand walked: a look at one card shows it where it lies, as any glimpse;
        a look at several shows the faces there, not which card lies where (docs/information.md)."""
        assert self.look is not None
        _, i, cards = self.look
        self.look = None
        if len(cards) == 1:
            self.saw(cards[0], i)
            return
        paths = [self.seg[c] for c in cards]
        self.tr.glimpses.append((paths, [self.faces[c] for c in cards]))
        self.tr.grouped.update(paths)

    def asked(self, i: int, e: tuple) -> None:
        if e[1] == self.seat and e[3] == K_CARD:
            for x in e[4]:
                if x.__class__ is str and x in self.ids:
                    self.saw(self.ids[x], i)

    def decided(self, i: int, e: tuple) -> None:
        _, who, _, answer, seen, zi, _ = e
        tr = self.tr
        self.decisions.append(e)
        tr.picks.append(self.seg[answer] if zi >= 0 else -1)
        tr.alive.append(self.seg[:])
        tr.zone.append(self.zone_of[:])
        tr.marks.append(i)
        if zi >= 0:
            if who == self.seat and seen & self.bit:
                self.saw(answer, i)
            self.waiting.setdefault(answer, []).append((len(tr.picks) - 1, who))

    # ---- the walk's steps
    def saw(self, c: int, at: int) -> None:
        tr = self.tr
        s = self.seg[c]
        if tr.need[s] is None:
            tr.needed.append(s)
            tr.need[s] = self.faces[c]
        tr.sighted[s] = at

    def renewed(self, cards: list[int]) -> list[int]:
        """A new free path for each of `cards`, in turn, coming out of the mix about to be made (`_Trace.path`, for
        several at once: no call per path)."""
        tr, k = self.tr, len(cards)
        paths = list(range(len(tr.need), len(tr.need) + k))
        tr.need.extend(repeat(None, k))
        tr.origin.extend(repeat(len(tr.mixes), k))
        seg = self.seg
        for c, s in zip(cards, paths, strict=True):
            seg[c] = s
        return paths

    def chose(self, hand: list[int], k: int) -> None:
        """Another player sent card `hand[k]` out of its hand unseen: any card of that hand with the same
        back could have gone (those with other backs the seat tells apart)."""
        backs, tr, seg = self.backs, self.tr, self.seg
        back = backs[hand[k]]
        alike = [c for c in hand if backs[c] == back]
        if len(alike) > 1:
            tr.mixes.append((alike.index(hand[k]), [seg[c] for c in alike], self.renewed(alike)))
            tr.chosen.add(seg[hand[k]])

    def link(self, c: int) -> None:
        for d, _ in self.waiting.pop(c, ()):
            self.tr.picks[d] = self.seg[c]

    def release(self, zi: int) -> None:
        """The rules touched zone `zi`: the cards its owner named and that stay put are linked as asked."""
        p, waiting = self.t.zone_owner[zi], self.waiting
        if p >= 0:
            for c in [c for c, named in waiting.items() if any(who == p for _, who in named)]:
                waiting[c] = [(d, who) for d, who in waiting[c] if who != p]
                if not waiting[c]:
                    del waiting[c]


# ---- step 2: a card down every path -----------------------------------------------------------------


def _after_choice(k: int, j: int, incoming: list[int]) -> list[int]:
    """The incoming path each outgoing path of a choice takes its card from: the card at `k` left in
    the real match, the one at `j` in the world; the one leaving takes the path of the one that left,
    the others keep their order (the i-th card staying in the world is the i-th staying in the real one)."""
    came = incoming[:j] + incoming[j + 1:]
    came.insert(k, incoming[j])
    return came


def _choosable(ok: Any, k: int, incoming: list[int], outgoing: list[int]) -> list[int]:
    """The places j of a hand whose card, leaving it (where the real match's card at `k` left), sends a card down
    every outgoing path that `ok(outgoing path, incoming path)` allows (see `_after_choice`), in order. Each pair is
    tested once, not once per j: outgoing path i takes incoming i outside the places from j to k, incoming j at k,
    and its neighbour (i + 1 where j < k, i - 1 where j > k) between them."""
    n = len(incoming)
    same = [ok(t, s) for t, s in zip(outgoing, incoming, strict=True)]
    # upto[i]: whether all of same[:i] hold; after[i]: whether all of same[i:] do
    upto, fine = [True] * (n + 1), True
    for i in range(n):
        fine = fine and same[i]
        upto[i + 1] = fine
    after, fine = [True] * (n + 1), True
    for i in range(n - 1, -1, -1):
        fine = fine and same[i]
        after[i] = fine
    out: list[int] = []
    t = outgoing[k]
    # j < k: outgoing i in [j, k) takes incoming i + 1; checked from k down, so each j adds one pair
    shifted = True
    below: list[int] = []
    for j in range(k - 1, -1, -1):
        shifted = shifted and ok(outgoing[j], incoming[j + 1])
        if not shifted:
            break
        if upto[j] and after[k + 1] and ok(t, incoming[j]):
            below.append(j)
    out.extend(reversed(below))
    if upto[n]:
        out.append(k)
    shifted = True
    for j in range(k + 1, n):  # j > k: outgoing i in (k, j] takes incoming i - 1
        shifted = shifted and ok(outgoing[j], incoming[j - 1])
        if not shifted:
            break
        if upto[k] and after[j + 1] and ok(t, incoming[j]):
            out.append(j)
    return out


class _Can(dict):
    """The faces each path could carry (a superset: enough to keep the backward pass from asking a path
    for a face that cannot reach it); a path no mix drawn here made carries its need, if any."""

    def __init__(self, need: list[Any]) -> None:
        super().__init__()
        self.need = need

    def __missing__(self, s: int) -> frozenset:
        n = self.need[s]
        can = frozenset((n,)) if n is not None else frozenset()
        self[s] = can
        return can


def _possible(tr: _Trace, need: list[Any], first: int) -> _Can:
    """`_Can` going forward through the mixes from `first` on. A path of a look at several cards of a hand
    carries one of the faces shown."""
    can = _Can(need)
    shown: dict[int, frozenset] = {}
    for paths, faces in tr.glimpses:
        for s in paths:
            shown[s] = shown.get(s, frozenset(faces)) & frozenset(faces)
    for s, f in shown.items():
        can[s] = can[s] & f if need[s] is not None else f
    for kind, incoming, outgoing in tr.mixes[first:]:
        here = _possible_out(need, can, kind, incoming, outgoing)
        for t, h in zip(outgoing, here, strict=True):
            can[t] = h & can[t] if need[t] is not None or t in shown else h
    return can


def _possible_out(need: list[Any], can: _Can, kind: int, incoming: list[int], outgoing: list[int]) -> list[frozenset]:
    """The faces each outgoing path of a mix could carry. A shuffle's: any its incoming paths could bring; a
    free one, those its free incoming paths could bring and the faces its paths known to carry one bring more
    of than its outgoing paths known to need one take. A choice's: the i-th path brings the card of the i-th
    or a neighbour, or the chosen one, for each card that could have been the chosen one (one that leaves
    every known need of the paths out met)."""
    if kind < 0:
        spare: dict[Any, int] = {}
        free = []
        for s in incoming:
            if need[s] is None:
                free.append(can[s])
            else:
                spare[need[s]] = spare.get(need[s], 0) + 1
        for t in outgoing:
            if need[t] is not None and need[t] in spare:
                spare[need[t]] -= 1
        every = frozenset().union(*free, spare)
        left = frozenset().union(*free, (f for f, k in spare.items() if k > 0))
        return [every if need[t] is not None else left for t in outgoing]
    js = _choosable(lambda t, s: need[t] is None or need[t] in can[s], kind, incoming, outgoing)
    if not js:
        return [frozenset()] * len(outgoing)
    return _brought(kind, js, [can[s] for s in incoming])


def _brought(k: int, js: list[int], came: list[frozenset]) -> list[frozenset]:
    """Per outgoing path of a choice, the union over the cards at `js` (in order) that could have left of what
    `_after_choice` sends down it (`came`: what each incoming path could bring), each path's union made once rather
    than once per card. Outgoing path i keeps incoming i's card where a card after it left (below k) or one before
    it (above k); it takes its neighbour towards k's where one at or below it left (below k) or one at or above it
    (above k); and path k takes the card that left."""
    lo, hi = js[0], js[-1]
    here: list[frozenset] = []
    for i in range(len(came)):
        if i < k:
            h = came[i] if hi > i else frozenset()
            here.append(h | came[i + 1] if lo <= i else h)
        elif i > k:
            h = came[i] if lo < i else frozenset()
            here.append(h | came[i - 1] if hi >= i else h)
        else:
            here.append(frozenset().union(*[came[j] for j in js]))
    return here


def _assign(tr: _Trace, faces: list[Any], rng: random.Random, card0: list[int] | None = None,
            first: int = 0) -> list[int]:
    """The card each path carries in a world drawn at random (see the module's step 2). With `card0`, a
    drawing of the paths of the first `first` mixes: those keep their cards, the mixes since are drawn."""
    need = tr.need[:] if card0 is None else [*map(faces.__getitem__, card0), *tr.need[len(card0):]]
    can = _possible(tr, need, first)
    chosen = _passed_down(tr, need, can, first, rng)
    mixes = tr.mixes[first:]
    card = list(range(len(faces))) if card0 is None else card0[:]  # the first paths are the cards themselves
    card.extend([-1] * (len(tr.need) - len(card)))
    for kind, incoming, outgoing in mixes:
        if kind >= 0:
            for t, s in zip(outgoing, _after_choice(kind, chosen.pop(), incoming), strict=True):
                card[t] = card[s]
        else:
            _dealt(card, need, faces, _by_role(tr, incoming), _by_role(tr, outgoing), rng)
    return card


def _role(tr: _Trace) -> Any:
    """The key of `_by_role`'s order of a path: the event at which its card last moved down it (-1: never), then the
    order the paths were made."""
    last = tr.last
    return lambda p: (last.get(p, -1), p)


def _by_role(tr: _Trace, paths: list[int]) -> list[int]:
    """`paths` (a shuffle's) in the order their cards last moved down them, those that never moved first in the order
    they were made (a shuffle makes its paths by the places it deals): the order the random choices of a drawing go
    to them. Not the order of the real match's cards (which card a shuffle dealt where, or a hidden pile's order
    after an unseen move), which would feed what the seat does not know into those choices: two matches it cannot
    tell apart, given one generator, draw one world."""
    return sorted(paths, key=_role(tr))


def _alive(tr: _Trace, alive: list[int]) -> list[tuple[int, int]]:
    """(card, its path) of each card as an answer was asked (`_Trace.alive`), in the order of `_by_role`: not by the
    real match's card ids, which would tell a mend's random choices which hidden card lies where."""
    role = _role(tr)
    return sorted(enumerate(alive), key=lambda rs: role(rs[1]))


def _passed_down(tr: _Trace, need: list[Any], can: _Can, first: int, rng: random.Random) -> list[int]:
    """Step 2 backward (see `_assign`), from the last mix down to mix `first`: the needs passed back, and per
    choice, from the last, the place of the card that left in the world. A choice takes a card drawn uniformly
    among those that fit; where a mix further down then finds none that fits (two choices from one hand ask the
    cards it kept for faces no one card could bring to both: `_Can` sees each path alone), the last choice with
    other cards that fit takes another of them, up to `_BACKTRACKS` times in all, before the drawing is given up.
    Each look at several cards of a hand is placed by the last mix that made one of its paths: once the pass
    has come down to that mix (the mixes after it have asked its paths for the faces they need later), before
    that mix is asked for them."""
    looks = sorted(tr.glimpses, key=lambda look: max(tr.origin[s] for s in look[0]))
    left = len(looks)  # the looks not placed yet: looks[:left]
    chosen: list[int] = []
    stack: list[tuple[int, list[Any], int, int, list[int]]] = []  # each choice that could take other cards:
    # (its mix, the needs before it, the looks and choices then, those cards)
    backtracks, o, take = _BACKTRACKS, len(tr.mixes) - 1, -1
    while o >= first:
        try:
            if take < 0 and left:
                left = _looks_placed(tr, looks, left, o, need, rng, can)
            kind, incoming, outgoing = tr.mixes[o]
            if kind < 0:
                _passed_back(need, can, _by_role(tr, incoming), _by_role(tr, outgoing), rng)
            else:
                take, fits, before = _chosen_back(need, can, kind, incoming, outgoing, take, rng)
                if fits:
                    stack.append((o, before, left, len(chosen), fits))
                chosen.append(take)
            o, take = o - 1, -1
        except _Misfit:
            if backtracks <= 0 or not stack:
                raise
            backtracks -= 1
            o, left, take = _backtracked(stack, need, chosen, rng)
    while left:
        left -= 1
        _looked_at(tr, *looks[left], need, rng, can)
    return chosen


def _looks_placed(tr: _Trace, looks: list[tuple[list[int], list[Any]]], left: int, o: int, need: list[Any],
                  rng: random.Random, can: _Can) -> int:
    """The looks of `looks[:left]` (by the last mix that made one of their paths) made at mix `o` or after,
    placed from the last (see `_looked_at`): how many are left."""
    while left and max(tr.origin[s] for s in looks[left - 1][0]) >= o:
        left -= 1
        _looked_at(tr, *looks[left], need, rng, can)
    return left


def _chosen_back(need: list[Any], can: _Can, kind: int, incoming: list[int], outgoing: list[int], take: int,
                 rng: random.Random) -> tuple[int, list[int], list[Any]]:
    """A choice's needs passed back, from its outgoing paths to its incoming ones (a path that needs a face already
    keeps it), the card at `take` the one that left; where `take` is -1, that card drawn uniformly among those that
    fit (`_fits`; `_Misfit` if none does). The card taken, the others that fit (none if `take` was given), and the
    needs as they were before (where any other fits: for `_passed_down` to come back to)."""
    fits: list[int] = []
    if take < 0:
        fits = _fits(need, can, kind, incoming, outgoing)
        if not fits:
            raise _Misfit("no card of that hand could have been the one chosen")
        take = fits.pop(rng.randrange(len(fits)))
    before = need[:] if fits else need
    for t, s in zip(outgoing, _after_choice(kind, take, incoming), strict=True):
        if need[s] is None:
            need[s] = need[t]
    return take, fits, before


def _backtracked(stack: list[tuple[int, list[Any], int, int, list[int]]], need: list[Any], chosen: list[int],
                 rng: random.Random) -> tuple[int, int, int]:
    """The pass taken back to the last choice that could take another card (`_passed_down`'s `stack`): the needs,
    and the choices made since, as they were before it; that choice's mix, the looks not placed then, and the
    other card it takes, drawn uniformly among those left (the choice dropped from `stack` once none is)."""
    o, before, left, k, fits = stack[-1]
    need[:] = before
    del chosen[k:]
    take = fits.pop(rng.randrange(len(fits)))
    if not fits:
        stack.pop()
    return o, left, take


def _looked_at(tr: _Trace, paths: list[int], shown: list[Any], need: list[Any], rng: random.Random, can: _Can
               ) -> None:
    """The faces `shown` by a look at several cards of a hand put on its `paths` in an order drawn at random:
    the paths that need a face already (the seat saw it since, or the mixes after the look asked the path for
    it: the hand's order kept through a later choice from it) keep it, the faces left go to the others, each
    to a path that could bring it (`can`: a random matching). An order drawn blind to what the mixes after
    the look ask of each path mostly leaves a later choice from that hand with no card that fits, and one
    blind to what could reach each path a choice before the look."""
    left = sorted(shown)  # (the order shown and the paths' order in the hand: the real one's, see `_by_role`)
    free = []
    for s in _by_role(tr, paths):
        f = need[s]
        if f is None:
            free.append(s)
        elif f in left:
            left.remove(f)
        else:
            raise _Misfit("a card where the seat saw other faces")
    rng.shuffle(left)
    rng.shuffle(free)
    for s, f in _match(left, free, can).items():
        need[s] = f


def _glimpses_kept(tr: _Trace, faces: list[Any], card: list[int]) -> bool:
    """Whether the drawing `card` puts on the paths of every look at several cards of a hand the faces shown
    (in any order); a look at paths the drawing does not reach yet is left to `_assign`."""
    for paths, shown in tr.glimpses:
        if max(paths) < len(card) and sorted(faces[card[s]] for s in paths) != sorted(shown):
            return False
    return True


def _passed_back(need: list[Any], can: _Can, incoming: list[int], outgoing: list[int], rng: random.Random) -> None:
    """Step 2 backward at a shuffle: the faces its paths need that its incoming paths do not bring already
    are asked of free incoming paths that could bring them (chosen at random)."""
    wanted: dict[Any, int] = {}
    for s in outgoing:
        if need[s] is not None:
            wanted[need[s]] = wanted.get(need[s], 0) + 1
    for s in incoming:
        f = need[s]
        if f is not None and wanted.get(f):
            wanted[f] -= 1
    free = [s for s in incoming if need[s] is None]
    rng.shuffle(free)
    wants = [f for f, k in wanted.items() for _ in range(k)]
    for s, f in _match(wants, free, can).items():
        need[s] = f


def _dealt(card: list[int], need: list[Any], faces: list[Any], incoming: list[int], outgoing: list[int],
           rng: random.Random) -> None:
    """Step 2 forward at a shuffle: its cards handed out, the needed faces where they are needed (a card of
    the face at random), the rest uniformly at random."""
    pool: dict[Any, list[int]] = {}
    for s in incoming:
        pool.setdefault(faces[card[s]], []).append(card[s])
    rest = []
    for s in outgoing:
        f = need[s]
        if f is None:
            rest.append(s)
            continue
        cards = pool.get(f)
        if not cards:
            raise _Misfit("no card of a needed face reached its shuffle")
        card[s] = cards.pop(rng.randrange(len(cards)))
    left = [c for cards in pool.values() for c in cards]
    rng.shuffle(left)
    for s, c in zip(rest, left, strict=True):
        card[s] = c


def _assign_some(tr: _Trace, faces: list[Any], rng: random.Random, tries: int = 50, card0: list[int] | None = None,
                 first: int = 0) -> list[int]:
    """`_assign`, drawn again where its random choices leave a face nowhere to go (cheap: no play)."""
    for _ in range(tries - 1):
        try:
            return _assign(tr, faces, rng, card0, first)
        except _Misfit:
            continue
    return _assign(tr, faces, rng, card0, first)


def _match(wants: list[Any], paths: list[int], can: _Can) -> dict[int, Any]:
    """A path for each face wanted, among `paths` that could carry it (a bipartite matching, found by
    augmenting paths; `paths` in a random order make it a random one)."""
    owner: dict[int, int] = {}  # path -> index into wants

    def place(i: int, seen: set[int]) -> bool:
        for s in paths:
            if s not in seen and wants[i] in can[s]:
                seen.add(s)
                if s not in owner or place(owner[s], seen):
                    owner[s] = i
                    return True
        return False

    for i in range(len(wants)):
        if not place(i, set()):
            raise _Misfit("the seat saw more cards of a face than could have come there")
    return {s: wants[i] for s, i in owner.items()}


def _fits(need: list[Any], can: _Can, k: int, incoming: list[int], outgoing: list[int]) -> list[int]:
    """Which cards of the hand a player's choice could have taken (indices into `incoming`): those that fit
    what the paths need later (see `_passed_down`, which draws one uniformly)."""
    def ok(t: int, s: int) -> bool:
        return need[t] is None or (need[t] == need[s] if need[s] is not None else need[t] in can[s])

    return _choosable(ok, k, incoming, outgoing)


def _swapped(tr: _Trace, faces: list[Any], card: list[int], origin: int, x: int, y: int,
             loose: frozenset[int] = frozenset()) -> list[int] | None:
    """The drawing `card` with cards `x` and `y` traded on every path from shuffle `origin` on; None if a
    path the seat sees would then carry another face (but those of `loose`, which carry another already and
    are mended in turn: see `_traded_since`)."""
    first = tr.mixes[origin][2][0]
    card, need = card[:], tr.need
    paths = range(first, len(card))
    # the paths from there on that carry x, and those that carry y (found in C: no bytecode per path)
    xs = list(compress(paths, map(eq, islice(card, first, None), repeat(x))))
    ys = list(compress(paths, map(eq, islice(card, first, None), repeat(y))))
    for on, other in ((xs, y), (ys, x)):
        for s in on:
            if need[s] is not None and need[s] != faces[other] and s not in loose:
                return None
    for s in xs:
        card[s] = y
    for s in ys:
        card[s] = x
    if tr.glimpses and not _glimpses_kept(tr, faces, card):
        return None
    return card


def _mended(tr: _Trace, faces: list[Any], card: list[int], s: int, rng: random.Random,
            loose: frozenset[int] = frozenset()) -> tuple[list[int], int, int] | None:
    """A drawing in which path `s`, whose card's face the seat has since seen to be another, carries a
    card of that face: its card traded with one of that face that the same shuffle dealt down a path the
    seat did not see, or failing that, with one of that face that stayed in the hand a player chose it
    from unseen (the player chose that one). A path of `loose` (one that carries another face than the seat
    has since seen on it, mended in turn) counts as one the seat did not see. (The drawing, the mix, the card
    traded in), or None."""
    x, face = card[s], tr.need[s]
    choices: list[int] = []
    for o in range(min(tr.origin[s], len(tr.mixes) - 1), -1, -1):
        kind, _, outgoing = tr.mixes[o]
        if x not in map(card.__getitem__, outgoing):  # (looked through in C)
            continue
        if kind >= 0:
            choices.append(o)
            continue
        mend = _traded(tr, faces, card, o, x, face, rng, loose)
        if mend is not None or not choices:
            return mend
        break
    for o in choices:
        mend = _traded(tr, faces, card, o, x, face, rng, loose)
        if mend is not None:
            return mend
    return None


def _traded(tr: _Trace, faces: list[Any], card: list[int], o: int, x: int, face: Any, rng: random.Random,
            loose: frozenset[int] = frozenset()) -> tuple[list[int], int, int] | None:
    """`card` with `x` traded, from mix `o` on, for a card of `face` the mix sent down a path the seat did
    not see (or one of `loose`: see `_mended`): (the drawing, `o`, that card), or None."""
    ys = [card[t] for t in _by_role(tr, tr.mixes[o][2])
          if (tr.need[t] is None or t in loose) and faces[card[t]] == face]
    rng.shuffle(ys)
    for y in ys:
        swapped = _swapped(tr, faces, card, o, x, y, loose)
        if swapped is not None:
            return swapped, o, y
    return None


# ---- step 3: the world played -----------------------------------------------------------------------


class _Snap(NamedTuple):
    """A copy of a world just before answer `d`, with `used` of the drawing's shuffles dealt by then."""

    used: int
    d: int
    world: Any


def _labelled(world, ask: tuple, label: str) -> int:
    """The option of `ask` whose omniscient label (as the record of answers has it) is `label`; -1 if none."""
    return next((i for i in range(len(ask[1])) if world.label(ask, i) == label), -1)


class _Observed(Sequence[str]):
    """A seat's rendered observations as a read-only list (`want[j]`, `want[a:b]`, `len(want)`), read in place
    from its cache (see `information.Seen`) as it is now: not copied into one list, which costs in proportion
    to the match's length where a draw late in a match reads only its last lines."""

    __slots__ = ("chunks", "lines", "n", "size")

    def __init__(self, match, seat: int) -> None:
        cache = match._seen[seat]
        _catch_up(match, seat, cache)
        # the cache's lists are appended to only past the lengths read here; its chunks are a tuple
        self.lines, self.n, self.chunks, self.size = cache.lines, cache.n, cache.chunks, cache.count

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, j: Any) -> Any:
        if j.__class__ is slice:
            a, b, step = j.indices(self.size)
            return self.window(a, b) if step == 1 else [self[i] for i in range(a, b, step)]
        if j < 0:
            j += self.size
        if not 0 <= j < self.size:
            raise IndexError(j)
        if j < self.n:
            return self.lines[j]
        for _, i, lines, _ in self.chunks:
            if j < i + len(lines):
                return lines[j - i]
        raise IndexError(j)

    def window(self, a: int, b: int) -> list[str]:
        """The lines from the a-th up to the b-th (b itself left out)."""
        b = min(b, self.size)
        if b <= self.n:
            return self.lines[a:b]
        out = self.lines[a:self.n] if a < self.n else []
        for _, i, lines, _ in self.chunks:
            if i < b and i + len(lines) > a:
                out.extend(lines[max(0, a - i):b - i])
        return out


def _window(want: Sequence[str], a: int, b: int) -> list[str]:
    """Lines a to b (b left out) of a seat's observations, however they are held."""
    return want.window(a, b) if want.__class__ is _Observed else list(want[a:b])


def _lines_from(cache, k: int) -> list[str]:
    """A seat's rendered observations from the k-th on (see `information.Seen`)."""
    out = cache.lines[k:cache.n] if k < cache.n else []
    chunks = cache.chunks
    j = len(chunks)
    while j and chunks[j - 1][1] > k:  # (the chunks from k on, found from the last: k is most often near it)
        j -= 1
    if j:
        _, i, lines, _ = chunks[j - 1]
        if i + len(lines) > k:
            out.extend(lines[k - i:])
    for chunk in chunks[j:]:
        out.extend(chunk[2])
    return out


def _answers_from(world, d: int) -> list[tuple]:
    """The answers recorded in `world` from its d-th on (each answer records one event): read from the end of
    its record, not the whole of it (the events looked through in C: no bytecode per event)."""
    events, left = world._watch.events, len(world.history) - d
    if left <= 0:
        return []
    out = list(islice(compress(reversed(events), map(eq, map(_KIND, reversed(events)), repeat(DECIDE))), left))
    out.reverse()
    return out


def _applied(world, who: int, action: int):
    """`world` after `who` answered `action`."""
    world.apply(who, action)
    return world


def _trades(swaps: list[tuple[int, int, int]], used: int) -> dict[int, int]:
    """Card -> the card it is traded for by the trades of `swaps` ((shuffle, x, y): x and y traded from that
    shuffle on) of the first `used` shuffles, in turn (a card none of them trades is left out)."""
    out = {}
    for c in {c for deal, x, y in swaps if deal < used for c in (x, y)}:
        value = c
        for deal, x, y in swaps:
            if deal < used:
                value = y if value == x else x if value == y else value
        out[c] = value
    return out


def _rechanced(world, plan: _Plan, source: _Source):
    """A copy of `world` (at a question) whose chance deals the drawing `plan` from its kept base on."""
    other = world.clone()
    cur, frozen = other._base
    old = frozen[-1][1]
    chance = _WorldChance(plan, source)
    chance.pos, chance.used = old.pos, old.used
    chance.swap, chance.swaps = old.swap, old.swaps  # the trades the copy's world made by then go on with it
    other._base = (cur, (*frozen[:-1], ("object", chance)))
    return other


def _source_after(source: _Source, state: tuple, reals: list[tuple[int, int]]) -> _Source:
    """A world's chance as drawn so far (`source`), able to go on: a copy of the real match's generator
    at the same point (`state`, kept by the match's belief), for a world played on from one drawn before."""
    stream = random.Random.__new__(random.Random)  # its state set at once, not seeded from the system first
    stream.setstate(state)
    other = _Source(stream)
    other.events, other.reals = source.events[:], reals[:]
    return other


class _Run:
    """A run of other seats' answers drawn anew, one after another (see `_Replay.ran`): a copy of the world before its
    first answer (`before`), its first and last answers, how often it was drawn again (`tries`) and may be (`most`),
    how many ways its secret answers may go together (`ways`), and where the world's chance stood before it
    (`chance`: `_Replay.chance_mark`)."""

    __slots__ = ("before", "chance", "first", "last", "most", "tries", "ways")

    def __init__(self, before, first: int, chance: tuple[int, int, int] | None) -> None:
        self.before, self.first, self.last, self.chance = before, first, first - 1, chance
        self.tries, self.most, self.ways = 0, _REDRAWS, 1


class _Replay:
    """Worlds played along a drawing, from the start or from a copy of an earlier world, repaired where
    they part from the real match (see the module's step 3)."""

    options = 1  # how many options the last answer drawn anew had (`redraw`)
    run_mark: tuple[int, int, int] | None = None  # where the chance stood before the answer being given (`chance_mark`)

    def __init__(self, match, seat: int, tr: _Trace, card: list[int], rng: random.Random, want: Sequence[str],
                 want_view: str, decisions: list[tuple], budget: list[int] | None = None,
                 source: _Source | None = None, snaps: list[_Snap] | None = None, opened: _Snap | None = None,
                 marks: list[_Snap] | None = None) -> None:
        self.match, self.seat, self.bit, self.tr, self.rng = match, seat, 1 << seat, tr, rng
        self.want, self.want_view = want, want_view
        self.plan = _Plan(tr.deals[:], card)
        self.source = source if source is not None else _Source(random.Random(match.seed))
        # the outcomes drawn anew come from a generator of their own, derived from `rng` without drawing from it (so
        # that they leave the rest of the drawing as it was)
        self.source.rng = random.Random(hash(rng.getstate()[1])) if self.source.rng is None else self.source.rng
        self.source.rolls, self.source.drawn, self.source.unseen = tr.rolls, tr.drawn, tr.unseen
        self.source.kept = tr.kept
        self.snaps = snaps[:] if snaps is not None else []  # copies of the world before answers that dealt
        # copies of the world before the seat's own answers since the last shuffle (see `played`, `_moved`)
        self.dealt_last = max(tr.dealing, default=-1)  # the answer after which the match last shuffled
        self.marks = [mark for mark in marks if mark.d > self.dealt_last] if marks else []
        # the last answer since that shuffle a world played again from there draws anew: copies are kept before the
        # seat's answers ahead of it only (from one after it, nothing would be drawn anew)
        self.redrawn = _last_redrawn(tr, decisions, seat, self.dealt_last + 1)
        self.decisions = decisions
        self.faces = match.layout.face_ids
        self.budget = budget if budget is not None else [DEFAULT_PROBES]  # probes left to the whole draw
        self.changed: int | None = None  # the first shuffle whose cards a mend changed (and left unchecked)
        self.thorough = False  # mends as `repair_thorough` looks for them (see `_drawn`)
        self.targeted = False  # the quick mends, the answer's own unseen card swapped first (`own_card_first`)
        self.redrew = False  # the last answer given was another seat's, drawn anew (`redraw`)
        # where no chance follows an answer (`Game.chance_after_answers` False), what each answer drawn anew found on
        # the world this replay gives: answer -> (its options, the one taken, options known to fail there), noted for
        # every such answer from answer `whole` on (None: nowhere); what the kept world's found (`known`, while this
        # world is that one as it stood: see `redraw`), and orders of options drawn ahead (see `_orders_ahead`)
        self.found: dict[int, tuple[int, int, frozenset[int]]] = {}
        self.whole: int | None = None
        self.known: dict[int, tuple[int, int, frozenset[int]]] | None = None
        self.orders: dict[int, list[int]] = {}
        self.repairs = 0  # mends left to `play`
        self.traded: set[int] = set()  # the cards thorough mends have traded
        self.stream_state: tuple | None = None  # the real generator's state, once the world is drawn
        self.reals: list[tuple[int, int]] = []  # and the outcomes it gave (`_Source.reals`), kept by the belief
        # the first answer to a question still open in the match, and a copy of the world before it (so that
        # a world carried on past its closing draws the answers to it again from there: see `before`)
        self.open_at = len(match.history) - len(match._answers) if match._answers else None
        self.opened = opened
        # per answer the world passed (see `ranked`): the faces the seat's lines since the answer before name,
        # and the cards of each zone of another player the seat does not see into, just before the answer
        # (the faces are worked out only once a mend asks: `named_at`)
        self.told: dict[int, tuple[int, int, list[set[int]]]] = {}
        self.named: dict[int, frozenset] = {}
        # answer -> (a zone of `hidden`, a face, a count): a mend that let the world give the answer changed how
        # many cards of that face, named there, the zone held before it, to that count (see `learned`)
        self.pins: dict[int, list[tuple[int, Any, int]]] = {}
        self.mends: dict[int, set[frozenset[int]]] = {}  # answer -> the pairs of cards traded to mend it
        self.stepped: set[int] = set()  # the cards the steps on the way of the answer being mended traded (`step_kept`)
        self.unanswered = False  # the answer being mended is another player's that no option of it fits
        self.moved_last = -1  # the card the world moved last before the answer being mended parted (see `pairs`)
        self.lines_at = 0  # the seat's first line of the answer being mended (as the world before it matched)
        t = match.layout
        self.hidden = [zi for zi, p in enumerate(t.zone_owner)
                       if p >= 0 and t.zone_vis[zi] != PUBLIC and not (p == seat and t.zone_vis[zi] == OWNER)]
        self.words: tuple[re.Pattern, dict[str, frozenset]] | None = None  # what names a face (`_face_words`)

    def play(self, repairs: int, start: tuple | None = None):
        """The world, or `_Misfit`: played from `start` (a world before answer d, as `(world, d)`; None:
        a new match) along the drawing. Where a world parts from what the seat observed, it is mended
        (see `repair`) and played on from the mended copy; a world mended anywhere is then played once
        more along the final drawing, from the last copy kept before the first shuffle a mend changed,
        so that its whole history is its own (mended again where that one parts, up to `repairs` mends
        in all)."""
        self.repairs = repairs
        while True:
            world = self.played(*(start if start is not None else (self.start(), 0)))
            if self.changed is None:
                self.drawn_out()
                return world
            start = self.resume(self.changed)
            self.changed = None

    def drawn_out(self) -> None:
        """The world is drawn: the state of the real generator's copy and the real outcomes it gave go to this replay
        (the match's belief keeps them, `_Belief.keep`), none of it with the world's chance (`_Source.release`)."""
        source = self.source
        self.stream_state = source.stream.getstate() if source.stream is not None else None
        self.reals, source.reals = source.reals, []
        source.release()

    def played(self, world, d: int):
        """`world`, before answer `d`, played on to the last answer (see `play`)."""
        dealing, decisions, seat = self.tr.dealing, self.decisions, self.seat
        self.anew_from(d)
        run: _Run | None = None  # the last run of other seats' answers drawn anew (see `ran`)
        while d < len(decisions):
            if self.dealt_last < d < self.redrawn and decisions[d][1] == seat:
                # a copy before each of the seat's own answers since the last shuffle: the other seats' answers since
                # one of them are drawn anew from there (`_moved`), not from that shuffle
                self.marks.append(_Snap(world.st.rng.used, d, world.backup()))
            # a copy before the answer: to mend from, and kept if the answer deals (as the real one did)
            # (made only where it is used: most answers are given as the real ones were)
            later = world.backup_later() if self.repairs > 0 or d in dealing else None
            used = world.st.rng.used
            if d == self.open_at:
                self.opening(world, None, used, d)
            self.redrew = False
            self.run_mark = self.chance_mark(world) if run is None or d > run.last + 1 else self.run_mark
            # (what a mend ranks its swaps by: none where no mend is left, as a world played again unmended)
            k = world._verified
            inside = list(map(set, map(world.st.zones.__getitem__, self.hidden))) if self.repairs > 0 else None
            try:
                world = self.step(world, d)
                if inside is not None:
                    self.note(d, k, world._verified, inside)
                if self.redrew or world.st.rng.used != used:  # (else neither keeps anything)
                    prev = later.made() if later is not None else None
                    self.dealt(world, used, d, prev)
                    run = self.ran(run, prev, d)
                else:
                    self.over_own(run, d)
                d += 1
                continue
            except RuleError:
                misfit = _Misfit("the rules failed")
            except _Misfit as err:
                misfit = err
            if run is not None and run.tries < run.most and d - run.last <= _REDRAWN_REACH:
                world, d = self.run_again(run)
                continue
            world = self.mended(later.made() if later is not None else None, d, misfit)
            run = None
            d += 1
        return world

    def anew_from(self, d: int) -> None:
        """The world is played from before answer `d` (again): the copies kept of it from there on, and what its answers
        drawn anew found from there on, are dropped (they are kept again as it goes); what they find is noted from
        there on, if not from earlier."""
        if self.marks and self.marks[-1].d >= d:
            self.marks = [mark for mark in self.marks if mark.d < d]
        found = self.found
        if found and max(found) >= d:
            self.found = {k: v for k, v in found.items() if k < d}
        if self.whole is None or self.whole > d:
            self.whole = d

    def ran(self, run: _Run | None, prev, d: int) -> _Run | None:
        """The last run of other seats' answers drawn anew after answer `d` (`_Run`). A run may be drawn again
        `_REDRAWS` times, or twice as many times as its secret answers have ways to go together (their options
        multiplied), up to `_REDRAWS_MOST`: secret answers show only later, together (contracts shown at once), so
        only a draw of them all together tells whether they fit (the last one's options are tried in turn; another
        seat's pick of a card the seat did not see shows at once)."""
        if not self.redrew or prev is None:
            return run
        if run is None or not run.first <= d <= run.last + 1:
            run = _Run(prev, d, self.run_mark)
        if d > run.last:  # the run goes on (else it is drawn again: its draws left as they are)
            run.last = d
            if self.decisions[d][2]:
                run.ways = min(run.ways * self.options, _REDRAWS_MOST)
                run.most = max(_REDRAWS, min(2 * run.ways, _REDRAWS_MOST))
        return run

    def run_again(self, run: _Run) -> tuple[Any, int]:
        """The run of other seats' answers drawn anew (`ran`) to be drawn again, where what the seat saw next may tell
        them (contracts shown), before any card is traded: the world before its first answer, with its chance as it
        stood there, and that answer."""
        run.tries += 1
        world, d = run.before.clone(), run.first
        self.chance_back(run.chance)
        self.snaps = [snap for snap in self.snaps if snap.d < d]
        self.anew_from(d)
        self.known = None  # (a run drawn again: from here the world may be other than the kept one)
        return world, d

    def chance_mark(self, world) -> tuple[int, int, int] | None:
        """Where `world`'s chance stands, to set it back to (`chance_back`) where the outcomes from here on are drawn as
        they come (not read back from an earlier drawing): (the outcomes drawn so far, those of them drawn anew, where
        those were drawn); else None. The real generator's copy is kept lazily (`_Source.run_from`)."""
        source, pos = self.source, world.st.rng.pos
        mark = (pos, source.anew, len(source.anews)) if pos == len(source.events) else None
        source.run_from(pos if mark is not None else None)
        return mark

    def chance_back(self, mark: tuple[int, int, int] | None) -> None:
        """The world's chance set back to `mark` (`chance_mark`): what a run that failed drew is dropped."""
        if mark is not None:
            source = self.source
            source.rewind_run(mark[0])
            source.anew = mark[1]
            del source.anews[mark[2]:]

    def over_own(self, run: _Run | None, d: int) -> None:
        """The run of other seats' answers drawn anew (if any) goes on over answer `d` where that is the seat's own
        secret answer right after it: a round answered at once, the seat among those asked (what the seat sees next, as
        contracts shown together, tells all of the round's answers, so all of them are drawn again)."""
        if run is not None and run.last == d - 1 and self.decisions[d][2]:
            run.last = d

    def mended(self, prev, d: int, misfit: _Misfit):
        """The world after answer `d`, mended from `prev` (the world before it) where it gave `misfit`; the
        misfit raised again where the mends left (`self.repairs`) find none."""
        reached, flat = misfit.reached, 0
        self.unanswered = isinstance(misfit, _Unanswered)
        self.moved_last = misfit.moved_last
        self.stepped = set()
        self.lines_at = prev._verified if prev is not None else 0
        while True:
            if self.repairs <= 0 or flat > _FLAT or prev is None:
                raise misfit
            self.repairs -= 1
            mend = self.repair_thorough(prev, d, reached, misfit.blocked) if self.thorough else \
                self.repair(prev, d, reached, misfit.blocked if misfit.instead else None)
            if mend is None:
                raise misfit
            done, prev, now = mend
            if done:
                # (its probes gave answers on worlds of other drawings: what answers drawn anew find is noted again by
                # a pass to come)
                self.found, self.whole, self.known = {}, None, None
                return prev
            flat = flat + 1 if now <= reached else 0  # mends that get no further: give up soon
            reached = now

    def again(self, start: tuple | None, old, swaps: list[tuple[int, int, int]]) -> tuple:
        """`start` (as for `play`) with the answers of `old`, a world of an earlier drawing, given again
        from there, each card answered traded as `swaps` trade it ((shuffle, x, y): x and y traded from
        that shuffle on); nothing compared on the way (`play` compares what the seat observed after).
        Returns (the world, the answer it is before); `_Misfit` where an answer is no option."""
        world, d0 = start if start is not None else (self.start(), 0)
        answers = _answers_from(old, d0)
        dealing, chanced, open_at = self.tr.dealing, self.tr.picked or self.tr.rolls, self.open_at
        traded: dict[int, int] = {}  # the trades of the shuffles dealt so far, as one map (made again as they are)
        upto = -1
        for d, e in enumerate(answers, d0):
            who = e[1]
            ask = world._ask_of(who)
            if ask is None:
                raise _Misfit(f"P{who} is not asked here")
            prev, used = world.backup() if d in dealing else None, world.st.rng.used
            if d == open_at:
                self.opening(world, prev, used, d)
            if e[5] >= 0:  # a card: the one this drawing puts where the old one lay
                if used != upto:
                    traded, upto = _trades(swaps, used), used
                value = traded.get(e[3], e[3])
                options = ask[1]
                action = options.index(value) if value in options else -1
            else:
                action = _labelled(world, ask, e[3])
            if action < 0:
                raise _Misfit("the answer given is not an option here")
            if chanced:
                world = self.chanced(world, d, lambda w, _, who=who, action=action: _applied(w, who, action), True)
            else:  # (the real match's chance was its shuffles': see `chanced`)
                world.apply(who, action)
            if world.st.rng.used != used:
                self.dealt(world, used, d, prev)
        return world, d0 + len(answers)

    def dealt(self, world, used: int, d: int, prev) -> None:
        """After answer `d`: if `world` shuffled in it (as the real match did), keep `prev`, the copy
        taken before it, to play again from; `_Misfit` if it shuffled where no copy was taken."""
        if world.st.rng.used != used:
            if prev is None:
                raise _Misfit("a shuffle the real match did not have")
            self.snaps.append(_Snap(used, d, prev))

    def opening(self, world, prev, used: int, d: int) -> None:
        """Before answer `d`: if it opens the question still open in the match, keep a copy of `world`."""
        if d == self.open_at:
            self.opened = _Snap(used, d, prev.clone() if prev is not None else world.backup())

    def before(self, d: int, deal: int | None) -> tuple | None:
        """Where to play again from to give answer `d` and those after anew, the drawing changed from shuffle
        `deal` on (None: not changed): the last copy kept before both, on this drawing's chance (None: the
        start)."""
        self.snaps = [snap for snap in self.snaps if snap.d <= d and (deal is None or snap.used <= deal)]
        opened = self.opened
        if opened is not None and opened.d <= d and (deal is None or opened.used <= deal) and \
                (not self.snaps or opened.d > self.snaps[-1].d):
            self.marks = [mark for mark in self.marks if mark.d <= opened.d]
            return _rechanced(opened.world, self.plan, self.source), opened.d
        return self.last()

    def resume(self, deal: int) -> tuple | None:
        """Where to play again from after the drawing changed from shuffle `deal` on: the last copy kept
        before the answer that dealt it, on this drawing's chance (None: the start)."""
        self.snaps = [snap for snap in self.snaps if snap.used <= deal]
        return self.last()

    def last(self) -> tuple | None:
        """The last copy kept, taken off the list (it is taken again when its answer is given again), on
        this drawing's chance; None: the start."""
        if not self.snaps:
            self.marks = []
            return None
        snap = self.snaps.pop()
        self.marks = [mark for mark in self.marks if mark.d <= snap.d]
        return _rechanced(snap.world, self.plan, self.source), snap.d

    def marked(self, mark: _Snap) -> tuple:
        """Where to play again from to give the answers since `mark` (a copy of the last world before one of the
        seat's answers) anew, the drawing unchanged: that copy, on this drawing's chance."""
        self.snaps = [snap for snap in self.snaps if snap.d <= mark.d]
        self.marks = [other for other in self.marks if other.d <= mark.d]
        return _rechanced(mark.world, self.plan, self.source), mark.d

    @property
    def card(self) -> list[int]:
        return self.plan.card

    @card.setter
    def card(self, card: list[int]) -> None:
        self.plan.card = card

    def start(self):
        """A new world at its start, its shuffles to deal the drawing's orders (set up again, its chance drawn
        anew, where an outcome of the set-up drawn anew parts from what the seat observed: see `step`)."""
        m, source = self.match, self.source
        tries = _REDRAWN_CHANCE if -1 in self.tr.unseen and (-1 in self.tr.drawn or -1 in self.tr.maybe) and \
            not source.events and \
            source.rng is not None else 1
        for k in range(tries):
            if k:
                del source.events[:]
            world = match_class(m)(m.game, m.players, m.seed, chance=_WorldChance(self.plan, source),
                                   arrange=self.arranged(), after_setup=m._after_setup)
            world._verified = 0
            if k + 1 == tries or self.reached(world) < 0:
                break
        return world

    def arranged(self) -> dict[str, list[str]] | None:
        """The real match's `arrange` (a set-up that puts named cards on top of zones) as this world makes it: each
        card named there moves the card the drawing puts on that card's path, not the card of that name (which
        would put the real match's unseen cards where they lay in it, in every world)."""
        arrange = self.match._arrange
        if not arrange:
            return arrange
        ids = self.match.layout.card_ids
        index = {cid: c for c, cid in enumerate(ids)}
        named = [index.get(cid, -1) for cards in arrange.values() for cid in reversed(cards)]
        moves, n = self.tr.arranged, len(named)
        at = next((k for k in range(len(moves) - n, -1, -1) if [c for c, _ in moves[k:k + n]] == named), None)
        if at is None:  # (the set-up's moves not walked: an arrangement the match refused)
            return arrange
        paths = iter([p for _, p in moves[at:at + n]])
        return {zone: [ids[self.card[next(paths)]] for _ in cards][::-1] for zone, cards in arrange.items()}

    def step(self, world, d: int, redo: bool = True):
        """`world` after answer `d`, given again; `_Misfit` if the seat would observe something else. Where the
        answer's chance is drawn now and an outcome of it anew (a random card, player or place: see `_Source`),
        a world that parts is played again from before the answer with the outcomes drawn anew, up to
        `_REDRAWN_CHANCE` times: the seat's observations keep the outcomes it saw, the others are drawn by their
        real probabilities among those that fit. (`redo` False: a mend's probe, given once as drawn.)"""
        return self.chanced(world, d, self.answered, redo=redo)

    def chanced(self, world, d: int, give: Any, check: bool = False, redo: bool = True):
        """`give(world, d)`: `world` after answer `d` (see `step`), played again with its chance drawn anew where
        it parts from what the seat observed and an outcome of it may be drawn anew (`check`: compared here,
        where `give` does not compare); `_Misfit` where none fits."""
        source, tr = self.source, self.tr
        if not tr.picked and not tr.rolls:  # the real match's chance was its shuffles': nothing to follow
            return give(world, d)
        mark = world.st.rng.pos  # the answer's chance is drawn now (nothing recorded past it): it may be drawn again
        fresh = redo and mark == len(source.events) and source.rng is not None and d in tr.unseen and \
            (d in tr.drawn or d in tr.maybe)
        backup = world.backup() if fresh else None
        if fresh:
            source.attempt(mark)
        for k in range(_REDRAWN_CHANCE):
            if k and backup is not None:
                source.rewind(mark)
                world = backup.clone()
            chance = world.st.rng
            chance.begin(d)
            chance.watch = world._watch
            k0, anew, placed = len(world._watch.events), source.anew, len(source.anews)
            try:
                got = give(world, d)
                if source.anew != anew:
                    self.learned_seen(got, placed)  # (for the worlds to come: this one fits as drawn)
                    self.aligned(got, d, k0)
                    if check and self.reached(got) >= 0:
                        raise _Misfit("the seat would see something else")
                return got
            except _Misfit:
                if backup is None or d not in tr.drawn or k + 1 == _REDRAWN_CHANCE:
                    raise
                self.learned_seen(world, placed)
            finally:
                del source.anews[placed:]
        raise AssertionError("unreachable")

    def learned_seen(self, world, placed: int) -> bool:
        """Whether an outcome drawn anew in `world` since the `placed`-th (`_Source.anews`) drew a card the seat then
        saw move (the next card the world moved after it): if so, that outcome is the real one from now on, in
        every world of the match (`_Source.kept`), as the seat saw it."""
        events, bit, kept = world._watch.events, self.bit, self.source.kept
        learned = False
        for d, j, q in self.source.anews[placed:]:
            move = next((e for e in events[q:] if e[0] == MOVE), None)
            if move is not None and (move[7] | move[8]) & bit and (d, j) not in kept:
                kept.add((d, j))
                learned = True
        return learned

    def aligned(self, world, d: int, k0: int) -> None:
        """After answer `d`, whose chance was drawn anew: each card the world moved where the seat did not see it
        (its events from the `k0`-th on) set against the path of the card the real match moved there, in turn.
        Where the world moved another card (a random pick drawn anew), the two go each other's way from here on
        (`_WorldChance.swap`); `_Misfit` where a path the seat sees after that move would then carry another face,
        or the world moved cards unseen where the real match did not."""
        tr, bit, faces, plan = self.tr, self.bit, self.faces, self.plan
        chance = world.st.rng
        hid = tr.hid.get(d, [])
        moved: list[int] = [e[1] for e in world._watch.events[k0:] if e[0] == MOVE and not (e[7] | e[8]) & bit]
        if len(moved) != len(hid):
            raise _Misfit("cards moved unseen where the real match moved others")
        swap: dict[int, int] = dict(chance.swap)
        for (i, s), y in zip(hid, moved, strict=True):
            x = swap.get(plan.card[s], plan.card[s])
            if x == y:
                continue
            back: dict[int, int] = {v: k for k, v in swap.items()}
            by, bx = back.get(y, y), back.get(x, x)  # the drawing's cards that go the ways of y and x
            if self.seen_since(i, bx, faces[y]) or self.seen_since(i, by, faces[x]):
                raise _Misfit("a card drawn at random the seat sees later is another")
            swap[bx], swap[by] = y, x
        chance.swap = {k: v for k, v in swap.items() if k != v}
        chance.swaps = (*chance.swaps, (chance.pos, chance.swap))

    def seen_since(self, i: int, c: int, face: Any) -> bool:
        """Whether the seat sees, after the match's `i`-th event, a path the drawing puts card `c` on, with a face
        other than `face`."""
        tr, card = self.tr, self.plan.card
        return any(card[t] == c and tr.sighted.get(t, -1) > i and tr.need[t] not in (None, face)
                   for t in range(len(card)))

    def answered(self, world, d: int):
        """`world` after answer `d`, given again (see `step`)."""
        who = self.match.history[d][0]
        e, pick, tr = self.decisions[d], self.tr.picks[d], self.tr
        reached = self.reached(world)
        if reached >= 0:  # asked something else, or told something else on the way
            raise _Misfit("the seat would see something else", reached)
        ask = world._ask_of(who)
        if ask is None:
            raise _Misfit(f"P{who} is not asked here", world._verified)
        options = ask[1]
        if ask[2] == K_CARD and pick >= 0 and (who == self.seat or tr.sighted.get(pick, -1) >= tr.marks[d]
                                               or pick in tr.chosen or d in tr.left):
            # the card its path carries: one the seat saw at or after the answer (so it knows which was
            # chosen), or one that left a hand unseen, one of those of its back there, as the drawing has it
            # (the only one, where the seat tells it by its back). A card whose face the seat knew only before
            # (a hand it knew all of) is no sign of which was chosen: that answer is drawn anew below
            c = world.st.rng.card(self.plan.card[pick])  # (`card`, read where it is needed)
            action = options.index(c) if c in options else -1
        elif who != self.seat and (e[2] or pick >= 0):
            # another seat's secret answer, or its pick of a card the seat did not see that stays where it
            # is: any option after which the seat observes the same, drawn uniformly
            self.redrew = True
            return self.redraw(world, who, d)
        else:
            action = _labelled(world, ask, e[3])
        if action < 0:  # (the options to trade away, where they are cards: a choice of a player or a place is not)
            raise _Misfit("the answer given is not an option here", world._verified,
                          (who, options) if ask[2] == K_CARD else None)
        k0, lines0 = len(world._watch.events), world._verified
        world.apply(who, action)
        reached = self.reached(world)
        if reached >= 0:
            misfit = _Misfit("the seat would see something else", reached, self.asked_instead(world, reached), True)
            misfit.moved_last = self.last_move(world, reached, k0, lines0)
            raise misfit
        return world

    def last_move(self, world, reached: int, k0: int, lines0: int) -> int:
        """The card of the last move `world` made giving an answer before the observation where it parted from what
        the seat observed (its `reached`-th; the answer's events from the `k0`-th on, its lines from the `lines0`-th,
        a line a move): a card drawn that let a player stop drawing where the real one drew on. -1 where the seat saw
        no move of the answer first."""
        lines = _lines_from(world._seen[self.seat], lines0)[:reached - lines0]
        seen = sum('"event":"move"' in line for line in lines)
        moves = [e[1] for e in world._watch.events[k0:] if e[0] == MOVE]
        return moves[seen - 1] if 0 < seen <= len(moves) else -1

    def asked_instead(self, world, reached: int) -> tuple[int, list[Any]] | None:
        """Where `world` parted from what the seat observed (its `reached`-th observation) by asking a player
        to choose a card, that player and its options: the cards that let it choose where in the real match
        it could not (as a playable card in a hand that had none). Else None."""
        line = next(iter(_lines_from(world._seen[self.seat], reached)), "")
        if '"type":"ask"' not in line:
            return None
        q = json.loads(line).get("who")
        ask = world._ask_of(q) if q.__class__ is int else None
        return (q, ask[1]) if ask is not None and ask[2] == K_CARD else None

    def reached(self, world) -> int:
        """-1 if the seat observed the same in `world` so far, else how many observations matched first.
        (A world carries how many it is known to match, `_verified`: only the lines since are compared.)"""
        cache = world._seen[self.seat]
        _catch_up(world, self.seat, cache)
        k, want = world._verified, self.want
        if cache.count == k:
            return -1
        lines = _lines_from(cache, k)
        wanted = _window(want, k, k + len(lines))  # as many as the world has new (fewer where the seat saw fewer)
        if lines == wanted:  # (compared in C: the common case)
            world._verified = cache.count
            return -1
        for j, (line, told) in enumerate(zip(lines, wanted, strict=False), k):
            if line != told:
                return j
        if len(lines) > len(wanted):
            return k + len(wanted)
        world._verified = cache.count
        return -1

    def fits(self, world) -> bool:
        """The seat observed all it did, and sees now what it sees, in `world`: its information state is the
        same as in the real match."""
        return self.reached(world) == -1 and world._verified == len(self.want) and \
            view_json(world, self.seat) == self.want_view

    def redraw(self, world, who: int, d: int):
        """`world` after `who` answered (answer `d`) with an option drawn uniformly among those after which the seat
        observes what it did (up to the next question); `_Misfit` if none does. The options are tried in a random
        order (one drawn ahead for the answer, `orders`, where there is one), the first that fits taken. Where no
        chance follows an answer, an option is the same on the same world: one the kept world found to fail there
        is not tried again while this world is that one as it stood (`known`), and what this answer found is noted
        (`found`, see `_orders_ahead`)."""
        actions, n, known, failed = self.options_to_try(world, who, d)
        self.options = n
        furthest = 0
        # a copy rebuilt from its kept base holds its chance as it stood there (its outcomes read back since): the
        # answer being given, its outcomes so far and the cards traded are set back as they stood before the first
        # option, and what an option that failed drew is dropped (the next one draws its own)
        chance = world.st.rng
        now, mark = (chance.at, chance.rolled, chance.picked, chance.swap, chance.swaps), chance.pos
        source = self.source
        drawn, anew, placed = mark == len(source.events), source.anew, len(source.anews)
        if drawn:
            source.attempt(mark)
        # an option stops at the seat's first line that differs where its flow would draw no chance on (see `_Checked`)
        stop = not world.game.chance_after_answers
        for k, action in enumerate(actions):
            backup = world.clone() if k + 1 < len(actions) else None
            chance = world.st.rng
            chance.at, chance.rolled, chance.picked, chance.swap, chance.swaps = now
            watch = chance.watch = world._watch
            plain = self.watched(world, watch) if stop else watch.events
            try:
                try:
                    world.apply(who, action)
                finally:  # (the world, kept or not, records on as any world does)
                    if watch.events is not plain:
                        watch.events = list(watch.events)
                reached = self.reached(world)
                if reached < 0:
                    if stop:
                        self.noted(d, (n, action, failed.union(actions[:k])), known)
                    return world
                furthest = max(furthest, reached)
            except _Parted as parted:  # (as `reached` would have told once the flow went on to its next question)
                furthest = max(furthest, parted.reached)
            except RuleError:
                pass
            if backup is None:
                break
            if drawn:
                source.rewind(mark)
                del source.anews[placed:]
                source.anew = anew
            world = backup
        raise _Unanswered("no answer of another player fits what the seat saw", furthest)

    def options_to_try(self, world, who: int, d: int
                       ) -> tuple[list[int], int, tuple[int, int, frozenset[int]] | None, frozenset[int]]:
        """The options of `who`'s answer `d` to try, in order (see `redraw`), how many it has, what the kept world found
        of it while this world is that one as it stood (or None), and the options that found to fail (not tried)."""
        actions = world.legal_actions(who)
        n = len(actions)
        order = self.orders.pop(d, None) if self.orders else None
        if order is not None and len(order) == n:
            actions = order
        else:
            self.rng.shuffle(actions)
        known = self.known.get(d) if self.known is not None else None
        failed = known[2] if known is not None and known[0] == n else frozenset()
        if failed:
            actions = [a for a in actions if a not in failed]
        return actions, n, known, failed

    def noted(self, d: int, found: tuple[int, int, frozenset[int]], known: tuple[int, int, frozenset[int]] | None
              ) -> None:
        """What answer `d`, drawn anew, found (its options, the one taken, those known to fail), where no chance follows
        it; the world after it is the kept one as it stood no more where the kept world's took another."""
        self.found[d] = found
        if known is None or found[1] != known[1]:
            self.known = None

    def watched(self, world, watch) -> list:
        """`world`'s record as it stands, its events from now on checked as they are recorded (`_Checked`), where the
        seat's observations so far are rendered and known to match; the record before, to go back to."""
        plain, cache = watch.events, world._seen[self.seat]
        if cache.events != len(plain) or cache.count != world._verified:
            return plain
        if watch.owners[0] > 1:  # (as its first event would)
            watch.own()
            plain = watch.events
        watch.events = _Checked(plain, world, self.seat, self.want, cache.count, cache.last)
        return plain

    def repair(self, prev, d: int, reached: int, blocked: tuple[int, list[Any]] | None = None
               ) -> tuple[bool, Any, int] | None:
        """Look for two cards the seat cannot tell apart (dealt by one shuffle: one on a free path now,
        first in a zone that answer `d` touches, the other down a free path of that shuffle) whose swap,
        from that shuffle on, lets `prev` (the world just before answer `d`) give the answer as the seat
        saw it; try each on a copy of `prev` relabeled from its kept base. The first that fits goes into
        the drawing: (True, the mended world after the answer, -1). If none fits, the one that takes the
        seat's observations furthest (as far as `reached`, where the answer failed, at least) does, to
        mend on from: (False, that world before the answer, how far it reached). None if no swap does. First, where
        the world asked a player to choose a card where the real match did not (`blocked`: the player, its options),
        those options all traded away at once (`blocked_first`): a hand that held a card to play where the real one
        had none holds several as often as one, and no single swap of one of them gets the world any further. (Not
        where the answer was none of the options: a hand that must hold a card it asked for, as in Go Fish, needs
        that card brought in, not the others sent away.)"""
        if prev._base is None:
            return None
        best: tuple[int, Any, Any, int, tuple] = (reached, None, None, -1, ())
        swaps: list[tuple[tuple[int, int, int], ...]] = [(pair,) for pair in self.pairs(prev, d, reached)[:_PROBES]]
        if blocked is not None:
            swaps[:0] = self.blocked_first(prev, d, blocked)
        for move, swapped, _, before, after, misfit in self.probed(prev, d, swaps):
            o = min(o for o, _, _ in move)
            if misfit is not None:
                if misfit.reached > best[0] or (misfit.reached == best[0] and best[1] is None):
                    best = (misfit.reached, swapped, before, o, move)  # as far or further: a step on the way
                continue
            self.card = swapped
            self.mark(o)
            self.moved_told(*move)
            self.learned(d, prev, reached, before, after, move)
            return True, after, -1
        if best[1] is None:
            return None
        self.card = best[1]
        self.mark(best[3])
        self.moved_told(*best[4])
        self.step_kept(c for _, x, y in best[4] for c in (x, y))
        return False, best[2], best[0]

    def blocked_first(self, prev, d: int, blocked: tuple[int, list[Any]]) -> list[tuple[tuple[int, int, int], ...]]:
        """The trades `repair` tries first where the world asked a player to choose among cards where the real
        match did not (`blocked`: the player, its options): those options traded all at once for cards of their
        shuffles out of the player's zones (`blocked_moves`)."""
        tr = self.tr
        alive = tr.alive[d]
        dealt = self.dealt_by(alive)
        ours = {self.card[s] for _, s in _alive(tr, alive) if tr.need[s] is None and self.card[s] in dealt}
        free = {o: self.dealt_free(o) for o in {dealt[x] for x in ours}}
        moves: list[tuple[tuple[int, int, int], ...]] = []
        self.blocked_moves(prev, blocked, ours, dealt, free, moves)
        return moves

    def step_kept(self, cards: Iterable[int]) -> None:
        """A step on the way (a mend that took the world further, not past the answer) of the answer being mended traded
        `cards`: a move that trades one of them again comes after those that do not, while that answer is mended (see
        `ranked`). Only where no option of another player fits its question (`unanswered`: a count a hand must hold);
        elsewhere (Crazy Eights, where a card's place in a pile parts the world) the steps kept found fewer worlds
        (`benchmarks/hard_points.py`: no world in 10 of 40 fresh draws at its point, against 5)."""
        if self.unanswered:
            self.stepped.update(cards)

    def pairs(self, prev, d: int, reached: int) -> list[tuple[int, int, int]]:
        """The swaps `repair` tries, in order, each (shuffle, x, y): a card on a free path at answer `d` and
        one of another face the same shuffle dealt down a free path (each card of a face the seat's lines of
        the answer named); first the cards of the zones the answer touched, then the others (a counter may tell
        of any hand), in the order `ranked` puts them. Where an option fits, first those that bring in a face the line
        where the world parted names, then (in a targeted drawing) those of the answer's own unseen card, then those of
        the card the world moved last before it parted (`moved_last`): Crazy Eights, a player draws until a card fits,
        and the world's player stopped at a card that fits where the real one drew on."""
        told = self.told_at(prev, reached) if self.unanswered else frozenset()
        near, far = self.alive_pairs(d, reached, told)
        for o in self.dealt_in(d):  # a shuffle the answer itself dealt: its cards on free paths traded among them
            free = self.dealt_free(o)
            by_face = _by_face(self.faces, free)
            for x in free:
                near.extend(self.traded_for(o, x, by_face, told))
        self.rng.shuffle(near)
        self.rng.shuffle(far)
        pairs = near + far
        last = self.moved_last
        if last >= 0 and not self.unanswered:
            pairs.sort(key=lambda pair: pair[1] != last)
        if self.targeted:
            pairs = self.own_card_first(d, pairs)
        if not self.unanswered:  # first the cards of the faces the line where the world parted names (`_named_in`)
            named = _named_in(self.match.layout, self.want[reached] if 0 <= reached < len(self.want) else "")
            pairs.sort(key=lambda pair: pair[2] not in named)
        return [move[0] for move in self.ranked([(pair,) for pair in pairs], prev, d, reached)]

    def alive_pairs(self, d: int, reached: int, told: frozenset
                    ) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
        """`pairs`' swaps of each card on a free path at answer `d` (in `_alive`'s order), those of the cards in the
        zones the answer touched apart from the others: first the trades that make a player choose another card
        from a hand where it chose this one since (`chosen_instead`; not where the answer's own card goes first),
        then its swaps with the cards of other faces its last shuffle dealt down free paths (`traded_for`)."""
        tr, card = self.tr, self.card
        alive, zone = tr.alive[d], tr.zone[d]
        touched = self.touched(d, reached)
        near: list[tuple[int, int, int]] = []
        far: list[tuple[int, int, int]] = []
        dealt, chose = self.dealt_by(alive), self.chosen_by(alive)
        free: dict[int, dict[Any, list[int]]] = {}  # shuffle -> `dealt_free` by face (once a call: a hand's cards
        # mostly came by one)
        for r, s in _alive(tr, alive):
            if tr.need[s] is not None:
                continue
            x = card[s]
            o = dealt.get(x, -1)
            into = near if zone[r] in touched else far
            if chose.get(x, -1) > o and not self.targeted:
                into.extend(self.chosen_instead(chose[x], x))
            if o >= 0:
                if o not in free:
                    free[o] = _by_face(self.faces, self.dealt_free(o))
                into.extend(self.traded_for(o, x, free[o], told))
        return near, far

    def dealt_free(self, o: int) -> list[int]:
        """The cards shuffle `o` dealt down free paths, in the order of `_by_role`."""
        tr, card = self.tr, self.card
        return [card[t] for t in _by_role(tr, tr.mixes[o][2]) if tr.need[t] is None]

    def traded_for(self, o: int, x: int, free: dict[Any, list[int]], told: frozenset) -> list[tuple[int, int, int]]:
        """The swaps (o, x, y) of card `x` with one card of each other face of `free` (the cards shuffle `o` dealt
        down free paths, by face: `_by_face`), drawn at random, or with each of a face the seat's lines named (`told`,
        where no option of another player fit its question)."""
        rng, every, fx = self.rng, self.unanswered, self.faces[x]
        return [(o, x, y) for f, ys in free.items() if f != fx
                for y in (ys if every and f in told else (rng.choice(ys),))]

    def own_card_first(self, d: int, pairs: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """`pairs` with the swaps of the card answer `d` named first, where the seat never saw which card it was
        (a player's unseen choice: what the rules do next may tell its kind, as a question asked only of one
        kind of card, or what it does where it lies, as a face-down card that acts at its owner's turn). Else
        the one swap that explains the answer is one among hundreds."""
        tr = self.tr
        pick = tr.picks[d]
        if pick < 0 or tr.need[pick] is not None:
            return pairs
        x = self.card[pick]
        return sorted(pairs, key=lambda pair: pair[1] != x)

    def dealt_in(self, d: int) -> list[int]:
        """The shuffles (as mixes) dealt while answer `d`'s rules ran (a discard pile turned into a new stock in the
        middle of a player's draws): what the world parts on there may hang on their order, which no card on a
        path at the answer reaches."""
        tr = self.tr
        return [o for o, deal in tr.mix_deal.items() if tr.deal_at[deal] == d + 1 and tr.mixes[o][0] < 0]

    def chosen_by(self, alive: list[int]) -> dict[int, int]:
        """Card -> the last choice from a hand it was in (one of `mixes`), by the time each card is on its path of
        `alive`."""
        tr, card = self.tr, self.card
        last = max(alive)
        chose: dict[int, int] = {}
        for o, (kind, _, outgoing) in enumerate(tr.mixes):
            if kind >= 0 and outgoing[0] <= last:
                for t in outgoing:
                    chose[card[t]] = o
        return chose

    def chosen_instead(self, o: int, x: int) -> list[tuple[int, int, int]]:
        """The trades at choice `o` that make the player choose another card of the hand where it chose `x`, or
        `x` where it chose another (one card of each other face, down a path the seat did not see): what the
        rules do with the card chosen (a crate that makes its owner lose a card at every turn's end) may tell
        its kind, where no shuffle's trade can (the card was seen in the hand before)."""
        tr, card, faces = self.tr, self.card, self.faces
        kind, _, outgoing = tr.mixes[o]
        taken = outgoing[kind]
        if card[taken] == x:
            others = [t for t in outgoing if t != taken and tr.need[t] is None]
        else:
            others = [taken] if tr.need[taken] is None else []
        by_face: dict[Any, list[int]] = {}
        for t in _by_role(tr, others):  # (not the real hand's order: see `_by_role`)
            if faces[card[t]] != faces[x]:
                by_face.setdefault(faces[card[t]], []).append(card[t])
        return [(o, x, self.rng.choice(ys)) for ys in by_face.values()]

    def dealt_by(self, alive: list[int]) -> dict[int, int]:
        """Card -> the last shuffle that dealt it, by the time each card is on its path of `alive`."""
        tr, card = self.tr, self.card
        dealt: dict[int, int] = {}
        for o, (kind, _, outgoing) in enumerate(tr.mixes):
            if kind < 0 and outgoing[0] <= max(alive):
                for t in outgoing:
                    dealt[card[t]] = o
        return dealt

    def repair_thorough(self, prev, d: int, reached: int, blocked: tuple[int, list[Any]] | None = None
                        ) -> tuple[bool, Any, int] | None:
        """Look for a trade of cards the seat cannot tell apart (two cards dealt by one shuffle, one on a free
        path now, the other down a free path of that shuffle) that, from that shuffle on, lets `prev` (the
        world just before answer `d`) give the answer as the seat saw it; try each on a copy of `prev`
        relabeled from its kept base. `blocked`: (a player, its card options in the world) where the answer
        was none of them, or where the world asked that player and the real match did not; those options
        (the cards that forbid the answer, as a card of the suit led forbids another, or that let the
        player choose where it had nothing to play) are first traded away all at once. The first trade that
        fits goes into the drawing: (True, the mended world after the answer, -1). If none fits, the one
        that takes the seat's observations furthest (as far as `reached`, where the answer failed, at
        least) does, to mend on from: (False, that world before the answer, how far it reached). None if
        no trade does."""
        if prev._base is None:
            return None
        moves = self.candidates(prev, d, reached, blocked)
        best: tuple[int, Any, Any, int, bool, list[int]] = (reached, None, None, -1, False, [])
        # a trade that fits here, its answers since unchecked: the drawing, the world, the shuffle, the cards
        unchecked: tuple[list[int], Any, int, list[int]] | None = None
        checks = _CHECKS
        for move, swapped, relabel, before, after, misfit in self.probed(prev, d, moves):
            o = min(o for o, _, _ in move)
            if misfit is not None:
                if misfit.reached > best[0] or (misfit.reached == best[0] and best[1] is None):
                    # as far or further: a step on the way
                    best = (misfit.reached, swapped, before, o, relabel, [c for _, x, y in move for c in (x, y)])
                continue
            if not relabel and self.changed is None:
                self.card = swapped
                self.traded.update(c for _, x, y in move for c in (x, y))
                self.moved_told(*move)
                self.learned(d, prev, reached, before, after, move)
                return True, after, -1
            # traded before the copy's base (now or by a mend on the way): the answers given between that
            # shuffle and the base have not seen the traded cards; given again first, they may part earlier
            # (then it is kept in case no trade passes, and the world played again is mended there)
            if unchecked is None:
                unchecked = (swapped, after, o, [c for _, x, y in move for c in (x, y)])
            if checks <= 0:
                break
            checks -= 1
            checked = self.checked(swapped, o, d, move)
            if checked is not None:
                return True, checked, -1
        return self.fallback(unchecked, best)

    def probed(self, prev, d: int, moves: list[tuple[tuple[int, int, int], ...]]):
        """The first `_PROBES` of `moves`, as long as the draw's budget of probes lasts, each made on the drawing
        and tried on a copy of `prev` (`tried`), but those that would show the seat another face or whose copy
        does not fit: (the move, the drawing with it, whether it reaches before the copy's kept base, the copy
        before answer `d`, the world after it or None, where it parted or None). A move made again (x traded for y
        and y for x are one trade) is not tried again: on the same copy it gives the same world, its answer and what
        the seat observes after it the same (but for chance drawn anew), so it would fail where it failed."""
        kept = self.card
        dealt_before = prev._base[1][-1][1].used  # the shuffles the copy's kept base had dealt
        made: set[frozenset] = set()
        for move in moves[:_PROBES]:
            if self.budget[0] <= 0:
                return
            trades = frozenset((o, frozenset((x, y))) for o, x, y in move)
            if trades in made:
                continue
            made.add(trades)
            self.budget[0] -= 1
            swapped, pi, relabel = self.moved_cards(move, kept, dealt_before)
            if swapped is None:
                continue
            tried = self.tried(prev, d, swapped, pi)
            if tried is not None:
                yield move, swapped, relabel, *tried

    def checked(self, swapped: list[int], o: int, d: int, move: tuple[tuple[int, int, int], ...]):
        """The world after answer `d` along the drawing `swapped` (the trades of `move`, the first at shuffle
        `o`), played again from before that shuffle (`verify`), the drawing kept; None where it parts."""
        kept, tr = self.card, self.tr
        self.card = swapped
        deal = tr.mix_deal[o] if self.changed is None else min(self.changed, tr.mix_deal[o])
        checked = self.verify(deal, d)
        self.card = kept
        if checked is None:
            return None
        self.card, self.changed = swapped, None
        self.traded.update(c for _, x, y in move for c in (x, y))
        self.moved_told(*move)
        return checked

    def moved_cards(self, move: tuple[tuple[int, int, int], ...], kept: list[int], dealt_before: int
                    ) -> tuple[list[int] | None, list[int], bool]:
        """The drawing `kept` with the trades of `move` made (None if a path the seat sees would then carry
        another face), the relabeling of the copy's kept base they make, and whether they reach before it."""
        tr, faces = self.tr, self.faces
        swapped: list[int] | None = kept
        pi = list(range(len(faces)))
        relabel = False
        for o, x, y in move:
            swapped = _swapped(tr, faces, swapped, o, x, y) if swapped is not None else None
            # a shuffle that came before the copy's base: relabeled there; so is another choice from a hand, so that
            # the answer that made it, given again after the base, names the other card
            if o not in tr.mix_deal or tr.mix_deal[o] < dealt_before:
                relabel = True
                i, j = pi.index(x), pi.index(y)
                pi[i], pi[j] = y, x
        return swapped, pi, relabel

    def fallback(self, unchecked: tuple[list[int], Any, int, list[int]] | None,
                 best: tuple[int, Any, Any, int, bool, list[int]]) -> tuple[bool, Any, int] | None:
        """Where no trade passed its checks: the first that fit here, its answers since unchecked; else the
        one that took the seat's observations furthest, to mend on from; else None (see `repair_thorough`)."""
        if unchecked is not None:
            self.card = unchecked[0]
            self.traded.update(unchecked[3])
            self.mark(unchecked[2])
            return True, unchecked[1], -1
        if best[1] is None:
            return None
        self.traded.update(best[5])
        self.step_kept(best[5])
        self.card = best[1]
        if best[4]:
            self.mark(best[3])
        return False, best[2], best[0]

    def candidates(self, prev, d: int, reached: int, blocked: tuple[int, list[Any]] | None
                   ) -> list[tuple[tuple[int, int, int], ...]]:
        """The trades `repair` tries, in order: each a tuple of (shuffle, x, y), x and y traded from that
        shuffle on."""
        tr, card, faces, rng = self.tr, self.card, self.faces, self.rng
        alive, zone = tr.alive[d], tr.zone[d]
        touched = self.touched(d, reached)
        # the cards of faces the seat was told of (of the answer, up to where the world parted), by how
        # close to that point they were named
        named: dict[int, int] = {}
        for k in range(reached, min(prev._verified, reached) - 1, -1) if reached < len(self.want) else ():
            for c in _named_in(self.match.layout, self.want[k]):
                named.setdefault(c, reached - k)
        who, owner = self.match.history[d][0], self.match.layout.zone_owner
        # then the cards of the zones of the player answering, of the players' zones the answer touched, of
        # the other zones it touched, and the others (a counter may tell of any hand)
        rank: dict[int, int] = {}
        later: dict[int, int] = {}  # a card further down its zone came there later: fewer answers since hang on it
        dealt = self.dealt_by(alive)
        pairs: list[tuple[int, int, int]] = []
        free: dict[int, list[int]] = {}  # shuffle -> the cards it dealt down free paths
        for r, s in _alive(tr, alive):
            x = card[s]
            o = dealt.get(x, -1)
            if o < 0 or tr.need[s] is not None:
                continue
            if o not in free:
                free[o] = self.dealt_free(o)
            by_face: dict[Any, list[int]] = {}  # the other cards that shuffle dealt down free paths, by face
            for y in free[o]:
                if faces[y] != faces[x]:
                    by_face.setdefault(faces[y], []).append(y)
            zi = zone[r]
            rank[x] = 0 if owner[zi] == who else 1 if zi in touched and owner[zi] >= 0 else 2 if zi in touched else 3
            later[x] = -prev.st.zones[zi].index(x) if x in prev.st.zones[zi] else 0
            # one card of each other face, every card of the faces the seat was told of
            pairs.extend((o, x, y) for ys in by_face.values() for y in (ys if ys[0] in named else (rng.choice(ys),)))
        rng.shuffle(pairs)
        # a card no player holds (still in a pile: no answer so far hung on it) is traded in first
        owned = {c for zi, z in enumerate(prev.st.zones) if owner[zi] >= 0 for c in z}
        traded = self.traded  # cards an earlier mend traded: trading them again would likely undo it
        turn: dict[tuple[int, int], int] = {}  # (how close y was named, x) -> pairs of x so far: x's in turn
        order = []
        for _o, x, y in pairs:
            n = named.get(y, len(self.want))
            k = turn[n, x] = turn.get((n, x), -1) + 1
            order.append((n, x in traded or y in traded, y in owned, rank[x], k, later[x]))
        # first the faces the seat was told of, closest first; then the cards of the answering player's zones
        moves: list[tuple[tuple[int, int, int], ...]] = self.ranked(
            [(pair,) for _, pair in sorted(zip(order, pairs, strict=True), key=lambda kp: kp[0])], prev, d, reached)
        if blocked is not None:
            self.blocked_moves(prev, blocked, rank, dealt, free, moves)
        return moves

    def blocked_moves(self, prev, blocked: tuple[int, list[Any]], rank: Container[int], dealt: dict[int, int],
                      free: dict[int, list[int]], moves: list[tuple[tuple[int, int, int], ...]]) -> None:
        """Put first in `moves`: the options the player had instead (`blocked`), each traded for a card of the
        same shuffle out of its zones, all at once (up to _BLOCKED such trades)."""
        owner, rng = self.match.layout.zone_owner, self.rng
        q, options = blocked
        mine = {c for zi, z in enumerate(prev.st.zones) if owner[zi] == q for c in z}
        xs = [x for x in options if x.__class__ is int and x in rank and x in mine]
        for _ in range(_BLOCKED if xs else 0):
            move, used = [], set(xs)
            for x in xs:
                o = dealt[x]
                ys = [y for y in free[o] if y not in used and y not in mine]
                if not ys:
                    break
                y = rng.choice(ys)
                used.add(y)
                move.append((o, x, y))
            else:
                moves.insert(0, tuple(move))

    def verify(self, deal: int, d: int):
        """The world played again along the drawing from the last copy kept before shuffle `deal`, up to and
        including answer `d`, with no mends; None where it parts from what the seat observed."""
        snaps, marks = self.snaps[:], self.marks[:]
        start = self.resume(deal)
        world, d0 = start if start is not None else (self.start(), 0)
        try:
            for k in range(d0, d + 1):
                prev = world.clone() if k in self.tr.dealing else None
                used = world.st.rng.used
                world = self.step(world, k, False)
                self.dealt(world, used, k, prev)
        except (_Misfit, RuleError):
            self.snaps, self.marks = snaps, marks
            return None
        return world

    def tried(self, prev, d: int, swapped: list[int], pi: list[int]) -> tuple[Any, Any, _Misfit | None] | None:
        """`prev` (the world before answer `d`) relabeled by `pi` from its kept base, the drawing `swapped` dealt
        by its shuffles after the base, and the answer given: (the copy before the answer, the world after it
        or None, where it parted from what the seat observed or None); None where the answers since the base
        no longer fit or the rules fail."""
        kept, self.card = self.card, swapped
        try:
            try:
                probe = match_class(prev).relabeled(prev, pi, self.seat, None)
            except _Misfit:
                return None
            if probe is None:
                return None
            probe._verified = min(prev._verified, probe._seen[self.seat].count)  # lines up to the base are kept
            before = probe.clone()
            try:
                return before, self.step(probe, d, False), None
            except _Misfit as misfit:
                return before, None, misfit
            except RuleError:
                return None
        finally:
            self.card = kept

    def note(self, d: int, k: int, upto: int, inside: list[set[int]]) -> None:
        """The world passed answer `d`, the seat's lines from the k-th up to `upto` matched: kept, with the cards
        the zones the seat does not see into held just before it."""
        self.told[d] = (k, upto, inside)
        self.named.pop(d, None)

    def named_at(self, d: int) -> frozenset:
        """The faces the seat's lines of answer `d` name (see `note`)."""
        named = self.named.get(d)
        if named is None:
            k, upto, _ = self.told[d]
            named = self.named[d] = frozenset().union(*(self.faces_named(j) for j in range(k, upto)))
        return named

    def faces_named(self, j: int) -> frozenset:
        """The faces the seat's j-th observation names (by id, or by a word of their text properties, as
        `_named_in`), kept with the trace: a line once observed stays as it was."""
        named = self.tr.named.get(j)
        if named is None:
            if self.words is None:
                self.words = _face_words(self.match.layout)
            pattern, faces = self.words
            named = self.tr.named[j] = frozenset().union(*(faces[w] for w in pattern.findall(self.want[j])))
        return named

    def ranked(self, moves: list[tuple[tuple[int, int, int], ...]], prev, d: int, reached: int
               ) -> list[tuple[tuple[int, int, int], ...]]:
        """`moves` (trades of cards, each (shuffle, x, y)), those likely to mend answer `d` without undoing another
        first. Last come a trade that mended this answer before (the world came back to it: a trade back and forth
        that each time fits from the copy's base but not played from the start), then (where no option of another
        player fits: `step_kept`) one that trades a card a step on the way of this answer's mends traded (it would
        undo the step: Go Fish, a hand that must ask for Sixes given one by a step, which the next mend trades away
        again to give the hand it asks a second one), then those that undo more counts an earlier mend set (see
        `learned`). Where no option of another player's fits its question (`unanswered`), first the trades that
        change, in a zone the answer is about, how many cards it holds of a face the seat's lines named at this
        answer up to where the world parted (`reached`): a hand must hold the rank it asked for; the others after
        them, in the order they came; and among the first, those that change fewer counts the rules may have read
        at the other answers the world passed: how many cards of a face the seat's lines named there a zone of
        another player held (Go Fish: a hand asked for a rank that held none). Else (a card's place in a pile, not
        a count, may be what parted the world: Crazy Eights' draws until a card fits; or a card answered whose kind
        the rules tell later) the order the moves came in, between equals."""
        if not self.unanswered:
            key = self.weigher(prev, d, reached)
            return moves if key is None else sorted(moves, key=key)
        relevant = self.bearing(prev, d, reached)
        first = [i for i, move in enumerate(moves) if relevant(move)]
        if not first:
            return moves
        key = self.weigher(prev, d, reached)
        assert key is not None
        chosen = set(first)
        return [moves[i] for _, i in sorted((key(moves[i]), i) for i in first)] + \
            [move for i, move in enumerate(moves) if i not in chosen]

    def bearing(self, prev, d: int, reached: int):
        """Whether a move at answer `d` changes, in a zone the answer is about, how many cards it holds of a face the
        seat's lines named at the answer up to where the world parted (`reached`; see `ranked`)."""
        faces, zones = self.faces, prev.st.zones
        now = {c: zi for zi in self.touched(d, reached) for c in zones[zi]}  # (a card lies in one zone at a time)
        told_now = self.told_at(prev, reached)

        def relevant(move: tuple[tuple[int, int, int], ...]) -> bool:
            return any((faces[x] in told_now or faces[y] in told_now) and now.get(x, -1) != now.get(y, -1)
                       for _, x, y in move)

        return relevant

    def weigher(self, prev, d: int, reached: int):
        """`ranked`'s key of a move at answer `d`: (whether it trades back a pair that mended this answer before,
        whether it trades a card a step on the way of this answer's mends traded (`stepped`), the counts pinned at
        the answers since its first shuffle it undoes, the counts the rules may have read there it changes). The
        last is worked out only where no option of another player fit its question (`unanswered`; else 0). None
        where the key is the same for every move (no count pinned, no pair mended this answer before, no step taken,
        and the counts changed not worked out)."""
        faces, told = self.faces, self.told
        counted = self.unanswered  # (else only the trades back and the counts undone are worked out)
        passed = sorted(e for e in told if e != d) if counted else []
        by_face, where = self.named_passed(passed)
        again = self.mends.get(d, ())
        stepped = self.stepped
        # the counts pinned at the other answers the world passed, by face: (the answer, the zone kept, the count
        # pinned, how many cards of the face the zone holds now: the same for every move weighed)
        pins: dict[Any, list[tuple[int, set[int], int, int]]] = {}
        for e, pinned in self.pins.items():
            if e != d and e in told:
                for h, f, k in pinned:
                    z = told[e][2][h]
                    pins.setdefault(f, []).append((e, z, k, sum(faces[c] == f for c in z)))
        if not counted and not pins and not again and not stepped:
            return None
        # the cards of the zones whose counts were pinned (a trade of none of them undoes none)
        pinned_in = {c for kept in pins.values() for _, z, _, _ in kept for c in z}

        since: dict[int, int] = {}  # mix -> the first answer given after it

        def key(move: tuple[tuple[int, int, int], ...]) -> tuple[bool, bool, int, int]:
            """(trades back, undoes a step, counts undone, counts changed)"""
            risk = undone = 0
            for o, x, y in move:
                fx, fy = faces[x], faces[y]
                first = since[o] if o in since else since.setdefault(o, self.since(o))
                if x in where or y in where:  # (else neither card lay in a zone kept: no count there changes)
                    risk += _risked(by_face, passed, where, first, x, y, fx, fy)
                if x in pinned_in or y in pinned_in:
                    undone += _undone(faces, pins, first, x, y)
            return bool(again) and any(frozenset((x, y)) in again for _, x, y in move), \
                bool(stepped) and any(x in stepped or y in stepped for _, x, y in move), undone, risk

        return key

    def named_passed(self, passed: list[int]) -> tuple[dict[Any, list[int]], dict[int, list[int]]]:
        """Of the answers `passed` (kept, see `note`): face -> the places in `passed` of those whose lines named it;
        card -> per answer, the zone of `hidden` that held it, or -1."""
        by_face: dict[Any, list[int]] = {}
        where: dict[int, list[int]] = {}
        nowhere = [-1] * len(passed)
        for i, e in enumerate(passed):
            named, inside = self.named_at(e), self.told[e][2]
            for f in named:
                by_face.setdefault(f, []).append(i)
            for h, z in enumerate(inside):
                for c in z:
                    w = where.get(c)
                    if w is None:
                        w = where[c] = nowhere[:]  # (not a list made for every card at every answer, then dropped)
                    w[i] = h
        return by_face, where

    def learned(self, d: int, prev, reached: int, before, after, move: tuple[tuple[int, int, int], ...]) -> None:
        """A mend let the world give answer `d` (`before`: the world mended, before the answer; `after`: after
        it): kept as the world passed it (see `note`), and the counts it changed of a face the seat's lines
        named there, in a zone of another player, pinned (see `ranked`)."""
        inside = [set(before.st.zones[zi]) for zi in self.hidden]
        self.note(d, prev._verified, after._verified, inside)
        told, faces = self.told_at(prev, reached), self.faces
        pinned = self.pins.setdefault(d, [])
        self.mends.setdefault(d, set()).update(frozenset((x, y)) for _, x, y in move)
        for _, x, y in move:
            for h, z in enumerate(inside):
                if (x in z) != (y in z):
                    pinned.extend((h, f, sum(faces[c] == f for c in z)) for f in {faces[x], faces[y]} & told)

    def told_at(self, prev, reached: int) -> frozenset:
        """The faces the seat's lines name from the answer `prev` is before up to where the world parted. (A copy
        rebuilt from its kept base, a mend's step on the way, holds as matched only the lines up to that base: the
        answer's lines start where the world before it had matched them, `lines_at`.)"""
        if not len(self.want):
            return frozenset()
        last = min(reached, len(self.want) - 1)
        first = min(max(prev._verified, self.lines_at), last)
        return frozenset().union(*(self.faces_named(j) for j in range(first, last + 1)))

    def moved_told(self, *move: tuple[int, int, int]) -> None:
        """The cards of the zones kept per answer (`told`) traded as the drawing now trades them."""
        for o, x, y in move:
            first = self.since(o)
            for e, (_, _, inside) in self.told.items():
                if e >= first:
                    for z in inside:
                        if (x in z) != (y in z):
                            z.symmetric_difference_update((x, y))

    def mark(self, o: int) -> None:
        """The drawing changed from mix `o` on."""
        deal = self.deal_of(o)
        self.changed = deal if self.changed is None else min(self.changed, deal)

    def deal_of(self, o: int) -> int:
        """The shuffle a world whose drawing changed at mix `o` is played again from (see `resume`): a shuffle's
        own; for a choice, the last shuffle dealt before the answer that made it (-1: none), as a copy kept
        before the answer that dealt it comes before the choice (one kept after the choice keeps it as it was)."""
        tr = self.tr
        if o in tr.mix_deal:
            return tr.mix_deal[o]
        return sum(1 for k in tr.deal_at if k <= tr.mix_answer[o]) - 1

    def since(self, o: int) -> int:
        """The first answer given after mix `o`."""
        tr = self.tr
        return tr.deal_at[tr.mix_deal[o]] if o in tr.mix_deal else tr.mix_answer[o] + 1

    def touched(self, d: int, reached: int) -> set[int]:
        """The zones answer `d` is about: those the real answer's events moved cards from or to, those of
        the asked player, and those of the players whose counters the observation where the world
        parted (`reached`) shows changed (a counter may tell of a hand)."""
        zones: set[int] = set()
        m, tr = self.match, self.tr
        t = m.layout
        end = tr.marks[d + 1] if d + 1 < len(tr.marks) else tr.end
        for e in m._watch.events[tr.marks[d]:end]:
            if e[0] == MOVE:
                zones.update((e[2], e[4]))
        players = {m.history[d][0]}
        want = self.want
        if 0 <= reached < len(want) and '"event":"table"' in want[reached]:
            now = json.loads(want[reached])["counters"]
            then: dict[str, Any] = next(
                (json.loads(x)["counters"] for x in reversed(want[:reached]) if '"event":"table"' in x), {})
            for name, values in now.items():
                if isinstance(values, list):
                    before = then.get(name, [None] * len(values))
                    players.update(p for p, v in enumerate(values) if p >= len(before) or v != before[p])
        zones.update(zi for zi in range(len(t.zone_owner)) if t.zone_owner[zi] in players)
        return zones


def _by_face(faces: list[Any], cards: list[int]) -> dict[Any, list[int]]:
    """`cards` by face, each face's in the order they come (the faces in the order they first come)."""
    out: dict[Any, list[int]] = {}
    for c in cards:
        out.setdefault(faces[c], []).append(c)
    return out


def _risked(by_face: dict[Any, list[int]], passed: list[int], where: dict[int, list[int]], first: int, x: int, y: int,
            fx: Any, fy: Any) -> int:
    """How many counts the rules may have read at the answers `passed` from `first` on cards `x` and `y` (faces `fx`,
    `fy`) traded change (see `_Replay.weigher`; `by_face` and `where` as `_Replay.named_passed` makes them)."""
    nowhere = [-1] * len(passed)
    wx, wy = where.get(x, nowhere), where.get(y, nowhere)
    risk = 0
    for i in {*by_face.get(fx, ()), *by_face.get(fy, ())}:
        if passed[i] >= first and wx[i] != wy[i]:
            risk += (wx[i] >= 0) + (wy[i] >= 0)
    return risk


def _undone(faces: list[Any], pins: dict[Any, list[tuple[int, set[int], int, int]]], first: int, x: int, y: int
            ) -> int:
    """How many more of the counts pinned at the answers given from `first` on (`pins`: see `_Replay.weigher`, by
    face, each with the count its zone holds now) cards `x` and `y` traded would undo than they would set back (see
    `_Replay.learned`)."""
    fx, fy = faces[x], faces[y]
    undone = 0
    for f in (fx,) if fx == fy else (fx, fy):
        for e, z, k, count in pins.get(f, ()):
            if e >= first and (x in z) != (y in z):
                delta = (fy == f) - (fx == f) if x in z else (fx == f) - (fy == f)
                undone += (count + delta != k) - (count != k)
    return undone


def _named_in(layout, told: str) -> set[int]:
    """The cards whose face, name or a word of their text properties the observation `told` names (where
    a world parted from what the seat observed: the cards to swap in first)."""
    if not told:
        return set()
    faces, named = layout.face_ids, set()
    for c in range(len(faces)):
        if f'"{faces[c]}"' in told or any(v.__class__ is str and len(v) > 2 and v in told for v in
                                          (column[c] for column in layout.props)):
            named.add(c)
    return named


_WORDS: dict[int, tuple] = {}  # layout id -> (the layout, its `_face_words`)


def _face_words(layout) -> tuple[re.Pattern, dict[str, frozenset]]:
    """What names a face in an observation: its id quoted, or a word of its text properties (longer than two
    letters, whole: `ace` is not in `face`) that some other face has not (a kind every card has names none). One
    pattern for all, and the faces each word it finds names (worked out once per layout)."""
    hit = _WORDS.get(id(layout))
    if hit is None or hit[0] is not layout:
        hit = _WORDS[id(layout)] = (layout, _words_of(layout))
    return hit[1]


def _words_of(layout) -> tuple[re.Pattern, dict[str, frozenset]]:
    """`_face_words`, worked out."""
    words: dict[str, set[Any]] = {}
    for c, f in enumerate(layout.face_ids):
        words.setdefault(f'"{f}"', set()).add(f)
        for column in layout.props:
            v = column[c]
            if v.__class__ is str and len(v) > 2:
                words.setdefault(v, set()).add(f)
    faces = set(layout.face_ids)
    named = {w: frozenset(fs) for w, fs in words.items() if fs != faces or w.startswith('"')}
    pattern = "|".join(re.escape(w) for w in sorted(named, key=len, reverse=True))
    return re.compile(rf"(?<![\w#])(?:{pattern})(?![\w#])"), named


_PROBES = 40  # swaps tried to mend one answer
_BLOCKED = 8  # trades of all the options a player had instead, tried first where its answer was none of them
_CHECKS = 10  # swaps that fit one answer, checked from their shuffle on (see `_Replay.repair_thorough`)
_REDRAWS = 8  # times a run of other seats' answers drawn anew is drawn again where what follows does not fit, at least
_REDRAWS_MOST = 64  # at most, for a run of secret answers with many ways to go together (`_Replay.ran`)
_REDRAWN_REACH = 3  # answers after such a run within which a misfit draws it again
_FLAT = 6  # mends in a row that take the world no further, before the drawing is given up
_REDRAWN_CHANCE = 24  # plays of an answer whose chance is drawn anew, before the world is taken to part there


# ---- what a match keeps -----------------------------------------------------------------------------


class _Belief:
    """What a match keeps for one seat between draws: the walk of its events (`tracer`), and its last
    world: the drawing (`card`, made over the first `mixes` mixes), how many of the match's events it
    fits, the world, its chance as drawn (`source`), and copies of it before each answer that dealt a
    shuffle (`snaps`). A copy of the match starts from the same belief (`carry`): `holders`, the matches that
    keep it; one of several takes a copy of its own before it draws (`_belief`). Only the walk changes in
    place: every other field is replaced whole, never changed, so a copy shares them."""

    __slots__ = ("card", "events", "found", "holders", "marks", "mixes", "needs", "open", "opened", "reals", "snaps",
                 "source", "stream", "tracer", "whole", "world")

    def __init__(self, tracer: _Tracer) -> None:
        self.holders: weakref.WeakSet = weakref.WeakSet()
        self.tracer = tracer
        self.card: list[int] = []
        self.events, self.mixes = 0, 0
        self.needs = 0  # the trace's `needed` paths the world was drawn knowing
        self.world: Any = None
        self.source: _Source | None = None
        self.stream: tuple | None = None  # the real generator's state where the world's chance stopped
        self.reals: list[tuple[int, int]] = []  # the outcomes it gave there (`_Source.reals`)
        self.snaps: list[_Snap] = []
        self.marks: list[_Snap] = []  # copies of it before the seat's own answers since the last shuffle
        self.open: int | None = None  # the first answer to a question still open when the world was kept
        self.opened: _Snap | None = None  # a copy of the world before that answer
        # what the world's answers drawn anew found, noted for each from answer `whole` on (`_Replay.found`)
        self.found: dict[int, tuple[int, int, frozenset[int]]] = {}
        self.whole: int | None = None

    def copy(self) -> _Belief:
        """A copy for one match to draw with on its own: the walk copied, the rest shared (see the class)."""
        other = _Belief.__new__(_Belief)
        for name in _Belief.__slots__:
            setattr(other, name, getattr(self, name))
        other.tracer, other.holders = self.tracer.copy(), weakref.WeakSet()
        return other

    def replay(self, match, seat: int, tr: _Trace, card: list[int], rng: random.Random, want: Sequence[str],
               want_view: str, budget: list[int] | None = None) -> _Replay:
        """A replay along `card` that goes on from the last world: its chance as drawn, its copies."""
        assert self.source is not None and self.stream is not None, "a world was kept"
        return _Replay(match, seat, tr, card, rng, want, want_view, self.tracer.decisions, budget,
                       source=_source_after(self.source, self.stream, self.reals), snaps=self.snaps,
                       opened=self.opened, marks=self.marks)

    def keep(self, replay: _Replay, world, events: int) -> None:
        self.card, self.world, self.source, self.snaps = replay.card, world, replay.source, replay.snaps
        self.opened, self.marks = replay.opened, replay.marks
        self.found, self.whole = replay.found, replay.whole
        self.events, self.mixes, self.stream, self.reals = events, len(replay.tr.mixes), replay.stream_state, \
            replay.reals
        self.needs = len(replay.tr.needed)


def _beliefs(match) -> dict[int, _Belief]:
    """The match's beliefs by seat (kept with its record of events, which only grows)."""
    kept = match.__dict__.get("_kept")
    if kept is None or kept[0] is not match._watch:
        kept = (match._watch, {})
        match._kept = kept
    return kept[1]


def _belief(match, seat: int) -> _Belief:
    """The match's belief for `seat` (kept with its record of events, which only grows), made on first use; one
    another match keeps too (a copy of this one, or the match this one is a copy of) copied first for this one."""
    beliefs = _beliefs(match)
    belief = beliefs.get(seat)
    if belief is None:
        belief = beliefs[seat] = _Belief(_Tracer(match, seat))
    else:
        holders = belief.holders
        if match in holders:
            if len(holders) == 1:
                return belief
            holders.discard(match)
            belief = beliefs[seat] = belief.copy()
    belief.holders.add(match)
    return belief


def carry(match, other) -> None:
    """`other`, a copy of `match` just made (`Match.clone`), starts from the beliefs `match` keeps for its seats
    (a first draw on the copy then costs what a draw on `match` would: no walk of its events again, no world
    played from the start); each is copied for whichever of the two draws with it first (`_belief`)."""
    kept = match.__dict__.get("_kept")
    if kept is None or kept[0] is not match._watch:
        other.__dict__.pop("_kept", None)
        return
    other._kept = (other._watch, dict(kept[1]))
    for belief in kept[1].values():
        belief.holders.add(other)


def determinize(match, seat: int, rng: random.Random, tries: int = DEFAULT_TRIES, repairs: int = DEFAULT_REPAIRS,
                moves: int = DEFAULT_MOVES, probes: int = DEFAULT_PROBES, fresh: bool = False):
    """A world the seat cannot tell from `match`, drawn at random (see the module); `NoConsistentWorld`
    if `tries` drawings, each mended up to `repairs` times (`probes` swaps tried in all), all fail.

    The match keeps the seat's last world. Asked again at the same point, determinize moves from it:
    `moves` proposals, each a swap of two cards one shuffle dealt down paths the seat did not see, kept
    when the world it gives is one the seat cannot tell apart either (a Markov chain whose worlds, in the
    long run, are each as likely), played again from the last copy kept before that shuffle (its answers
    given again as they were; if that world parts, with the other seats' secret answers drawn anew); asked
    after the match moved on, it carries the last world on: the cards the seat has seen since traded in
    (from their shuffle on), the new shuffles and choices drawn, the answers since given again. With `fresh`,
    the world is drawn afresh, independent of the last one (at several times the cost), and kept in its place."""
    if match.__class__ is not match_class(match):
        match.st  # noqa: B018  (a copy not yet rebuilt is rebuilt first)
    if match.__dict__.get("_drawn") or match._rng.__class__ is not random.Random:
        raise NoConsistentWorld("determinize draws worlds of a match whose chance comes from its seed, "
                                "not of a drawn world or a match given its chance outcomes")
    tracer = _belief(match, seat).tracer
    tracer.advance(match)
    if len(tracer.decisions) != len(match.history):
        raise NoConsistentWorld("the match's record of answers is incomplete")
    budget = (tries, repairs, moves, probes)
    try:
        world = _found(match, seat, rng, budget, fresh)
    except NoConsistentWorld as failed:
        world = _walked(match, seat, rng, budget, failed)
    drawn = _chance_of(world)  # the world's chance: its drawing and outcomes, shared by its copies
    drawn.source.timeline = drawn.swaps
    world = world.clone()
    world.log = None
    world.__dict__.pop("_verified", None)
    world.__dict__.pop("_chance", None)
    world._drawn = (drawn.plan, drawn.source, len(world.history))
    world.seed = rng.getrandbits(31)  # not the real match's: its seed would tell all its chance
    chance = random.Random(rng.getrandbits(64))
    # its chance from here on: taken up when the copy is rebuilt, after the answers since its base (a quiet
    # rollout, which rebuilds its own flow from the base, never pays for rebuilding this one)
    world._reseed = (len(world._sent), chance.getstate())
    if "st" in world.__dict__:  # a finished world is rebuilt at once
        world.st.rng = world._rng = chance
    return world


def _found(match, seat: int, rng: random.Random, budget: tuple[int, int, int, int], fresh: bool):
    """A world for `seat` at the match's point, kept as its last (see `determinize`): moved on from the last world
    where the match has not moved since, else carried on from it, else drawn again from its last shuffles, else
    drawn afresh from the start; `NoConsistentWorld` where the last finds none."""
    tries, repairs, moves, probes = budget
    belief = _belief(match, seat)
    tr = belief.tracer.advance(match)
    want, want_view = _Observed(match, seat), view_json(match, seat)
    events = len(match._watch.events)
    world = None
    kept = None if fresh else belief.world
    if kept is not None and belief.events == events:
        world = _moved(match, seat, tr, rng, want, want_view, belief, moves)
    elif kept is not None:
        world = _carried(match, seat, tr, rng, want, want_view, belief, events, repairs, [probes])
        if world is None:
            world = _redealt(match, seat, tr, rng, want, want_view, belief, events, repairs, [probes])
    if world is None:
        world = _drawn(match, seat, tr, rng, want, want_view, belief, events, tries, repairs, probes)
    belief.open = len(match.history) - len(match._answers) if match._answers else None
    return world


def _walked(match, seat: int, rng: random.Random, budget: tuple[int, int, int, int], failed: NoConsistentWorld):
    """The last way to a world, where the drawings from the start found none (`failed`): the match rebuilt from its
    seed, answer by answer, the seat drawing a world every `WALK_EVERY` answers (every round of answers: one per
    player, where 0) and carrying it on to the next. Each draw then mends a world that fits what the seat observed
    up to one point with what it observed since, a short span, where a drawing from the start meets everything at
    once; a point where even that finds none is passed by, the last world carried further. The world found at the
    match's point is kept as the match's own (the copy's belief, taken over)."""
    copy = match_class(match)(match.game, match.players, match.seed, arrange=match._arrange,
                              after_setup=match._after_setup)
    every = WALK_EVERY or match.players
    for i, (who, action) in enumerate(match.history):
        if i and i % every == 0:
            with suppress(NoConsistentWorld):
                _found(copy, seat, rng, budget, False)
        if copy.apply(who, action) is not None:
            break
    if copy._watch.events != match._watch.events:  # set up by hand after it began: not to be rebuilt
        raise failed
    try:
        world = _found(copy, seat, rng, budget, False)
    except NoConsistentWorld as err:
        raise NoConsistentWorld(f"{failed}; carried along the match from its start: {err}") from None
    belief = _belief(copy, seat)
    belief.holders = weakref.WeakSet((match,))
    old = _beliefs(match).get(seat)
    if old is not None:
        old.holders.discard(match)
    _beliefs(match)[seat] = belief
    return world


def _drawn(match, seat: int, tr: _Trace, rng: random.Random, want: Sequence[str], want_view: str, belief: _Belief,
           events: int, tries: int, repairs: int, probes: int):
    """A world drawn afresh and played from the start (see `determinize`), in stages: `tries` drawings mended the
    quick way, sharing `probes`; then (where those found none) drawings mended the quick way with a share of
    their own (`PATIENT_TRIES`), then those that first swap an answer's unseen card (`TARGETED_TRIES`), then
    drawings mended the thorough way, sharing `probes` again (`THOROUGH_TRIES`). Past the first stage, every
    other drawing starts from the cards of the drawing that got furthest so far, as its mends left them
    (`FURTHEST_EVERY`): a restart of the mends' search from the best place it reached, not from nothing."""
    faces = match.layout.face_ids
    problems: dict[str, int] = {}
    furthest: tuple[int, list[int]] | None = None  # (the observation it parted at, its cards)
    shared = [probes]
    stages = ((tries, False, False), (PATIENT_TRIES, False, False), (TARGETED_TRIES, False, True),
              (THOROUGH_TRIES, True, False))
    drawings = 0
    for n, (count, thorough, targeted) in enumerate(stages):
        if thorough:
            shared = [probes]
        for k in range(count):
            drawings += 1
            budget = shared if n == 0 or thorough else [probes // PATIENT_SHARE]
            start = furthest[1] if furthest is not None and n > 0 and FURTHEST_EVERY and \
                (k + 1) % FURTHEST_EVERY == 0 else None
            replay = None
            try:
                card = start[:] if start is not None else _assign_some(tr, faces, rng)
                replay = _Replay(match, seat, tr, card, rng, want, want_view, belief.tracer.decisions, budget)
                replay.thorough, replay.targeted = thorough, targeted
                world = replay.play(repairs)
                if not replay.fits(world):
                    raise _Misfit("the seat would see something else now")
            except _Misfit as misfit:
                problems[str(misfit)] = problems.get(str(misfit), 0) + 1
                if replay is not None and (furthest is None or misfit.reached > furthest[0]):
                    furthest = (misfit.reached, replay.card[:])
                continue
            belief.keep(replay, world, events)
            return world
    why = "; ".join(f"{text} ({k}×)" for text, k in sorted(problems.items(), key=lambda kv: -kv[1]))
    raise NoConsistentWorld(f"no world P{seat} cannot tell from this match was found in {drawings} "
                            f"drawings: {why}")


def _carried(match, seat: int, tr: _Trace, rng: random.Random, want: Sequence[str], want_view: str, belief: _Belief,
             events: int, repairs: int, budget: list[int]):
    """The last world carried on to where the match is now, or None (see `determinize`). Where the seat
    has since seen a card the last drawing put elsewhere, the cards are traded from their shuffle on and
    the world's answers given again from its last copy before that shuffle (then, if that world parts
    from what the seat observed, played again answer by answer, mended as a new world is); a card traded
    in a hand a player chose from unseen plays the world again from a copy before that choice."""
    faces = match.layout.face_ids
    traded = _traded_since(tr, faces, belief, rng)
    if traded is None:
        return None
    card, swaps, changed, redo = traded
    try:
        card = _assign_some(tr, faces, rng, 5, card, belief.mixes)
    except _Misfit:
        return None
    # (True: the old answers given again as traded; False: played on, mended the quick way; None: mended the
    # thorough way, on a share of the probes left, where the quick mends found none: see `_drawn`)
    for attempt in ((True, False, None) if swaps and redo == belief.open else (False, None)):
        share = [min(budget[0], CARRIED_THOROUGH)] if attempt is None else budget
        given = share[0]
        replay = belief.replay(match, seat, tr, card, rng, want, want_view, share)
        replay.thorough = attempt is None
        start = replay.resume(changed) if changed is not None else \
            (_rechanced(belief.world, replay.plan, replay.source), len(belief.world.history))
        if not attempt and redo is not None and (start is None or start[1] > redo):
            # a question was open when the world was kept: the others' answers to it were drawn knowing
            # nothing of what closing it showed; they are drawn again, from a copy before it (so is a
            # choice a trade changed)
            start = replay.before(redo, changed)
        try:
            if attempt:
                start = replay.again(start, belief.world, swaps)
            world = replay.play(0 if attempt else repairs, start)
        except (_Misfit, RuleError):
            continue
        finally:
            if share is not budget:  # (the probes it took, taken from the draw's)
                budget[0] -= given - share[0]
        if replay.fits(world):
            belief.keep(replay, world, events)
            return world
    return None


def _traded_since(tr: _Trace, faces: list[Any], belief: _Belief, rng: random.Random
                  ) -> tuple[list[int], list[tuple[int, int, int]], int | None, int | None] | None:
    """The last drawing with each card the seat has since seen where it put another traded in (`_mended`):
    (the drawing, the shuffles' trades as (deal, x, y), the first deal they change, the first answer to give
    anew: a choice a trade changed, or the question open when the world was kept); None where one cannot."""
    card, changed = belief.card, None
    redo = belief.open
    swaps: list[tuple[int, int, int]] = []
    kept = len(card)
    since = [s for s in tr.needed[belief.needs:] if s < kept]  # the paths whose face the seat saw since
    while True:
        # those the drawing puts another face on: each mended in turn, trading in a card that another of
        # them carries where none left free does (the seat saw two cards in the other order, or a card where
        # the drawing put one it saw elsewhere since); each trade mends one, so the walk ends
        wrong = [s for s in since if faces[card[s]] != tr.need[s]]
        if not wrong:
            break
        loose = frozenset(wrong)
        for s in wrong:
            x = card[s]
            mend = _mended(tr, faces, card, s, rng, loose - {s})
            if mend is not None:
                break
        else:
            return None
        card, o, y = mend
        if o in tr.mix_answer:  # another choice from the hand: that answer and those after given anew
            redo = tr.mix_answer[o] if redo is None else min(redo, tr.mix_answer[o])
            continue
        deal = tr.mix_deal[o]
        swaps.append((deal, x, y))
        changed = deal if changed is None else min(changed, deal)
    if tr.glimpses and not _glimpses_kept(tr, faces, card):
        return None  # a look since at a hand the last drawing put other faces in: drawn anew
    return card, swaps, changed, redo


def _redealt(match, seat: int, tr: _Trace, rng: random.Random, want: Sequence[str], want_view: str, belief: _Belief,
             events: int, repairs: int, budget: list[int], shuffles: int = REDEALT_SHUFFLES, tries: int = 2):
    """Where the last world cannot be carried on: the world as it was before one of its last `shuffles`
    shuffles (the latest first), the cards of that shuffle and of every mix since drawn anew (as `_drawn`
    draws them, given the paths before it) and the answers since played again from the copy kept before
    it, mended as a new world is; None if none fits. A block of the drawing drawn again given the rest:
    what the seat saw before the shuffle stays explained as it was, and a late draw costs one deal's
    play, not the whole match's."""
    faces = match.layout.face_ids
    kept = len(belief.card)
    redeal = [o for o in range(min(belief.mixes, len(tr.mixes)) - 1, 0, -1)
              if tr.mixes[o][0] < 0 and tr.mixes[o][2][0] <= kept][:shuffles]
    for o in redeal:
        deal = tr.mix_deal[o]
        for _ in range(tries):
            try:
                card = _assign_some(tr, faces, rng, 5, belief.card[:tr.mixes[o][2][0]], o)
                replay = belief.replay(match, seat, tr, card, rng, want, want_view, budget)
                start = replay.before(belief.open, deal) if belief.open is not None else replay.resume(deal)
                world = replay.play(repairs, start)
            except (_Misfit, RuleError):
                continue
            if replay.fits(world):
                belief.keep(replay, world, events)
                return world
    return None


def shuffles_drawn(orders: list[tuple[int, ...]], upto: int) -> tuple:
    """A world's drawing (`world._drawn`, what `replayed` plays it along) where its only chance so far was
    shuffles: the order each dealt, in turn, and the answers it was drawn up to."""
    deals: list[list[int]] = []
    card: list[int] = []
    source = _Source(None)
    for order in orders:
        deals.append(list(range(len(card), len(card) + len(order))))
        card.extend(order)
        source.events.append((len(order), -1))
    return _Plan(deals, card), source, upto


def replayed(world):
    """A world drawn by `determinize` played again from its own start, as far as it was drawn: its
    shuffles dealing the orders drawn, its other chance and its answers as they were (a test that its
    history is a legal one)."""
    plan, source, upto = world._drawn
    again = match_class(world)(world.game, world.players, world.seed, chance=_WorldChance(plan, source),
                  arrange=world._arrange, after_setup=world._after_setup)
    for seat, action in world.history[:upto]:
        problem = again.apply(seat, action)
        if problem is not None:
            raise AssertionError(f"a drawn world does not replay: {problem.reason}")
    return again


def _moved(match, seat: int, tr: _Trace, rng: random.Random, want: Sequence[str], want_view: str, belief: _Belief,
           moves: int):
    """The kept world after `moves` proposals (see `determinize`)."""
    faces = match.layout.face_ids
    free = _free_by_shuffle(tr, faces, belief.card)
    shuffles = list(free)
    # answers of other seats, drawn anew by a proposal (looked through in C)
    others = any(map(ne, map(_KIND, match.history), repeat(seat)))
    for _ in range(moves):
        if others and (not shuffles or rng.random() < 0.5):
            # the other seats' answers since the last shuffle, or since one of the seat's own answers after it (each
            # as likely: a block of them, played from the copy kept there), drawn anew (their secret picks, where
            # nothing the seat saw tells them): the kept world's answers are not held for good. Where none of them
            # is drawn anew, the world played again is the kept one: not played
            first = belief.snaps[-1].d if belief.snaps else 0
            marks = [mark for mark in belief.marks if mark.d > first]
            k = rng.randrange(len(marks) + 1) if marks else 0
            start = marks[k - 1].d if k else first
            if not _redraws(tr, belief.tracer.decisions, seat, start):
                continue
            orders = _orders_ahead(belief, start, rng)
            if orders and _moves_nowhere(belief.found, orders):  # the world played again would be the kept one
                continue
            replay = belief.replay(match, seat, tr, belief.card, rng, want, want_view)
            if orders:  # (what the kept world found holds of the copy played from, and of the world while it is that)
                replay.orders, replay.known, replay.found, replay.whole = orders, belief.found, dict(belief.found), \
                    belief.whole
            try:
                world = replay.play(0, replay.marked(marks[k - 1]) if k else replay.resume(len(tr.deals)))
            except (_Misfit, RuleError):
                continue
            if replay.fits(world):
                belief.keep(replay, world, belief.events)
            continue
        if not shuffles:
            break
        o = rng.choice(shuffles)
        x, y = rng.sample(free[o], 2)
        if faces[x] != faces[y]:
            _swap_proposed(match, seat, tr, rng, want, want_view, belief, o, x, y)
    return belief.world


def _orders_ahead(belief: _Belief, first: int, rng: random.Random) -> dict[int, list[int]]:
    """For the kept world played again from answer `first` on, its answers drawn anew drawn again: the order each
    tries its options in, drawn now (`_Replay.redraw` takes them, each as random as one drawn then), where the kept
    world's answers drawn anew from `first` on are noted (`_Belief.found`: where no chance follows an answer);
    else {}."""
    found, whole = belief.found, belief.whole
    if whole is None or first < whole or not found:
        return {}
    orders: dict[int, list[int]] = {}
    for d in sorted(found):
        if d >= first:
            order = list(range(found[d][0]))
            rng.shuffle(order)
            orders[d] = order
    return orders


def _moves_nowhere(found: dict[int, tuple[int, int, frozenset[int]]], orders: dict[int, list[int]]) -> bool:
    """Whether the kept world played again, its answers drawn anew in `orders` (`_orders_ahead`), comes out as it is
    (a proposal that moves nowhere, then not played): where in each order the first option not known to fail is the
    one the answer took before. On the same world an option that failed fails again (no chance follows an answer),
    so each answer takes again the option it took, and the world after it is the kept one as it stood."""
    return all(next(filterfalse(found[d][2].__contains__, order)) == found[d][1] for d, order in orders.items())


def _redraws(tr: _Trace, decisions: list[tuple], seat: int, first: int) -> bool:
    """Whether a world played again from answer `first` on draws one of the answers since anew: another seat's
    secret answer, or its pick of a card the seat did not see at or after it that stays where it is (see
    `_Replay.answered`)."""
    return _last_redrawn(tr, decisions, seat, first) >= 0


def _last_redrawn(tr: _Trace, decisions: list[tuple], seat: int, first: int) -> int:
    """The last answer from `first` on that a world played again draws anew (see `_redraws`); -1: none."""
    sighted, marks, chosen, left, picks = tr.sighted, tr.marks, tr.chosen, tr.left, tr.picks
    for d in range(len(decisions) - 1, first - 1, -1):
        e = decisions[d]
        if e[1] == seat:
            continue
        pick = picks[d]
        if pick < 0:
            if e[2]:
                return d
        elif sighted.get(pick, -1) < marks[d] and pick not in chosen and d not in left:
            return d
    return -1


def _free_by_shuffle(tr: _Trace, faces: list[Any], card: list[int]) -> dict[int, list[int]]:
    """Shuffle -> the cards of the drawing `card` it dealt down paths the seat never sees after (where those
    are of more than one face: a swap among them is a proposal), the latest shuffle first."""
    n = len(card)
    # each card of the drawing -> the last path the seat sees that carries it (found in C: no bytecode per path)
    seen = list(compress(range(n), map(is_not, islice(tr.need, n), repeat(None))))
    last = dict(zip(map(card.__getitem__, seen), seen, strict=True))
    free: dict[int, list[int]] = {}
    for o in sorted(tr.mix_deal, reverse=True):  # (the shuffles' mixes)
        outgoing = tr.mixes[o][2]
        first = outgoing[0]
        lasts = map(last.get, map(card.__getitem__, outgoing), repeat(-1))
        kept = list(compress(outgoing, map(gt, repeat(first), lasts)))  # not seen since the shuffle
        if len({faces[card[t]] for t in kept}) > 1:
            free[o] = [card[t] for t in _by_role(tr, kept)]
    return free


def _swap_proposed(match, seat: int, tr: _Trace, rng: random.Random, want: Sequence[str], want_view: str,
                   belief: _Belief, o: int, x: int, y: int) -> None:
    """The kept world with cards `x` and `y` swapped from shuffle `o` on, kept if the seat cannot tell it
    from the match: its answers given again, else the others' secret ones drawn anew (see `_moved`)."""
    swapped = _swapped(tr, match.layout.face_ids, belief.card, o, x, y)
    if swapped is None:
        return
    deal = tr.mix_deal[o]
    if _exchanged_kept(match, seat, tr, rng, want, want_view, belief, deal, (x, y), swapped):
        return
    for again in (True, False):
        replay = belief.replay(match, seat, tr, swapped, rng, want, want_view)
        try:
            start = replay.resume(deal)
            world = replay.play(0, replay.again(start, belief.world, [(deal, x, y)]) if again else start)
        except (_Misfit, RuleError):
            continue
        if replay.fits(world):
            belief.keep(replay, world, belief.events)
            return


# ---- a swap no rule can tell: the kept world with two cards exchanged, not played again -----------------


def _exchanged_kept(match, seat: int, tr: _Trace, rng: random.Random, want: Sequence[str], want_view: str,
                    belief: _Belief, deal: int, pair: tuple[int, int], swapped: list[int]) -> bool:
    """Keep the world a swap of the two cards `pair` from shuffle `deal` on gives (the drawing `swapped`), made
    without playing it again, where no rule may have read either card's face since that shuffle in the kept world:
    neither lay since in a zone a rule that may read a face may reach (`Game.face_zones`, lang/faces.py). Then every
    rule did with each what it did with the other, so that world played again runs the same course, answer for
    answer and outcome for outcome (its chance read back as drawn), and the seat observes the same in it (neither
    card was seen by it since that shuffle, and both have one back): it is the kept world with the two cards'
    identities exchanged from that shuffle on (its record, its kept base, and the copies of it kept after that
    shuffle, these when first used). False where that does not apply, or the kept world's base or a copy's lies
    before that shuffle: the world is then played again."""
    world = belief.world
    now = _chance_of(world)
    if any(c in traded or c in traded.values() for _, traded in (*now.swaps, (0, now.swap)) for c in pair):
        return False  # (a card the world traded for another, a random pick drawn anew: it goes that one's way)
    blocked = _telling(match, belief.tracer, pair)
    unread = _unread_since(world, blocked, (deal, now.used), pair, match.layout.face_ids)
    if unread is None:
        return False
    named, answered = unread  # (an answer is sent again from a base before it: none after it may name either)
    if not _based_after(world, belief, deal, max(named[0], answered)):
        return False
    replay = belief.replay(match, seat, tr, swapped, rng, want, want_view)
    kept = _rechanced(_exchanged(world, {pair[0]: pair[1], pair[1]: pair[0]}, named, seat), replay.plan, replay.source)
    chance = _WorldChance(replay.plan, replay.source)
    kept._chance = (kept._base, chance)  # its chance now, while it is not rebuilt (see `_chance_of`)
    chance.pos, chance.used, chance.at, chance.swap, chance.swaps = now.pos, now.used, now.at, now.swap, now.swaps
    replay.drawn_out()  # (nothing drawn past what the kept world drew: as `_Replay.play` leaves a world drawn)
    replay.snaps = [snap if snap.used <= deal else snap._replace(world=_Exchanged(snap.world, pair, named, seat))
                    for snap in replay.snaps]
    replay.marks = [mark for mark in replay.marks if mark.used <= deal]  # (those after it hold the cards unexchanged)
    opened = replay.opened
    if opened is not None and opened.used > deal:
        replay.opened = opened._replace(world=_Exchanged(opened.world, pair, named, seat))
    belief.keep(replay, kept, belief.events)
    return True


def _telling(match, tracer: _Tracer, pair: tuple[int, int]) -> list[bool]:
    """Per zone: whether a rule may tell the two cards of `pair` apart while one lies there: a zone a rule that may
    read a face may reach (`_Tracer.reach`), where the rules read a property (`Game.face_props`, lang/faces.py) the
    two differ in (a property only compared with values: where either is one of them, and they differ), or more."""
    by_players = _READ.get(match.game)
    if by_players is None:
        by_players = _READ[match.game] = {}
    read = by_players.get(match.players)
    if read is None:
        read = by_players[match.players] = _read_in(match, tracer.reach)
    if read.__class__ is not list:
        return tracer.reach  # (every zone reached: its cards' every property read)
    columns, (x, y) = match.layout.props, pair
    told: dict[int, bool] = {}
    out = []
    for props in read:
        if props.__class__ is tuple:
            tells = told.get(id(props))
            if tells is None:
                tells = told[id(props)] = any(a != b and (values is None or a in values or b in values)
                                              for a, b, values in ((columns[k][x], columns[k][y], values)
                                                                   for k, values in props))
            props = tells
        out.append(props)
    return out


def _read_in(match, reach: list[bool]) -> list | tuple:
    """Per zone: False where no rule that may read a face reaches its cards, True where one may read all of a card
    there, else the properties read there (`Game.face_props`: those read wherever a card lies too); () where no zone
    has the last (every zone reached tells any two cards apart)."""
    read = match.game.face_props
    anywhere = read.get(ANY_ZONE, ())
    by_name: dict[str, Any] = {}
    out: list = []
    for r, name in zip(reach, match.layout.zone_names, strict=True):
        name = name.partition("@")[0]
        if name not in by_name:
            there = read.get(name, ())
            by_name[name] = True if anywhere is None or there is None else (*anywhere, *there)
        out.append(r and by_name[name])
    return () if all(props.__class__ is bool for props in out) else out


# a game -> its players -> `_read_in` (the same for each match of as many)
_READ: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _chance_of(world) -> _WorldChance:
    """A world's chance as it stands: that of a world exchanged (`_exchanged_kept`), or of a copy of it, not rebuilt
    yet and on the same base, without rebuilding it; else its running state's."""
    entry = world.__dict__.get("_chance")
    if entry is not None and entry[0] is world._base and "st" not in world.__dict__:
        return entry[1]
    return world.st.rng


_NAMED_AT_TOP = frozenset({MOVE, FLIP, SHOW})  # the kinds that hold a card at their top (`_names`)
_KNOWN = frozenset({TABLE, SAY, ROLL, SEATS, MOVE, FLIP, SHOW, SHUFFLE, DECIDE, ASK})  # what `_unread_since` reads
_DEEP = frozenset({SHUFFLE, ASK})  # events that hold a card below their top (a shuffle's order, a question's options)


def _unread_since(world, reach: list[bool], deal: tuple[int, int], pair: tuple[int, int], faces: list[str]
                  ) -> tuple[list[int], int] | None:
    """The events of `world` that name a card of `pair` from the one that dealt shuffle `deal[0]` (and them) on (of the
    `deal[1]` it dealt so far), where neither card lay in a zone of `reach` since (`_telling`) and no question put
    either to a seat by a face other cards have too; else None (also for a world over or failed: its score reads
    faces). An answer that named either is among them (the answer given again names the other card, at the same
    place): the last one is returned too (-1: none)."""
    if world.over or world.failure is not None:
        return None
    events = world._watch.events
    at = _shuffle_event(events, *deal)
    if at is None or pair[0] not in events[at][2] or pair[1] not in events[at][2]:
        return None  # (the world dealt them otherwise)
    kinds = list(map(_KIND, islice(events, at, None)))
    if not _KNOWN.issuperset(kinds):
        return None  # (an event the exchange does not know)
    x, y = pair
    # the events that may name either: those holding one at their top (a move, turn, glimpse or answer: or ones that
    # hold the same number otherwise, looked at below), the shuffles and the questions; found in C
    since = islice(events, at, None), islice(events, at, None)
    top = map(or_, map(contains, since[0], repeat(x)), map(contains, since[1], repeat(y)))
    maybe = compress(range(at, len(events)), map(or_, top, map(_DEEP.__contains__, kinds)))
    shown = (faces[x], faces[y])  # (a card a seat sees is named in its question by its face)
    named, answered = [], -1
    for i in maybe:
        names = _names(events[i], pair, reach, shown, faces)
        if names is None:
            return None
        if names:
            named.append(i)
            if names is _ANSWERED:
                answered = i
    return named, answered


_ANSWERED = 2  # `_names`: an answer named a card of the pair


def _names(e: tuple, pair: tuple[int, int], reach: list[bool], shown: tuple[str, str], faces: list[str]
           ) -> bool | int | None:
    """Whether event `e` names a card of `pair` (`_ANSWERED`: an answer); None where it tells the exchange does not
    apply: the card moved to or from a zone of `reach` or was shuffled there, a question named it by its face
    (`shown`: the two cards' faces) where another card has that face too (`faces`: every card's)."""
    kind = e[0]
    if kind in _NAMED_AT_TOP:
        if e[1] not in pair:
            return False
        return None if kind == MOVE and (reach[e[2]] or reach[e[4]]) else True
    if kind == SHUFFLE:
        if pair[0] not in e[2] and pair[1] not in e[2]:
            return False
        return None if reach[e[1]] else True
    if kind == DECIDE:
        return _ANSWERED if e[5] >= 0 and e[3] in pair else False
    if kind != ASK or e[3] != K_CARD:
        return False
    options = e[4]
    if shown[0] in options or shown[1] in options:  # (which card of a face others have too, the record does not say)
        return True if faces.count(shown[0]) == 1 and faces.count(shown[1]) == 1 else None
    # the cards named by place (card, zone, place), looked through in C
    return any(map(pair.__contains__, map(_KIND, compress(options, map(is_, map(type, options), repeat(tuple))))))


def _shuffle_event(events: list[tuple], deal: int, dealt: int) -> int | None:
    """Where shuffle `deal` (of those of two cards or more, in turn) lies in a record of events that holds `dealt` of
    them: looked for from the nearer end (in C, but for the shuffles themselves)."""
    if not 0 <= deal < dealt:
        return None
    n = len(events)
    forward = deal < dealt - deal
    places = range(n) if forward else range(n - 1, -1, -1)
    k = deal if forward else dealt - deal - 1
    for i in compress(places, map(eq, map(_KIND, events if forward else reversed(events)), repeat(SHUFFLE))):
        if len(events[i][2]) > 1:
            if not k:
                return i
            k -= 1
    return None


def _based_after(world, belief: _Belief, deal: int, at: int) -> bool:
    """Whether the kept world, and every copy of it kept after shuffle `deal` dealt (to play again from), keeps a base
    after event `at` (that shuffle): what `_exchanged` exchanges the cards in."""
    copies = [snap.world for snap in belief.snaps if snap.used > deal]
    if belief.opened is not None and belief.opened.used > deal:
        copies.append(belief.opened.world)
    return all(w._base_info[0] > at for w in (world, *copies))


def _exchanged(world, relabel: dict[int, int], named: Sequence[int], seat: int):
    """A copy of `world` (a world, or a copy of one, at a question) with card c's identity given to `relabel[c]` (cards
    exchanged) in its kept base (which comes after the first event of `named`) and in its record at the events `named`,
    not yet rebuilt: rebuilt from that base as any copy (see `Match.clone`). The seat's rendered observations are
    shared (they name none of those cards), the other seats' rendered again when asked for."""
    other = world.clone()
    record = other.__dict__.pop("_record", None)  # (a copy holding its record lazily: see `Match.backup`)
    watch, n = (record[0], record[1]) if record is not None else (world._watch, len(world._watch.events))
    other._watch = watch = watch.relabeled([], n, [])  # (its record only: a world keeps no tags)
    events = watch.events
    shown: dict[str, str] | None = None
    for i in named:
        if i < n:
            e = events[i]
            if shown is None and e[0] == ASK:  # (a question names a card its seat sees by its face: no other card's)
                ids = world.layout.face_ids
                shown = {ids[c]: ids[d] for c, d in relabel.items()
                         if ids.count(ids[c]) == 1 and ids.count(ids[d]) == 1}
            events[i] = _event_exchanged(e, relabel, shown)
    cur, frozen = other._base
    was_in, was_up, was_known = frozen[1], frozen[2], frozen[3]
    zones, zone_of, face, known = frozen[0][:], was_in[:], was_up[:], was_known[:]
    for c, d in relabel.items():
        zone_of[d], face[d], known[d] = was_in[c], was_up[c], was_known[c]
    get = relabel.get
    for zi in {was_in[c] for c in relabel}:
        zones[zi] = [get(c, c) for c in zones[zi]]
    other._base = (cur, (zones, zone_of, face, known, *frozen[4:]))
    other._seen = [fork_cache(cache) if s == seat else new_cache() for s, cache in enumerate(world._seen)]
    return other


def _event_exchanged(e: tuple, relabel: dict[int, int], shown: dict[str, str] | None) -> tuple:
    """An event with card c named `relabel[c]` (by its face: `shown`)."""
    kind, get = e[0], relabel.get
    if kind == SHUFFLE:
        return (SHUFFLE, e[1], tuple(get(c, c) for c in e[2]))
    if kind == ASK:
        face = (shown or {}).get
        return (*e[:4], tuple((get(o[0], o[0]), *o[1:]) if o.__class__ is tuple else face(o, o) if o.__class__ is str
                              else o for o in e[4]))
    if kind == DECIDE:
        return (*e[:3], get(e[3], e[3]), *e[4:]) if e[5] >= 0 else e
    return (kind, get(e[1], e[1]), *e[2:])


class _Exchanged:
    """A copy of a world kept to play again from (`_Snap.world`), with cards exchanged (`_exchanged`): made when first
    used (most copies kept are never used). Exchanged again, it holds the copy it was made of and the exchanges in
    turn, made one after the other: each renames the events from its own shuffle on, so that an event before a later
    pair's shuffle that names a card of an earlier pair (its move, where the later pair shares that card; a question
    listing cards of both pairs) keeps the later pair's cards as they were there (one relabeling composed of them all
    would rename it with the later pair's too). (The bundled games exchange twice only pairs of one shuffle, where
    the two agree: `benchmarks/exchanges_composed.py`.)"""

    __slots__ = ("match", "seat", "steps", "world")

    def __init__(self, world, pair: tuple[int, int], named: list[int], seat: int) -> None:
        x, y = pair
        steps: tuple[tuple[dict[int, int], list[int]], ...] = (({x: y, y: x}, named),)
        if world.__class__ is _Exchanged:
            world, steps = world.world, (*world.steps, *steps)
        self.world: Any = world
        self.seat, self.steps = seat, steps
        self.match: Any = None

    @property
    def _base_info(self) -> tuple:
        return self.world._base_info

    def made(self):
        if self.match is None:
            match = self.world
            for relabel, named in self.steps:
                match = _exchanged(match, relabel, named, self.seat)
            self.match = match
        return self.match

    def clone(self):
        return self.made().clone()
