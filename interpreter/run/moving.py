"""Stage 6, a card moved: the verbs that move cards (`move`, `move_cards`, `move_zone`, `move_all`), and the upkeep of
who can see or knows each card as it goes (`kept_sight`, `seen_by`, `lapse`: a card leaving a hand is no longer known
for sure, where its copies are alike), told to the watcher of a watched match."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from ..lang.asks import K_BOOL, K_CARD, K_NUMBER, K_PLAYER, K_TEXT  # noqa: F401  (the kinds of an ask)
from ..limits import UNCHARGED
from ..load.model import HIDDEN, OWNER, PUBLIC  # noqa: F401  (HIDDEN: for readers of a state)
from .events import Moved
from .guards import charge
from .state import BOTTOM, RANDOM, TOP, State

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
