"""A swap no rule can tell (`_exchanged_kept`): the kept world with two cards' identities exchanged from their shuffle
on, made without playing it again, where no rule may have read either card's face since (`Game.face_zones`,
`Game.face_props`); its record, its base and its copies relabeled (`_Exchanged`, made when first used)."""

from __future__ import annotations

import random
import weakref
from collections.abc import Sequence
from itertools import compress, islice, repeat
from operator import contains, eq, is_, or_
from typing import Any

from ...lang.compiled import ANY_ZONE
from ..events import SAY, SEATS, TABLE
from ..information import ASK, DECIDE, FLIP, MOVE, ROLL, SHOW, SHUFFLE, fork_cache, new_cache
from ..runtime import K_CARD
from .base import _KIND
from .kept import _Belief
from .trace import _Trace, _Tracer
from .world_chance import _chance_of, _rechanced, _WorldChance


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
