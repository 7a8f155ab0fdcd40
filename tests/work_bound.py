"""Bounding a test's work, never its seconds: a block that has used some CPU is stopped and run again with its
function calls counted, and fails (Hang) only past a bound of them — the same count on a busy machine or a
fast one. Shared by the error corpus and the hostile-input tests."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


class Hang(BaseException):
    """Work made more function calls than its bound (a BaseException: no `except Exception` hides it)."""


class RunsLong(BaseException):
    """Work has used the CPU it may use uncounted: it is run again, counted."""


@contextmanager
def noticed_if_long(seconds: float) -> Iterator[None]:
    """Raise RunsLong in the block once this process has spent `seconds` of CPU in it (where the platform has
    interval timers). No verdict: work that runs long (as on a busy machine) is run again, counted."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def notice(signum, frame):
        raise RunsLong

    previous = signal.signal(signal.SIGPROF, notice)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def counted(work: Callable[[], T], bound: int) -> T:
    """`work()`, stopped with Hang at its `bound`th function call (Python's and C's, as the profiler counts)."""
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1
            if calls > bound:
                raise Hang(f"more than {bound:,} function calls: a hang")

    sys.setprofile(count)
    try:
        return work()
    finally:
        sys.setprofile(None)


def bounded(work: Callable[[], T], long_cpu_s: float, calls: int,
            before_again: Callable[[], object] = lambda: None) -> T:
    """`work()`, bounded by the work it does, never by seconds: work that has used `long_cpu_s` of CPU is run
    again (after `before_again()`) with its function calls counted, and fails (Hang) only past `calls` of them."""
    try:
        with noticed_if_long(long_cpu_s):
            return work()
    except RunsLong:
        before_again()
        return counted(work, calls)
