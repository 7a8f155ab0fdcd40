"""A job: what every match of a run shares (the game and its files, the seats, the seed), and the one function any
back-end calls to play a batch of its matches (`play_batch`). The back-ends (this process, worker processes, a
Dask cluster) all hand tasks to it."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ..game import Game, load_game
from .collect import QUIET_KINDS, Record, play


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


def job_game(job: Job) -> Game:
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
    game = job_game(job)
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
