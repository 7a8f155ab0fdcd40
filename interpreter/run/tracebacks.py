"""Tracebacks that show the rules' own lines, the way jinja2 shows a template's.

A game's rules run as a generated Python module (`<meeple game FOLDER>`); a traceback through it names
generated lines an author never wrote. Each frame of generated code is therefore preceded by a frame at the
YAML text that line was written for: a tiny code object compiled under the YAML file's name, its one statement
placed at the DSL line and column (`"\\n" * (line - 1) + "raise …"`), run once to get a real frame there, and
named after the routine. Python's traceback printing then shows that file, line and the DSL line itself (and
carets from the DSL column, when the place lies inside the line); the generated frame stays after it, so the
Python the line was written as can still be read.

The YAML file is named relative to the current folder when it lies below it (a game given relatively reads
relatively), else as it is; nothing of it is written into the generated code.
"""

from __future__ import annotations

import linecache
import os
from collections.abc import Callable
from functools import lru_cache
from types import CodeType, TracebackType

from ..diagnostics import Pos

# A generated module's filename → the DSL place of each of its lines (`Game.anchor_at`), or None for a file
# that is no game's generated module.
PlacesOf = Callable[[str], Callable[[int], Pos | None] | None]

_RAISED = "__meeple_raised__"  # the name a placed frame raises
_PLACED = "__meeple_rules_line__"  # a key of a placed frame's globals: marks it as placed
RULES_LINES = "__meeple_rules_lines__"
"""The name under which a generated module's globals keep its `anchor_at` (the DSL place of each of its lines), so
that a traceback through it finds them without knowing the game (a game that failed to load, a worker's)."""


class _Placed(Exception):
    """What a placed frame raises to be caught at once; it never leaves this module."""


def placed_file(file: str) -> str:
    """`file` as a traceback names it: relative to the current folder when it lies below it, else as it is."""
    try:
        relative = os.path.relpath(file)
    except (ValueError, OSError):  # another drive; no current folder
        return file
    return file if relative == os.pardir or relative.startswith(os.pardir + os.sep) else relative


@lru_cache(maxsize=512)
def _placed_code(file: str, line: int, offset: int, name: str) -> CodeType:
    """Code whose one statement (`raise`) starts at `line` of `file`, `offset` bytes into it, named `name`. A
    statement of two lines starts where it is put (an `if` block lets it start inside the line) and makes
    Python's traceback underline from its start to the line's end, or nothing when it starts the line."""
    if line < 2:
        offset = 0  # (no line before it to open a block on)
    lead = "\n" * (line - 2) + "if 1:\n" + " " * offset if offset else "\n" * (line - 1)
    code = compile(f"{lead}raise ({_RAISED}\n)", file, "exec", dont_inherit=True)
    return code.replace(co_name=name, co_qualname=name)


def _placed_frame(place: Pos, name: str, tb_next: TracebackType | None) -> TracebackType:
    """A traceback entry whose frame stands at `place` (named `name`), followed by `tb_next`."""
    file = placed_file(place.file)
    text = linecache.getline(file, place.line)
    offset = len(text[:place.col - 1].encode("utf-8")) if text else 0
    where: dict = {"__name__": file, _PLACED: True, _RAISED: _Placed()}
    raised = None
    try:
        exec(_placed_code(file, place.line, offset, name), where)
    except _Placed as stop:
        raised = stop.__traceback__
    del where[_RAISED]  # (the exception would hold its frame, and the frame it)
    assert raised is not None and raised.tb_next is not None  # (exec's own entry, then the placed frame)
    placed = raised.tb_next
    return TracebackType(tb_next, placed.tb_frame, placed.tb_lasti, placed.tb_lineno)


def _is_placed(tb: TracebackType) -> bool:
    return _PLACED in tb.tb_frame.f_globals


def with_rules_lines(tb: TracebackType | None, places_of: PlacesOf) -> TracebackType | None:
    """`tb` again (new entries: the given ones are left as they are), each frame of generated code preceded by
    a frame at the DSL text its line was written for (found by `places_of`, else by the module's own `RULES_LINES`).
    A frame already preceded by one (a traceback shown twice) and a generated line written for no DSL text (the
    module's own scaffolding) get none."""
    entries: list[TracebackType] = []
    while tb is not None:
        entries.append(tb)
        tb = tb.tb_next
    rebuilt: TracebackType | None = None
    for i in range(len(entries) - 1, -1, -1):
        entry = entries[i]
        rebuilt = TracebackType(rebuilt, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
        code = entry.tb_frame.f_code
        anchor_at = places_of(code.co_filename) or entry.tb_frame.f_globals.get(RULES_LINES)
        if anchor_at is None or (i > 0 and _is_placed(entries[i - 1])):
            continue
        place = anchor_at(entry.tb_lineno)
        if place is not None:
            rebuilt = _placed_frame(place, code.co_name, rebuilt)
    return rebuilt


def show_rules_lines(err: BaseException, places_of: PlacesOf = lambda name: None) -> None:
    """Give `err`, and each exception chained to it (its cause, its context, theirs…), the traceback with the
    rules' lines (`with_rules_lines`), in place: what prints or formats it then shows them."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [err]
    while todo:
        exc = todo.pop()
        if exc is None or id(exc) in seen:
            continue
        seen.add(id(exc))
        exc.__traceback__ = with_rules_lines(exc.__traceback__, places_of)
        todo += [exc.__cause__, exc.__context__]


def places_of_game(game) -> PlacesOf:
    """The `PlacesOf` of one game: its generated module's lines (a game without one: none)."""
    filename = getattr(game, "code_filename", None)
    anchor_at = getattr(game, "anchor_at", None)
    if filename is None or anchor_at is None:
        return lambda name: None
    return lambda name: anchor_at if name == filename else None
