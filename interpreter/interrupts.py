"""Ctrl-C on the command line: the first one stops the command, which stops its workers and reports what
finished; a second one ends the process at once, wherever the first has got to, without a traceback."""

from __future__ import annotations

import _thread
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT, as shells report it)."""

REDELIVER_SECONDS = 0.01
"""How soon a Ctrl-C that a callback swallowed is delivered again (from outside that callback)."""


@contextmanager
def second_ctrl_c_exits(keep: bool = False) -> Iterator[None]:
    """Within the block (main thread only): Ctrl-C raises KeyboardInterrupt once, then ends the process.

    Python drops an exception raised in a garbage-collector callback or a `__del__` (it prints it as
    "Exception ignored in …"), and Hypothesis runs such a callback at every collection: a Ctrl-C landing
    there would be lost. Such a lost KeyboardInterrupt is delivered again, at once, from outside it.
    `keep`: leave the handlers in place after the block (the process is about to end)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    seen: list[int] = []
    hook = sys.unraisablehook

    def handler(signum: int, frame: Any) -> None:
        if seen:
            os.write(2, b"\n")
            os._exit(INTERRUPTED)
        seen.append(signum)
        raise KeyboardInterrupt

    def unraisable(info: Any) -> None:
        if seen and issubclass(info.exc_type, KeyboardInterrupt):
            seen.clear()
            again = threading.Timer(REDELIVER_SECONDS, _thread.interrupt_main)
            again.daemon = True
            again.start()
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
