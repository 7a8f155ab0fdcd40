"""`meeple report --cluster`: a real Dask LocalCluster of worker processes gives the figures one process gives."""

import json

import pytest

from interpreter.cli import main
from interpreter.lab.command import TIME_FIELDS

pytest.importorskip("dask.distributed")


def figures_text(capsys, *argv: str) -> str:
    assert main(["report", *argv, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for field in TIME_FIELDS:
        figures.pop(field)
    return json.dumps(figures)


def test_a_local_cluster_gives_byte_identical_figures_to_one_worker(capsys):
    one = figures_text(capsys, "low-tide", "-n", "40", "--seed", "2", "--workers", "1")
    cluster = figures_text(capsys, "low-tide", "-n", "40", "--seed", "2", "--cluster", "local:2")
    assert cluster == one


@pytest.mark.slow
def test_a_cluster_that_cannot_be_reached_is_one_clear_message(capsys):
    code = main(["report", "overloaded", "-n", "5", "--cluster", "tcp://127.0.0.1:1"])
    err = capsys.readouterr().err
    assert code == 1 and "cannot reach the cluster at tcp://127.0.0.1:1" in err and "Traceback" not in err


@pytest.mark.slow
def test_a_worker_killed_mid_run_is_retried_and_reported():
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
