"""Speed of the balance lab, printed (not a timed test).

    python benchmarks/report.py [-n N] [--games NAME ...] [--dask-n N] [--workers W]

Per bundled game at its default player count: the time to play -n matches with random bots (one process, and W
worker processes), to work out the figures, and to draw the HTML page. Then the Dask path against local worker
processes for the same matches (--dask-n, Overloaded): the cluster's start-up apart from its run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from interpreter.game import load_game
from interpreter.lab.backends import run
from interpreter.lab.command import DEFAULT_N
from interpreter.lab.figures import report_figures
from interpreter.lab.jobs import make_job
from interpreter.lab.page import html_page
from interpreter.load.loader import bundled_games


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def per_game(names: list[str], n: int, workers: int) -> None:
    print(f"report at -n {n:,}, random bots, default player count (seconds)")
    print(f"{'game':<14}{'P':>3}{'play 1':>9}{'play ' + str(workers):>9}{'figures':>9}{'html':>8}"
          f"{'total 1':>9}{'matches/s':>11}")
    for name in names:
        _game_row(name, n, workers)


def _game_row(name: str, n: int, workers: int) -> None:
    game = load_game(name)
    players = game.default_players
    job = make_job(game, players, ["random"] * players, 0)
    records, one = timed(lambda: run(job, range(n), 1))
    again, many = timed(lambda: run(job, range(n), workers))
    assert again == records
    figures, work = timed(lambda: report_figures(game, records, players, job.bots, 0))
    figures.update(seconds=one, games_per_s=n / one)
    _, page = timed(lambda: html_page(figures))
    print(f"{name:<14}{players:>3}{one:>9.2f}{many:>9.2f}{work:>9.2f}{page:>8.2f}{one + work + page:>9.2f}"
          f"{n / one:>11,.0f}")


def _timed_batch(job, task):
    """A task that also says the CPU time its matches took (the work itself, apart from what carries it)."""
    from interpreter.lab.jobs import play_batch

    start = time.thread_time()
    records = play_batch(job, task)
    return records, time.thread_time() - start


def _same(job):
    return job


def _local_processes(job, tasks, workers):
    """The local pool's way (as `backends.run`): (records, wall seconds, CPU of the matches, CPU of the workers,
    CPU of this process)."""
    import multiprocessing
    import resource
    from concurrent.futures import ProcessPoolExecutor

    before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = time.process_time()
    start = time.perf_counter()
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
    got, play = [], 0.0
    for records, cpu in pool.map(_timed_batch, [job] * len(tasks), tasks):
        got += records
        play += cpu
    pool.shutdown()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = (after.ru_utime + after.ru_stime) - (before_children.ru_utime + before_children.ru_stime)
    return got, wall, play, children, time.process_time() - own


def _dask_run(client, distributed, job, tasks):
    """The same on a Dask cluster (as `cluster.run_on_cluster`: the job once, tasks as they finish)."""
    before = sum(client.run(time.process_time).values())
    own = time.process_time()
    start = time.perf_counter()
    shared = client.submit(_same, job, pure=False)
    futures = [client.submit(_timed_batch, shared, task, pure=False) for task in tasks]
    got, play = [], 0.0
    for future in distributed.as_completed(futures):
        records, cpu = future.result()
        got += records
        play += cpu
    wall = time.perf_counter() - start
    workers = sum(client.run(time.process_time).values()) - before
    return got, wall, play, workers, time.process_time() - own


def dask_overhead(n: int, workers: int, rounds: int) -> None:
    """The Dask path against local processes for the same matches: wall time, and where the CPU time goes (the
    matches themselves; the rest of the workers' time: serialising records, the worker's event loop and
    profiler; this process: the scheduler and client of a LocalCluster, or the pool's parent). Local processes
    run first, with no Dask in this process (its scheduler's threads would be counted against them)."""
    import pickle

    import dask
    from dask import distributed

    from interpreter.lab.backends import batches
    from interpreter.lab.cluster import LOCAL_CONFIG

    game = load_game("overloaded")
    job = make_job(game, 4, ["random"] * 4, 0)
    sample = run(job, range(200))
    _, dumps = timed(lambda: [pickle.dumps(r) for r in sample])
    print(f"\nOverloaded, -n {n:,}, {workers} workers. A record: {len(pickle.dumps(sample)) / len(sample):.0f} bytes "
          f"pickled ({1e6 * dumps / len(sample):.0f} µs to pickle); the job (the game's files) "
          f"{len(pickle.dumps(job)):,} bytes, sent once to each worker")
    print(f"{'':<40}{'wall s':>8}{'matches':>9}{'workers':>9}{'parent':>8}   CPU seconds; overhead = all CPU "
          "over the matches' CPU")
    local_tasks = batches(range(n), workers)
    local_runs = [_local_processes(job, local_tasks, workers) for _ in range(rounds)]
    for local in local_runs:
        _overhead_row(f"local processes, {len(local_tasks)} tasks", local)
    reference = local_runs[0][0]
    wall = min(r[1] for r in local_runs)
    cpu = min(r[3] + r[4] for r in local_runs)
    for settings, config in (("Dask defaults", {}), ("meeple's", LOCAL_CONFIG)):
        with dask.config.set(config):
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                               dashboard_address=None, silence_logs=50)
        client = distributed.Client(cluster)
        try:
            _dask_run(client, distributed, job, [[i] for i in range(workers)])  # the game compiled on each worker
            idle_workers, idle_here = _idle(client, 5.0)
            print(f"{settings}: idle, each worker takes {1e3 * idle_workers / workers:.1f} ms of CPU a second, the "
                  f"scheduler and client {1e3 * idle_here:.1f} ms")
            per_task = _dask_run(client, distributed, job, [[i] for i in range(400)])
            _overhead_row("Dask, 400 tasks of 1 match", per_task)
            print(f"{'':<40}each task costs {1e3 * (per_task[3] + per_task[4] - per_task[2]) / 400:.1f} ms of CPU "
                  "besides its match (idle time included)")
            for per_worker in (8, 4):
                tasks = _cluster_tasks(n, workers, per_worker)
                for _ in range(rounds):
                    remote = _dask_run(client, distributed, job, tasks)
                    assert sorted(remote[0], key=lambda r: r["index"]) == reference
                    _overhead_row(f"Dask, {len(tasks)} tasks", remote, (wall, cpu))
        finally:
            client.close()
            cluster.close()


def _idle(client, seconds):
    """CPU seconds a second the workers (together) and this process take while no task runs."""
    workers, here, start = sum(client.run(time.process_time).values()), time.process_time(), time.perf_counter()
    time.sleep(seconds)
    spent = time.perf_counter() - start
    return ((sum(client.run(time.process_time).values()) - workers) / spent, (time.process_time() - here) / spent)


def _cluster_tasks(n, workers, per_worker):
    size = max(1, -(-n // (workers * per_worker)))
    return [list(range(k, min(n, k + size))) for k in range(0, n, size)]


def _overhead_row(name, measured, against=None):
    _, wall, play, workers, parent = measured
    extra = ""
    if against:  # the best local run's wall time and CPU
        extra = (f"  against local: wall {100 * (wall / against[0] - 1):+.0f}%, "
                 f"CPU {100 * ((workers + parent) / against[1] - 1):+.0f}%")
    print(f"{name:<40}{wall:>8.2f}{play:>9.2f}{workers:>9.2f}{parent:>8.2f}   overhead "
          f"{100 * ((workers + parent) / play - 1):+.1f}%{extra}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=DEFAULT_N)
    parser.add_argument("--games", nargs="*", default=bundled_games())
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dask-n", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of local processes against Dask")
    args = parser.parse_args()
    if args.games:
        per_game(args.games, args.n, args.workers)
    if args.dask_n:
        dask_overhead(args.dask_n, args.workers, args.rounds)


if __name__ == "__main__":
    main()
