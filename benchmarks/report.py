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
from interpreter.lab.backends import make_job, run
from interpreter.lab.command import DEFAULT_N
from interpreter.lab.figures import report_figures
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


def dask_overhead(n: int, workers: int) -> None:
    from dask import distributed

    from interpreter.lab.backends import batches
    from interpreter.lab.cluster import run_on_cluster

    game = load_game("overloaded")
    job = make_job(game, 4, ["random"] * 4, 0)
    local, processes = timed(lambda: run(job, range(n), workers))
    (cluster, client), start = timed(lambda: _local_cluster(distributed, workers))
    try:
        got: list = []
        _, warm = timed(lambda: run_on_cluster("", job, [[i] for i in range(workers)], got.extend, client))
        got.clear()
        tasks = batches(range(n), workers, cluster=True)
        _, work = timed(lambda: run_on_cluster("", job, tasks, got.extend, client))
    finally:
        client.close()
        cluster.close()
    assert sorted(got, key=lambda r: r["index"]) == local
    print(f"\nOverloaded, -n {n:,}, {workers} workers (seconds): local processes {processes:.2f}; Dask LocalCluster "
          f"{work:.2f} in {len(tasks)} tasks ({100 * (work / processes - 1):+.1f}%), after its start-up "
          f"{start:.2f} and the game compiled on each worker {warm:.2f}")


def _local_cluster(distributed, workers: int):
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=50)
    return cluster, distributed.Client(cluster)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=DEFAULT_N)
    parser.add_argument("--games", nargs="*", default=bundled_games())
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dask-n", type=int, default=10_000)
    args = parser.parse_args()
    per_game(args.games, args.n, args.workers)
    if args.dask_n:
        dask_overhead(args.dask_n, args.workers)


if __name__ == "__main__":
    main()
