"""A rule failing at run time, put back at the DSL text it came from.

Compiled game code runs as Python; when it fails (a division by zero, a `while` reaching its cap, a
recursion too deep, `none` where a card or a player is needed), the innermost frame of the game's generated
module names a generated line, and the compiled game maps that line to the `file:line:col` of the DSL text it
was emitted for. The error then reads like an authoring error found during play, and the traceback the failure
keeps (its `__cause__`'s) shows the YAML line before each generated one (run/tracebacks.py).

Only what the rules themselves can cause is such a failure: a `RuleError` (the runtime's checks: limits,
`none` where a value is needed, a number past its bounds), arithmetic, and running out of recursion depth
or memory. Anything else escaping the rules (a `TypeError`, a `KeyError`…) is a fault of the engine — the
type checker and the runtime's checks leave content no way to cause it — and passes through as an internal
error, never dressed as the author's.
"""

from __future__ import annotations

import contextlib
import re
from types import TracebackType

from .runtime import RuleError
from .tracebacks import places_of_game, show_rules_lines

# What compiled rules can raise when they go wrong; anything else (an engine fault, a test harness's own
# exception, an engine assertion) passes through untouched.
RULE_FAILURES = (RuleError, ArithmeticError, RecursionError, MemoryError)
_PLACED = re.compile(r"^[^\s:][^:]*:\d+:\d+: ")


def where_in_rules(game, tb: TracebackType | None) -> str | None:
    """`file:line:col` of the innermost frame of `game`'s generated code in a traceback, if any."""
    filename = getattr(game, "code_filename", None)
    anchor_at = getattr(game, "anchor_at", None)
    if filename is None or anchor_at is None:
        return None
    found = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            found = tb.tb_lineno
        tb = tb.tb_next
    if found is None:
        return None
    anchor = anchor_at(found)
    return None if anchor is None else str(anchor)


def _what(err: BaseException) -> str:
    if isinstance(err, RuleError):
        return str(err)
    if isinstance(err, RecursionError):
        return "the rules call themselves too deeply (a procedure that never stops calling itself?)"
    if isinstance(err, ZeroDivisionError):
        return "division by zero"
    if isinstance(err, MemoryError):
        return "the rules ran out of memory"
    return f"{type(err).__name__}: {err}"


def rule_error(game, err: BaseException, seed: int, decisions: int) -> RuleError:
    """The RuleError to raise for `err` escaping the rules of `game`: its message starts with the DSL
    text's `file:line:col` (when known), then says what failed, the match's seed and decision count. `err`'s
    traceback is given the rules' lines (`show_rules_lines`)."""
    what = _what(err)
    if not _PLACED.match(what):
        place = where_in_rules(game, err.__traceback__)
        if place is not None:
            what = f"{place}: {what}"
    with contextlib.suppress(MemoryError, RecursionError):  # (out of either, the failure goes on without them)
        show_rules_lines(err, places_of_game(game))
    made = "decision" if decisions == 1 else "decisions"
    return RuleError(f"{what} (seed {seed}, after {decisions} {made})", seed, decisions)
