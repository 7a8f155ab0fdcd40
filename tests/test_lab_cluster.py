"""The lab on a real Dask LocalCluster: two jobs of one game and seed that differ only in their bots (two skill
rungs) run on one cluster each get their own matches, the same as in one process; its workers run without the
statistical profiler."""

import pytest

from interpreter.lab import backends, jobs
from interpreter.lab.skill import part, seating

pytest.importorskip("dask.distributed")


def test_two_rungs_on_one_cluster_get_their_own_matches_and_no_profiler():
    import dask

    from interpreter import load_game
    from interpreter.lab.cluster import connected

    game = load_game("tests/games/kuhn-poker")
    rungs = [jobs.make_job(game, 2, seating(a, b, 2), 0, True, part(a, b))
            for a, b in (("mc:1", "random"), ("mc:2", "mc:1"))]
    with connected("local:1") as client:
        assert list(client.run(lambda: dask.config.get("distributed.worker.profile.enabled")).values()) == [False]
        remote = [backends.run(job, range(6), cluster="local:1", client=client) for job in rungs]
    assert remote == [backends.run(job, range(6)) for job in rungs]
    assert [r["bots"] for r in remote[1]][:2] == [["mc:2", "mc:1"], ["mc:1", "mc:2"]]
