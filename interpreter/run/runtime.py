"""Stage 6: the state of one match and the generic verbs that compiled game code calls.

Cards, zones and players are small ints. "No card" and "no player" are -1, so a card property list
ends with the property's default (`props[k][-1]`) and reading a property of no card needs no test.
Every random draw goes through `State.below`, the match's single chance hook (`shuffle` makes the
same draws in a loop of its own).
"""

from __future__ import annotations

import copy
import operator
import random
from itertools import groupby
from typing import Any

from ..lang.asks import K_BOOL, K_CARD, K_NUMBER, K_PLAYER, K_TEXT  # noqa: F401  (the kinds of an ask)
from ..limits import MAX_CALL_DEPTH, MAX_CHECK_STEPS, MAX_LOOP, MAX_NUMBER, MAX_OPTIONS, MAX_STEPS, UNCHARGED
from ..load.model import HIDDEN, OWNER, PUBLIC  # noqa: F401  (HIDDEN: for readers of a state)
from .events import Flipped, Moved, Rolled, Said, SeatsChanged, Shown, Shuffled
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


# ---- generic verbs --------------------------------------------------------------------------------


def kept_sight(st: State, c: int) -> int:
    """Who goes on knowing card `c` when it is moved or turned face down: those who can follow it.

    A card on the table (a public or hidden zone) is followed where it lies: by everyone if it is face up
    in a public zone, else by those who knew it. A card in a player's own zone (a hand) is followed only
    by that player: nobody else sees which card of a hand leaves it, whatever they glimpsed of it."""
    t = st.layout
    zi = st.zone_of[c]
    vis = t.zone_vis[zi]
    if vis == OWNER:
        owner = t.zone_owner[zi]
        if owner < 0:
            return 0
        return 1 << owner if st.face[c] or st.known[c] >> owner & 1 else 0
    if not st.face[c]:
        return st.known[c]
    if vis == PUBLIC:
        return (1 << st.n) - 1
    return 0


def seen_by(st: State, c: int) -> int:
    """Bit mask of the players who can see card `c` where it lies now: those its zone lets see it,
    and those who know it (a glimpse included)."""
    return kept_sight(st, c) | st.known[c]


def move(st: State, c: int, zi: int, place: int, face: int) -> bool:
    """Move card `c` into zone instance `zi`; face: 1 up, 0 down, -1 the zone's default.

    A card that lands face down stays known to whoever could see it before, and to the zone's owner.
    """
    if c < 0:
        return False
    t = st.layout
    dest = st.zones[zi]
    limit = t.zone_limit[zi]
    src = st.zone_of[c]
    if limit >= 0 and len(dest) >= limit and src != zi:
        return False
    up = t.zone_face[zi] if face < 0 else face == 1
    if st.log is not None:  # who knows the card (nobody asks in a quiet match)
        if t.zone_vis[src] == OWNER:  # a card leaving a hand: see `lapse_copy`
            lapse_copy(st, c, src)
        if up:
            st.known[c] = 0  # face up, its zone decides who sees it
        else:
            landed_face_down(st, c, zi)
    st.zones[src].remove(c)
    to = -1  # where it went, if not at an end (the watcher finds it there)
    if place == TOP:
        dest.insert(0, c)
    elif place == BOTTOM:
        dest.append(c)
    elif place == RANDOM:
        to = _put_at_random(st, c, zi, up)
    else:
        to = max(0, min(place, len(dest)))
        dest.insert(to, c)
    st.zone_of[c] = zi
    st.face[c] = up
    if st.log is not None:
        moved(st, c, src, zi, place == RANDOM, to)
    return True


def _put_at_random(st: State, c: int, zi: int, up: bool) -> int:
    """`move`'s rare branch: card `c` put into zone `zi` at a place drawn by chance; the place."""
    dest = st.zones[zi]
    to = st.below(len(dest) + 1)
    dest.insert(to, c)
    if not up:  # put in face down at a place nobody saw: nobody can follow it (but a zone's owner)
        owner = st.layout.zone_owner[zi]
        st.known[c] = 1 << owner if owner >= 0 else 0
    return to


def landed_face_down(st: State, c: int, zi: int) -> None:
    """Before card `c` goes face down into zone `zi`: who keeps sight of it, and the zone's owner, know it."""
    owner = st.layout.zone_owner[zi]
    st.known[c] = kept_sight(st, c) | (1 << owner if owner >= 0 else 0)


def moved(st: State, c: int, src: int, zi: int, at_random: bool = False, to: int = -1) -> None:
    """After a move (in a logged or watched match): glimpses lapse where the card left unseen, the
    watcher records the move (`at_random`: to a place drawn by chance; `to`: where it went, if known), the
    log gets its event."""
    t = st.layout
    if t.zone_vis[src] == OWNER and not (st.face[c] and t.zone_vis[zi] == PUBLIC):  # (face up in view of all: kept)
        lapse(st, c, src)
    if st.watch is not None:
        st.watch.moved(st, c, src, zi, at_random, to)
    if st.log.__class__ is list:
        st.log.append(Moved.log(t, c, src, zi, st.face[c]))


def lapse_copy(st: State, c: int, src: int) -> None:
    """Card `c` is about to leave a player's own zone `src` (a hand). A seat that did not know it there
    cannot tell it from a copy of it (same face) that it knew there: whichever went, it knows one copy
    of that card in the hand fewer (else the copy left behind would tell which one went). A card with no
    copy (every card of many games) leaves nothing to forget; else the fewer of its copies and the hand's
    cards are looked at."""
    t = st.layout
    last = _LAST_COPIES  # (`copies_of`, its commonest case written out: this runs at every move out of a hand)
    copies = last[1][1][c] if last[0] is t and last[1][0] is t.face_ids else copies_of(t)[c]
    if not copies:
        return
    known = st.known
    owner = t.zone_owner[src]
    blind = ((1 << st.n) - 1) & ~known[c] & ~(1 << owner if owner >= 0 else 0)
    if not blind:
        return
    hand = st.zones[src]
    if len(copies) < len(hand):
        hand = _copies_in(st, copies, src, blind)
    faces = t.face_ids
    face = faces[c]
    for d in hand:
        if known[d] & blind and d != c and faces[d] == face:
            forget = known[d] & blind
            known[d] &= ~forget
            blind &= ~forget
            if not blind:
                return


def _copies_in(st: State, copies: tuple[int, ...], src: int, blind: int) -> list[int]:
    """Those of `copies` that lie in zone `src` and that a seat of `blind` knows, in the zone's order (apart from
    `lapse_copy`, whose every call would otherwise make cells for the comprehension's names)."""
    zone_of, known = st.zone_of, st.known
    there = [d for d in copies if zone_of[d] == src and known[d] & blind]
    if len(there) > 1:
        there.sort(key=st.zones[src].index)  # the first copy known in the hand's order is forgotten
    return there


_COPIES: dict[int, tuple] = {}
_LAST_COPIES: list = [None, None]  # the layout asked last, and its entry of `_COPIES`


def copies_of(t: Any) -> list[tuple[int, ...]]:
    """Per card of layout `t`: the other cards of its face (copies of one card), worked out once per list of
    faces (kept with it: a test may give a layout other faces)."""
    faces = t.face_ids
    last = _LAST_COPIES
    if last[0] is t and last[1][0] is faces:
        return last[1][1]
    hit = _COPIES.get(id(t))
    if hit is None or hit[0] is not faces:
        by_face: dict[str, list[int]] = {}
        for c, face in enumerate(faces):
            by_face.setdefault(face, []).append(c)
        hit = _COPIES[id(t)] = (faces, [tuple(d for d in by_face[face] if d != c) for c, face in enumerate(faces)])
    last[0], last[1] = t, hit
    return hit[1]


def lapse(st: State, c: int, src: int) -> None:
    """Card `c` has left a player's own zone `src` (a hand): whoever does not see `c` where it went
    cannot tell which card left, so their glimpses of the cards still there lapse."""
    owner = st.layout.zone_owner[src]
    keep = seen_by(st, c) | (1 << owner if owner >= 0 else 0)
    known = st.known
    for d in st.zones[src]:
        if known[d] & ~keep:
            known[d] &= keep


def move_cards(st: State, src: int, count: int, zi: int, place: int, face: int) -> None:
    """Move the first `count` cards (all if count < 0) of zone `src`, one by one, as `move` would (a quiet
    match takes them at once). A step per card, past UNCHARGED cards."""
    zones = st.zones
    cards = zones[src]
    if not cards:
        return
    moved = cards[:] if count < 0 else cards[:count]
    n = len(moved)
    if n > UNCHARGED:
        charge(st, moved, "")
    elif not n:
        return
    layout = st.layout
    if st.log is not None or src == zi or place not in (0, -1) or layout.zone_limit[zi] >= 0:  # (TOP, BOTTOM)
        _move_each(st, moved, zi, place, face)  # watched or logged, in its own zone, to a place, to a zone with a limit
        return
    del cards[:n]
    up = layout.zone_face[zi] if face < 0 else face == 1
    if place:  # BOTTOM
        zones[zi].extend(moved)
    else:
        moved.reverse()  # dealt one at a time onto the top
        zones[zi][0:0] = moved
    zone_of, faces = st.zone_of, st.face
    for c in moved:
        zone_of[c] = zi
        faces[c] = up


def move_zone(st: State, src: int, zi: int, place: int, up: bool) -> None:
    """`move_cards(st, src, -1, zi, place, face)` where the code generator knows that zone `zi` has no limit,
    that `place` is an end (TOP or BOTTOM) and that the cards land face `up`: a quiet match moves the whole zone
    with no test that cannot fail (any other case, as `move_cards` does)."""
    cards = st.zones[src]
    if not cards:
        return
    if st.log is not None or src == zi or len(cards) > UNCHARGED:
        move_cards(st, src, -1, zi, place, 1 if up else 0)
        return
    if place:  # BOTTOM
        st.zones[zi].extend(cards)
    else:
        st.zones[zi][0:0] = cards[::-1]  # dealt one at a time onto the top
    zone_of, faces = st.zone_of, st.face
    for c in cards:
        zone_of[c] = zi
        faces[c] = up
    cards.clear()


def move_all(st: State, cards: list[int], zi: int, place: int, face: int) -> None:
    """Move each card of a list, in order, as `move` would (a copy is taken, so moving a zone's own list
    is safe). A step per card, past UNCHARGED cards."""
    if len(cards) > UNCHARGED:
        charge(st, cards, "")
    _move_each(st, list(cards), zi, place, face)


def _move_each(st: State, cards: list[int], zi: int, place: int, face: int) -> None:
    """Move each card of a list (not a zone's own) in order, as `move` would one by one. To an end of a zone,
    a quiet match moves them without a call per card, and many cards are moved at once, each zone they leave
    rebuilt in one pass (`move` one by one would take time quadratic in the cards moved)."""
    if BOTTOM <= place <= TOP:
        if st.log is None:
            if len(cards) >= 16:
                _move_quiet(st, cards, zi, place, face)
                return
            if st.layout.zone_limit[zi] < 0:
                _move_few(st, cards, zi, place, face)
                return
        elif len(cards) >= 8 and _move_watched(st, cards, zi, place, face):
            return
    for c in cards:
        move(st, c, zi, place, face)


def _move_few(st: State, cards: list[int], zi: int, place: int, face: int) -> None:
    """`move` of each card in turn to an end of zone `zi` (one with no limit) in a quiet match, written out."""
    zones, zone_of, faces = st.zones, st.zone_of, st.face
    up = st.layout.zone_face[zi] if face < 0 else face == 1
    dest = zones[zi]
    for c in cards:
        if c >= 0:
            zones[zone_of[c]].remove(c)
            if place == TOP:
                dest.insert(0, c)
            else:
                dest.append(c)
            zone_of[c] = zi
            faces[c] = up


def _move_quiet(st: State, cards: list[int], zi: int, place: int, face: int) -> None:
    """`_move_each` of many cards to an end of a zone in a quiet match (nobody's knowledge kept)."""
    limit = st.layout.zone_limit[zi]
    zone_of = st.zone_of
    size = len(st.zones[zi])
    taken: dict[int, None] = {}  # the cards moved, in the order of their last move (which places them)
    left = set()
    for c in cards:
        if c < 0:
            continue
        src = zone_of[c]
        if src != zi:
            if 0 <= limit <= size:
                continue  # the zone is full: the card stays where it is
            size += 1
            left.add(src)
            zone_of[c] = zi
        else:
            taken.pop(c, None)  # in the zone already (or moved there just now): placed again
        taken[c] = None
    if not taken:
        return
    zones = st.zones
    for src in left:
        zones[src][:] = [d for d in zones[src] if zone_of[d] == src]
    dest = zones[zi]
    rest = [d for d in dest if d not in taken]
    dest[:] = [*reversed(taken), *rest] if place == TOP else [*rest, *taken]
    up = st.layout.zone_face[zi] if face < 0 else face == 1
    faces = st.face
    for c in taken:
        faces[c] = up


def _move_watched(st: State, cards: list[int], zi: int, place: int, face: int) -> bool:
    """Move many cards to an end of a zone in a watched or logged match as `move` would one by one, each zone
    rebuilt in one pass and each card's place worked out, not searched for: the watcher gets a `moved_many`
    and the log a `move` line per card, as from `move`; who knows the cards left in a hand is worked out per
    seat in one pass (`_hand_lapses`). Only where that is plain (a zone with no limit, no card twice, no hand
    put in another order, and the cards of each zone taken in the order they lie there); False, with nothing
    done, otherwise."""
    t = st.layout
    if t.zone_limit[zi] >= 0:
        return False
    moved = [c for c in cards if c >= 0]
    zones, known = st.zones, st.known
    srcs = list(map(st.zone_of.__getitem__, moved))
    runs = _from_tops(zones, moved, srcs, zi)
    if runs is not None:  # each card taken from the top of its zone, and put at an end of `zi`: no place to work out
        left = list(runs)
        ats = [0] * len(moved)
        size = len(zones[zi])
        tos = [0] * len(moved) if place == TOP else list(range(size, size + len(moved)))
    else:
        found = _places(st, moved, zi, place, srcs)
        if found is None:
            return False
        left, ats, tos = found
    hands = {src: zones[src][:] for src in left if t.zone_vis[src] == OWNER}  # the hands left, as they were
    was = {d: known[d] for hand_cards in hands.values() for d in hand_cards}
    up = t.zone_face[zi] if face < 0 else face == 1
    if up:  # face up, its zone decides who sees it
        for c in moved:
            known[c] = 0
    else:  # who keeps sight of each, and the zone's owner, know it (`landed_face_down`, one call)
        owner = t.zone_owner[zi]
        bit = 1 << owner if owner >= 0 else 0
        for c in moved:
            known[c] = kept_sight(st, c) | bit
    _rebuild(st, moved, left, zi, place, up, runs)
    for src, hand_before in hands.items():
        _hand_lapses(st, src, hand_before, [c for c, s in zip(moved, srcs, strict=True) if s == src], was)
    if st.watch is not None:
        st.watch.moved_many(st, moved, srcs, ats, zi, tos)
    if st.log.__class__ is list:
        st.log.extend(Moved.logs(t, moved, srcs, zi, up))
    return True


def _from_tops(zones: list[list[int]], moved: list[int], srcs: list[int], zi: int) -> dict[int, int] | None:
    """The commonest batch: the cards `moved` (from the zones `srcs`, each card's) are runs, each the top cards of
    a zone other than `zi` in the order they lie there, and no zone's cards come in two runs (a deal, zones
    gathered). Then how many are taken from each zone, in the order they are left; else None."""
    runs: dict[int, int] = {}
    i = 0
    for src, run in groupby(srcs):
        k = len(list(run))
        if src in runs or src == zi or zones[src][:k] != moved[i:i + k]:
            return None
        runs[src] = k
        i += k
    return runs


def _places(st: State, moved: list[int], zi: int, place: int, srcs: list[int]
            ) -> tuple[list[int], list[int], list[int]] | None:
    """Where each card of `moved` (from the zones `srcs`) comes from and goes, were they moved one by one to an end
    (`place`) of zone `zi`: the zones left (each once, in order), and per card its place in its zone as it goes
    (the cards of that zone taken before it lay above it) and its place in `zi` as it lands. None if that is not
    plain (see `_move_watched`). Each card is looked for in its zone after the last one taken from there (so a
    zone's cards are searched once in all, and one taken out of order, or twice, is not found)."""
    zones, vis = st.zones, st.layout.zone_vis
    places: dict[int, list[int]] = {}  # a zone left: [cards taken, the last one's place]
    ats: list[int] = []
    tos: list[int] = []
    size = len(zones[zi])
    for c, src in zip(moved, srcs, strict=True):
        taken = places.get(src)
        if taken is None:
            if src == zi and vis[zi] == OWNER:
                return None  # a hand put in another order: its owner's glimpses lapse card by card
            taken = places[src] = [0, -1]
        try:
            i = zones[src].index(c, taken[1] + 1)
        except ValueError:
            return None  # taken out of order (or twice): each place would need a search
        at = i - taken[0]  # the cards of this zone taken before it lay above it
        if src != zi:
            size += 1
        elif place == TOP:
            at += len(ats)  # below the cards put on top so far
        ats.append(at)
        tos.append(0 if place == TOP else size - 1)
        taken[0] += 1
        taken[1] = i
    return list(places), ats, tos


def _rebuild(st: State, moved: list[int], left: list[int], zi: int, place: int, up: bool,
             runs: dict[int, int] | None = None) -> None:
    """The zones `left` without the cards `moved`, and zone `zi` with them at its `place` end, face `up` (`runs`:
    how many each zone left gave from its top, if `_from_tops` says so)."""
    zones, zone_of, faces = st.zones, st.zone_of, st.face
    dest = zones[zi]
    if runs is not None:
        for src, k in runs.items():
            del zones[src][:k]
        if place == TOP:
            dest[0:0] = moved[::-1]
        else:
            dest.extend(moved)
    else:
        going = set(moved)
        for src in left:
            if src != zi:
                zones[src][:] = [d for d in zones[src] if d not in going]
        rest = [d for d in dest if d not in going] if zi in left else dest[:]
        dest[:] = [*moved[::-1], *rest] if place == TOP else [*rest, *moved]
    for c in moved:
        zone_of[c] = zi
        faces[c] = up


def _hand_lapses(st: State, src: int, hand_before: list[int], left: list[int], was: dict[int, int]) -> None:
    """Who knows the cards still in hand `src` after the cards `left` left it one after another (`hand_before`:
    the hand before, `was`: who knew each of its cards then), as `lapse_copy` and `lapse` have it card by card: a seat
    that did not know a card that left forgets the first copy of it (same face) it knew there, and a seat
    that does not see a card where it went loses sight of every card still there. Per seat in one pass."""
    owner = st.layout.zone_owner[src]
    known, still = st.known, st.zones[src]
    for s in range(st.n):
        bit = 1 << s
        if s == owner or not any(known[d] & bit for d in still):
            continue  # the owner keeps sight of its hand; a seat that knows none of the cards left has nothing to lose
        lost, forgot = _seat_lapses(st, bit, hand_before, left, was)
        for d in still:
            if known[d] & bit and (lost or d in forgot):
                known[d] &= ~bit


def _seat_lapses(st: State, bit: int, hand_before: list[int], left: list[int], was: dict[int, int]
                 ) -> tuple[bool, set[int]]:
    """For one seat (`bit`) of `_hand_lapses`: whether it loses sight of the whole hand (a card went where it
    does not see it), and the cards it forgets (a first copy it knew of each card that left unknown to it)."""
    faces = st.layout.face_ids
    knows = {d for d in hand_before if was[d] & bit}
    copies: dict[str, list[int]] = {}  # the cards it knows, by face, in the hand's order
    for d in hand_before:
        if d in knows:
            copies.setdefault(faces[d], []).append(d)
    first = dict.fromkeys(copies, 0)  # per face, where the first it may still know is
    forgot: set[int] = set()
    for c in left:
        if c in knows:
            knows.discard(c)
        elif faces[c] in copies:
            q, i = copies[faces[c]], first[faces[c]]
            while i < len(q) and q[i] not in knows:
                i += 1
            first[faces[c]] = i
            if i < len(q):
                knows.discard(q[i])
                forgot.add(q[i])
        if not seen_by(st, c) & bit:
            return True, forgot
    return False, forgot


def shuffle(st: State, zi: int) -> None:
    """Shuffle a zone in place (Fisher-Yates, each draw as `State.below` makes it: every one has two or
    more outcomes); nobody knows the order any more."""
    cards = st.zones[zi]
    if len(cards) > 1:
        st.chance_used += len(cards) - 1
        rng = st.rng
        if rng.__class__ is random.Random:
            _fisher_yates(cards, rng.getrandbits)
        elif hasattr(rng, "shuffled"):  # a determinized world deals the order it was given
            cards[:] = rng.shuffled(cards)
        else:
            below = rng._randbelow
            for i in range(len(cards) - 1, 0, -1):
                j = below(i + 1)
                cards[i], cards[j] = cards[j], cards[i]
    if st.log is not None:
        known = st.known
        for c in cards:
            known[c] = 0
        if st.watch is not None:
            st.watch.shuffled(st, zi)
        if st.log.__class__ is list:
            st.log.append(Shuffled.log(st.layout, zi))


def _fisher_yates(cards: list[int], bits: Any) -> None:
    """Shuffle `cards` in place with `Random._randbelow(i + 1)` for i from the last place down, written out:
    `bits(k)` until at most i, k the bit length of i + 1 (the same order and stream as `random.shuffle`,
    with no call per draw but the generator's own)."""
    m = len(cards)
    for i, k in _DRAWS.get(m) or _draws(m):
        while (j := bits(k)) > i:
            pass
        cards[i], cards[j] = cards[j], cards[i]


_DRAWS: dict[int, tuple[tuple[int, int], ...]] = {}
"""The draws of a shuffle of m cards by m: each place i from the last down to 1 and the bit length of i + 1."""


def _draws(m: int) -> tuple[tuple[int, int], ...]:
    """`_DRAWS[m]`, worked out (once for each m)."""
    draws = _DRAWS[m] = tuple((i, (i + 1).bit_length()) for i in range(m - 1, 0, -1))
    return draws


def flip(st: State, c: int, up: bool) -> None:
    """Turn one card face up or face down where it lies."""
    if c < 0 or st.face[c] == up:
        return
    if st.log is not None:
        if up:
            st.known[c] = 0
        else:
            landed_face_down(st, c, st.zone_of[c])
    st.face[c] = up
    if st.log is not None:
        st.flipped(c, up)


def flip_all(st: State, cards: list[int], up: bool) -> None:
    """Turn every card of a list face up or face down (a step a card, past UNCHARGED cards)."""
    if len(cards) > UNCHARGED:
        charge(st, cards, "")
    for c in list(cards):
        flip(st, c, up)


def show(st: State, c: int, p: int) -> None:
    """Let player `p` see card `c` (and nobody else)."""
    if c < 0 or p < 0:
        return
    if st.watch is not None:
        st.watch.shown(st, c, p)
    st.known[c] |= 1 << p
    if st.log.__class__ is list:
        st.log.append(Shown.log(st.layout, c, p))


def roll(st: State, sides: int) -> int:
    """Roll a die with `sides` faces."""
    if sides > MAX_NUMBER:
        too_big(sides, "")
    r = st.below(sides) + 1
    if st.log is not None:
        st.rolled(sides, r)
    return r


def random_card(st: State, cards: list[int]) -> int:
    """A card picked uniformly at random from a list (-1 if empty). `State.below` written out where the match's
    chance is its own generator (the same draw: `Random._randbelow`'s `getrandbits(k)` until below n)."""
    n = len(cards)
    if n > 1:
        rng = st.rng
        if rng.__class__ is random.Random:
            st.chance_used += 1
            bits, k = rng.getrandbits, n.bit_length()
            while (r := bits(k)) >= n:
                pass
            return cards[r]
        return cards[st.below(n)]
    return cards[0] if n else -1


def random_player(st: State, players: Any) -> int:
    """A player picked uniformly at random from a list (-1 if empty)."""
    return players[st.below(len(players))] if players else -1


def knock_out(st: State, p: int, for_deal: bool) -> None:
    """Knock player `p` out (of the deal, or of the match): skipped by every player list, neighbour and
    turn from now on. (The flow ends the deal when a phase ends with one player left in.)"""
    if p < 0 or st.out >> p & 1:
        return
    st.out |= 1 << p
    if not for_deal:
        st.gone |= 1 << p
    st.orders, st.others, st.after, st.before = st.layout.seats(st.out)
    if st.log is not None:
        st.seats_changed("knock_out", (("player", p), ("until", "deal" if for_deal else "match")))


def is_out(st: State, p: int) -> bool:
    """Whether player `p` is knocked out (none is not)."""
    return p >= 0 and st.out >> p & 1 == 1


def back_in(st: State) -> None:
    """A new deal: the players knocked out only for the last deal are in again."""
    if st.out != st.gone:
        back = [p for p in range(st.n) if (st.out & ~st.gone) >> p & 1]
        st.out = st.gone
        st.orders, st.others, st.after, st.before = st.layout.seats(st.out)
        if st.log is not None:
            st.seats_changed("back_in", (("players", back),))


def say(st: State, text: str) -> None:
    """A sentence written by the game for the readable log."""
    assert st.log is not None, "compiled code says only into a kept (or watched) log"
    if st.watch is not None:
        st.watch.said(st, text)
    st.log.append(Said.log(text))


def fmt(st: State, kind: str, value: Any) -> str:
    """Render a value of a DSL type for a `say` sentence or a question's text."""
    if kind == "str" or kind == "num":  # the most common, first: text and numbers print as they are
        return str(value)
    t = st.layout
    if kind in ("card", "none"):  # (`none` itself, alone or in a list: nothing, not -1)
        return t.card_names[value] if value >= 0 else "nothing"
    if kind == "player":
        return t.player_name(value)
    if kind == "cards":
        return "[" + ", ".join(t.card_names[c] for c in value) + "]" if value else "nothing"
    if kind == "players":
        return "[" + ", ".join(t.player_name(p) for p in value) + "]"
    if kind == "bool":
        return "yes" if value else "no"
    if kind.startswith("list:"):  # each value written as it is alone (`list:card`: by name); never set: nothing
        each = kind[len("list:"):]
        return "[" + ", ".join(fmt(st, each, v) for v in value) + "]" if value is not None else "nothing"
    if kind == "zone":  # (a zone in a list: its cards now)
        return fmt(st, "cards", st.zones[value])
    if isinstance(value, list):  # (a list of numbers or texts, as they are kept)
        return "[" + ", ".join("yes" if v is True else "no" if v is False else str(v) for v in value) + "]"
    return str(value)


_ASKED = operator.itemgetter(0)  # the seat an ask is put to


def one_ask_each(asks: list, where: str) -> None:
    """A simultaneous choice asks each player once (a content bug otherwise: nobody could answer twice)."""
    if len(asks) > 1 and len(set(map(_ASKED, asks))) != len(asks):
        raise RuleError(f"{where}: a simultaneous choice asks one player twice; "
                        "each player of the loop must make their own choice")


def check_loop(count: int, where: str) -> None:
    """Stop a `while` that has run away (a content bug): the bound keeps every match finite."""
    raise RuleError(f"{where}: `while` ran {count} times without its condition turning false; "
                    "add `at most N times` if that is intended")


def too_many_rounds(count: int, where: str) -> None:
    """Refuse a `repeat` of more rounds than MAX_LOOP (the same bound as a `while`)."""
    raise RuleError(f"{where}: `repeat {count} times` is more than {MAX_LOOP:,} rounds")


def out_of_steps(st: State, where: str = "") -> None:
    """Stop a match whose rules have run past its step limit (nested loops or aggregates of a hostile game),
    or whose invariants and checks have run past theirs. Without `where`, the error is placed at the
    rule that was running."""
    at = f"{where}: " if where else ""
    if st.checking:
        raise ChecksTooLong(f"{at}the game's invariants and checks ran more than {MAX_CHECK_STEPS:,} steps in this "
                        "match (elements their aggregates ran over)")
    raise RuleError(f"{at}the match ran more than {st.steps_max:,} steps (loop rounds, calls, cards moved, "
                    "elements aggregated, rounds and turns); if the game really needs that many, raise the limit "
                    "with --max-steps")


def charge(st: State, items: list, where: str) -> list:
    """`items`, charged as steps (one an element): what an aggregate or a `where` is about to run over."""
    st.steps -= len(items)
    if st.steps < 0:
        out_of_steps(st, where)
    return items


def checked(st: State, holds: Any, me: int) -> Any:
    """`holds(st, me)`, an invariant or check, worked out on the match's budget for them (so checking a
    match never changes how far its rules may run)."""
    steps, st.steps, st.checking = st.steps, st.checks_left, True
    try:
        return holds(st, me)
    finally:
        st.checks_left, st.steps, st.checking = st.steps, steps, False


def enter(st: State, where: str) -> None:
    """Before a procedure calls itself (or an ability resolves one): one more step, one level deeper."""
    st.steps -= 1
    if st.steps < 0:
        out_of_steps(st, where)
    st.depth += 1
    if st.depth > MAX_CALL_DEPTH:
        raise RuleError(f"{where}: calls nested more than {MAX_CALL_DEPTH} deep "
                        "(a procedure that keeps calling itself, or an ability that resolves abilities?)")


def too_big(value: int, where: str) -> None:
    """Stop a number from growing past what a match keeps (every number then prints, and fits a log)."""
    digits = len(str(abs(value))) if abs(value) < 10**100 else "over 100"
    at = f"{where}: " if where else ""
    raise RuleError(f"{at}a whole number of {digits} digits, past the limit of {MAX_NUMBER:,} (2**63 - 1) "
                    "either way that a counter, a name or a score may keep")


def need(value: int, what: str, where: str) -> int:
    """`value` (a player or a card), unless it is none: then the rules asked for something impossible."""
    if value < 0:
        raise RuleError(f"{where}: {what} is none here, where one is needed")
    return value


def ask_condition(row: list, st: State, me: int, c: int) -> bool:
    """A card's answer to a declared condition (`row`: the condition's function for each kind of card)."""
    return row[st.layout.card_def[c]](st, me, c)


def numbers(low: int, high: int, where: str) -> list[int]:
    """The options of `a number from low to high`: at least one (a number has no "none", so nothing to
    choose is a content bug) and at most MAX_OPTIONS."""
    if not -MAX_NUMBER <= low <= high <= MAX_NUMBER:
        if high < low:
            raise RuleError(f"{where}: `a number from {low} to {high}`: there is no number to choose")
        too_big(low if abs(low) > MAX_NUMBER else high, where)
    if high - low >= MAX_OPTIONS:
        raise RuleError(f"{where}: `a number from {low} to {high}` offers {high - low + 1:,} options, "
                        f"more than the {MAX_OPTIONS:,} a choice may have")
    return list(range(low, high + 1))


# ---- helpers of the generated code (moved here from the pipeline module) ------------------------------


def top(cards: list[int]) -> int:
    """The first card of a list, or -1."""
    return cards[0] if cards else -1


def last(cards: list[int]) -> int:
    """The last card of a list, or -1."""
    return cards[-1] if cards else -1


def first_with(cards: list[int], values: list[Any], value: Any) -> int:
    """The first of `cards` whose property (`values`, by card) equals `value`, or -1."""
    for c in cards:
        if values[c] == value:
            return c
    return -1


def first_n(cards: list[int], n: int) -> list[int]:
    """The first n cards (all if fewer, none if n < 1)."""
    return cards[: max(0, n)]


def last_n(cards: list[int], n: int) -> list[int]:
    """The last n cards (all if fewer, none if n < 1)."""
    return cards[len(cards) - n:] if 0 < n <= len(cards) else (list(cards) if n > 0 else [])


def floordiv(a: int, b: int) -> int:
    """Whole-number division, rounding down; dividing by zero is a content bug."""
    if b == 0:
        raise RuleError("division by zero")
    return a // b


def mod(a: int, b: int) -> int:
    """The remainder of a whole-number division; by zero it is a content bug."""
    if b == 0:
        raise RuleError("remainder of a division by zero")
    return a % b


def ring_distance(a: int, b: int, size: int) -> int:
    """Steps between two positions on a ring of `size`, the shorter way round."""
    if size < 1:
        raise RuleError(f"ring_distance needs at least 1 place, not {size}")
    d = (a - b) % size
    return min(d, size - d)


def choose_cards(who: int, pool: list[int], n: int, up_to: bool, question: int | tuple, where: str = ""):
    """Ask for cards one at a time (actions stay small ints); `up_to` adds a "done" option (-1).
    Asked n times whatever the pool holds (once it is empty, with "none" alone), unless the player says
    "done": how often a player is asked must not tell the others how many cards could be chosen. So n is
    bounded like a choice's options (MAX_OPTIONS)."""
    if n > MAX_OPTIONS:
        raise RuleError(f"{where}: choosing {n:,} cards asks {n:,} questions, more than the {MAX_OPTIONS:,} "
                        "a choice of several cards may ask")
    chosen: list[int] = []
    for _ in range(n):
        options = [-1, *pool] if up_to else (list(pool) or [-1])
        c = yield (who, options, K_CARD, question)
        if c < 0:
            if up_to:
                break
            continue
        chosen.append(c)
        pool.remove(c)
    return chosen


def always(answer: bool):
    """The condition of a card that does not state it: always the declared default."""
    return lambda st, me, this: answer


# What generated game code may call, by name.
GENERATED_CODE_NAMES = (
    "move", "move_all", "move_cards", "move_zone", "kept_sight", "moved", "shuffle", "flip", "flip_all",
    "show", "roll",
    "random_card", "say", "fmt", "check_loop", "too_many_rounds", "out_of_steps", "charge", "enter", "need",
    "numbers", "too_big",
    "ask_condition",
    "one_ask_each", "GameOver", "top", "last", "first_with", "first_n", "last_n",
    "floordiv", "mod", "ring_distance", "choose_cards", "random_player", "knock_out", "is_out", "DealOver",
)
