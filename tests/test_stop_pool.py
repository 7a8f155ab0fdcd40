"""Stopping a pool of worker processes (Ctrl-C in `sim`, `duel`, the lab) prints no traceback: the executor's own
thread, which can fail while its workers are terminated under it (a race inside `concurrent.futures`), is waited
for with its failure kept quiet; another thread's failure still shows."""

import multiprocessing
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import process as futures_process

import pytest

from interpreter.run.sim import stop_pool

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="forks worker processes")


def busy_pool() -> tuple[ProcessPoolExecutor, threading.Thread]:
    """A pool of one worker, busy with a long chunk, and the executor's own thread."""
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    pool.submit(time.sleep, 60)
    pool.submit(time.sleep, 60)  # one more, waiting: cancelled
    manager = pool._executor_manager_thread
    for _ in range(500):  # the worker started (a bound on waiting, not a time limit of the test)
        if pool._processes:
            break
        time.sleep(0.01)
    assert manager is not None and pool._processes
    return pool, manager


def recorded(monkeypatch) -> list[str]:
    """The failures of threads, as the process's hook for them (`threading.excepthook`) is given them."""
    seen: list[str] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(f"{args.thread.name}: {args.exc_value!r}"))
    return seen


def test_the_executors_thread_failing_as_its_workers_are_stopped_is_kept_quiet(monkeypatch):
    def fails(self, cause):
        raise OSError("handle is closed")  # what the race gives in CPython 3.11 (issue 94440)

    monkeypatch.setattr(futures_process._ExecutorManagerThread, "terminate_broken", fails)
    seen = recorded(monkeypatch)
    hook = threading.excepthook
    pool, manager = busy_pool()
    stop_pool(pool)
    assert not manager.is_alive()  # waited for
    assert seen == [] and threading.excepthook is hook


def test_another_threads_failure_still_reaches_the_hook_after_a_pool_is_stopped(monkeypatch):
    seen = recorded(monkeypatch)
    pool, _ = busy_pool()
    stop_pool(pool)
    other = threading.Thread(target=lambda: 1 / 0, name="other")
    other.start()
    other.join()
    assert seen == ["other: ZeroDivisionError('division by zero')"]
