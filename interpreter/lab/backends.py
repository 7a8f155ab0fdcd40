"""Many matches through one interface, `run(job, indices)`: in this process, in local worker processes, or on a Dask
distributed cluster. Match i always has seed `root + i` and its bots' generators come from that seed, so the
records (kept in match order) are the same whatever the back-end or the number of workers."""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import os
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ..game import Game, load_game
from ..run.sim import stop_pool
from .collect import QUIET_KINDS, Record, play

BATCH = 50
"""Matches per task at most: small enough to balance workers and lose little on Ctrl-C, big enough that a task's
overhead (a few ms on a cluster) stays small beside its matches."""


@dataclass(frozen=True)
class Job:
    """What every match of a run shares: the game (its folder here, and its files for a worker elsewhere), the
    player count, the bot of each seat, the step limit and the root seed."""

    folder: str
    files: tuple[tuple[str, bytes], ...]
    players: int
    bots: tuple[str, ...]
    max_steps: int
    seed: int
    rotate: bool = False  # match i seats the bots shifted by i places (each bot in every seat equally often)
    part: str = ""  # which part of a report the matches are (a skill rung's name; "" for the main matches)

    def seating(self, i: int) -> tuple[str, ...]:
        """The bot of each seat in match i."""
        if not self.rotate:
            return self.bots
        k = i % len(self.bots)
        return self.bots[-k:] + self.bots[:-k] if k else self.bots

    @cached_property
    def digest(self) -> str:
        """A name for the game's files (a worker elsewhere keeps one copy of them per name)."""
        h = hashlib.sha256()
        for name, data in self.files:
            h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
        return h.hexdigest()[:20]

    @cached_property
    def key(self) -> str:
        """A name for the whole job (game files, players, bots, seating, step limit, seed, part): two jobs whose
        matches differ never share it (a cluster keeps results under it)."""
        what = repr((self.digest, self.players, self.bots, self.rotate, self.max_steps, self.seed, self.part))
        return hashlib.sha256(what.encode()).hexdigest()[:20]

    @property
    def heavy(self) -> bool:
        """Whether a match of this job costs seconds: a bot of it searches (anything but random and first)."""
        return any(b not in QUIET_KINDS for b in self.bots)


def game_files(folder: str | Path) -> tuple[tuple[str, bytes], ...]:
    """Every file of a game folder (its YAML, rules pages, scenarios), by path inside it."""
    root = Path(folder)
    return tuple((p.relative_to(root).as_posix(), p.read_bytes())
                 for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts)


def make_job(game: Game, players: int, bots: Sequence[str], seed: int, rotate: bool = False, part: str = "") -> Job:
    """The job of the matches of a loaded game (`rotate`, `part`: see `Job`)."""
    return Job(str(game.model.root), game_files(game.model.root), players, tuple(bots), game.max_steps, seed,
               rotate, part)


_GAMES: dict[str, Game] = {}


def _job_game(job: Job) -> Game:
    """The job's game in this process: from its folder when that folder holds the same files (this machine),
    else from a copy of its files written once per worker machine."""
    game = _GAMES.get(job.digest)
    if game is None:
        folder = Path(job.folder)
        if not (folder.is_dir() and game_files(folder) == job.files):
            folder = Path(tempfile.gettempdir()) / f"meeple-lab-{job.digest}"
            if not (folder / "game.yaml").is_file():
                staging = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
                for name, data in job.files:
                    if name.startswith("/") or ".." in Path(name).parts:
                        raise ValueError(f"a game file named outside its folder: {name}")
                    (staging / name).parent.mkdir(parents=True, exist_ok=True)
                    (staging / name).write_bytes(data)
                with contextlib.suppress(OSError):  # another worker of this machine wrote it first
                    os.replace(staging, folder)
                shutil.rmtree(staging, ignore_errors=True)  # (gone already when it was renamed)
        game = _GAMES[job.digest] = load_game(str(folder))
    return game.with_max_steps(job.max_steps)


def play_batch(job: Job, indices: Sequence[int]) -> list[Record]:
    """Play the matches of the given indices (seed `job.seed + i`); each record carries its index."""
    game = _job_game(job)
    out = []
    for i in indices:
        seating = job.seating(i)
        record = play(game, job.players, job.seed + i, seating)
        record["index"] = i
        if job.rotate:
            record["bots"] = list(seating)
        if job.part:
            record["part"] = job.part
        out.append(record)
    return out


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
            from .cluster import run_on_cluster

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
    _job_game(job)  # compiled once here: forked workers find it
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_interrupt)
    try:
        futures = [pool.submit(play_batch, job, task) for task in tasks]
        for future in as_completed(futures):
            done(future.result())
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown()
