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

    def __init__(self, events: list[tuple], shuffles: list[tuple[int, tuple[int, ...]]], upto: int) -> None:
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
    """What one seat saw of each card, walked over the match's events once (carried on from where it stopped).

    A card is *open* from the shuffle that dealt it unseen (`start[c]`: that shuffle, an index into `shuffles`)
    for as long as the seat does not see it; the cards one shuffle dealt unseen make one group. A later shuffle
    of cards of one open group only (a deck gathered again) keeps them in it: the group's relabeling, begun at
    its first shuffle, deals the later one too (and the cards of the group it left out, in a hand, stay free
    with the rest). `start[c]` is -1 for a card the seat has seen since, or that no shuffle ever dealt; `rank[c]`
    orders the cards of the groups by shuffle, then by the place it dealt them to.
    `refused`: why no point of the match can take the fast path any more."""

    __slots__ = ("bit", "dealt", "draws", "end", "face", "named", "plan", "point", "rank", "refused", "seat",
                 "shuffles", "start", "t", "up")

    def __init__(self, t: Any, seat: int) -> None:
        cards = len(t.start_face)
        self.t, self.seat, self.bit = t, seat, 1 << seat
        self.end = 0
        self.face = list(t.start_face)  # each card's face, up or down, as the events leave it
        self.start = [-1] * cards
        self.rank = [0] * cards
        self.dealt = [False] * cards  # whether a shuffle ever dealt the card
        self.up = [False] * cards  # which way up the card lay when its group began
        self.shuffles: list[tuple[int, tuple[int, ...]]] = []  # (event index, order dealt) of each shuffle
        self.draws = 0  # the chance outcomes the shuffles drew
        self.named: list[int] = []  # the events that name a card (what a relabeling changes)
        self.point: tuple = (None, 0, None)  # the last point's kept base, events walked and free groups
        self.plan: tuple = (None, None)  # the last point's free groups and how a draw takes them (`FreeCards`)
        self.refused: str | None = None

    def copy(self) -> _Walk:
        """An independent copy (for a record copied before it records on: see `Watcher.own`)."""
        other = _Walk.__new__(_Walk)
        other.t, other.seat, other.bit, other.end, other.draws = self.t, self.seat, self.bit, self.end, self.draws
        other.face, other.start, other.dealt, other.up = self.face[:], self.start[:], self.dealt[:], self.up[:]
        other.rank, other.shuffles, other.named = self.rank[:], self.shuffles[:], self.named[:]
        other.point, other.plan, other.refused = self.point, self.plan, self.refused  # (never changed in place)
        return other

    def advance(self, events: list[tuple]) -> None:
        """Walk the events recorded since the last call: the counters, the questions and answers of every turn and
        the moves here, as they come; a question or answer that names a card, and the rarer events, apart."""
        seat, bit, face, start, named = self.seat, self.bit, self.face, self.start, self.named
        for i in range(self.end, len(events)):
            e = events[i]
            kind = e[0]
            if kind == TABLE:
                continue  # (the most common: the counters, which name no card)
            if kind == MOVE:
                named.append(i)
                face[e[1]] = e[6]
                if (e[7] | e[8]) & bit:
                    start[e[1]] = -1
            elif kind == ASK:
                if e[3] == K_CARD:
                    self.asked_for_card(i, e)
            elif kind == DECIDE:
                if e[5] >= 0 or (e[2] and e[1] != seat):
                    self.answered(i, e)
            elif kind not in _PLAIN:
                self.shuffled_turned_or_shown(i, e)
        self.end = len(events)

    def asked_for_card(self, i: int, e: tuple) -> None:
        """Event `i` asked a seat to choose a card: a choice another seat makes among cards it sees by face (its
        options named by their faces) may hang on which card lies where."""
        self.named.append(i)
        if e[1] != self.seat and any(x.__class__ is str and x != "none" for x in e[4]):
            self.refused = "another seat chose among cards it sees"

    def answered(self, i: int, e: tuple) -> None:
        """Event `i` is an answer given in secret or naming a card."""
        if e[1] != self.seat and e[2]:
            self.refused = "another seat answered in secret"
        elif e[5] >= 0:
            self.named.append(i)
            if not e[4] & self.bit:
                self.refused = "an answer named a card the seat did not see"
            self.start[e[3]] = -1

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
            if (e[5] | e[6]) & self.bit:
                self.start[e[1]] = -1
        elif kind == SHOW:
            self.named.append(i)
            if e[2] == self.seat or e[5] & self.bit:
                self.start[e[1]] = -1
        else:
            self.refused = f"an event the relabeling does not know ({kind!r})"

    def shuffled(self, i: int, zi: int, order: tuple[int, ...]) -> None:
        """Event `i` shuffled zone `zi` into `order`: the cards it dealt the seat unseen begin a group, or stay in
        theirs (see the class)."""
        t, face, start = self.t, self.face, self.start
        vis = t.zone_vis[zi]
        sees = vis == PUBLIC or (vis == OWNER and t.zone_owner[zi] == self.seat)
        k = len(self.shuffles)
        self.shuffles.append((i, order))
        self.draws += len(order) - 1
        dealt = self.dealt
        for c in order:
            dealt[c] = True
        unseen: tuple[int, ...] | list[int] = order  # (a zone the seat does not see into: all of them)
        if sees:
            unseen = [c for c in order if not face[c]]
            for c in order:
                if face[c]:
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


def _walk(match, seat: int) -> _Walk:
    """The seat's walk of the match's events, kept with its record of events (`Watcher.walks`): a list that only
    grows, shared by the copies of the match, and the walks with it, until one records an event of its own (a copy
    made before the walk, or the match it was made of, gets the walk another made)."""
    watch = match._watch
    walk = watch.walks.get(("free", seat))
    if walk is None:
        walk = watch.walks[("free", seat)] = _Walk(match.layout, seat)
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
    for seat in range(match.players):
        _free_now(_walk(match, seat), match, seat)


def free_world(match, seat: int, rng: random.Random) -> FreeWorld | None:
    """A world drawn without replay (see the module), or None where the fast path does not apply. Reads the match's
    kept base and record of events, not its running state: a copy not yet rebuilt is not rebuilt.

    Each free group's cards, in the order of their faces (as the seat could name them), are shuffled and given to
    its places in the order the shuffle dealt them: what the seat can tell of them, so that matches it cannot tell
    apart, asked with generators alike, give one world."""
    if not _may_apply(match):
        return None
    walk = _walk(match, seat)
    groups = _free_now(walk, match, seat)
    if groups is None:
        return None
    if walk.plan[0] is not groups:  # (the first draw at the point)
        walk.plan = (groups, _free(walk, groups, match.layout.face_ids, match._base[1][1]))
    free = walk.plan[1]
    pi = list(range(len(walk.start)))
    moved = []  # the cards given another's identity
    shuffle = rng.shuffle
    for placed, by_face in free.groups:
        drawn = by_face[:]
        shuffle(drawn)
        for c, d in zip(placed, drawn, strict=True):
            if c != d:
                pi[c] = d
                moved.append(c)
    events = match._watch.events
    # the world's record keeps no tags (nobody draws from a world: see `Watcher.search`)
    watch = match._watch.relabeled(pi, len(events), [])
    watch.search = True
    if moved:
        _relabel_events(watch.events, free, pi)
    cur, frozen = match._base
    base = (cur, _relabeled_base(frozen, pi, moved, free, rng.getrandbits(64)))
    drawing = Drawing(watch.events, free.shuffles, len(match.history))
    return tuple.__new__(FreeWorld, (base, watch, drawing, rng.getrandbits(31)))  # (as `FreeWorld._make`, no call)


class FreeCards(NamedTuple):
    """The free cards of a seat at a point, as each draw there takes them (worked out once, kept with the walk):
    each group's cards by place and the same cards by face (see `free_world`); the events a relabeling may change
    (those that name a card, from the first group's shuffle on); the cards whose relabeling begins at each shuffle
    (by the shuffle's event); the zones they lie in at the kept base; and where every shuffle lies in the record
    (the world's drawing reads its orders)."""

    groups: tuple[tuple[list[int], list[int]], ...]
    named: list[int]
    starts: dict[int, list[int]]
    zones: set[int]
    shuffles: list[tuple[int, tuple[int, ...]]]


def _free_now(walk: _Walk, match, seat: int) -> list[list[int]] | None:
    """The free cards of the seat's walk at the match's point (see `_free_cards`), or None where the fast path does
    not apply. Kept with the walk for the match's kept base: still so after events that name no card (the counters,
    sayings, answers that are not cards: a search asked again at one point, or a first draw after a few bets, finds
    them worked out)."""
    base = match._base
    frozen = base[1]
    base_events = match._base_info[0]
    # chance so far: the shuffles', all before the base (no phase since the start drew any other: `_faces_read`)
    if walk.refused is not None or frozen[CHANCE_USED] != walk.draws \
            or (walk.shuffles and walk.shuffles[-1][0] >= base_events):
        return None
    point, named = walk.point, walk.named
    if point[0] is not base or (point[1] != walk.end and named and named[-1] >= point[1]):
        point = walk.point = (base, walk.end, _free_cards(walk, match, seat, frozen, base_events))
    return point[2]


def _seen_now(match, seat: int, frozen: tuple, since: int, cards: list[int] | range) -> list[bool]:
    """Which cards the seat sees or follows now, of `cards` (the others counted unseen at the base): as the kept
    base has them (`seen_by` of the frozen state), then as the events since say — a card moved, turned or shuffled
    as who sees it after; a glimpse of a card in a hand not the seat's counted lost once a card leaves that hand
    (it may lapse: never counted seen wrongly)."""
    t, bit = match.layout, 1 << seat
    zone_of, face = frozen[1][:], frozen[2][:]
    seen = _seen_at_base(SimpleNamespace(layout=t, n=match.players, zone_of=zone_of, face=face, known=frozen[3]),
                         bit, cards)
    vis, owner = t.zone_vis, t.zone_owner
    events = match._watch.events
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
    return seen


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


def _free_cards(walk: _Walk, match, seat: int, frozen: tuple, since: int) -> list[list[int]] | None:
    """The free cards by (group, which way up they lay as it began, back), by place: the cards a relabeling may give
    to each other's places; None where a card was seen since a shuffle dealt it and the seat does not see it now. (A
    card of a group is one no event showed the seat since: it does not see it now.) A group of one card is left
    out: a relabeling gives it its own place."""
    start, dealt = walk.start, walk.dealt
    pinned = [c for c, k in enumerate(start) if k < 0 and dealt[c]]  # seen since dealt
    if pinned:
        seen = _seen_now(match, seat, frozen, since, pinned)
        if not all(map(seen.__getitem__, pinned)):
            return None
    t, up = match.layout, walk.up
    backs = t.back
    found: dict[tuple[int, bool, tuple], list[int]] = {}
    free = [c for c, k in enumerate(start) if k >= 0]
    free.sort(key=walk.rank.__getitem__)
    for c in free:
        found.setdefault((start[c], up[c], back_key(t, c) if backs[c] else ()), []).append(c)
    return [group for group in found.values() if len(group) > 1]


def _free(walk: _Walk, groups: list[list[int]], faces: list[str], zone_of: list[int]) -> FreeCards:
    """The free cards `groups` (each by place; `zone_of`: where each card lies at the kept base) as a draw takes them
    (see `FreeCards`)."""
    shuffles, start, named = walk.shuffles, walk.start, walk.named
    starts: dict[int, list[int]] = {}
    zones: set[int] = set()
    for cards in groups:
        starts.setdefault(shuffles[start[cards[0]]][0], []).extend(cards)
        zones.update(map(zone_of.__getitem__, cards))
    # by face (as the seat could name them), copies of one face by card (an order that is the same in every match)
    by_face = [sorted(sorted(cards), key=faces.__getitem__) for cards in groups]
    relabeled = named[bisect_left(named, min(starts)):] if starts else []
    return tuple.__new__(FreeCards, (tuple(zip(groups, by_face, strict=True)), relabeled, starts, zones, shuffles[:]))


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
        zone_of, face, known = zone_of[:], face[:], known[:]
        was_in, was_up, was_known = frozen[1], frozen[2], frozen[3]
        for c in moved:
            d = pi[c]
            zone_of[d], face[d], known[d] = was_in[c], was_up[c], was_known[c]
        zones = zones[:]
        for zi in free.zones:
            zones[zi] = [pi[c] for c in zones[zi]]
    return (zones, zone_of, face, known, *frozen[4:-1], ("object", Seeded(seed)))
