"""Stage 7, what each seat knows, rendered: a seat's information state (one canonical JSON line per
observation, then its view) and its view, each rendered once and then only for what is new.

The record is the `Watcher` (run/watcher.py); what a seat may see of a card, a zone, a counter or a
question is decided in run/sight.py; each kind of event's line is its `seen` in the catalogue
(run/events.py). This module keeps, per seat, the lines rendered so far (`Seen`, run/look.py) and the view's
zones as last written (run/view.py), so that a call after a decision pays for what changed; and, per layout and
seat, the line of each event rendered (by the event: a copy, a world drawn or another match that records the same
event finds its line written; the layout's pieces as a seat sees them, `_Look`, in run/look.py). It also names
everything the other modules read of what a seat knows, wherever it is kept.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from itertools import compress, repeat
from operator import attrgetter, call, is_, itemgetter
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
from .look import _LOOKS, _STR, Seen, _counters, _Look, _look, _Reader, _reader
from .runtime import HIDDEN
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
from .view import _view_json, shown_cards, view, view_json, zone_view
from .watcher import Watcher, interchangeable, relabel_frozen

__all__ = ["ASK", "DECIDE", "FLIP", "HIDDEN", "MOVE", "ROLL", "SAY", "SEATS", "SHOW", "SHUFFLE", "TABLE", "Seen",
           "Watcher", "back_key", "back_of", "card_index", "card_place_label", "card_ranks", "counter_rules",
           "cut_cache", "describe", "faces", "fork_cache", "glimpse_at", "hidden_label", "information_since",
           "information_state", "information_state_json", "interchangeable", "new_cache", "observation_count",
           "observed", "option_label", "order_known", "ordered_for", "prompt_text", "relabel_frozen", "render",
           "shown_cards", "value_label", "view", "view_json", "visible_counters", "zone_view"]


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


