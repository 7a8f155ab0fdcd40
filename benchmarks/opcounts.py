"""Counting the Python bytecodes a piece of work runs, for the benchmarks that count rather than time (a count
does not change with the machine's load, so two versions of the engine compare on a shared machine)."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from typing import Any


def counted(work: Callable[[], Any], where: Callable[[Any], str | None] = lambda code: None
            ) -> tuple[Counter, Counter, int]:
    """Run `work()` with every bytecode counted: the bytecodes and frames entered per `where(code)` (a code
    object whose `where` is None is counted in the total only), and the bytecodes in all."""
    ops: Counter = Counter()
    frames: Counter = Counter()
    total = 0
    own = getattr(work, "__code__", None)  # work's own frame (its loop over the calls counted) is left out

    def tracer(frame, event, arg):
        nonlocal total
        if event == "call":
            if frame.f_code is own:
                return None
            key = where(frame.f_code)
            if key is not None:
                frames[key] += 1
            frame.f_trace_opcodes, frame.f_trace_lines = True, False
        elif event == "opcode":
            total += 1
            key = where(frame.f_code)
            if key is not None:
                ops[key] += 1
        return tracer

    sys.settrace(tracer)
    try:
        work()
    finally:
        sys.settrace(None)
    return ops, frames, total
