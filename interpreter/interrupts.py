"""Ctrl-C on the command line: the first one stops the command, which stops its workers and reports what
finished, and the process ends with INTERRUPTED (`end_interrupted`); a second one ends the process at once,
wherever the first has got to, without a traceback."""

from __future__ import annotations

import _thread
import atexit
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, NoReturn

INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT, as shells report it)."""

REDELIVER_SECONDS = 0.01
"""How soon a Ctrl-C that a callback swallowed is delivered again (from outside that callback)."""


@contextmanager
def second_ctrl_c_exits(keep: bool = False) -> Iterator[None]:
    """Within the block (main thread only): Ctrl-C raises KeyboardInterrupt once, then ends the process.

    Python drops an exception raised in a garbage-collector callback or a `__del__` (it prints it as
    "Exception ignored in …"), and Hypothesis runs such a callback at every collection: a Ctrl-C landing
    there would be lost. Such a lost KeyboardInterrupt is delivered again, at once, from outside it; one that
    comes while that is being arranged (in the hook, where it would be lost too) is delivered again as well.
    `keep`: leave the handlers in place after the block (the process is about to end)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    seen: list[int] = []
    hook = sys.unraisablehook

    def handler(signum: int, frame: FrameType | None) -> None:
        if seen:
            os.write(2, b"\n")
            os._exit(INTERRUPTED)
        if _within(frame, unraisable.__code__):
            _deliver_again()
            return
        seen.append(signum)
        raise KeyboardInterrupt

    def unraisable(info: Any) -> None:
        if seen and issubclass(info.exc_type, KeyboardInterrupt):
            seen.clear()
            _deliver_again()
            return
        hook(info)

    before = signal.signal(signal.SIGINT, handler)
    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        if not keep:
            signal.signal(signal.SIGINT, before)
            sys.unraisablehook = hook


def _within(frame: FrameType | None, code: Any) -> bool:
    """Whether `frame` or any frame that called it runs `code`."""
    while frame is not None:
        if frame.f_code is code:
            return True
        frame = frame.f_back
    return False


def _deliver_again() -> None:
    """Ctrl-C again in REDELIVER_SECONDS, from another thread (as if pressed again, once)."""
    again = threading.Timer(REDELIVER_SECONDS, _thread.interrupt_main)
    again.daemon = True
    again.start()


def end_interrupted() -> NoReturn:
    """End the process with INTERRUPTED once a command has stopped for Ctrl-C: its exit handlers run and its
    output is flushed, then the process ends at once.

    Not a plain `sys.exit(INTERRUPTED)`: CPython marks a KeyboardInterrupt that passed out of code run by `exec` or
    `eval` of a string as never handled, even when the program caught it further up (dataclasses and Hypothesis
    make their functions that way), and under `python -m` it then ends the process by SIGINT after its clean-up,
    whatever status the program gave: a Ctrl-C landing there would end with -2 and not INTERRUPTED."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # (a closed or broken output: nothing more can be said there)
            stream.flush()
    os._exit(INTERRUPTED)
