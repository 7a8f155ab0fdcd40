"""Many matches through one interface, `run(job, indices)`: in this process, in local worker processes, or on a Dask
distributed cluster. Match i always has seed `root + i` and its bots' generators come from that seed, so the
records (kept in match order) are the same whatever the back-end or the number of workers."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..run.sim import stop_pool
from .cluster import run_on_cluster
from .collect import Record
from .jobs import Job, job_game, play_batch

BATCH = 50
"""Matches per task at most: small enough to balance workers and lose little on Ctrl-C, big enough that a task's
overhead (a few ms on a cluster) stays small beside its matches."""


CLUSTER_BATCH = 1000
"""Matches per task at most on a cluster, where a task costs more to send and to collect."""


def batches(indices: Sequence[int], workers: int, cluster: bool = False, heavy: bool = False) -> list[list[int]]:
    """The indices cut into tasks: about 20 per worker for an even spread (8 on a cluster), at most BATCH each
    (CLUSTER_BATCH on a cluster, at least BATCH there); one match a task when a match itself lasts seconds
    (`heavy`), so each comes back, is shown and is saved as soon as it ends."""
    if heavy:
        return [[i] for i in indices]
    if cluster:
        size = max(1, min(CLUSTER_BATCH, max(BATCH, len(indices) // (max(workers, 1) * 8))))
    else:
        size = max(1, min(BATCH, -(-len(indices) // (max(workers, 1) * 20))))
    return [list(indices[k:k + size]) for k in range(0, len(indices), size)]


class Stopped(Exception):
    """A run stopped before its end (Ctrl-C, a worker lost for good): `records` holds the matches that finished."""

    def __init__(self, why: str, records: list[Record], interrupted: bool) -> None:
        super().__init__(why)
        self.records = records
        self.interrupted = interrupted


Progress = Callable[[int, int], None]
Arrived = Callable[[list[Record]], None]


def run(job: Job, indices: Sequence[int], workers: int = 1, cluster: str | None = None,
        progress: Progress | None = None, arrived: Arrived | None = None, client: Any = None,
        told: Callable[[str], None] | None = None) -> list[Record]:
    """Play the matches `indices` of a job and return their records in index order (`arrived`: each finished
    batch as it comes, e.g. to write it to the raw results file; `progress(done, total)`; `client`: a Dask
    client already connected to `cluster`, to run several jobs on one cluster; `told`: what the user should know
    of a run that went wrong but finished, e.g. tasks run again after their worker died)."""
    here = cluster is None and workers <= 1  # no task to send: each match comes back (shows, is saved) as it ends
    tasks = batches(indices, workers if cluster is None else _cluster_width(cluster), cluster is not None,
                    job.heavy or here)
    got: list[Record] = []

    def done(records: list[Record]) -> None:
        got.extend(records)
        if arrived is not None:
            arrived(records)
        if progress is not None:
            progress(len(got), len(indices))

    try:
        if cluster is not None:
            again = run_on_cluster(cluster, job, tasks, done, client)
            if again and told is not None:
                told(f"{again} of {len(tasks)} tasks ran again on another worker: theirs died under them")
        elif workers <= 1:
            for task in tasks:
                done(play_batch(job, task))
        else:
            _run_processes(job, tasks, workers, done)
    except KeyboardInterrupt:
        raise Stopped("interrupted", _ordered(got), True) from None
    except BrokenProcessPool:
        raise Stopped("a worker process died (killed, or out of memory)", _ordered(got), False) from None
    return _ordered(got)


def _ordered(records: Iterable[Record]) -> list[Record]:
    return sorted(records, key=lambda r: r["index"])


def _cluster_width(cluster: str) -> int:
    return int(cluster.partition(":")[2]) if cluster.startswith("local:") and cluster[6:].isdigit() else 8


def _ignore_interrupt() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_processes(job: Job, tasks: list[list[int]], workers: int, done: Callable[[list[Record]], None]) -> None:
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    job_game(job)  # compiled once here: forked workers find it
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_interrupt)
    try:
        futures = [pool.submit(play_batch, job, task) for task in tasks]
        for future in as_completed(futures):
            done(future.result())
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown()
