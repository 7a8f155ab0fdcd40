"""Stage 7, what each seat knows, rendered: a seat's information state (one canonical JSON line per
observation, then its view) and its view, each rendered once and then only for what is new.

The record is the `Watcher` (run/watcher.py); what a seat may see of a card, a zone, a counter or a
question is decided in run/sight.py; each kind of event's line is its `seen` in the catalogue
(run/events.py). This module keeps, per seat, the lines rendered so far (`Seen`) and the view's zones as
last written, so that a call after a decision pays for what changed; and, per layout and seat, the line of
each event rendered (by the event: a copy, a world drawn or another match that records the same event finds its
line written). It also names everything the other modules read of what a seat knows, wherever it is kept.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Callable
from itertools import compress, repeat
from operator import and_, attrgetter, call, is_, is_not, itemgetter, ne, not_
from typing import Any

from .events import (  # the kinds of event (raw tuples, first item the tag: see run/events.py)
    ASK,
    BY_TAG,
    DECIDE,
    FLIP,
    KEPT_AT_MOST,
    MOVE,
    ROLL,
    SAY,
    SEATS,
    SHOW,
    SHUFFLE,
    TABLE,
    describe,
    number,
)
from .events import number as _int
from .events import text as _text
from .runtime import HIDDEN, K_CARD, OWNER, PUBLIC, State, seen_by
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
# pays for what is new, not for the match so far; each event's line is kept by the event (`render`), the view's
# pieces by their values (each card as the seat sees it, a hand of backs, the view's own values, the counters).
# A line not kept yet is written from pieces kept by what they are made of: a move's card as the seat sees it and
# the rest of its line (`events.Moved.seen_all`), another seat's question (`events.Asked`). The options of the view
# (and of the seat's own question's line) are the cards' faces in JSON where the seat sees every card offered
# (`_options_json`, `_Reader.options`), options that are not cards kept by kind and values; only a card named by its
# place is labelled by the match. The counters as a seat sees them are kept by their values, and written where they
# are new by a writer made once per layout and seat (`_counter_writer`: no dict made, no visibility looked up again).
# Where neither the first nor the last event of a call has its line kept, none is looked up: all are written.

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

    __slots__ = ("asks", "back", "back_named", "back_open", "back_rank", "back_sort", "by_back", "by_face", "cards",
                 "counters", "face", "face_named", "face_open", "face_rank", "hand", "hands", "heads", "key",
                 "keyed_at", "known", "lines", "modes", "n", "one_back", "open_seen", "opened", "options", "ordered",
                 "readers", "tables", "tails", "write_counters", "zone")

    def __init__(self, game, t) -> None:
        self.n = t.n
        self.counters: dict[tuple, str] = {}  # the counters as a seat sees them, in JSON, by their values
        self.write_counters: list[Callable[[Any, Any], str] | None] = [None] * t.n  # per seat (`_counter_writer`)
        self.heads: dict[tuple, tuple[str, ...]] = {}  # the view's own values written (`_pieces`), by seat and values
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
        # each card's face and back by rank among the different ones, in the order `card_ranks` sorts them (a
        # back's rank only where each back's value is written one way), and each rank's JSON
        ids = sorted(set(t.face_ids))
        self.face_named = [_STR(f) for f in ids]
        rank = {f: i for i, f in enumerate(ids)}
        self.face_rank = [rank[f] for f in t.face_ids]
        self.back_rank: list[int] | None = None
        self.back_named: list[str] = []
        if self.by_back is not None:
            keys = [back_key(t, c) for c in range(len(t.face_ids))]
            written = dict(zip(keys, self.back, strict=True))
            if len(written) == len(set(zip(keys, self.back, strict=True))):  # (one JSON for each value)
                ranked = sorted(written)
                self.back_named = [written[k] for k in ranked]
                at = {k: i for i, k in enumerate(ranked)}
                self.back_rank = [at[k] for k in keys]
        self.modes = [[_zone_mode(t, zi, s) for zi in zones] for s in range(t.n)]
        # per seat and zone: the zone's key and "[" where the seat sees it card by card as it lies, else ""
        self.opened = [[self.key[zi] + "[" if mode == _OPEN else "" for zi, mode in enumerate(modes)]
                       for modes in self.modes]
        # per seat and zone: the seat sees a card lying there face up (`_OPEN`): an option naming it reads as its face
        self.open_seen = [[mode == _OPEN for mode in modes] for modes in self.modes]
        self.options: dict[tuple, str] = {}  # options that are not cards, in JSON, by their kind and values
        self.one_back = self.back[0] if len(set(self.back)) == 1 else None
        # a hand of cards unknown to the seat, in JSON, from its cards (None where the backs cannot be ranked)
        self.hand: Callable[[list[int]], str] | None = _backs_alike(self.one_back) if self.one_back is not None else \
            None if self.back_rank is None else _backs_ranked(self.back_rank, self.back_named)
        # per seat and zone: the zone's key where it is another player's hand written by `hand` when the seat knows
        # none of its cards, else ""
        self.hands = [[self.key[zi] if mode == _HAND and self.hand is not None else "" for zi, mode in enumerate(modes)]
                      for modes in self.modes]
        self.lines: list[dict] = [{} for _ in range(t.n)]  # per seat: each event's line, by the event (`render`)
        self.readers: list[_Reader | None] = [None] * t.n  # per seat: its reader of events (`_reader`)
        self.asks: dict[tuple, str] = {}  # the line of a question put to a seat, as the others see it (`Asked`)
        self.tables: dict[tuple, tuple[str, str]] = {}  # a table line around its counters, by its turn (`TableChanged`)
        self.face_open = ['{"card":' + f for f in self.face]  # a move's line begun, by the card's face or back
        self.back_open = ['{"card":' + b for b in self.back]
        self.tails: list[dict[tuple, str]] = [{} for _ in range(t.n)]  # per seat: a move's line after its card
        self.cards: list[dict[tuple, str]] = [{} for _ in range(t.n)]  # per seat: a move's line up to its card


def _backs_alike(one: str) -> Callable[[list[int]], str]:
    """A hand of cards whose backs are all `one`, in JSON (kept by how many cards)."""

    class Written(dict):
        def __missing__(self, n: int) -> str:
            hand = self[n] = "[" + ",".join([one] * n) + "]"
            return hand

    by_count = Written().__getitem__

    def backs(cards: list[int]) -> str:
        return by_count(len(cards))

    return backs


def _backs_ranked(rank: list[int], named: list[str]) -> Callable[[list[int]], str]:
    """A hand of cards seen by their backs, in JSON: the backs in order of their values (`_Look.back_rank`)."""
    by_rank = named.__getitem__

    def backs(cards: list[int]) -> str:
        return "[" + ",".join(map(by_rank, sorted(map(rank.__getitem__, cards)))) + "]"

    return backs


_LOOKS: dict[int, tuple] = {}


def _look(game, t) -> _Look:
    hit = _LOOKS.get(id(t))
    if hit is not None and hit[0] is t and hit[1] is game:
        return hit[2]
    hit = _LOOKS[id(t)] = (t, game, _Look(game, t))
    return hit[2]


class _Reader:
    """One seat's rendering of events (`render`), as the catalogue's kinds read it (`events.Reader`): the
    layout's pieces, the lines so far, the last table line, and the glimpses with no place that end them."""

    __slots__ = ("asks", "back", "back_open", "back_sort", "bit", "cards", "face", "face_open", "game", "known", "last",
                 "layout", "look", "ordered", "out", "run", "run_of", "seat", "start", "tables", "tails", "zone")

    def __init__(self, match, seat: int, last: str | None, look: _Look | None = None,
                 out: list[str] | None = None) -> None:
        self.layout, self.game, self.seat, self.bit = match.layout, match.game, seat, 1 << seat
        look = self.look = look or _look(self.game, self.layout)
        self.face, self.back, self.back_sort, self.zone = look.face, look.back, look.back_sort, look.zone
        self.ordered, self.known, self.asks, self.tables = look.ordered[seat], look.known[seat], look.asks, look.tables
        self.face_open, self.back_open, self.tails = look.face_open, look.back_open, look.tails[seat]
        self.cards = look.cards[seat]
        self.out: list[str] = [] if out is None else out
        self.last = last
        self.run: list[tuple[str, str]] = []  # the glimpses with no place that end `out`: (sort key, line)
        self.run_of: tuple | None = None  # their zone and looker
        self.start = 0  # where they start in `out`

    def place(self, c: int, zi: int, at: int) -> str:
        return card_place_label(self.game, self.layout, c, zi, at, self.seat)

    def option(self, kind: int, option: Any) -> str:
        return option_label(self.game, self.layout, kind, option, self.seat)

    def options(self, kind: int, options: tuple) -> str:
        """The options of the seat's own question as it saw them (`option`, each), in JSON without the brackets: cards
        the seat saw are recorded by their faces (`Watcher.asked`), written with no step per option; options that
        are not cards as the view writes them (`_values_json`: kept per layout)."""
        if kind != K_CARD:
            written = _values_json(self.look, self.layout, kind, options)
            if written is not None:
                return written
        elif _STRINGS.issuperset(map(type, options)):
            return ",".join(map(_STR, options))
        return ",".join([_text(self.option(kind, x)) for x in options])

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


_STRINGS = frozenset({str})


def _reader(match, seat: int, look: _Look) -> _Reader:
    """`seat`'s reader of events with no line before them: made once per layout and seat (its pieces are the
    layout's, none of the match's), its lines and glimpses emptied at each use."""
    r = look.readers[seat]
    if r is None:
        r = look.readers[seat] = _Reader(match, seat, None, look)
    else:
        r.out, r.last, r.run, r.run_of, r.start = [], None, [], None, 0
    return r


_SEEN = {tag: kind.seen for tag, kind in BY_TAG.items()}  # each kind's line for a seat, by tag
_TAG = itemgetter(0)  # a raw event's tag

# Every kind's line for a seat but a glimpse's is a function of the event and the layout's pieces alone (not of
# the lines before it): each is kept by its event (`_Look.lines`), so that an event rendered once for a seat, in
# this match or another of the same layout (a copy, a world drawn, a search's play-out), is not written again.
# A table line is kept as it would be with no table line before it (the seat sees it only if it differs from
# the last one, compared here); a glimpse depends on the glimpses before it (`_Reader.glimpse`): never kept.
# (A kind not named here is rendered every time: a new kind is right before it is fast.)
_KEPT = frozenset({MOVE, FLIP, SHUFFLE, ROLL, SAY, ASK, DECIDE, SEATS, TABLE})
_MOST_KEPT = 1 << 13  # lines kept per seat and layout; past it they are dropped and kept again as they come


def render(match, seat: int, events: list[tuple], last: str | None = None,
           look: _Look | None = None) -> tuple[list[str], str | None]:
    """The events as `seat` observed them, one canonical JSON line each (each kind's `seen`, run/events.py).
    `last`: the table line (counters, turn) the seat saw before the first of these events; a change the seat
    cannot see is no event for it. `look`: the match's layout's (`_look`), where the caller has it."""
    if look is None:
        t = match.layout
        hit = _LOOKS.get(id(t))  # (`_look`, its usual case written here)
        look = hit[2] if hit is not None and hit[0] is t and hit[1] is match.game else _look(match.game, t)
    if not events:
        return [], last
    kept = look.lines[seat]
    tags = "".join(map(_TAG, events))  # (each kind's tag is one character: `events.MOVE`, ...)
    if not _KEPT.issuperset(tags):  # a glimpse (or a kind not kept): line by line
        return _rendered(match, seat, events, last, look)
    try:
        # (neither the first nor the last line kept: most likely none is, the first copy to make a decision, and
        # each is written, as it would be, with no look-up of each first)
        out: list[Any] = [None] if kept.get(events[0]) is None and kept.get(events[-1]) is None else \
            list(map(kept.get, events))  # (every line kept: the usual case in a search, or a copy's)
    except TypeError:  # an event holding a list: no key
        return _rendered(match, seat, events, last, look)
    if None in out:  # the lines not kept yet (a call only where some are: the kept lines' path pays none)
        out = _kept_written(match, seat, events, tags, out, look)
    i = tags.find(TABLE)
    if i < 0:
        return out, last
    gone = []
    while i >= 0:  # a table line the same as the last the seat saw is no new line
        line = out[i]
        if line == last:
            gone.append(i)
        last = line
        i = tags.find(TABLE, i + 1)
    for i in reversed(gone):
        del out[i]
    return out, last


def _kept_written(match, seat: int, events: list[tuple], tags: str, out: list, look: _Look) -> list[str]:
    """`render`'s lines of events of kept kinds (their `tags`) where some are not kept (None in `out`, or `out` only
    [None] where neither the first nor the last is): those written by their kinds in one pass (`_written`), and kept."""
    kept = look.lines[seat]
    if len(kept) > _MOST_KEPT:
        kept.clear()
    if len(out) == 1 or out.count(None) == len(out):  # (none kept)
        out = _written(events, tags, _reader(match, seat, look))
        try:  # noqa: SIM105 (a bare try costs nothing on this path; `suppress` enters a context each call)
            kept.update(zip(events, out, strict=True))
        except TypeError:  # (an event holding a list: the lines before it kept)
            pass
        return out
    at = list(compress(range(len(out)), map(is_, out, repeat(None))))
    missing = list(map(events.__getitem__, at))
    lines = _written(missing, "".join(map(_TAG, missing)), _reader(match, seat, look))
    any(map(out.__setitem__, at, lines))
    kept.update(zip(missing, lines, strict=True))
    return out


def _written(events: list[tuple], tags: str, r: _Reader) -> list[str]:
    """The lines of events of kept kinds (their `tags`), written in one pass by one reader: each by its kind, the
    runs of moves each in one call (`Moved.seen_all`: a decision that passes hands moves dozens of cards). A table
    line the reader dropped as the same as the table line before it is put back: kept, a table line is as it
    would be alone."""
    if tags.count(MOVE) < 4:
        lines = list(map(call, map(_SEEN.__getitem__, tags), events, repeat(r)))
    else:
        lines = []
        for run in _RUNS(tags):
            a, b = run.span()
            lines += _MOVES(events[a:b], r) if tags[a] == MOVE else \
                map(call, map(_SEEN.__getitem__, tags[a:b]), events[a:b], repeat(r))
    return _tables_filled(tags, lines) if None in lines else lines


_MOVES = BY_TAG[MOVE].seen_all
_RUNS = re.compile(f"{MOVE}+|[^{MOVE}]+").finditer  # the runs of moves and of other events in a call's tags


def _tables_filled(tags: str, lines: list[str | None]) -> list[str]:
    """The lines of kept kinds written in one pass by one reader (`render`), with each table line the reader
    dropped as the same as the table line before it put back: kept, a table line is as it would be alone."""
    for i in compress(range(len(lines)), map(is_, lines, repeat(None))):  # (few: only those lines are looked at)
        assert tags[i] == TABLE, i
        lines[i] = lines[tags.rindex(TABLE, 0, i)]
    return lines  # type: ignore[return-value]


def _rendered(match, seat: int, events: list[tuple], last: str | None, look: _Look) -> tuple[list[str], str | None]:
    """`render`, each event written by its kind (and kept) unless its line is kept."""
    kept = look.lines[seat]
    if len(kept) > _MOST_KEPT:
        kept.clear()
    get = kept.get
    out: list[str] = []
    r: _Reader | None = None
    for e in events:
        tag = e[0]
        key = e if tag in _KEPT else None
        try:
            line = get(key)
        except TypeError:  # an event holding a list: no key, rendered every time
            key = line = None
        if line is None:
            if r is None:
                r = _reader(match, seat, look)
                r.out = out
            if key is None:  # rendered where it stands (a glimpse, a kind not kept)
                r.last = last
                line = _SEEN[tag](e, r)
                last = r.last
                if line is not None:
                    out.append(line)
                continue
            r.last = None
            line = kept[key] = _SEEN[tag](e, r)
        if tag == TABLE:
            if line == last:
                continue
            last = line
        out.append(line)
    return out, last


def _first(item: tuple) -> Any:
    return item[0]


def _counters(look: _Look, game, n: int, seat: int, gc: list, pc: list) -> str:
    """The counters as `seat` sees them (`visible_counters`) in JSON, from the counters' values (each
    layout keeps the ones it wrote)."""
    key = (seat, tuple(gc), *map(tuple, pc))
    written = look.counters.get(key)
    if written is None:
        if len(look.counters) >= KEPT_AT_MOST:
            look.counters.clear()
        write = look.write_counters[seat]
        if write is None:
            write = look.write_counters[seat] = _counter_writer(counter_rules(game.model), n, seat)
        written = look.counters[key] = write(gc, pc)
    return written


def _counter_writer(rules: tuple[list[tuple], list[tuple]], n: int, seat: int) -> Callable[[Any, Any], str]:
    """`seat`'s counters in JSON from their values, as `_DUMP(visible_counters(...))` writes them (keys sorted, a
    value the seat may not see `null`), with no dict made: each counter's key written once, the visibility of those
    public to all not looked at again (most counters of most games are)."""
    game_rules, player_rules = rules
    rows = sorted([(name, False, i, vis, flag) for i, name, vis, flag in game_rules]
                  + [(name, True, i, vis, flag) for i, name, vis, flag in player_rules])
    plan = [(_STR(name) + ":", per, i, vis == PUBLIC, vis == OWNER, flag) for name, per, i, vis, flag in rows]
    seats = range(n)
    public_rows: dict[tuple, str] = {}  # a player counter public to all, in JSON, by its values (few change at once)

    def write(gc: Any, pc: Any) -> str:
        out = []
        for head, per, i, public, own, flag in plan:
            if not per:  # (a value as `number` writes it, with no call)
                shown = public or (flag is not None and gc[flag[1]] != 0)
                value = gc[i]
                out.append(head + ((str(value) if value.__class__ is int else _DUMP(value)) if shown else "null"))
            elif public:
                row = tuple(pc[i])
                written = public_rows.get(row)
                if written is None:
                    if len(public_rows) >= KEPT_AT_MOST:
                        public_rows.clear()
                    written = public_rows[row] = "[" + ",".join([number(v) for v in row]) + "]"
                out.append(head + written)
            else:
                row = pc[i]
                out.append(head + "[" + ",".join([
                    number(row[p]) if (own and p == seat) or (
                        flag is not None and (pc[flag[1]][p] if flag[0] else gc[flag[1]]) != 0) else "null"
                    for p in seats]) + "]")
        return "{" + ",".join(out) + "}"

    return write


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
        more: list[str] = []
        any(map(more.extend, map(_LINES, chunks)))  # (the chunks' lines gathered in C: no frame of a comprehension)
        self.lines, self.n = _grown(self.lines, self.n, more), self.count
        self.marks = _grown(self.marks, self.m, list(map(_MARK, chunks)))  # (in C: no frame of a comprehension)
        self.m += len(chunks)
        if self.text is not None:
            self.text = "".join([self.text, *(chunk[3] for chunk in chunks)])
        self.chunks = ()


_LINES, _MARK = itemgetter(2), itemgetter(0, 1)  # a chunk's lines; where it starts, in raw events and in lines


def _grown(items: list, n: int, more: list) -> list:
    """`items[:n]` and then `more`: in place if nobody went further in `items`, else in a copy."""
    if len(items) != n:
        items = items[:n]
    items.extend(more)
    return items


def _catch_up(match, seat: int, cache: Seen, end: int | None = None, look: _Look | None = None) -> None:
    """Render the raw events since the last render (up to `end`)."""
    events = match._watch.events
    if end is None:
        end = len(events)
    k = cache.events
    if k >= end:
        return
    more, cache.last = render(match, seat, events[k:end] if k or end != len(events) else events, cache.last, look)
    lines = tuple(more)
    more.append("")  # (the list is the render's own: its text ends with a line break)
    cache.chunks = (*cache.chunks, (k, cache.count, lines, "\n".join(more)))
    cache.events = end
    cache.count += len(lines)
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


# What `fork_cache` would take of a seat's rendered observations now, read at once (in C: no frame), for a copy made
# later of a match that goes on rendering in place (`cache_of`)
cache_state = attrgetter(*Seen.__slots__)


def cache_of(state: tuple) -> Seen:
    """The fork of a seat's rendered observations as they stood when `cache_state` read them (its fields in the
    order of `Seen.__slots__`)."""
    cache = Seen.__new__(Seen)
    cache.chunks, cache.count, cache.events, cache.last, cache.lines, cache.m, cache.marks, cache.n, cache.snap, \
        cache.text, cache.view = state
    return cache


def cut_cache(match, cache: Seen, events: int) -> Seen:
    """A seat's rendered observations of only the first `events` raw events (for a copy that goes on
    from there): the lines rendered up to the last render at or before that point (shared, not copied), and
    the rest of the way rendered again; the view as last written (checked against the copy's state when it is
    next written, as every call checks it)."""
    if cache.events <= events:  # nothing rendered past that point: the same will do
        return cache.copy()
    chunks, marks = cache.chunks, cache.marks
    cut = Seen()
    j = len(chunks)
    while j and chunks[j - 1][0] > events:
        j -= 1
    if j:  # the last render at or before that point is a chunk's: the chunks before it kept
        k, i = chunks[j - 1][0], chunks[j - 1][1]
        cut.lines, cut.n, cut.marks, cut.m, cut.text = cache.lines, cache.n, marks, cache.m, cache.text
        cut.chunks = chunks[:j - 1]
    else:  # one of the merged renders: the lines before it kept
        h = bisect_right(marks, events, 0, cache.m, key=_FIRST)  # (the renders at or before that point)
        k, i = marks[h - 1] if h else (0, 0)
        cut.lines, cut.n, cut.marks, cut.m = cache.lines, i, marks, max(h - 1, 0)
        cut.text = cache.text if i == cache.n else None
    cut.events, cut.count = k, i
    cut.last = _last_table_line(cut)
    cut.view = cache.view
    _catch_up(match, cache_seat(match, cache), cut, events)
    return cut


_FIRST = itemgetter(0)


def _last_table_line(cache: Seen) -> str | None:
    """The last table line among a seat's rendered observations (None if none)."""
    for chunk in reversed(cache.chunks):
        for line in reversed(chunk[2]):
            if '"event":"table"' in line:
                return line
    lines = cache.lines
    for j in range(cache.n - 1, -1, -1):
        if '"event":"table"' in lines[j]:
            return lines[j]
    return None


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
    t = match.layout
    hit = _LOOKS.get(id(t))  # (`_look`, its usual case written here)
    look = hit[2] if hit is not None and hit[0] is t and hit[1] is match.game else _look(match.game, t)
    if cache.events != len(match._watch.events):
        _catch_up(match, seat, cache, None, look)
    text = cache.text
    if text is None:
        head = json.dumps({"game": match.game.name, "players": match.players, "seat": seat}, sort_keys=True)
        text = cache.text = "\n".join([head, *cache.lines[:cache.n], ""])
    chunks = cache.chunks
    if chunks:
        return "".join([text, *map(_TEXT, chunks), _view_json(match, seat, look, cache)])
    return text + _view_json(match, seat, look, cache)


_TEXT = itemgetter(3)  # a chunk's lines joined (`Seen.chunks`)


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
    return _view_json(match, seat, _look(match.game, match.layout), match._seen[seat])


def _view_json(match, seat: int, look: _Look, cache: Seen) -> str:
    """`view_json`. What the seat's last call wrote is kept (`Seen.view`, a tuple shared with the copies made
    since, never changed in place): the zones' cards and their JSON, the cards' sides and who knew them, each
    card as the seat sees it in a zone shown as it lies (`shown`), the table and the counters' JSON, the view's
    own values and the pieces written around them."""
    st = match.st
    kept = cache.view
    zones, face, known = st.zones, st.face, st.known
    if kept is None or kept[0] is not look:
        bit, face_json, back_json = 1 << seat, look.face, look.back
        shown = [face_json[c] if face[c] or known[c] & bit else back_json[c] for c in range(len(face))]
        cards, parts, table, counters, head = [None] * len(zones), [""] * len(zones), None, "", None
        pieces: tuple[str, ...] = ()
        dirty: Any = range(len(zones))
        old_face, old_known, written = face[:], known[:], ""
    else:
        _, cards, parts, old_face, old_known, table, counters, written, head, pieces, shown = kept
        dirty = list(compress(range(len(zones)), map(ne, zones, cards)))  # the zones whose cards changed
        if known != old_known or face != old_face:  # and the zones of the cards turned or known since
            # (a zone shows the seat a card by its side and the seat's bit of who knows it: the cards whose
            # knowledge changed, few, are looked at for the seat's bit one by one; found by `is not`, which
            # never misses a change and finds none where the values are the same small ints, as they are
            # up to 8 seats)
            bit = 1 << seat
            turned = {c for c in compress(range(len(known)), map(is_not, known, old_known))
                      if (known[c] ^ old_known[c]) & bit} if known != old_known else set()
            if face != old_face:
                turned.update(compress(range(len(face)), map(is_not, face, old_face)))
            if turned:  # (each turned card as the seat now sees it: its face if face up or known to the seat)
                shown, face_json, back_json = shown[:], look.face, look.back
                for c in turned:
                    shown[c] = face_json[c] if face[c] or known[c] & bit else back_json[c]
                dirty = sorted(set(map(st.zone_of.__getitem__, turned)).union(dirty))
    if dirty:
        cards, parts = cards[:], parts[:]  # (`parts`: each zone's key and JSON, in the order of the keys)
        written = _zones_written(look, st, seat, shown, dirty, cards, parts)
        face, known = face[:], known[:]
    else:
        face, known = old_face, old_known
    if table is None or table[0] != st.gc or table[1] != st.pc:
        table = (st.gc[:], list(map(list, st.pc)))
        counters = _counters(look, match.game, st.n, seat, st.gc, st.pc)
    now_values = (st.active, st.deal, st.first, st.out, st.round, st.turn)
    if now_values != head:  # the view's own values, written around the counters, options, seats to act and zones
        head = now_values
        pieces = look.heads.get((seat, now_values)) or _pieces(look, seat, now_values)
    cache.view = (look, cards, parts, face, known, table, counters, written, head, pieces, shown)
    options = _options_json(match, seat, look, shown)
    to_act = repr(match.to_act()).replace(" ", "")  # (seats to act, ints: their list in JSON, in two calls)
    return f"{pieces[0]}{counters}{pieces[1]}[{options}]{pieces[2]}{to_act}{pieces[3]}{{{written}}}}}"


def _zones_written(look: _Look, st: State, seat: int, shown: list[str], dirty: Any, cards: list, parts: list) -> str:
    """The view's zones in JSON (without the braces), the `dirty` ones written again into `parts` (each zone's key
    and JSON, in the order of the keys), their cards kept in `cards`."""
    zones, known = st.zones, st.known
    keyed_at, opened, card_json, hands = look.keyed_at, look.opened[seat], shown.__getitem__, look.hands[seat]
    for zi in dirty:
        now = cards[zi] = zones[zi][:]
        start = opened[zi]  # (the zone's key and "[" where the seat sees it card by card as it lies)
        if start:  # (`_zone_json`'s first case, the most common, written here: each card as the seat sees it)
            parts[keyed_at[zi]] = start + ",".join(map(card_json, now)) + "]"
        elif hands[zi] and not any(map(and_, map(known.__getitem__, now), repeat(1 << seat))):
            parts[keyed_at[zi]] = hands[zi] + look.hand(now)  # type: ignore[misc]  # (another's hand, none known)
        else:
            parts[keyed_at[zi]] = look.key[zi] + _zone_json(look, st, zi, seat)
    return ",".join(parts)


def _options_json(match, seat: int, look: _Look, shown: list[str]) -> str:
    """The seat's options as `match.action_labels(seat)` names them, in JSON (without the brackets). A card the seat
    sees where it lies is named by its face: where every option is a card lying in a zone the seat sees card by card
    (its own, or the table's; `_OPEN`) and shown to it by its face (`shown`, the view's cards as the seat sees them
    now), the labels are those faces, each already in JSON; options that are not cards are written once per layout
    by their kind and values. Anything else (a card named by its place, `none`) is the match's labels."""
    ask = match._ask_of(seat)
    if ask is None:
        return ""
    values, kind = ask[1], ask[2]
    if kind == K_CARD:
        if values and min(values) >= 0 and all(map(look.open_seen[seat].__getitem__,
                                                   map(match.st.zone_of.__getitem__, values))):
            labels = ",".join(map(shown.__getitem__, values))
            if "{" not in labels:  # (each a face: a back in JSON is an object; a face with a brace is looked at below)
                return labels
            if labels == ",".join(map(look.face.__getitem__, values)):
                return labels
        return ",".join(map(_STR, match.action_labels(seat)))
    written = _values_json(look, match.layout, kind, values)
    return written if written is not None else ",".join(map(_STR, match.action_labels(seat)))  # (an option with no key)


def _values_json(look: _Look, t, kind: int, values: tuple) -> str | None:
    """Options that are not cards (`value_label`, each), in JSON without the brackets, kept per layout by their kind
    and values (`_Look.options`: the view's options and the line of the seat's own question read the same); None
    where an option has no key."""
    try:
        key = (kind, *values)
        written = look.options.get(key)
    except TypeError:
        return None
    if written is None:
        if len(look.options) >= KEPT_AT_MOST:
            look.options.clear()
        written = look.options[key] = ",".join([_STR(value_label(t, kind, v)) for v in values])
    return written


def _pieces(look: _Look, seat: int, values: tuple) -> tuple[str, ...]:
    """The view's own values (`view_json`'s `now_values`) written around the counters, options, seats to act
    and zones (kept per layout)."""
    active, deal, first, out, rnd, turn = values
    if len(look.heads) >= KEPT_AT_MOST:
        look.heads.clear()
    gone = _ints([p for p in range(look.n) if out >> p & 1])
    pieces = look.heads[seat, values] = (
        f'{{"active":{_int(active)},"counters":', f',"deal":{_int(deal)},"first":{_int(first)},"options":',
        f',"out":{gone},"round":{_int(rnd)},"seat":{_int(seat)},"to_act":', f',"turn":{_int(turn)},"zones":')
    return pieces


def _zone_json(look: _Look, st: State, zi: int, seat: int) -> str:
    """`zone_view` in JSON (the cards as `shown_cards` shows them), with no call per card, for a zone the seat
    does not see card by card as it lies (`view_json` writes those, `_OPEN`, itself)."""
    cards, known, bit, face, back = st.zones[zi], st.known, 1 << seat, look.face, look.back
    mode = look.modes[seat][zi]
    knows = list(map(and_, map(known.__getitem__, cards), repeat(bit)))  # (per card: the seat knows its face)
    if mode == _HAND:  # another player's hand: the faces the seat knows, then the backs, sorted
        if not any(knows) and look.hand is not None:  # (none: every back alike, or backs ranked)
            return look.hand(cards)
        if any(knows):  # (faces in order of their ids, copies alike)
            items = list(map(look.face_named.__getitem__, sorted(map(look.face_rank.__getitem__,
                                                                     compress(cards, knows)))))
            hidden = list(compress(cards, map(not_, knows)))
        else:
            items, hidden = [], cards
        if look.one_back is not None:  # every card's back alike (most games): only how many
            items += [look.one_back] * len(hidden)
        elif look.back_rank is not None:  # (backs in order of their values, one JSON each)
            items += map(look.back_named.__getitem__, sorted(map(look.back_rank.__getitem__, hidden)))
        elif look.by_back is not None:
            items += map(back.__getitem__, sorted(hidden, key=look.by_back.__getitem__))
        else:
            t = st.layout
            items += [back[c] for _, c in sorted([(back_key(t, c), c) for c in hidden])]
        return "[" + ",".join(items) + "]"
    if mode == _BLIND and not any(knows):  # (it sees only the cards it knows)
        return f'{{"count":{len(cards)}}}'
    return "[" + ",".join([face[c] if knows[i] else back[c] for i, c in enumerate(cards)]) + "]"


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
