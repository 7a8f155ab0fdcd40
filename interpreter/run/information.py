"""Stage 7, what each seat knows, rendered: a seat's information state (one canonical JSON line per
observation, then its view) and its view, each rendered once and then only for what is new.

The record is the `Watcher` (run/watcher.py); what a seat may see of a card, a zone, a counter or a
question is decided in run/sight.py; each kind of event's line is its `seen` in the catalogue
(run/events.py). This module keeps, per seat, the lines rendered so far (`Seen`) and the view's zones as
last written, so that a call after a decision pays for what changed. It also names everything the other
modules read of what a seat knows, wherever it is kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from itertools import chain as joined
from itertools import compress, repeat
from operator import and_, call, itemgetter, ne, xor
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
from .runtime import HIDDEN, OWNER, PUBLIC, State, seen_by
from .sight import (
    back_key,
    back_of,
    card_index,
    card_place_label,
    card_ranks,
    counter_rules,
    faces,
    glimpse_at,
    hidden_label,
    option_label,
    order_known,
    ordered_for,
    prompt_text,
    value_label,
    visible_counters,
)
from .watcher import Watcher, interchangeable, relabel_frozen

__all__ = ["ASK", "DECIDE", "FLIP", "HIDDEN", "MOVE", "ROLL", "SAY", "SEATS", "SHOW", "SHUFFLE", "TABLE", "Seen",
           "Watcher", "back_key", "back_of", "card_index", "card_place_label", "card_ranks", "counter_rules",
           "cut_cache", "describe", "faces", "fork_cache", "glimpse_at", "hidden_label", "information_since",
           "information_state", "information_state_json", "interchangeable", "new_cache", "observation_count",
           "observed", "option_label", "order_known", "ordered_for", "prompt_text", "relabel_frozen", "render",
           "shown_cards", "value_label", "view", "view_json", "visible_counters", "zone_view"]


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
    key that sorts cards shown together (faces by id, then backs); each zone's name in JSON, and its key in
    the view with that key's place among the view's zones, sorted; per seat, which zones' order it sees
    and which it knows, and how it sees each zone's cards (`_zone_mode`); each card's rank by face and by
    back (the canonical order of another's hand), and the one back of them all where they have one."""

    __slots__ = ("back", "back_sort", "by_back", "by_face", "counters", "face", "key", "keyed_at", "known", "modes",
                 "one_back", "ordered", "zone")

    def __init__(self, game, t) -> None:
        self.counters: dict[tuple, str] = {}  # the counters as a seat sees them, in JSON, by their values
        backs = [back_of(game, t, c) for c in range(len(t.face_ids))]
        self.face = [_STR(f) for f in t.face_ids]
        self.back = [_DUMP(b) for b in backs]
        self.back_sort = [json.dumps(b, sort_keys=True) for b in backs]
        self.zone = [_STR(name) for name in t.zone_names]
        self.key = [name + ":" for name in self.zone]
        named = {name: zi for zi, name in enumerate(t.zone_names)}  # as the view's dict keeps them
        self.keyed_at = [0] * len(t.zone_names)
        for place, (_, zi) in enumerate(sorted(named.items())):
            self.keyed_at[zi] = place
        zones = range(len(t.zone_names))
        self.ordered = [[ordered_for(t, zi, s) for zi in zones] for s in range(t.n)]
        self.known = [[order_known(t, zi, s) for zi in zones] for s in range(t.n)]
        self.by_face, self.by_back = card_ranks(t)
        self.modes = [[_zone_mode(t, zi, s) for zi in zones] for s in range(t.n)]
        self.one_back = self.back[0] if len(set(self.back)) == 1 else None


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
        written = self.look.counters.get((self.seat, tuple(gc), *map(tuple, pc)))
        return _counters(self.look, self.game, self.layout.n, self.seat, gc, pc) if written is None else written

    def glimpse(self, key: str, line: str, zone: str, to: int) -> None:
        """A card shown to `to` that this seat sees shown without its place: the run of such glimpses (same
        zone, same looker) that ends the lines is kept sorted by `key`, each different card once for a seat
        only watching."""
        out = self.out
        if self.run_of != (zone, to) or len(out) != self.start + len(self.run):  # (a new run, or lines since)
            self.run, self.run_of, self.start = [], (zone, to), len(out)
        run = sorted([*self.run, (key, line)], key=_first)
        if to != self.seat:
            run = [x for i, x in enumerate(run) if i == 0 or x[1] != run[i - 1][1]]
        self.run = run
        out[self.start:] = [x for _, x in run]


_SEEN = {tag: kind.seen for tag, kind in BY_TAG.items()}  # each kind's line for a seat, by tag
_TAG = itemgetter(0)  # a raw event's tag


def render(match, seat: int, events: list[tuple], last: str | None = None) -> tuple[list[str], str | None]:
    """The events as `seat` observed them, one canonical JSON line each (each kind's `seen`, run/events.py).
    `last`: the table line (counters, turn) the seat saw before the first of these events; a change the seat
    cannot see is no event for it."""
    r = _Reader(match, seat, last)
    out = r.out
    for line in map(call, map(_SEEN.__getitem__, map(_TAG, events)), events, repeat(r)):  # (kind.seen(e, r))
        if line is not None:
            out.append(line)
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


def information_since(match, seat: int, start: int, zones: bool = True) -> str:
    """`seat`'s information state less its head and first `start` observation lines: the lines since, then
    the view. In matches whose first `start` lines are alike (the worlds of one search, drawn where the
    seat had seen that many) two of these are equal exactly when the whole information states are; and
    they cost what is new since, where the whole string (hundreds of kB late in a long match) costs its
    length again to join, hash and compare at every step of a search.

    `zones=False` (a search's key at the seat's own questions) ends the lines with the view less its zones
    (`_view_less_zones`), not the whole view: the zones as the seat sees them follow from its observations.
    Every card that enters, leaves or turns in a zone, or is shown to the seat, is a line (a move, flip,
    shuffle or show, naming the card where the seat sees its face, else its place or only its zone), so the
    view's zones are a function of the lines so far: each zone's count, the cards at the places it follows,
    the faces it knows in another's hand (the leak check, `interpreter.leaks`, asserts at every point that
    the view is what the observations imply). Two matches with equal lines then have equal zones, so two of
    these keys are still equal exactly when the information states are. What is kept of the view is what is
    cheap and not shown to follow at every point: the table's values and counters (a change after the last
    look has no line yet), the deal, who is out, who is to act and the seat's options."""
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
    parts.append(view_json(match, seat) if zones else _view_less_zones(match, seat))
    return "".join(parts)


def _view_less_zones(match, seat: int) -> str:
    """The view's values but its zones, in one line (not JSON: a key): the table's values, the counters as the
    seat sees them, the seats to act and the seat's options."""
    st = match.st
    look = _look(match.game, st.layout)
    kept = match._seen[seat].view  # (the counters as the view last wrote them, if they are the same)
    if kept is not None and kept[0] is look and kept[5][0] == st.gc and kept[5][1] == st.pc:
        counters = kept[6]
    else:
        counters = _counters(look, match.game, st.n, seat, st.gc, st.pc)
    options = ",".join(map(_STR, match.action_labels(seat)))
    return f"{st.active} {st.deal} {st.first} {st.out} {st.round} {st.turn} {counters} {match.to_act()} [{options}]"


# ---- a seat's view ----------------------------------------------------------------------------------


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
        by_face, by_back = card_ranks(t)
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


def zone_view(game, st: State, zi: int, seat: int) -> Any:
    """One zone as `seat` sees it (see `shown_cards`): the faces of the cards it can see (copies alike),
    backs of the others; of a hidden zone where it sees no face, the count."""
    shown = shown_cards(st, zi, seat)
    if shown is None:
        return {"count": len(st.zones[zi])}
    t = st.layout
    face = faces(t)
    return [face[c] if seen else back_of(game, t, c) for c, seen in zip(*shown, strict=True)]


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
    knows them, changed, the counters if they changed, the view's own values if they changed."""
    st = match.st
    look = _look(match.game, st.layout)
    cache = match._seen[seat]
    kept = cache.view
    zones, face, known = st.zones, st.face, st.known
    if kept is None or kept[0] is not look:
        cards, parts, table, counters, head = [None] * len(zones), [""] * len(zones), None, "", None
        pieces: tuple[str, ...] = ()
        dirty: Any = range(len(zones))
    else:
        _, cards, parts, old_face, old_known, table, counters, _, head, pieces = kept
        dirty = list(compress(range(len(zones)), map(ne, zones, cards)))  # the zones whose cards changed
        if known != old_known or face != old_face:  # and the zones of the cards turned or known since
            # (a zone shows the seat a card by its side and the seat's bit of who knows it)
            bits = map(and_, map(xor, known, old_known), repeat(1 << seat))
            turned: Iterable[int] = compress(range(len(known)), bits)
            if face != old_face:
                turned = joined(turned, compress(range(len(face)), map(ne, face, old_face)))
            dirty = sorted(set(map(st.zone_of.__getitem__, turned)).union(dirty))
    if dirty:
        cards, parts = cards[:], parts[:]  # (`parts`: each zone's key and JSON, in the order of the keys)
        keyed_at, key, modes = look.keyed_at, look.key, look.modes[seat]
        up, bit, face_json, back_json = st.face, 1 << seat, look.face, look.back
        for zi in dirty:
            now = cards[zi] = zones[zi][:]
            if modes[zi] == _OPEN:  # (most zones: `_zone_json`'s first case, written here)
                parts[keyed_at[zi]] = key[zi] + "[" + ",".join(
                    [face_json[c] if up[c] or known[c] & bit else back_json[c] for c in now]) + "]"
            else:
                parts[keyed_at[zi]] = key[zi] + _zone_json(look, st, zi, seat)
        written = "{" + ",".join(parts) + "}"
        face, known = face[:], known[:]
    else:
        face, known, written = kept[3], kept[4], kept[7]
    if table is None or table[0] != st.gc or table[1] != st.pc:
        table = (st.gc[:], [v[:] for v in st.pc])
        counters = _counters(look, match.game, st.n, seat, st.gc, st.pc)
    now_values = (st.active, st.deal, st.first, st.out, st.round, st.turn)
    if now_values != head:  # the view's own values, written around the counters, options, seats to act and zones
        head, out = now_values, _ints([p for p in range(st.n) if st.out >> p & 1])
        pieces = (f'{{"active":{_int(st.active)},"counters":', f',"deal":{_int(st.deal)},"first":{_int(st.first)},'
                  f'"options":', f',"out":{out},"round":{_int(st.round)},"seat":{_int(seat)},"to_act":',
                  f',"turn":{_int(st.turn)},"zones":')
    cache.view = (look, cards, parts, face, known, table, counters, written, head, pieces)
    options = ",".join(map(_STR, match.action_labels(seat)))  # (labels are strings; seats to act, numbers)
    to_act = ",".join(map(str, match.to_act()))
    return f"{pieces[0]}{counters}{pieces[1]}[{options}]{pieces[2]}[{to_act}]{pieces[3]}{written}}}"


def _zone_json(look: _Look, st: State, zi: int, seat: int) -> str:
    """`zone_view` in JSON (the cards as `shown_cards` shows them), with no call per card, for a zone the seat
    does not see card by card as it lies (`view_json` writes those, `_OPEN`, itself)."""
    cards, known, bit, face, back = st.zones[zi], st.known, 1 << seat, look.face, look.back
    mode = look.modes[seat][zi]
    if mode == _HAND:  # another player's hand: the faces the seat knows, then the backs, sorted
        faced = sorted([c for c in cards if known[c] & bit], key=look.by_face.__getitem__)
        if look.one_back is not None:  # every card's back alike (most games): only how many
            return "[" + ",".join([*[face[c] for c in faced], *[look.one_back] * (len(cards) - len(faced))]) + "]"
        by_back = look.by_back
        if by_back is not None:
            backs = sorted([c for c in cards if not known[c] & bit], key=by_back.__getitem__)
        else:
            t = st.layout
            backs = [c for _, c in sorted([(back_key(t, c), c) for c in cards if not known[c] & bit])]
        return "[" + ",".join([*[face[c] for c in faced], *[back[c] for c in backs]]) + "]"
    if mode == _BLIND and not any([known[c] & bit for c in cards]):  # (it sees only the cards it knows)
        return f'{{"count":{len(cards)}}}'
    return "[" + ",".join([face[c] if known[c] & bit else back[c] for c in cards]) + "]"


_HAND, _OPEN, _KNOWN, _BLIND = range(4)  # how a seat sees a zone (`_Look.modes`)


def _zone_mode(t, zi: int, seat: int) -> int:
    """How `seat` sees zone `zi` (as `shown_cards` reads it): another player's hand, shown in a canonical
    order (`_HAND`); in the order kept, every card face up or known to the seat by its face (`_OPEN`: a public
    zone, the seat's own), or only those it knows (`_KNOWN`; `_BLIND`: a hidden zone, its count only when the
    seat knows none of them)."""
    if not ordered_for(t, zi, seat):
        return _HAND
    vis = t.zone_vis[zi]
    if vis == PUBLIC or (vis == OWNER and t.zone_owner[zi] == seat):
        return _OPEN
    return _BLIND if vis == HIDDEN else _KNOWN
