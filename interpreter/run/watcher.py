"""Stage 7, what each seat knows, recorded: the `Watcher` that rides along a match (never `sim`) and keeps
every event as it happened with who could see the card before and after, and, per seat, which cards the seat
can no longer tell apart (`tags`) — what a determinization may relabel (`interchangeable`, `relabel_frozen`).

The runtime's hooks tell it every move, flip, shuffle, glimpse, roll and `say`, and the match tells it every
question and answer; a seat's information state renders its list for the seat (run/information.py).
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import ge
from typing import Any

from .events import ASK, DECIDE, FLIP, MOVE, ROLL, SAY, SEATS, SHOW, SHUFFLE, TABLE
from .runtime import OWNER, PUBLIC, State, seen_by
from .sight import back_key


class _SeatsIn(dict[int, tuple[int, ...]]):
    """The seats of a bit mask, in order (`_SEATS_IN[0b101]` is (0, 2)), each mask's worked out once when first
    asked for: a hook loops over the seats that saw a card without testing each seat's bit."""

    def __missing__(self, mask: int) -> tuple[int, ...]:
        seats = self[mask] = tuple(s for s in range(mask.bit_length()) if mask >> s & 1)
        return seats


_SEATS_IN = _SeatsIn()


def relabeled_tags(pi: list[int], then: list[int]) -> list[int]:
    """A seat's tags (see `Watcher`) with card c's given to pi[c]: a card the seat tells apart is named by its own
    index, a group of cards it could not tell apart stays one."""
    cards = len(pi)
    tags = list(range(cards))
    for c in compress(range(cards), map(ge, then, repeat(cards))):  # the cards of a group
        tags[pi[c]] = then[c]
    return tags


class Watcher:
    """The observations of one match, shared by every seat (rendered per seat on demand).

    `zones`, `face`, `known`: a shadow of the state as of the last hook (what a card looked like before
    it moved). `events`: the raw events. `tags[s][c]`: seat s's name for card c; cards with equal tags
    (and equal backs) are ones s cannot tell apart. Tags below the number of cards are a card's own
    index (the seat can tell it apart); higher ones name a group of cards whose places the seat lost.

    A copy shares `events`, `tags` and `groups` with its original until one of them records something:
    `owners` (one list shared by the watchers that share them) counts them, and a watcher that records
    while others share takes its own copy first (the last one left records in place).

    `search`: a watcher that keeps only what information states read (the events, the shadow), not `tags`
    (what determinize and the leak check read): a copy played inside a search (`Match.search_copy`), or the
    watcher of a match whose chance is not its seed (a world being drawn: nobody draws from those).

    `walks`: what is worked out from the record alone, by whoever reads it (`free_worlds` keeps each seat's walk
    of the events there, made as the match is played), shared as the record is (a copy of the match made before a
    walk gets it too), and copied with the record by a watcher that records on apart (`own`)."""

    __slots__ = ("events", "face", "fresh", "groups", "known", "last", "owners", "places", "search", "tags", "walks",
                 "where", "zones")

    def __init__(self, st: State, tagged: bool = True) -> None:
        """`tagged`: keep `tags` (else a `search` watcher from the start)."""
        self.owners = [1]
        self.events: list[tuple] = []
        self.walks: dict[Any, Any] = {}
        self.places: dict[int, _Places] = {}
        self.sync(st)
        cards = len(st.face)
        self.tags = [list(range(cards)) for _ in range(st.n)] if tagged else []
        self.groups: list[dict[int, set[int]]] = [{} for _ in range(st.n)] if tagged else []
        self.fresh = cards
        self.last: tuple | None = None
        self.search = not tagged

    def sync(self, st: State) -> None:
        """Take the shadow from the state (after a copy of the match was rebuilt)."""
        self.zones = [z[:] for z in st.zones]
        self.where = st.zone_of[:]
        self.face = st.face[:]
        self.known = st.known[:]

    def copy(self) -> Watcher:
        """An independent copy (for a copy of the match), sharing the record until either changes it;
        the shadow is taken again by `sync`."""
        other = Watcher.__new__(Watcher)
        other.events, other.tags, other.groups, other.owners = self.events, self.tags, self.groups, self.owners
        other.walks = self.walks
        self.owners[0] += 1
        other.fresh, other.last, other.search = self.fresh, self.last, self.search
        other.places = {}
        other.zones, other.where, other.face, other.known = [], [], [], []
        return other

    def own(self) -> None:
        """Take a copy of the record shared with other watchers (before changing it)."""
        self.owners[0] -= 1
        self.owners = [1]
        self.events = self.events[:]
        if self.search:  # tags no longer kept, nor walks (nobody draws from a search's copy)
            self.tags, self.groups, self.walks = [], [], {}
            return
        # what was worked out from the record holds for this copy of it too (each walk carried on apart from here)
        self.walks = {key: walk.copy() for key, walk in self.walks.items()}
        self.tags = [t[:] for t in self.tags]
        self.groups = [{k: set(v) for k, v in g.items()} for g in self.groups]

    def relabeled(self, pi: list[int], events: int, tags_then: list[list[int]]) -> Watcher:
        """A copy for the match played again from its kept base with card c's identity given to pi[c]: the first
        `events` events (those up to the base), each seat's tags as they stood there (`tags_then`) relabeled — a
        card the seat could tell apart keeps its own name, a group of cards it could not stays one —, the
        shadow to be taken by `sync`. (Only what the copy keeps is copied: the record up to the base.)"""
        watch = Watcher.__new__(Watcher)
        watch.owners = [1]
        watch.events = self.events[:events]
        watch.walks = {}
        watch.fresh, watch.search = self.fresh, self.search
        watch.places = {}
        watch.zones, watch.where, watch.face, watch.known = [], [], [], []
        cards = len(pi)
        watch.tags, watch.groups = [], []
        for then in tags_then:
            tags = relabeled_tags(pi, then)
            groups: dict[int, set[int]] = {}
            for d in compress(range(cards), map(ge, tags, repeat(cards))):
                groups.setdefault(tags[d], set()).add(d)
            watch.tags.append(tags)
            watch.groups.append(groups)
        # the table as the last of those events had it (all of them: as this record has it; a table is never kept
        # changed in place, so the two may share it)
        watch.last = self.last if events == len(self.events) else _last_table(watch.events)
        return watch

    def __getstate__(self) -> dict[str, Any]:
        return {"events": self.events, "tags": self.tags, "groups": self.groups, "fresh": self.fresh,
                "last": self.last, "search": self.search}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.search = False
        for name, value in state.items():
            setattr(self, name, value)
        self.owners = [1]
        self.places = {}
        self.walks = {}
        self.zones, self.where, self.face, self.known = [], [], [], []

    # ---- what the seats tell apart
    def _was_seen(self, st: State, c: int) -> int:
        """Who could see card `c` as the shadow has it (before the change being recorded)."""
        t = st.layout
        zi = self.where[c]
        vis = t.zone_vis[zi]
        mask = self.known[c]
        if self.face[c]:
            if vis == PUBLIC:
                mask = (1 << st.n) - 1
            elif vis == OWNER and t.zone_owner[zi] >= 0:
                mask |= 1 << t.zone_owner[zi]
        return mask

    def _identify(self, s: int, c: int) -> None:
        tags = self.tags[s]
        tag = tags[c]
        if tag != c:
            group = self.groups[s][tag]
            group.discard(c)
            if not group:
                del self.groups[s][tag]
            tags[c] = c

    def _merge(self, s: int, cards: list[int]) -> None:
        """Seat s can no longer tell these cards apart (nor any card it could not tell from one of them)."""
        tags, groups = self.tags[s], self.groups[s]
        old = set(map(tags.__getitem__, cards))  # (in C: no frame of a comprehension)
        if len(old) == 1 and next(iter(old)) >= len(tags):
            return
        # the largest group takes in the others (a card the seat could name is a group of one)
        keep = max((tag for tag in old if tag >= len(tags)), key=lambda tag: len(groups[tag]), default=None)
        if keep is None:
            keep = self.fresh
            self.fresh += 1
            groups[keep] = set()
        members = groups[keep]
        for tag in old:
            if tag != keep:
                moved = groups.pop(tag, None) or {tag}
                members |= moved
                for c in moved:
                    tags[c] = keep

    def _table(self, st: State) -> None:
        """Note the counters and the turn, when they changed (looked at before every question, answer,
        saying, roll, shuffle and glimpse: a change undone in between is not seen)."""
        last = self.last
        # (`last` holds the same six in that order: compared as one tuple, in C)
        if last is None or (st.round, st.turn, st.first, st.active, st.gc, st.pc) != last:
            now = st.round, st.turn, st.first, st.active
            pc = st.pc
            self.last = (*now, st.gc[:], list(map(list, pc)))  # (the rows copied in C: no frame of a comprehension)
            # (recorded with the counters in tuples: an event is a value, a key for its rendered lines)
            self.events.append((TABLE, (*now, tuple(st.gc), tuple(map(tuple, pc)))))

    def _place(self, st: State, zi: int, c: int) -> int:
        """Where card `c` lies in zone `zi`. A large zone's places are kept while they hold, so that a flip
        or a glimpse of each card of a zone is not a search each; kept again only as often as they served."""
        zone = st.zones[zi]
        if len(zone) < 64:
            return zone.index(c)
        kept = self.places.get(zi)
        if kept is None:
            kept = self.places[zi] = _Places()
        i = kept.at.get(c, -1)
        if 0 <= i < len(zone) and zone[i] == c:
            kept.served += 1
            return i
        return kept.search(zone, c)

    def _seen_leaving(self, st: State, c: int, src: int) -> int:
        """Who could see card `c` as it left zone `src` (as the shadow had it): as `_was_seen`, except that
        nobody but its owner sees which card of a hand leaves it, glimpse or not."""
        t = st.layout
        vis = t.zone_vis[src]
        if vis == OWNER:
            owner = t.zone_owner[src]
            if owner < 0:
                return 0
            return (self.known[c] | (1 << owner if self.face[c] else 0)) & 1 << owner
        if vis == PUBLIC and self.face[c]:
            return (1 << st.n) - 1
        return self.known[c]

    def _lost_in_hand(self, n: int, c: int, unseen: int, rest: list[int]) -> int:
        """Card `c` left a hand and the seats of `unseen` (a mask, its owner not among them) did not see which
        card it was: each can tell it from none of the cards `rest` left there. Returns `unseen`."""
        cards = [c, *rest]  # (read, never changed, by each merge)
        for s in range(n):
            if unseen >> s & 1:
                self._merge(s, cards)
        return unseen

    # ---- the runtime's hooks
    def moved(self, st: State, c: int, src: int, dst: int, at_random: bool = False, to: int = -1) -> None:
        """A card moved (`to`: where it went in `dst`, if the verb knows; else it is found there)."""
        if self.owners[0] > 1:
            self.own()
        t, n, up, kn = st.layout, st.n, st.face[c], st.known[c]
        zone_vis, zone_owner = t.zone_vis, t.zone_owner
        # who saw it leave, as the shadow had it (`_seen_leaving`; the shadow's knowledge taken from the state once
        # read), and who sees it where it went (`seen_by`), both written out: this runs at every move
        vis = zone_vis[src]
        hand = vis == OWNER
        if hand:
            owner = zone_owner[src]
            before = 0 if owner < 0 else (self.known[c] | (1 << owner if self.face[c] else 0)) & 1 << owner
            self.known[:] = st.known  # a card leaving a hand: glimpses of the cards still there may lapse (the
            # shadow is the state as of the last hook: no other card's knowledge changed since)
        else:
            before = (1 << n) - 1 if vis == PUBLIC and self.face[c] else self.known[c]
            self.known[c] = kn
        vis = zone_vis[dst]
        if vis == OWNER:
            owner = zone_owner[dst]
            after = kn | (1 << owner if up and owner >= 0 else 0)
        else:
            after = (1 << n) - 1 if up and vis == PUBLIC else kn
        # the shadow moved as the state
        shadow = self.zones[src]  # (a card taken from an end or put at one, as most are, is found there)
        at = 0 if shadow[0] == c else len(shadow) - 1 if shadow[-1] == c else shadow.index(c)
        del shadow[at]
        if to < 0:
            dest = st.zones[dst]
            to = 0 if dest[0] == c else len(dest) - 1 if dest[-1] == c else dest.index(c)
        self.zones[dst].insert(to, c)
        self.where[c] = dst
        self.face[c] = up
        # A place drawn by chance is kept as ~to: shown only to the seats that see the card where it went.
        self.events.append((MOVE, c, src, at, dst, ~to if at_random else to, up, before, after))
        if self.search:
            return
        seen = before | after
        tags = self.tags
        for s in _SEATS_IN[seen]:  # each seat that saw the card move can tell it apart again
            if tags[s][c] != c:
                self._identify(s, c)
        if hand:
            owner = zone_owner[src]
            unseen = (1 << n) - 1 & ~(seen | (1 << owner if owner >= 0 else 0))
            if unseen:
                self._lost_in_hand(n, c, unseen, st.zones[src])

    def moved_many(self, st: State, cards: list[int], srcs: list[int], ats: list[int], dst: int,
                   tos: list[int]) -> None:
        """Cards moved one after another into zone `dst` (see `runtime._move_watched`): card i from zone
        srcs[i], where it lay at ats[i] when it went, to tos[i]. Recorded as `moved` records each (a seat that
        loses track of a card leaving a hand can tell it from none of the cards left there: merged with them
        the first time, after which they stay together); the shadow is taken again once, from the state."""
        if self.owners[0] > 1:
            self.own()
        vis, owners, n = st.layout.zone_vis, st.layout.zone_owner, st.n
        events, tags, search, everyone = self.events, self.tags, self.search, (1 << n) - 1
        up = st.face[cards[0]] if cards else True
        gone: dict[int, set[int]] = {}  # per hand: the cards that left it so far
        merged: dict[int, int] = {}  # per hand: the seats that can tell none of its cards apart (a mask)
        # who sees a card where they went besides those who know it (`seen_by`, written out as in `moved`)
        owner = owners[dst]
        if vis[dst] == OWNER:
            sees = 1 << owner if up and owner >= 0 else 0
        else:
            sees = everyone if up and vis[dst] == PUBLIC else 0
        was_known, was_up, known = self.known, self.face, st.known  # (the shadow as before the first card went)
        for c, src, at, to in zip(cards, srcs, ats, tos, strict=True):
            hand = vis[src] == OWNER
            if hand:  # who saw it leave (`_seen_leaving`, written out)
                owner = owners[src]
                before = 0 if owner < 0 else (was_known[c] | (1 << owner if was_up[c] else 0)) & 1 << owner
                gone.setdefault(src, set()).add(c)
            else:
                before = everyone if was_up[c] and vis[src] == PUBLIC else was_known[c]
            after = known[c] | sees
            events.append((MOVE, c, src, at, dst, to, up, before, after))
            if search:
                continue
            seen = before | after
            for s in _SEATS_IN[seen]:  # as `moved`
                if tags[s][c] != c:
                    self._identify(s, c)
            owner = owners[src]
            unseen = everyone & ~(seen | merged.get(src, 0) | (1 << owner if owner >= 0 else 0)) if hand else 0
            if unseen:
                rest = [d for d in self.zones[src] if d not in gone[src]]
                merged[src] = merged.get(src, 0) | self._lost_in_hand(n, c, unseen, rest)
        self._shadow_taken(st, cards, srcs, dst, up, gone)

    def _shadow_taken(self, st: State, cards: list[int], srcs: list[int], dst: int, up: bool,
                      gone: dict[int, set[int]]) -> None:
        """The shadow after `moved_many`: the moved cards where they went, the zones as the state has them, the
        glimpses of the cards left in the hands they came from as they stand now."""
        where, face, known, now_known = self.where, self.face, self.known, st.known
        for c in cards:
            where[c], face[c], known[c] = dst, up, now_known[c]
        for zi in {*srcs, dst}:
            self.zones[zi] = st.zones[zi][:]
        for src in gone:
            for d in st.zones[src]:
                known[d] = now_known[d]

    def shuffled(self, st: State, zi: int) -> None:
        if self.owners[0] > 1:
            self.own()
        self._table(st)
        cards = st.zones[zi]
        self.zones[zi] = cards[:]
        for c in cards:
            self.known[c] = st.known[c]
        self.events.append((SHUFFLE, zi, tuple(cards)))  # the order drawn: a determinization redraws it
        if self.search:
            return
        seen = [seen_by(st, c) for c in cards]
        for s in range(st.n):
            unseen = [c for c, mask in zip(cards, seen, strict=True) if not mask >> s & 1]
            if len(unseen) > 1:
                self._merge(s, unseen)

    def shown(self, st: State, c: int, p: int) -> None:
        if self.owners[0] > 1:
            self.own()
        self._table(st)
        zi = st.zone_of[c]
        self.events.append((SHOW, c, p, zi, self._place(st, zi, c), seen_by(st, c)))
        self.known[c] = st.known[c] | 1 << p
        if not self.search:
            self._identify(p, c)

    def said(self, st: State, text: str) -> None:
        if self.owners[0] > 1:
            self.own()
        self._table(st)
        self.events.append((SAY, text))

    def flipped(self, st: State, c: int) -> None:
        """Card `c` turned face up or down where it lies (also by the turns written out in compiled code)."""
        if self.owners[0] > 1:
            self.own()
        before = self._was_seen(st, c)
        after = seen_by(st, c)
        self.face[c], self.known[c] = st.face[c], st.known[c]
        zi = st.zone_of[c]
        self.events.append((FLIP, c, zi, self._place(st, zi, c), st.face[c], before, after))
        for s in range(st.n) if not self.search else ():
            if (before | after) >> s & 1:
                self._identify(s, c)

    def rolled(self, st: State, sides: int, result: int) -> None:
        if self.owners[0] > 1:
            self.own()
        self._table(st)
        self.events.append((ROLL, sides, result))

    def seats_changed(self, st: State, what: str, fields: tuple) -> None:
        """A knock-out or a new deal's back-in (see `events.SeatsChanged`): who is in is public."""
        if self.owners[0] > 1:
            self.own()
        self._table(st)
        self.events.append((SEATS, what, fields))

    # ---- the match's hooks
    def asked(self, st: State, seat: int, question: int, kind: int, options: tuple) -> None:
        """A question put to `seat` (its prompt as `prompt_text` reads it to each seat) and its options as
        the asked seat sees them, named only when rendered (see `option_label`)."""
        if self.owners[0] > 1:
            self.own()
        self._table(st)
        self.events.append((ASK, seat, question, kind, options))

    def decided(self, st: State, seat: int, secret: bool, answer: Any, seen: int, zi: int, at: int) -> None:
        """An answer: a label, or (zone `zi` >= 0) a card with who sees it and where it lies."""
        if self.owners[0] > 1:
            self.own()
        self._table(st)
        self.events.append((DECIDE, seat, secret, answer, seen, zi, at))


def _last_table(events: list[tuple]) -> tuple | None:
    """The table as the last of `events` that recorded it had it, as `Watcher.last` keeps it (counters in lists)."""
    now = next((e[1] for e in reversed(events) if e[0] == TABLE), None)
    return None if now is None else (*now[:4], list(now[4]), [list(v) for v in now[5]])


class _Places:
    """A zone's cards' places as last worked out (`Watcher._place`): worked out again after `wait` searches
    that found them moved, a wait that doubles each time they served fewer than 16 look-ups (a zone that
    changes between look-ups is searched, as it would be without them) and starts again at 1 when they served."""

    __slots__ = ("at", "misses", "served", "wait")

    def __init__(self) -> None:
        self.at: dict[int, int] = {}
        self.served = self.misses = 0
        self.wait = 1

    def search(self, zone: list[int], c: int) -> int:
        self.misses += 1
        if self.misses < self.wait:
            return zone.index(c)
        self.wait = 1 if self.served >= 16 or not self.at else min(self.wait * 2, 1 << 16)
        self.at = {d: i for i, d in enumerate(zone)}
        self.served = self.misses = 0
        return self.at[c]



# ---- determinization --------------------------------------------------------------------------------


def relabel_frozen(frozen: tuple, pi: list[int]) -> tuple:
    """A frozen state with card c's identity given to card pi[c] (same places, faces and knowledge)."""
    zones, zone_of, face, known, *rest = frozen
    new_zone_of, new_face, new_known = zone_of[:], face[:], known[:]
    for c, d in enumerate(pi):
        new_zone_of[d], new_face[d], new_known[d] = zone_of[c], face[c], known[c]
    return ([[pi[c] for c in z] for z in zones], new_zone_of, new_face, new_known, *rest)


def interchangeable(match, seat: int) -> list[list[int]]:
    """Groups of cards `seat` cannot tell apart, as far as the match's kept phase boundary lets a copy
    relabel them: same back, same name for the seat now and at the boundary, never seen by it since."""
    w = match._watch
    t = match.layout
    base_events, _, base_tags = match._base_info
    fixed = set()
    bit = 1 << seat
    for e in w.events[base_events:]:
        kind = e[0]
        if (kind == MOVE and (e[7] | e[8]) & bit) or (kind == FLIP and (e[5] | e[6]) & bit) \
                or (kind == SHOW and e[2] == seat):
            fixed.add(e[1])
    st = match.st
    now, then = w.tags[seat], base_tags[seat]
    cards = len(now)
    classes: dict[tuple, list[int]] = {}
    for c in range(cards):
        if c in fixed or now[c] < cards or seen_by(st, c) & bit:
            continue
        classes.setdefault((now[c], then[c], back_key(t, c)), []).append(c)
    return [group for group in classes.values() if len(group) > 1]
