"""The Dask distributed back-end: `--cluster tcp://HOST:8786` (a running scheduler) or `--cluster local:N` (a
`LocalCluster` of N worker processes started here and stopped at the end). Dask is an optional extra
(`pip install 'meeple[cluster]'`); without it `--cluster` says so."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .collect import Record
from .jobs import Job, play_batch

RETRIES = 2
"""Times a task is tried again on another worker when its worker dies (the scheduler also moves it on its own)."""


LOCAL_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "1s",
}
"""How a LocalCluster started here runs: without the statistical profiler (it samples each worker's stack every
10 ms for a dashboard nobody looks at here), and with its event-loop tick (20 ms by default) and system and memory
monitors looking less often. Idle, Dask's defaults cost each worker about 38 ms of CPU a second and the scheduler
and client here 50 ms; these about 5 and 11 (benchmarks/report.py), time taken from the matches on a busy
machine. A running cluster keeps its own settings (the same keys in its workers' Dask configuration, e.g.
`DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False`, do the same)."""


class ClusterError(Exception):
    """A cluster that cannot be reached or used; the message says why."""


def _dask() -> Any:
    try:
        from dask import distributed
    except ImportError:
        raise ClusterError("--cluster needs Dask distributed: pip install 'meeple[cluster]'") from None
    return distributed


def local_workers(address: str) -> int | None:
    """N of `local:N`; None for the address of a running scheduler."""
    if not address.startswith("local:"):
        return None
    count = address[len("local:"):]
    if not count.isdigit() or int(count) < 1:
        raise ClusterError(f"--cluster {address}: write local:N with N a whole number of at least 1")
    return int(count)


def run_on_cluster(address: str, job: Job, tasks: list[list[int]], done: Callable[[list[Record]], None],
                   client: Any = None) -> int:
    """Run every task on the cluster, handing each batch of records to `done` as it finishes (`client`: a
    `distributed.Client` already connected, kept open; else one is made for `address` and closed). Returns how
    many tasks were run again because a worker died under them."""
    if client is not None:
        return _submit(_dask(), client, job, tasks, done)
    with connected(address) as client:
        return _submit(_dask(), client, job, tasks, done)


@contextmanager
def connected(address: str) -> Iterator[Any]:
    """A `distributed.Client` of the cluster at `address` (`local:N`: a LocalCluster started here), closed at the
    end (the LocalCluster stopped)."""
    distributed = _dask()
    import dask

    workers = local_workers(address)
    cluster = None
    try:
        if workers is not None:
            with dask.config.set(LOCAL_CONFIG):  # the workers are made with it (their nannies pass it on)
                cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                   dashboard_address=None, silence_logs=50)
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError, RuntimeError) as err:
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"cannot reach the cluster at {address}: {err}") from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _submit(distributed: Any, client: Any, job: Job, tasks: list[list[int]],
            done: Callable[[list[Record]], None]) -> int:
    # The game's files travel once to each worker, not with every task: the job is a task's result of its own,
    # which the scheduler can make again if the workers holding it die (scattered data it could not).
    shared = client.submit(_same, job, pure=False)
    futures = [client.submit(play_batch, shared, task, pure=False, retries=RETRIES,
                             key=f"meeple-{job.key}-{task[0]}-{len(task)}")
               for task in tasks]
    try:
        for future in distributed.as_completed(futures):
            done(future.result())
    except BaseException:
        client.cancel(futures)
        raise
    try:  # the tasks are still held: the scheduler knows which of them a dying worker took down
        return int(client.run_on_scheduler(_rerun, keys=[f.key for f in futures]))
    except Exception:  # a scheduler of another version: the count is a courtesy, the records are complete
        return 0


def _same(job: Job) -> Job:
    return job


def _rerun(dask_scheduler: Any, keys: list[str]) -> int:
    """On the scheduler: tasks among `keys` that were running on a worker when it died (and so ran again)."""
    tasks = dask_scheduler.tasks
    count = 0
    for key in keys:
        if key in tasks and getattr(tasks[key], "suspicious", 0) > 0:
            count += 1
    return count
