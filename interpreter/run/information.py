"""Stage 7, what each seat knows: the observations a match records for its information states, the
rules of who sees a counter, and determinization (a copy of the match redrawn where a seat is blind).

A `Watcher` rides along a match (never `sim`): the runtime's hooks tell it every move, flip, shuffle,
glimpse, roll and `say`, and the match tells it every question and answer. It keeps, in one list, each
event as it happened with who could see the card before and after; a seat's information state renders
that list for the seat (cards it could not see by their backs, positions only where the seat can see
the order). It also keeps, per seat, which cards the seat can no longer tell apart (`tags`): that is
what `determinize` may relabel.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from itertools import chain as joined
from itertools import compress, repeat
from operator import and_, ne, xor
from typing import Any

from .events import (  # the kinds of event (raw tuples, first item the tag: see run/events.py)
    ASK,
    BY_TAG,
    DECIDE,
    FLIP,
    MOVE,
    ROLL,
    SAY,
    SEATS,
    SHOW,
    SHUFFLE,
    TABLE,
    describe,
)
from .events import number as _int
from .events import text as _text
from .runtime import HIDDEN, K_BOOL, K_CARD, K_NUMBER, K_PLAYER, K_TEXT, OWNER, PUBLIC, State, seen_by

__all__ = ["ASK", "DECIDE", "FLIP", "MOVE", "ROLL", "SAY", "SEATS", "SHOW", "SHUFFLE", "TABLE", "describe"]


class Watcher:
    """The observations of one match, shared by every seat (rendered per seat on demand).

    `zones`, `face`, `known`: a shadow of the state as of the last hook (what a card looked like before
    it moved). `events`: the raw events. `tags[s][c]`: seat s's name for card c; cards with equal tags
    (and equal backs) are ones s cannot tell apart. Tags below the number of cards are a card's own
    index (the seat can tell it apart); higher ones name a group of cards whose places the seat lost.

    A copy shares `events`, `tags` and `groups` with its original until one of them records something:
    `owners` (one list shared by the watchers that share them) counts them, and a watcher that records
    while others share takes its own copy first (the last one left records in place).

    `search`: the watcher of a copy played inside a search (`Match.search_copy`), which keeps only what
    information states read (the events, the shadow), not `tags` (what determinize reads)."""

    __slots__ = ("events", "face", "fresh", "groups", "known", "last", "owners", "places", "search", "tags", "where",
                 "zones")

    def __init__(self, st: State) -> None:
        self.owners = [1]
        self.events: list[tuple] = []
        self.places: dict[int, _Places] = {}
        self.sync(st)
        cards = len(st.face)
        self.tags = [list(range(cards)) for _ in range(st.n)]
        self.groups: list[dict[int, set[int]]] = [{} for _ in range(st.n)]
        self.fresh = cards
        self.last: tuple | None = None
        self.search = False

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
        if self.search:  # tags no longer kept
            self.tags, self.groups = [], []
            return
        self.tags = [t[:] for t in self.tags]
        self.groups = [{k: set(v) for k, v in g.items()} for g in self.groups]

    def relabeled(self, pi: list[int], events: int, tags_then: list[list[int]]) -> Watcher:
        """A copy for the match played again from its kept base with card c's identity given to pi[c]: the first
        `events` events (those up to the base), each seat's tags as they stood there (`tags_then`) relabeled — a
        card the seat could tell apart keeps its own name, a group of cards it could not stays one —, the
        shadow to be taken by `sync`."""
        watch = self.copy()
        watch.own()
        del watch.events[events:]
        cards = len(pi)
        watch.tags = [[0] * cards for _ in tags_then]
        for tags, then in zip(watch.tags, tags_then, strict=True):
            for c, d in enumerate(pi):
                tags[d] = d if then[c] < cards else then[c]
        watch.groups = [{} for _ in tags_then]
        for tags, groups in zip(watch.tags, watch.groups, strict=True):
            for c, tag in enumerate(tags):
                if tag >= cards:
                    groups.setdefault(tag, set()).add(c)
        watch.last = next((e[1] for e in reversed(watch.events) if e[0] == TABLE), None)
        return watch

    def __getstate__(self) -> dict[str, Any]:
        return {"events": self.events, "tags": self.tags, "groups": self.groups, "fresh": self.fresh,
                "last": self.last}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self.owners = [1]
        self.places = {}
        self.search = False
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
        old = {tags[c] for c in cards}
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
        if last is None or st.gc != last[4] or st.pc != last[5] or st.round != last[0] or st.turn != last[1] \
                or st.first != last[2] or st.active != last[3]:
            now = (st.round, st.turn, st.first, st.active, st.gc[:], [v[:] for v in st.pc])
            self.last = now
            self.events.append((TABLE, now))

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

    def _shadow_moved(self, st: State, c: int, src: int, dst: int, to: int) -> tuple[int, int]:
        """Move card `c` in the shadow as it moved in the state; returns where it lay in `src` and where it went
        in `dst` (`to`, else found there)."""
        shadow = self.zones[src]
        # a card taken from an end or put at one (most moves) is found there, not searched for
        at = 0 if shadow[0] == c else len(shadow) - 1 if shadow[-1] == c else shadow.index(c)
        del shadow[at]
        if to < 0:
            dest = st.zones[dst]
            to = 0 if dest[0] == c else len(dest) - 1 if dest[-1] == c else dest.index(c)
        self.zones[dst].insert(to, c)
        self.where[c] = dst
        self.face[c], self.known[c] = st.face[c], st.known[c]
        if st.layout.zone_vis[src] == OWNER:  # a card leaving a hand: glimpses of the cards still there may lapse
            for d in st.zones[src]:
                self.known[d] = st.known[d]
        return at, to

    # ---- the runtime's hooks
    def moved(self, st: State, c: int, src: int, dst: int, at_random: bool = False, to: int = -1) -> None:
        """A card moved (`to`: where it went in `dst`, if the verb knows; else it is found there)."""
        if self.owners[0] > 1:
            self.own()
        before = self._seen_leaving(st, c, src)
        after = seen_by(st, c)
        at, to = self._shadow_moved(st, c, src, dst, to)
        # A place drawn by chance is kept as ~to: shown only to the seats that see the card where it went.
        self.events.append((MOVE, c, src, at, dst, ~to if at_random else to, st.face[c], before, after))
        if self.search:
            return
        seen = before | after
        if seen:  # each seat that saw the card move can tell it apart again
            tags = self.tags
            for s in range(st.n):
                if seen >> s & 1 and tags[s][c] != c:
                    self._identify(s, c)
        t = st.layout
        if t.zone_vis[src] == OWNER:
            owner = t.zone_owner[src]
            unseen = (1 << st.n) - 1 & ~(seen | (1 << owner if owner >= 0 else 0))
            if unseen:
                self._lost_in_hand(st.n, c, unseen, st.zones[src])

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
        for c, src, at, to in zip(cards, srcs, ats, tos, strict=True):
            before = self._seen_leaving(st, c, src)  # (the shadow is as it was before the first card went)
            after = seen_by(st, c)
            events.append((MOVE, c, src, at, dst, to, up, before, after))
            hand = vis[src] == OWNER
            if hand:
                gone.setdefault(src, set()).add(c)
            if search:
                continue
            seen = before | after
            if seen:  # as `moved`
                for s in range(n):
                    if seen >> s & 1 and tags[s][c] != c:
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
        for s in range(st.n):
            unseen = [c for c in cards if not seen_by(st, c) >> s & 1]
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


_CARD_INDEX: dict[int, tuple[Any, dict[str, int]]] = {}


def card_index(layout) -> dict[str, int]:
    """Card id -> index for a layout (built once per layout)."""
    hit = _CARD_INDEX.get(id(layout))
    if hit is None or hit[0] is not layout:
        hit = (layout, {cid: c for c, cid in enumerate(layout.card_ids)})
        _CARD_INDEX[id(layout)] = hit
    return hit[1]


# ---- counters: who sees them ------------------------------------------------------------------------

_RULES: dict[int, tuple[Any, tuple]] = {}


def counter_rules(model) -> tuple[list[tuple], list[tuple]]:
    """For game and player counters: (index, name, visibility, flag) where flag is None or
    (per_player, index) of the counter that makes it public while it is not 0."""
    hit = _RULES.get(id(model))
    if hit is not None and hit[0] is model:
        return hit[1]
    if True:
        by_index = sorted(model.counters.values(), key=lambda c: (c.per_player, c.index))
        rules: tuple[list[tuple], list[tuple]] = ([], [])
        for c in by_index:
            flag = model.counters[c.public_while] if c.public_while else None
            rules[c.per_player].append((c.index, c.name, c.visibility,
                                        None if flag is None else (flag.per_player, flag.index)))
        _RULES[id(model)] = (model, rules)
    return rules


def visible_counters(model, st: State, seat: int) -> dict[str, Any]:
    """Every counter by name as `seat` sees it: a player counter is a list by seat; a value the seat
    may not see is None."""
    game, player = counter_rules(model)
    out: dict[str, Any] = {}
    for i, name, vis, flag in game:
        shown = vis == PUBLIC or (flag is not None and st.gc[flag[1]] != 0)
        out[name] = st.gc[i] if shown else None
    for i, name, vis, flag in player:
        values = st.pc[i]
        row = []
        for p in range(st.n):
            shown = vis == PUBLIC or (vis == OWNER and p == seat) or (
                flag is not None and (st.pc[flag[1]][p] if flag[0] else st.gc[flag[1]]) != 0)
            row.append(values[p] if shown else None)
        out[name] = row
    return out


# ---- how a seat sees cards --------------------------------------------------------------------------


def ordered_for(layout, zi: int, seat: int) -> bool:
    """Can `seat` see the order of zone `zi`? Cards on the table lie where everyone sees them; the
    order of another player's hand is theirs alone."""
    return layout.zone_vis[zi] != OWNER or layout.zone_owner[zi] == seat


def order_known(layout, zi: int, seat: int) -> bool:
    """Does `seat` know which card lies where in zone `zi` (so that a card's place there tells nothing
    new)? Not in another player's hand, and in a hidden zone nobody does, shuffled or not: its order
    was never seen (before a shuffle it is the order of the card files). A card taken from such a zone
    (at random, say) shows no place it was taken from."""
    return layout.zone_vis[zi] == PUBLIC or (layout.zone_vis[zi] == OWNER and layout.zone_owner[zi] == seat)


def glimpse_at(layout, zi: int, p: int, seat: int) -> bool:
    """Does `seat` see where a card shown to `p` lies? Never in a hand it does not hold (looking at a
    hand shows its cards, not the order its player keeps them in); in a hidden zone only the looker."""
    return ordered_for(layout, zi, seat) and (p == seat or layout.zone_vis[zi] != HIDDEN)


def faces(layout) -> list[str]:
    """What a seat sees of each card, by index: its face (copies of one card alike), never its copy id."""
    return layout.face_ids


def back_of(game, layout, c: int) -> dict[str, Any]:
    """A hidden card as a seat sees it: its back."""
    return {"hidden": True, **{game.prop_names[k]: layout.props[k][c] for k in layout.back[c]}}


def back_key(layout, c: int) -> tuple:
    return tuple(layout.props[k][c] for k in layout.back[c])


def hidden_label(game, st: State, c: int, viewer: int) -> str:
    """The label of a card `viewer` cannot see: its place (the position only where the viewer sees the
    order) and its back."""
    zi = st.zone_of[c]
    return card_place_label(game, st.layout, c, zi, st.zones[zi].index(c), viewer)


def prompt_text(game, question: Any, kind: int, written: bool = False) -> str:
    """What a question asks, in words: as the asked seat reads it, or (`written`) as the rules write it,
    which is what the other seats see of a question with `{…}` parts; without a prompt, one by the kind
    of its options. `question`: the index of a fixed question, or (index as written, the sentence made)."""
    if question.__class__ is tuple:
        text = game.prompts[question[0]] if written else question[1]
    else:
        text = game.prompts[question]
    return text or _PROMPTS.get(kind, "choose one")


_PROMPTS = {K_CARD: "choose a card", K_PLAYER: "choose a player", K_BOOL: "yes or no", K_NUMBER: "choose a number"}


def value_label(t, kind: int, value: Any) -> str:
    """The readable name of an option that is not a card."""
    if kind == K_PLAYER:
        return t.player_name(value)
    if kind == K_BOOL:
        return "yes" if value else "no"
    return "none" if value == -1 and kind == K_TEXT else str(value)  # a text choice with nothing to offer


def option_label(game, t, kind: int, option: Any, viewer: int) -> str:
    """An option of a recorded question as `viewer` (the asked seat) saw it: a card's id (or `none`)
    when the seat saw it, else its place (card, zone, position) named by `card_place_label`."""
    if kind != K_CARD:
        return value_label(t, kind, option)
    if isinstance(option, str):
        return option  # the card's face, or `none`
    c, zi, at = option
    return card_place_label(game, t, c, zi, at, viewer)


def card_place_label(game, t, c: int, zi: int, at: int, viewer: int) -> str:
    """A card `viewer` cannot see, by its place and back: with its position only where the viewer knows
    the zone's order (on the table; never in a hidden zone, whose order nobody knows, nor in another
    player's hand)."""
    back = "".join(f", {game.prop_names[k]} {t.props[k][c]}" for k in t.back[c])
    if order_known(t, zi, viewer):
        return f"hidden card {at + 1} of {t.zone_names[zi]}{back}"
    return f"hidden card of {t.zone_names[zi]}{back}"


def shown_cards(st: State, zi: int, seat: int) -> tuple[list[int], list[int]] | None:
    """Zone `zi` as `seat` sees it: its cards in the order shown, and for each whether the seat sees its
    face (else only its back); another player's hand in a canonical order (the faces the seat knows
    sorted, then the backs sorted), never in the order kept. None for a hidden zone of which the seat
    sees no face: it sees only how many cards it holds."""
    t = st.layout
    bit = 1 << seat
    cards = st.zones[zi]
    if not ordered_for(t, zi, seat):
        known = st.known
        by_face, by_back = _ranks(t)
        faced = sorted([c for c in cards if known[c] & bit], key=by_face.__getitem__)
        if by_back is not None:
            backs = sorted([c for c in cards if not known[c] & bit], key=by_back.__getitem__)
        else:
            backs = [c for _, c in sorted([(back_key(t, c), c) for c in cards if not known[c] & bit])]
        cards, seen = faced + backs, [1] * len(faced) + [0] * len(backs)
    else:
        seen = [seen_by(st, c) & bit for c in cards]
    if t.zone_vis[zi] == HIDDEN and not any(seen):
        return None
    return cards, seen


_RANKS: dict[int, tuple] = {}


def _ranks(layout) -> tuple[list[int], list[int] | None]:
    """Each card's place among all the cards of a layout by face id, and by back (then index): the
    canonical order of another player's hand is theirs (None where backs of different kinds of value
    cannot be ordered together)."""
    hit = _RANKS.get(id(layout))
    if hit is None or hit[0] is not layout:
        cards = range(len(layout.face_ids))
        by_face = [0] * len(cards)
        for r, c in enumerate(sorted(cards, key=layout.face_ids.__getitem__)):
            by_face[c] = r
        by_back: list[int] | None = [0] * len(cards)
        try:
            for r, (_, c) in enumerate(sorted((back_key(layout, c), c) for c in cards)):
                by_back[c] = r  # type: ignore[index]
        except TypeError:
            by_back = None
        hit = (layout, by_face, by_back)
        _RANKS[id(layout)] = hit
    return hit[1], hit[2]


def zone_view(game, st: State, zi: int, seat: int) -> Any:
    """One zone as `seat` sees it (see `shown_cards`): the faces of the cards it can see (copies alike),
    backs of the others; of a hidden zone where it sees no face, the count."""
    shown = shown_cards(st, zi, seat)
    if shown is None:
        return {"count": len(st.zones[zi])}
    t = st.layout
    face = faces(t)
    return [face[c] if seen else back_of(game, t, c) for c, seen in zip(*shown, strict=True)]


# ---- a seat's information state ---------------------------------------------------------------------
#
# Every line is canonical JSON, as `json.dumps(d, sort_keys=True, separators=(",", ":"))` writes it (keys
# sorted, no spaces, ASCII). The lines of the moves, flips, glimpses, questions and answers, and the view,
# are written from pieces made once per layout (each card's face and back, each zone's name, in JSON); a
# seat's lines are kept joined, and its view's zones and counters as they were, so a call after a decision
# pays for what is new, not for the match so far.

_DUMP = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
_STR = json.encoder.encode_basestring_ascii  # a string as json.dumps writes it


def _ints(values: list) -> str:
    return "[" + ",".join([_int(v) for v in values]) + "]"


class _Look:
    """What the rendering needs of a layout, computed once: each card's face and back in JSON, and the
    key that sorts cards shown together (faces by id, then backs); each zone's name in JSON, the view's
    zones in the order of their keys; per seat, which zones' order it sees and which it knows."""

    __slots__ = ("back", "back_sort", "counters", "face", "keyed", "known", "ordered", "zone")

    def __init__(self, game, t) -> None:
        self.counters: dict[tuple, str] = {}  # the counters as a seat sees them, in JSON, by their values
        backs = [back_of(game, t, c) for c in range(len(t.face_ids))]
        self.face = [_STR(f) for f in t.face_ids]
        self.back = [_DUMP(b) for b in backs]
        self.back_sort = [json.dumps(b, sort_keys=True) for b in backs]
        self.zone = [_STR(name) for name in t.zone_names]
        named = {name: zi for zi, name in enumerate(t.zone_names)}  # as the view's dict keeps them
        self.keyed = [(self.zone[zi] + ":", zi) for name, zi in sorted(named.items())]
        zones = range(len(t.zone_names))
        self.ordered = [[ordered_for(t, zi, s) for zi in zones] for s in range(t.n)]
        self.known = [[order_known(t, zi, s) for zi in zones] for s in range(t.n)]


_LOOKS: dict[int, tuple] = {}


def _look(game, t) -> _Look:
    hit = _LOOKS.get(id(t))
    if hit is None or hit[0] is not t or hit[1] is not game:
        hit = (t, game, _Look(game, t))
        _LOOKS[id(t)] = hit
    return hit[2]


class _Reader:
    """One seat's rendering of events (`render`), as the catalogue's kinds read it (`events.Reader`): the
    layout's pieces, the lines so far, the last table line, and the glimpses with no place that end them."""

    __slots__ = ("back", "back_sort", "bit", "face", "game", "known", "last", "layout", "look", "ordered", "out",
                 "run", "run_of", "seat", "start", "zone")

    def __init__(self, match, seat: int, last: str | None) -> None:
        self.layout, self.game, self.seat, self.bit = match.layout, match.game, seat, 1 << seat
        look = self.look = _look(self.game, self.layout)
        self.face, self.back, self.back_sort, self.zone = look.face, look.back, look.back_sort, look.zone
        self.ordered, self.known = look.ordered[seat], look.known[seat]
        self.out: list[str] = []
        self.last = last
        self.run: list[tuple[str, str]] = []  # the glimpses with no place that end `out`: (sort key, line)
        self.run_of: tuple | None = None  # their zone and looker
        self.start = 0  # where they start in `out`

    def place(self, c: int, zi: int, at: int) -> str:
        return card_place_label(self.game, self.layout, c, zi, at, self.seat)

    def option(self, kind: int, option: Any) -> str:
        return option_label(self.game, self.layout, kind, option, self.seat)

    def prompt(self, question: Any, kind: int, written: bool) -> str:
        return prompt_text(self.game, question, kind, written)

    def counters(self, gc: list, pc: list) -> str:
        return _counters(self.look, self.game, self.layout.n, self.seat, gc, pc)

    def glimpse(self, key: str, line: str, zone: str, to: int) -> None:
        """A card shown to `to` that this seat sees shown without its place: the run of such glimpses (same
        zone, same looker) that ends the lines is kept sorted by `key`, each different card once for a seat
        only watching."""
        out = self.out
        if self.run_of != (zone, to):
            self.run, self.run_of, self.start = [], (zone, to), len(out)
        run = sorted([*self.run, (key, line)], key=_first)
        if to != self.seat:
            run = [x for i, x in enumerate(run) if i == 0 or x[1] != run[i - 1][1]]
        self.run = run
        out[self.start:] = [x for _, x in run]


_SEEN = {tag: kind.seen for tag, kind in BY_TAG.items()}  # each kind's line for a seat, by tag


def render(match, seat: int, events: list[tuple], last: str | None = None) -> tuple[list[str], str | None]:
    """The events as `seat` observed them, one canonical JSON line each (each kind's `seen`, run/events.py).
    `last`: the table line (counters, turn) the seat saw before the first of these events; a change the seat
    cannot see is no event for it."""
    r = _Reader(match, seat, last)
    out = r.out
    seen = _SEEN
    for e in events:
        line = seen[e[0]](e, r)
        if line is not None:
            out.append(line)
            r.run_of = None
    return out, r.last


def _first(item: tuple) -> Any:
    return item[0]


def _counters(look: _Look, game, n: int, seat: int, gc: list, pc: list) -> str:
    """The counters as `seat` sees them (`visible_counters`) in JSON, from the counters' values (each
    layout keeps the ones it wrote)."""
    key = (seat, tuple(gc), *map(tuple, pc))
    written = look.counters.get(key)
    if written is None:
        if len(look.counters) >= 20_000:
            look.counters.clear()
        table = _TableView(n, gc, pc)
        written = look.counters[key] = _DUMP(visible_counters(game.model, table, seat))  # type: ignore[arg-type]
    return written


class _TableView:
    """Just enough of a State for `visible_counters` to read a recorded table."""

    __slots__ = ("gc", "n", "pc")

    def __init__(self, n: int, gc: Any, pc: Any) -> None:
        self.n, self.gc, self.pc = n, gc, pc


class Seen:
    """A seat's rendered observations, kept so that the next call renders only what is new.

    `events`: the raw events rendered; `count`: their lines; `last`: the last table line among them.
    The lines come in `lines[:n]`, then in `chunks`, one a render since: (k, i, lines, joined), the lines
    from i on coming from raw events k on (so a copy can cut them there: `marks[:m]` holds those pairs
    for `lines[:n]`), `joined` their text. `text`: the head and `lines[:n]` joined (None: not yet). Every
    few renders the chunks are merged into `lines`, `marks` and `text`. `snap`: the lines as last
    handed out. `view`: what the seat's view was made of the last time (see `view_json`). (The information
    state itself is not kept: a large string kept alive per seat costs more in fresh memory than it saves.)

    A copy of the match takes a copy of this object, sharing its lists: a list is appended to in place
    only by a holder whose length is the list's (every holder reads only its first n items); one that
    finds it longer takes its own copy first. The strings and tuples are values."""

    __slots__ = ("chunks", "count", "events", "last", "lines", "m", "marks", "n", "snap", "text", "view")

    def __init__(self) -> None:
        self.events, self.count = 0, 0
        self.last: str | None = None
        self.lines: list[str] = []
        self.marks: list[tuple[int, int]] = []
        self.n = self.m = 0
        self.chunks: tuple[tuple[int, int, tuple[str, ...], str], ...] = ()
        self.text: str | None = None
        self.snap: list[str] | None = None
        self.view: tuple | None = None

    def copy(self) -> Seen:
        other = Seen.__new__(Seen)
        other.chunks, other.count, other.events, other.last, other.lines, other.m, other.marks, other.n, \
            other.snap, other.text, other.view = self.chunks, self.count, self.events, self.last, self.lines, \
            self.m, self.marks, self.n, self.snap, self.text, self.view
        return other

    def merge(self) -> None:
        """Move the chunks into `lines`, `marks` and `text`."""
        chunks = self.chunks
        self.lines, self.n = _grown(self.lines, self.n, [x for chunk in chunks for x in chunk[2]]), self.count
        self.marks = _grown(self.marks, self.m, [(k, i) for k, i, _, _ in chunks])
        self.m += len(chunks)
        if self.text is not None:
            self.text = "".join([self.text, *(chunk[3] for chunk in chunks)])
        self.chunks = ()


def _grown(items: list, n: int, more: list) -> list:
    """`items[:n]` and then `more`: in place if nobody went further in `items`, else in a copy."""
    if len(items) != n:
        items = items[:n]
    items.extend(more)
    return items


def _catch_up(match, seat: int, cache: Seen, end: int | None = None) -> None:
    """Render the raw events since the last render (up to `end`)."""
    events = match._watch.events
    if end is None:
        end = len(events)
    k = cache.events
    if k >= end:
        return
    more, cache.last = render(match, seat, events[k:end], cache.last)
    cache.chunks = (*cache.chunks, (k, cache.count, tuple(more), "\n".join(more) + "\n" if more else ""))
    cache.events = end
    cache.count += len(more)
    if len(cache.chunks) >= 16:  # now and then, so that a call joins a few pieces and copies share the rest
        cache.merge()


def observed(match, seat: int, upto: int | None = None) -> list[str]:
    """`seat`'s observations so far (of the first `upto` raw events), one canonical JSON line each
    (rendered once, as they come). The list is not changed afterwards: later calls give new ones."""
    cache = match._seen[seat]
    _catch_up(match, seat, cache, upto)
    return observed_lines(cache)


def observed_lines(cache: Seen) -> list[str]:
    """The lines rendered so far, in one list (kept for the next call)."""
    if cache.snap is None or len(cache.snap) != cache.count:
        cache.snap = [*cache.lines[:cache.n], *(x for chunk in cache.chunks for x in chunk[2])]
    return cache.snap


def new_cache() -> Seen:
    """A seat's rendered observations, none yet."""
    return Seen()


def fork_cache(cache: Seen) -> Seen:
    """A seat's rendered observations for a copy of the match (sharing what it can)."""
    return cache.copy()


def cut_cache(match, cache: Seen, events: int) -> Seen:
    """A seat's rendered observations of only the first `events` raw events (for a copy that goes on
    from there): the lines rendered up to the last render at or before that point, and the rest of the
    way rendered again."""
    if cache.events <= events:  # nothing rendered past that point: the same will do
        return cache.copy()
    marks = [*cache.marks[:cache.m], *((k, i) for k, i, _, _ in cache.chunks)]
    k, i = next(((k, i) for k, i in reversed(marks) if k <= events), (0, 0))
    cut = Seen()
    cut.events, cut.lines, cut.n, cut.count = k, observed_lines(cache)[:i], i, i
    cut.last = next((x for x in reversed(cut.lines) if '"event":"table"' in x), None)
    cut.marks = [mark for mark in marks if mark[0] < k]
    cut.m = len(cut.marks)
    _catch_up(match, cache_seat(match, cache), cut, events)
    return cut


def cache_seat(match, cache: Seen) -> int:
    return next(s for s, c in enumerate(match._seen) if c is cache)


def information_state_json(match, seat: int) -> dict[str, Any]:
    """`seat`'s information state as data: the game, the seat, everything it observed in order, and
    what it sees now."""
    return {"game": match.game.name, "players": match.players, "seat": seat,
            "observed": json.loads("[" + ",".join(observed(match, seat)) + "]"), "now": match.view(seat)}


def information_state(match, seat: int) -> str:
    """`seat`'s information state as one canonical string (one line per observation, then the view)."""
    cache = match._seen[seat]
    _catch_up(match, seat, cache)
    if cache.text is None:
        head = json.dumps({"game": match.game.name, "players": match.players, "seat": seat}, sort_keys=True)
        cache.text = "\n".join([head, *cache.lines[:cache.n], ""])
    return "".join([cache.text, *(chunk[3] for chunk in cache.chunks), view_json(match, seat)])


def observation_count(match, seat: int) -> int:
    """How many observation lines `seat`'s information state holds now (every event rendered)."""
    cache = match._seen[seat]
    _catch_up(match, seat, cache)
    return cache.count


def information_since(match, seat: int, start: int) -> str:
    """`seat`'s information state less its head and first `start` observation lines: the lines since, then
    the view. In matches whose first `start` lines are alike (the worlds of one search, drawn where the
    seat had seen that many) two of these are equal exactly when the whole information states are; and
    they cost what is new since, where the whole string (hundreds of kB late in a long match) costs its
    length again to join, hash and compare at every step of a search."""
    cache = match._seen[seat]
    _catch_up(match, seat, cache)
    parts = []
    if start < cache.n:
        parts.append("".join([line + "\n" for line in cache.lines[start:cache.n]]))
    for _k, i, lines, text in cache.chunks:
        if i >= start:
            parts.append(text)
        elif i + len(lines) > start:
            parts.append("".join([line + "\n" for line in lines[start - i:]]))
    parts.append(view_json(match, seat))
    return "".join(parts)


# ---- a seat's view ----------------------------------------------------------------------------------


def view(match, seat: int) -> dict[str, Any]:
    """`Match.view(seat)` (the same as `view_json` writes it)."""
    st, t, game = match.st, match.layout, match.game
    zones = {t.zone_names[zi]: zone_view(game, st, zi, seat) for zi in range(len(st.zones))}
    return {"seat": seat, "deal": st.deal, "round": st.round, "turn": st.turn, "first": st.first,
            "active": st.active, "out": [p for p in range(st.n) if st.out >> p & 1], "zones": zones,
            "counters": visible_counters(game.model, st, seat), "to_act": match.to_act(),
            "options": match.action_labels(seat)}


def view_json(match, seat: int) -> str:
    """`json.dumps(view(match, seat), sort_keys=True, separators=(",", ":"))`, written again only where
    the state changed since the seat's last call: the zones whose cards, or whose cards' sides or who
    knows them, changed, and the counters if they changed."""
    st = match.st
    look = _look(match.game, st.layout)
    cache = match._seen[seat]
    kept = cache.view
    zones, face, known = st.zones, st.face, st.known
    if kept is None or kept[0] is not look:
        cards, parts, table, counters = [None] * len(zones), [""] * len(zones), None, ""
        dirty: Any = range(len(zones))
    else:
        _, cards, parts, old_face, old_known, table, counters, _ = kept
        dirty = list(compress(range(len(zones)), map(ne, zones, cards)))  # the zones whose cards changed
        if known != old_known or face != old_face:  # and the zones of the cards turned or known since
            # (a zone shows the seat a card by its side and the seat's bit of who knows it)
            bits = map(and_, map(xor, known, old_known), repeat(1 << seat))
            turned: Iterable[int] = compress(range(len(known)), bits)
            if face != old_face:
                turned = joined(turned, compress(range(len(face)), map(ne, face, old_face)))
            dirty = sorted(set(map(st.zone_of.__getitem__, turned)).union(dirty))
    if dirty:
        cards, parts = cards[:], parts[:]
        for zi in dirty:
            cards[zi] = zones[zi][:]
            parts[zi] = _zone_json(look, st, zi, seat)
        written = "{" + ",".join([key + parts[zi] for key, zi in look.keyed]) + "}"
        face, known = face[:], known[:]
    else:
        face, known, written = kept[3], kept[4], kept[7]
    if table is None or table[0] != st.gc or table[1] != st.pc:
        table = (st.gc[:], [v[:] for v in st.pc])
        counters = _counters(look, match.game, st.n, seat, st.gc, st.pc)
    cache.view = (look, cards, parts, face, known, table, counters, written)
    options = "[" + ",".join([_text(x) for x in match.action_labels(seat)]) + "]"
    out = _ints([p for p in range(st.n) if st.out >> p & 1])
    return f'{{"active":{_int(st.active)},"counters":{counters},"deal":{_int(st.deal)},"first":{_int(st.first)},' \
        f'"options":{options},"out":{out},"round":{_int(st.round)},"seat":{_int(seat)},' \
        f'"to_act":{_ints(match.to_act())},"turn":{_int(st.turn)},"zones":{written}}}'


def _zone_json(look: _Look, st: State, zi: int, seat: int) -> str:
    """`zone_view` in JSON."""
    shown = shown_cards(st, zi, seat)
    if shown is None:
        return f'{{"count":{len(st.zones[zi])}}}'
    face, back = look.face, look.back
    return "[" + ",".join([face[c] if seen else back[c] for c, seen in zip(*shown, strict=True)]) + "]"


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
