"""Stage 7, a determinization that needs no replay: where nothing the seat observed can hang on which of the
cards it never saw lies where, a world is the match itself with those cards dealt to each other's places.

When it applies (`free_world` checks each point; else `determinize` plays worlds as `belief` does):

- no rule has yet read a card's face: no phase that may (`game.face_readers`, lang/faces.py) has started,
  the match is not over (its score reads them), and the flow's `until` conditions read none;
- every chance outcome so far was a shuffle's (no phase that may roll or pick at random has started: lang/faces.py
  counts them), and every shuffle came before the match's kept base (the world is rebuilt from that base,
  relabeled);
- no other seat answered in secret, nor named a card the seat did not see, nor was asked to choose among
  cards it sees by face;
- each card is one of three: one the seat sees or follows now (its face is known: it stays), one no shuffle
  ever dealt (the set-up and the rules, which drew no chance for it, put it where every world has it: it
  stays), or one the seat has not seen since a shuffle dealt it (*free*). A card seen since a shuffle dealt
  it and lost track of since (a glimpse that lapsed, a card it saw leave into a hand it cannot follow), or a
  shuffle that mixes cards it never saw with cards it saw, make the point one the fast path leaves to
  `belief`: the cards would be free from different shuffles on, which no one relabeling deals.

The free cards dealt by one shuffle (its *group*: a later shuffle of cards of that group only, a deck gathered
again, keeps them in it), lying the same way up then and with one back, are given to each other's places by a
uniform permutation pi: from that shuffle on, the world is the match with card c's identity given to pi[c]
(its shuffles deal pi of the real orders, every later event names pi[c] for c). Why that is the sampling model
of docs/information.md, exactly: the shuffles are uniform, so every such deal is as likely a priori; no rule
looked at a face, so each of those worlds runs the same course (the same questions, options, counters and
places) and the other seats' answers, uniform among options that do not hang on those cards, are as likely
in each; and the seat observed every free card only by its back. So, given what the seat observed, those
worlds are equally likely, and (no other chance, no secret answer) they are all the worlds there are.

The world is built from the match's kept base (relabeled, its chance a fresh generator drawn from `rng`)
and the answers since, not replayed from the start; its record of events is relabeled, so every seat's
observations in it are its own (the seat's are the match's, line for line), and `belief.replayed` plays it
again from its start along the drawing kept in `_drawn` (its shuffles dealing the relabeled orders).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from functools import cache
from itertools import compress, repeat
from operator import and_, gt, le
from types import SimpleNamespace
from typing import Any, NamedTuple

from .belief import shuffles_drawn  # the drawing a world keeps (`_drawn`), which `belief.replayed` deals
from .events import ASK, DECIDE, FLIP, MOVE, ROLL, SAY, SEATS, SHOW, SHUFFLE, TABLE
from .information import Watcher, back_key
from .runtime import CHANCE_USED, K_CARD, OWNER, PUBLIC, seen_by


class FreeWorld(NamedTuple):
    """What a world drawn without replay is made of (`Match` assembles it): the kept base relabeled, with its
    chance drawn anew; the record of events relabeled (a watcher of its own, keeping no tags, as a world drawn
    by `belief` keeps none); the drawing `belief.replayed` deals; a seed of its own."""

    base: tuple
    watch: Watcher
    drawn: Drawing
    seed: int


class Seeded:
    """A world's chance from its base on: a generator seeded with `seed`, made when the base is thawed (a copy
    of the base state is a `random.Random` in that state; drawing the world itself costs no generator)."""

    __slots__ = ("seed",)

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def __deepcopy__(self, memo: dict) -> random.Random:
        return random.Random(self.seed)

    def __reduce__(self) -> tuple:
        return Seeded, (self.seed,)


class Drawing(Sequence):
    """A world's drawing as `belief` keeps one (`Match._drawn`: the paths its shuffles dealt, its chance outcomes,
    the answers it was drawn up to; what `belief.replayed` plays it along), made when first read: the orders its
    shuffles dealt, as its record of events has them (`shuffles`: where they lie), are read then. Only a world
    played again from its start reads it, so a draw does not pay for it."""

    __slots__ = ("events", "made", "shuffles", "upto")

    def __init__(self, events: list[tuple], shuffles: Sequence[tuple[int, tuple[int, ...]]], upto: int) -> None:
        self.events, self.shuffles, self.upto = events, shuffles, upto
        self.made: tuple | None = None

    def __getitem__(self, k: Any) -> Any:
        if self.made is None:
            events = self.events
            self.made = shuffles_drawn([events[i][2] for i, _ in self.shuffles], self.upto)
        return self.made[k]

    def __len__(self) -> int:
        return 3


_PLAIN = frozenset({TABLE, SAY, ROLL, SEATS})  # events that name no card (a roll is chance: see `free_world`)


class _Walk:
    """What every seat saw of each card, walked over the match's events once for all the seats (carried on from
    where it stopped): what the cards went through (their faces, the shuffles, the events that name one), and each
    seat's sight of them (`seats`: a `_Sight` a seat).

    A card is *open* to a seat from the shuffle that dealt it unseen (`start[c]`: that shuffle, an index into
    `shuffles`) for as long as the seat does not see it; the cards one shuffle dealt unseen make one group. A later
    shuffle of cards of one open group only (a deck gathered again) keeps them in it: the group's relabeling, begun
    at its first shuffle, deals the later one too (and the cards of the group it left out, in a hand, stay free with
    the rest)."""

    __slots__ = ("dealt", "draws", "end", "face", "named", "seats", "shuffles", "t")

    def __init__(self, t: Any, players: int) -> None:
        cards = len(t.start_face)
        self.t = t
        self.end = 0
        self.face = list(t.start_face)  # each card's face, up or down, as the events leave it
        self.dealt = [False] * cards  # whether a shuffle ever dealt the card
        self.shuffles: list[tuple[int, tuple[int, ...]]] = []  # (event index, order dealt) of each shuffle
        self.draws = 0  # the chance outcomes the shuffles drew
        self.named: list[int] = []  # the events that name a card (what a relabeling changes)
        self.seats = [_Sight(seat, cards) for seat in range(players)]

    def copy(self) -> _Walk:
        """An independent copy (for a record copied before it records on: see `Watcher.own`)."""
        other = _Walk.__new__(_Walk)
        other.t, other.end, other.draws = self.t, self.end, self.draws
        other.face, other.dealt, other.shuffles, other.named = self.face[:], self.dealt[:], self.shuffles[:], \
            self.named[:]
        other.seats = [sight.copy() for sight in self.seats]
        return other

    def advance(self, events: list[tuple]) -> None:
        """Walk the events recorded since the last call: the counters, the questions and answers of every turn and
        the moves here, as they come; a question or answer that names a card, and the rarer events, apart."""
        face, named = self.face, self.named
        for i in range(self.end, len(events)):
            e = events[i]
            kind = e[0]
            if kind == TABLE:
                continue  # (the most common: the counters, which name no card)
            if kind == MOVE:
                named.append(i)
                face[e[1]] = e[6]
                if e[7] | e[8]:
                    self.seen(e[1], e[7] | e[8])
            elif kind == ASK:
                if e[3] == K_CARD:
                    self.asked_for_card(i, e)
            elif kind == DECIDE:
                if e[5] >= 0 or e[2]:
                    self.answered(i, e)
            elif kind not in _PLAIN:
                self.shuffled_turned_or_shown(i, e)
        self.end = len(events)

    def seen(self, c: int, who: int) -> None:
        """Card `c` seen by the seats of the bit mask `who`: open to none of them from here."""
        for sight in self.seats:
            if who & sight.bit:
                sight.start[c] = -1

    def refuse(self, but: int, why: str) -> None:
        """No point of the match from here takes the fast path for a seat but `but` (-1: for none)."""
        for sight in self.seats:
            if sight.seat != but:
                sight.refused = why

    def asked_for_card(self, i: int, e: tuple) -> None:
        """Event `i` asked a seat to choose a card: a choice another seat makes among cards it sees by face (its
        options named by their faces) may hang on which card lies where."""
        self.named.append(i)
        if any(x.__class__ is str and x != "none" for x in e[4]):
            self.refuse(e[1], "another seat chose among cards it sees")

    def answered(self, i: int, e: tuple) -> None:
        """Event `i` is an answer given in secret or naming a card (a secret one refuses the other seats: what they
        do with the card it names does not matter)."""
        if e[2]:
            self.refuse(e[1], "another seat answered in secret")
        if e[5] >= 0:
            self.named.append(i)
            for sight in self.seats:
                if not e[4] & sight.bit:
                    sight.refused = sight.refused or "an answer named a card the seat did not see"
                sight.start[e[3]] = -1

    def shuffled_turned_or_shown(self, i: int, e: tuple) -> None:
        """Event `i` is a shuffle, a card turned or a glimpse (or an event the relabeling does not know)."""
        kind = e[0]
        if kind == SHUFFLE:
            self.named.append(i)
            if len(e[2]) > 1:  # (one card or none: no chance drawn, and who knew it lost it: see `free_world`)
                self.shuffled(i, e[1], e[2])
        elif kind == FLIP:
            self.named.append(i)
            self.face[e[1]] = e[4]
            self.seen(e[1], e[5] | e[6])
        elif kind == SHOW:
            self.named.append(i)
            for sight in self.seats:
                if e[2] == sight.seat or e[5] & sight.bit:
                    sight.start[e[1]] = -1
        else:
            self.refuse(-1, f"an event the relabeling does not know ({kind!r})")

    def shuffled(self, i: int, zi: int, order: tuple[int, ...]) -> None:
        """Event `i` shuffled zone `zi` into `order`: the cards it dealt each seat unseen begin a group, or stay in
        theirs (see the class)."""
        t, face = self.t, self.face
        k = len(self.shuffles)
        self.shuffles.append((i, order))
        self.draws += len(order) - 1
        dealt = self.dealt
        for c in order:
            dealt[c] = True
        vis, owner = t.zone_vis[zi], t.zone_owner[zi]
        up = [c for c in order if face[c]] if vis in (PUBLIC, OWNER) else []  # (seen where the zone is seen)
        for sight in self.seats:
            if up and (vis == PUBLIC or owner == sight.seat):
                sight.shuffled(k, [c for c in order if not face[c]], up, face)
            else:  # (a zone the seat does not see into, or no card face up: all of them unseen)
                sight.shuffled(k, order, (), face)


class _Sight:
    """What one seat saw of each card (see `_Walk`): `start[c]` is -1 for a card the seat has seen since a shuffle
    dealt it, or that no shuffle ever dealt; `rank[c]` orders the cards of the groups by shuffle, then by the place it
    dealt them to; `up[c]`, which way up the card lay when its group began. `refused`: why no point of the match can
    take the fast path for the seat any more; `point`: the last point's kept base, events walked and free cards
    (`FreeCards`)."""

    __slots__ = ("bit", "point", "rank", "refused", "seat", "start", "up")

    def __init__(self, seat: int, cards: int) -> None:
        self.seat, self.bit = seat, 1 << seat
        self.start = [-1] * cards
        self.rank = [0] * cards
        self.up = [False] * cards
        self.refused: str | None = None
        self.point: tuple = (None, 0, None)

    def copy(self) -> _Sight:
        other = _Sight.__new__(_Sight)
        other.seat, other.bit, other.refused, other.point = self.seat, self.bit, self.refused, self.point
        other.start, other.rank, other.up = self.start[:], self.rank[:], self.up[:]
        return other

    def shuffled(self, k: int, unseen: Sequence[int], seen: Sequence[int], face: list[bool]) -> None:
        """Shuffle `k` dealt the cards `unseen` with the seat not seeing them (and `seen` face up where it sees them):
        they begin a group, or stay in theirs."""
        start = self.start
        for c in seen:
            start[c] = -1
        groups = set(map(start.__getitem__, unseen))
        if len(groups) > 1:  # cards of an open group mixed with others: no one relabeling deals both
            self.refused = "a shuffle mixed cards the seat never saw with others"
        elif groups and -1 not in groups:
            return  # cards of one open group dealt again: they stay in it
        up, rank = self.up, self.rank
        for at, c in enumerate(unseen, k * len(start)):
            start[c] = k
            up[c] = face[c]
            rank[c] = at


def _walk(match) -> _Walk:
    """The seats' walk of the match's events, kept with its record of events (`Watcher.walks`): a list that only
    grows, shared by the copies of the match, and the walk with it, until one records an event of its own (a copy
    made before the walk, or the match it was made of, gets the walk another made)."""
    watch = match._watch
    walk = watch.walks.get("free")
    if walk is None:
        walk = watch.walks["free"] = _Walk(match.layout, match.players)
    if walk.end != len(watch.events):
        walk.advance(watch.events)
    return walk


def _may_apply(match) -> bool:
    """Whether the fast path may apply at the match's point, as far as the match itself says (see the module)."""
    game = match.game
    return not (match.over or match._faces_read or match.failure is not None or match._explicit is not None
                or match._arrange or match._after_setup is not None or match.__dict__.get("_drawn")
                or match._watch.search or match._rng.__class__ is not random.Random
                or game.rounds_until in game.face_readers or game.deals_until in game.face_readers)


def walk_ahead(match) -> None:
    """Each seat's walk carried on to the match's record as it stands, and its free cards at the kept base worked
    out, where a world may yet be drawn without replay (no phase that may read a face has started, the chance is the
    seed's, the record keeps tags): what `Match._mark` does as it keeps a base, so that a first draw of the match, or
    of a copy, walks only the events since (a few answers) and finds its free cards known."""
    if not _may_apply(match):
        return
    walk = _walk(match)
    kept = _kept(walk, match)
    if kept is None:
        return
    point, live = (match._base, walk.end), match.st  # (the running state is the base just kept)
    for seat, sight in enumerate(walk.seats):
        if sight.refused is None:
            sight.point = (*point, _free_cards(walk, match, seat, kept, live))


def free_world(match, seat: int, rng: random.Random) -> FreeWorld | None:
    """A world drawn without replay (see the module), or None where the fast path does not apply. Reads the match's
    kept base and record of events, not its running state: a copy not yet rebuilt is not rebuilt.

    Each free group's cards, in the order of their faces (as the seat could name them), are shuffled and given to
    its places in the order the shuffle dealt them: what the seat can tell of them, so that matches it cannot tell
    apart, asked with generators alike, give one world."""
    if not _may_apply(match):
        return None
    free = _free_now(_walk(match), match, seat)
    if free is None:
        return None
    pi, moved = _drawn_labels(free, rng)
    record = match._watch
    # the world's record keeps no tags (nobody draws from a world: see `Watcher.search`)
    watch = record.relabeled(pi, len(record.events), [])
    watch.search = True
    if moved:
        _relabel_events(watch.events, free, pi)
    base = (match._base[0], _relabeled_base(match._base[1], pi, moved, free, rng.getrandbits(64)))
    drawing = Drawing(watch.events, free.shuffles, len(match.history))
    return tuple.__new__(FreeWorld, (base, watch, drawing, rng.getrandbits(31)))  # (as `FreeWorld._make`, no call)


def _drawn_labels(free: FreeCards, rng: random.Random) -> tuple[list[int], list[int]]:
    """A draw of the free cards: pi (card c given pi[c]'s identity) and the cards it moved. Each group's cards by face
    shuffled as `rng.shuffle` does (for a `random.Random`, its draws written out: the same generator, the same
    world), then given to its places in turn."""
    pi = list(free.labels)
    moved = []
    getrandbits = rng.getrandbits if rng.__class__ is random.Random else None
    for placed, by_face, steps in free.groups:
        drawn = by_face[:]
        if getrandbits is None:
            rng.shuffle(drawn)
        else:
            for i, bits in steps:  # (random.shuffle: swap place i with one drawn below i + 1, from the last down)
                j = getrandbits(bits)
                while j > i:
                    j = getrandbits(bits)
                drawn[i], drawn[j] = drawn[j], drawn[i]
        for c, d in zip(placed, drawn, strict=True):
            if c != d:
                pi[c] = d
                moved.append(c)
    return pi, moved


class FreeCards(NamedTuple):
    """The free cards of a seat at a point, as each draw there takes them (worked out once, with the point, as the
    match keeps a base: see `walk_ahead`): each group's cards by place, the same cards by face (see `free_world`) and
    the draws `random.shuffle` makes of them ((place, bits) of each, from the last place down); the events a relabeling
    may change (those that name a card, from the first group's shuffle on); the cards whose relabeling begins at each
    shuffle (by the shuffle's event); the zones they lie in at the kept base; where every shuffle lies in the record
    (the world's drawing reads its orders); each card's own label (what a draw starts from); and the rest of the
    kept base after the cards' places, faces and knowledge, but its chance (what a world's base shares)."""

    groups: tuple[tuple[list[int], list[int], tuple[tuple[int, int], ...]], ...]
    named: list[int]
    starts: dict[int, list[int]]
    zones: tuple[int, ...]
    shuffles: tuple[tuple[int, tuple[int, ...]], ...]
    labels: range
    rest: tuple


def _free_now(walk: _Walk, match, seat: int) -> FreeCards | None:
    """The free cards of the seat's walk at the match's point (see `_free_cards`), or None where the fast path does
    not apply. Kept with the walk for the match's kept base: still so after events that name no card (the counters,
    sayings, answers that are not cards: a search asked again at one point, or a first draw after a few bets, finds
    them worked out)."""
    sight = walk.seats[seat]
    if sight.refused is not None:
        return None
    point, named = sight.point, walk.named
    if point[0] is match._base and (not named or named[-1] < point[1]):  # (no event since names a card)
        return point[2]
    kept = _kept(walk, match)
    if kept is None:
        return None
    point = sight.point = (match._base, walk.end, _free_cards(walk, match, seat, kept))
    return point[2]


def _kept(walk: _Walk, match) -> Kept | None:
    """What the seats' free cards read of the match's kept base (see `Kept`), or None where a chance outcome other
    than a shuffle's came before it, or a shuffle after it."""
    frozen = match._base[1]
    since = match._base_info[0]
    # chance so far: the shuffles', all before the base (no phase since the start drew any other: `_faces_read`)
    if frozen[CHANCE_USED] != walk.draws or (walk.shuffles and walk.shuffles[-1][0] >= since):
        return None
    return tuple.__new__(Kept, (frozen, since, tuple(walk.shuffles), frozen[4:-1]))


class Kept(NamedTuple):
    """The kept base as the seats' free cards read it: the frozen state, the events recorded up to it, the shuffles
    (event, order) before it, and the rest of it after the cards' places, faces and knowledge but its chance."""

    frozen: tuple
    since: int
    shuffles: tuple[tuple[int, tuple[int, ...]], ...]
    rest: tuple


def _pinned_seen(match, seat: int, kept: Kept, pinned: list[int], live: Any) -> bool:
    """Whether the seat sees each card of `pinned` now: as the running state `live` says where it is the kept base's
    (the match keeping it: `walk_ahead`), else as `_seen_now` works it out from the base and the events since."""
    if live is None:
        seen = _seen_now(match, seat, kept.frozen, kept.since, pinned)
        return all(map(seen.__getitem__, pinned))
    return all(map(and_, map(seen_by, repeat(live), pinned), repeat(1 << seat)))


def _seen_now(match, seat: int, frozen: tuple, since: int, cards: list[int] | range) -> list[bool]:
    """Which cards the seat sees or follows now, of `cards` (the others counted unseen at the base): as the kept
    base has them (`seen_by` of the frozen state), then as the events since say (`_seen_since`)."""
    events = match._watch.events
    later = since < len(events)
    zone_of, face = (frozen[1][:], frozen[2][:]) if later else (frozen[1], frozen[2])  # (the events since change them)
    seen = _seen_at_base(SimpleNamespace(layout=match.layout, n=match.players, zone_of=zone_of, face=face,
                                         known=frozen[3]), 1 << seat, cards)
    if later:
        _seen_since(match.layout, seat, events, since, seen, zone_of, face)
    return seen


def _seen_since(t: Any, seat: int, events: list[tuple], since: int, seen: list[bool], zone_of: list[int],
                face: list[bool]) -> None:
    """Which cards the seat sees, as the events from `since` on change `seen` (and the places and faces they leave):
    a card moved, turned or shuffled as who sees it after; a glimpse of a card in a hand not the seat's counted lost
    once a card leaves that hand (it may lapse: never counted seen wrongly)."""
    vis, owner, bit = t.zone_vis, t.zone_owner, 1 << seat
    for i in range(since, len(events)):
        e = events[i]
        kind = e[0]
        if kind == MOVE:
            c, src = e[1], e[2]
            zone_of[c], face[c], seen[c] = e[4], e[6], bool(e[8] & bit)
            if vis[src] == OWNER and owner[src] != seat:
                _glimpses_lapsed(seen, zone_of, src)
        elif kind == FLIP:
            face[e[1]], seen[e[1]] = e[4], bool(e[6] & bit)
        elif kind == SHOW:
            if e[2] == seat:
                seen[e[1]] = True
        elif kind == SHUFFLE:
            zi = e[1]
            sees = vis[zi] == PUBLIC or (vis[zi] == OWNER and owner[zi] == seat)
            for c in e[2]:
                zone_of[c], seen[c] = zi, sees and face[c]


def _seen_at_base(shown: SimpleNamespace, bit: int, cards: list[int] | range) -> list[bool]:
    """Which of `cards` the seat of `bit` sees in the kept base `shown` (the others counted unseen)."""
    seen = [False] * len(shown.face)
    for c in cards:
        seen[c] = bool(seen_by(shown, c) & bit)  # type: ignore[arg-type]
    return seen


def _glimpses_lapsed(seen: list[bool], zone_of: list[int], zi: int) -> None:
    """A card left hand `zi`, not the seat's: what it glimpsed there counted lost (see `_seen_now`)."""
    for c, where in enumerate(zone_of):
        if where == zi:
            seen[c] = False


def _free_cards(walk: _Walk, match, seat: int, kept: Kept, live: Any = None) -> FreeCards | None:
    """The free cards by (group, which way up they lay as it began, back), by place, as a draw takes them (see
    `FreeCards`): the cards a relabeling may give to each other's places; None where a card was seen since a shuffle
    dealt it and the seat does not see it now. (A card of a group is one no event showed the seat since: it does not
    see it now.) A group of one card is left out: a relabeling gives it its own place. `live`: the running state,
    where it is the kept base's (see `_pinned_seen`)."""
    sight = walk.seats[seat]
    start = sight.start
    cards = range(len(start))
    pinned = list(compress(cards, map(and_, walk.dealt, map(gt, repeat(0), start))))  # seen since dealt
    if pinned and not _pinned_seen(match, seat, kept, pinned, live):
        return None
    t, up = match.layout, sight.up
    backs = t.back
    found: dict[tuple[int, bool, tuple], list[int]] = {}
    for c in sorted(compress(cards, map(le, repeat(0), start)), key=sight.rank.__getitem__):
        found.setdefault((start[c], up[c], back_key(t, c) if backs[c] else ()), []).append(c)
    shuffles, zone_of, faces = kept.shuffles, kept.frozen[1], t.face_ids
    taken = []
    starts: dict[int, list[int]] = {}
    zones: set[int] = set()
    for group in found.values():
        if len(group) > 1:
            # by face (as the seat could name them), copies of one face by card (an order the same in every match)
            taken.append((group, sorted(sorted(group), key=faces.__getitem__), _steps(len(group))))
            starts.setdefault(shuffles[start[group[0]]][0], []).extend(group)
            zones.update(map(zone_of.__getitem__, group))
    named = walk.named
    return tuple.__new__(FreeCards, (tuple(taken), named[bisect_left(named, min(starts)):] if starts else [], starts,
                                     tuple(zones), shuffles, cards, kept.rest))


@cache
def _steps(n: int) -> tuple[tuple[int, int], ...]:
    """The draws `random.shuffle` makes of n things: (place, bits) of each, from the last place down (it swaps place i
    with one below i + 1, drawn from `bits` random bits until one is)."""
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


def _relabel_events(events: list[tuple], free: FreeCards, pi: list[int]) -> None:
    """The events that name a card, each card c named pi[c] from the shuffle that dealt it free on (before it, as
    it was: the world's history up to that shuffle is the match's)."""
    starts = free.starts
    # the relabeling as it stands at the event walked (all of it from the first, where one shuffle dealt every group)
    now = pi if len(starts) == 1 else list(range(len(pi)))
    for i in free.named:
        e = events[i]
        kind = e[0]
        if kind == SHUFFLE:
            if now is not pi:
                for c in starts.get(i, ()):
                    now[c] = pi[c]
            events[i] = (SHUFFLE, e[1], tuple(map(now.__getitem__, e[2])))
        elif kind == DECIDE:
            if now[e[3]] != e[3]:
                events[i] = (*e[:3], now[e[3]], *e[4:])
        elif kind == ASK:
            events[i] = (*e[:4], tuple((now[x[0]], *x[1:]) if x.__class__ is tuple else x for x in e[4]))
        elif now[e[1]] != e[1]:  # a move, a turn, a glimpse
            events[i] = (kind, now[e[1]], *e[2:])


def _relabeled_base(frozen: tuple, pi: list[int], moved: list[int], free: FreeCards, seed: int) -> tuple:
    """The kept base `frozen` with card c's identity given to card pi[c] (same places, faces and knowledge: as
    `relabel_frozen`, only the cards `moved` and the zones the free cards lie in copied anew; a frozen state is
    never changed, so the rest is shared) and its chance a generator seeded with `seed`."""
    zones, zone_of, face, known = frozen[0], frozen[1], frozen[2], frozen[3]
    if moved:
        was_in, was_up, was_known = zone_of, face, known
        zone_of, face, known = zone_of[:], face[:], known[:]
        for c in moved:
            d = pi[c]
            zone_of[d], face[d], known[d] = was_in[c], was_up[c], was_known[c]
        zones = zones[:]
        relabel = pi.__getitem__
        for zi in free.zones:
            zones[zi] = list(map(relabel, zones[zi]))
    return (zones, zone_of, face, known, *free.rest, ("object", Seeded(seed)))
