"""The lab on a real Dask LocalCluster of worker processes: `meeple report --cluster` gives the figures one process
gives; two jobs of one game and seed that differ only in their bots (two skill rungs) run on one cluster each get
their own matches, the same as in one process; its workers run without the statistical profiler."""

import json

import pytest

from interpreter.cli import main
from interpreter.lab import backends, jobs
from interpreter.lab.command import TIME_FIELDS
from interpreter.lab.skill import part, seating


@pytest.fixture(scope="module")
def cluster():
    """One LocalCluster of two worker processes for the module's tests, started and stopped by the lab's own
    `connected("local:2")` (what `--cluster local:2` does): a cluster costs seconds of CPU to start and stop.
    Dask is imported here, not when the tests are collected."""
    pytest.importorskip("dask.distributed")
    from interpreter.lab.cluster import connected

    with connected("local:2") as client:
        yield client


def figures_text(capsys, *argv: str) -> str:
    assert main(["report", *argv, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for field in TIME_FIELDS:
        figures.pop(field)
    return json.dumps(figures)


def test_a_local_cluster_gives_byte_identical_figures_to_one_worker(capsys, cluster):
    one = figures_text(capsys, "low-tide", "-n", "40", "--seed", "2", "--workers", "1")
    on_cluster = figures_text(capsys, "low-tide", "-n", "40", "--seed", "2", "--cluster", cluster.scheduler.address)
    assert on_cluster == one


def test_two_rungs_on_one_cluster_get_their_own_matches_and_no_profiler(cluster):
    import dask

    from interpreter import load_game

    game = load_game("tests/games/kuhn-poker")
    rungs = [jobs.make_job(game, 2, seating(a, b, 2), 0, True, part(a, b))
             for a, b in (("mc:1", "random"), ("mc:2", "mc:1"))]
    profiling = cluster.run(lambda: dask.config.get("distributed.worker.profile.enabled"))
    assert list(profiling.values()) == [False, False]
    remote = [backends.run(job, range(6), cluster="local:2", client=cluster) for job in rungs]  # its 2 workers
    assert remote == [backends.run(job, range(6)) for job in rungs]
    assert [r["bots"] for r in remote[1]][:2] == [["mc:2", "mc:1"], ["mc:1", "mc:2"]]


@pytest.mark.slow
def test_a_cluster_that_cannot_be_reached_is_one_clear_message(capsys):
    pytest.importorskip("dask.distributed")
    code = main(["report", "overloaded", "-n", "5", "--cluster", "tcp://127.0.0.1:1"])
    err = capsys.readouterr().err
    assert code == 1 and "cannot reach the cluster at tcp://127.0.0.1:1" in err and "Traceback" not in err


@pytest.mark.slow
def test_a_worker_killed_mid_run_is_retried_and_reported():
    pytest.importorskip("dask.distributed")
    import os
    import signal

    from interpreter import load_game
    from interpreter.lab.backends import run
    from interpreter.lab.cluster import connected
    from interpreter.lab.jobs import make_job

    job = make_job(load_game("hearts"), 4, ["random"] * 4, 0)
    told: list[str] = []
    with connected("local:2") as client:
        victims = list(client.run(os.getpid).values())

        def kill_one_worker(batch):  # as the first batch comes back, the other tasks are under way or waiting
            if victims:
                os.kill(victims.pop(), signal.SIGKILL)

        records = run(job, range(400), cluster="local:2", client=client, arrived=kill_one_worker, told=told.append)
    assert records == run(job, range(400), 1)
    assert len(told) == 1 and "ran again on another worker" in told[0]
