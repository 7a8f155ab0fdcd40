"""Stage 7, what rendering a seat's lines reads: per layout, its pieces as a seat sees them (`_Look`: the backs, the
ranks, how each zone is shown, the counters' rules; worked out once, `_look`), a reader of one seat's lines
(`_Reader`), and the lines a seat was rendered so far (`Seen`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from .events import (  # the kinds of event (raw tuples, first item the tag: see run/events.py)
    KEPT_AT_MOST,
    number,
)
from .events import number as _int
from .events import text as _text
from .runtime import HIDDEN, K_CARD, OWNER, PUBLIC
from .sight import (
    back_key,
    back_of,
    card_place_label,
    card_ranks,
    counter_rules,
    option_label,
    order_known,
    ordered_for,
    prompt_text,
    value_label,
)

# ---- the pieces a seat's lines are written from -------------------------------------------------------
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


_HAND, _OPEN, _KNOWN, _BLIND = range(4)  # how a seat sees a zone (`_Look.modes`)
_LINES, _MARK = itemgetter(2), itemgetter(0, 1)  # a chunk's lines; where it starts, in raw events and in lines


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


def _grown(items: list, n: int, more: list) -> list:
    """`items[:n]` and then `more`: in place if nobody went further in `items`, else in a copy."""
    if len(items) != n:
        items = items[:n]
    items.extend(more)
    return items


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
