"""Bytecodes run by a call, counted rather than timed (a figure a shared machine's load does not move)."""

from __future__ import annotations

import sys


class Counted:
    """Bytecodes run while tracing (`sys.settrace` with opcode events: every Python frame's)."""

    def __init__(self) -> None:
        self.n = 0

    def trace(self, frame, event, arg):
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        if event == "opcode":
            self.n += 1
        return self.trace

    def __call__(self, fn) -> int:
        self.n = 0
        sys.settrace(self.trace)
        try:
            fn()
        finally:
            sys.settrace(None)
        return self.n
