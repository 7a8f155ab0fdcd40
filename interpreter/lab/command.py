"""`meeple report` and `meeple compare` as library calls: `report(Report(game=…, n=…))`, `compare(Compare(…))`
play the matches and print or write the figures. The command line (`interpreter/cli/balance.py`) parses the
arguments into those values; a failure the user can fix is a `LabError` (one message, exit 1), which it prints as
its own.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..limits import MAX_STEPS

if TYPE_CHECKING:
    from ..game import Game
    from .collect import Record
    from .jobs import Job

DEFAULT_N = 1000
DEFAULT_SKILL_N = 100
"""Matches of each skill rung unless `--skill-n` says otherwise (a search bot's match lasts seconds)."""
TIME_FIELDS = ("seconds", "games_per_s")
"""The only fields of `--json` that may differ between two runs of the same seed (whatever the workers)."""


class LabError(Exception):
    """A failure the user can fix: printed as one message, exit status 1."""


@dataclass(frozen=True, kw_only=True)
class Run:
    """What a run of matches is, for `report` and `compare` (the command line's options of the same names)."""

    n: int = DEFAULT_N  # matches (seeds seed, seed+1, …)
    players: int | None = None  # None: the game's default
    bots: str | None = None  # the bot of every seat, or one per seat, comma-separated (None: random)
    seed: int = 0
    json: bool = False  # print the figures as one JSON object, else a page of text in `lang`
    lang: str = "en"
    workers: int = 1  # local processes
    cluster: str | None = None  # a Dask cluster's address, or local:N
    max_steps: int = MAX_STEPS


@dataclass(frozen=True, kw_only=True)
class Report(Run):
    """`meeple report GAME`: the run, and what else is measured and written."""

    game: str
    output: str | None = None  # the HTML page to write
    csv: str | None = None  # the folder to write each table into
    rotate: bool = False  # the bots shifted one seat each match
    width: float = 0.04  # the interval width a rate should reach (for the matches each figure needs)
    skill: str | None = None  # KIND:N, the skill ladder's first rung
    skill_n: int = DEFAULT_SKILL_N
    raw: str | None = None  # the raw results file to keep up to date
    resume: str | None = None  # the raw results file to start from


@dataclass(frozen=True, kw_only=True)
class Compare(Run):
    """`meeple compare GAME_A [GAME_B]`: the run, on two versions of a game."""

    game_a: str
    game_b: str | None = None  # None: GAME_A changed by `sets`
    sets: Sequence[str] = ()  # NAME=VALUE changes of GAME_B


# ---- running --------------------------------------------------------------------------------------------


def _load(name: str, max_steps: int) -> Game:
    from ..diagnostics import AuthoringError
    from ..game import load_game
    from ..load.loader import find_game

    try:
        find_game(name)
    except AuthoringError as err:
        d = err.diagnostics[0]
        raise LabError(d.message + (f"; {d.hint}" if d.hint else "")) from None
    return load_game(name).with_max_steps(max_steps)


def _setting(game: Game, options: Run) -> tuple[int, list[str]]:
    from .collect import BotError, check_bots, seat_bots

    players = game.default_players if options.players is None else options.players
    try:
        game.check_players(players)
        bots = seat_bots(options.bots, players)
        check_bots(bots)
    except (ValueError, BotError) as err:
        raise LabError(str(err)) from None
    return players, bots


class _Bars:
    """Progress bars with the time left on stderr (rich), one per part of a run, only when stderr is a terminal;
    nothing at all when it is piped."""

    def __init__(self) -> None:
        self.progress: Any = None

    def __enter__(self) -> _Bars:
        if sys.stderr.isatty():
            from rich import progress as bar
            from rich.console import Console

            self.progress = bar.Progress(bar.TextColumn("{task.description}"), bar.BarColumn(),
                                         bar.MofNCompleteColumn(), bar.TaskProgressColumn(), bar.TimeElapsedColumn(),
                                         bar.TextColumn("left"), bar.TimeRemainingColumn(),
                                         console=Console(file=sys.stderr, force_terminal=True), transient=True)
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def part(self, label: str, total: int, done: int) -> Callable[[int, int], None] | None:
        """A bar for `total` matches of which `done` were played before; its callback takes the matches played
        since."""
        progress = self.progress
        if progress is None:
            return None
        task = progress.add_task(label, total=total, completed=done)
        return lambda played, _todo: progress.update(task, completed=done + played)


def _tell(message: str) -> None:
    """A note to the user on stderr (stdout holds the figures)."""
    print(f"meeple: {message}", file=sys.stderr)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


CHECKPOINT_SECONDS = 10.0
"""While a run goes on, its raw results file is written again (whole) at least this often when a match has
finished since."""
CHECKPOINT_POLL = 1.0
"""How often (seconds) the checkpoint's thread looks whether the raw results file is due."""


class _Checkpoint:
    """Keeps the raw results file up to date as matches finish: written again, whole, as soon as CHECKPOINT_SECONDS
    have passed since the last write and a record has come since (a thread looks every second, so a run that is
    killed outright loses at most the last 10 s of matches), and at the end. It holds the records of every part of
    the run (the main matches, each skill rung) and those of the file it was started from."""

    def __init__(self, path: str | None, job: Job, kept: list[Record]) -> None:
        self.path, self.job, self.records = path, job, list(kept)
        self.last = time.monotonic()
        self.dirty = False
        self.lock = threading.Lock()  # guards records and dirty
        self.writing = threading.Lock()  # one write at a time
        self.done = threading.Event()
        self.thread: threading.Thread | None = None

    def __enter__(self) -> _Checkpoint:
        if self.path:
            self.thread = threading.Thread(target=self._watch, name="meeple-checkpoint", daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        if self.thread is not None:
            self.thread.join()
        if self.dirty:
            self.write()

    def _watch(self) -> None:
        while not self.done.wait(CHECKPOINT_POLL):
            if self.dirty and time.monotonic() - self.last >= CHECKPOINT_SECONDS:
                self.write()

    def of(self, part: str) -> list[Record]:
        """The records of one part of the run."""
        with self.lock:
            return [r for r in self.records if r.get("part", "") == part]

    def __call__(self, batch: list[Record]) -> None:
        with self.lock:
            self.records.extend(batch)
            self.dirty = True
        if self.path and time.monotonic() - self.last >= CHECKPOINT_SECONDS:
            self.write()

    def write(self) -> None:
        if not self.path:
            return
        with self.writing:
            with self.lock:
                records = sorted(self.records, key=lambda r: (r.get("part", ""), r["index"]))
                self.dirty = False
            _write_raw(self.path, self.job, records)
            self.last = time.monotonic()


def _play(job: Job, n: int, options: Run, checkpoint: _Checkpoint, bars: _Bars | None = None,
          client: Any = None, label: str = "matches") -> tuple[list[Record], str]:
    """The records of matches 0..n-1 of a job (those the checkpoint holds for its part not played again) and, if
    stopped early, why (`client`: see `backends.run`; `label`: the progress bar's)."""
    from .backends import Stopped, run
    from .cluster import ClusterError, local_workers

    have = {r["index"]: r for r in checkpoint.of(job.part) if r["index"] < n}
    todo = [i for i in range(n) if i not in have]
    workers = min(options.workers, max(1, len(todo)), _cores())
    progress = bars.part(label, n, len(have)) if bars is not None else None
    try:
        if options.cluster is not None:
            local_workers(options.cluster)
        records = run(job, todo, workers, options.cluster, progress, checkpoint, client, _tell) if todo else []
        why = ""
    except Stopped as stop:
        if not stop.interrupted:
            checkpoint.write()
            raw = checkpoint.path
            kept_in = f"; they are in {raw} (--resume {raw} goes on from them)" if raw else ""
            raise LabError(f"{stop}; {len(stop.records)} of {len(todo)} matches finished{kept_in}") from None
        records, why = stop.records, str(stop)
    except ClusterError as err:
        raise LabError(str(err)) from None
    both = sorted([*have.values(), *records], key=lambda r: r["index"])
    return both, why


def report(options: Report) -> int:
    """`meeple report`: play, work out the figures, print or write them; 0 (LabError for what the user can fix,
    KeyboardInterrupt once the figures of a run stopped early are out)."""
    from ..files import check_targets
    from .figures import report_figures
    from .jobs import make_job

    game = _load(options.game, options.max_steps)
    players, bots = _setting(game, options)
    rungs = _rungs(options.skill)
    targets = [(o, p) for o, p in (("-o", options.output), ("--raw", options.raw or options.resume)) if p]
    check_targets(targets, keep=[p for _, p in _game_files(game)])
    if options.csv:
        _check_folder(options.csv)
    job = make_job(game, players, bots, options.seed, options.rotate)
    kept = _read_raw(options.resume, job) if options.resume else []
    started = time.perf_counter()
    with _Checkpoint(options.raw or options.resume, job, kept) as checkpoint, _Bars() as bars, \
            _cluster(options.cluster) as client:
        records, stopped = _play(job, options.n, options, checkpoint, bars, client)
        main_seconds = time.perf_counter() - started
        skill_parts = _play_skill(game, players, rungs, options, checkpoint, bars, client) if not stopped else []
    elapsed = time.perf_counter() - started
    if not records:
        raise KeyboardInterrupt("interrupted; no match finished")
    if stopped:
        stopped = f"{stopped}: {len(records)} of {options.n} matches finished"
    for a, b, rung, why in skill_parts:
        if why:
            stopped = f"{why} in the skill rung {a} vs {b}: {len(rung)} of its {options.skill_n} matches finished"
    figures = report_figures(game, records, players, bots, options.seed, options.width)
    figures["skill_ladder"] = _skill_section(options.skill, skill_parts, players, game.lowest_wins, options.width)
    played = sum(1 for r in checkpoint.records[len(kept):] if r.get("part", "") == "")
    figures["seconds"] = elapsed
    figures["games_per_s"] = played / main_seconds if main_seconds > 0 else 0.0  # the report's own matches
    if stopped:
        figures["stopped"] = stopped
    _emit(game, figures, options)
    if stopped:
        raise KeyboardInterrupt(figures["stopped"])
    return 0


def _rungs(base: str | None) -> list[tuple[str, str]]:
    """`--skill KIND:N`'s rungs, each (A, B); none without it."""
    if base is None:
        return []
    from .collect import BotError, check_bots
    from .skill import ladder

    try:
        rungs = ladder(base)
        check_bots([name for rung in rungs for name in rung])
    except BotError as err:
        raise LabError(str(err)) from None
    return rungs


def _play_skill(game: Game, players: int, rungs: list[tuple[str, str]], options: Report,
                checkpoint: _Checkpoint, bars: _Bars, client: Any) -> list[tuple[str, str, list[Record], str]]:
    """Each skill rung's matches (the same seeds as the main matches, A seated one place further each match), until
    one is stopped: (A, B, records, why it stopped or "")."""
    from .jobs import make_job
    from .skill import part, seating

    out = []
    for a, b in rungs:
        job = make_job(game, players, seating(a, b, players), options.seed, True, part(a, b))
        records, why = _play(job, options.skill_n, options, checkpoint, bars, client, f"skill: {part(a, b)}")
        out.append((a, b, records, why))
        if why:
            break
    return out


def _skill_section(base: str | None, parts: list[tuple[str, str, list[Record], str]], players: int,
                   lowest_wins: bool, width: float) -> dict[str, Any] | None:
    if base is None:
        return None
    from .skill import skill_figures

    return skill_figures(base, [(a, b, records) for a, b, records, _ in parts], players, lowest_wins, width)


def _emit(game: Game, figures: dict[str, Any], options: Report) -> None:
    from ..files import write_whole

    if options.output:
        from .page import html_page

        write_whole(options.output, html_page(figures).encode("utf-8"))
    if options.csv:
        from .tables import write_csv

        write_csv(options.csv, figures)
    if options.json:
        print(json.dumps(figures, allow_nan=False))
    else:
        from ..i18n import Words
        from .tables import summary_text

        w = Words(options.lang)
        print(summary_text(figures, w))
        for what, where in (("report.html", options.output), ("report.csv", options.csv)):
            if where:
                print(w(what, path=where))


def _game_files(game: Game) -> list[tuple[str, Path]]:
    root = Path(game.model.root)
    return [(p.name, p) for p in root.rglob("*.y*ml")]


def _check_folder(path: str) -> None:
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise LabError(f"--csv {path}: not a folder")
    if not folder.exists():
        try:
            folder.mkdir(parents=True)
        except OSError as err:
            raise LabError(f"--csv {path}: {err.strerror or err}") from None


RAW_KIND = "meeple-report-raw"


def _header(job: Job) -> dict[str, Any]:
    return {"type": RAW_KIND, "game": job.digest, "players": job.players, "bots": list(job.bots), "seed": job.seed,
            "max_steps": job.max_steps, "rotate": job.rotate}


def _write_raw(path: str, job: Job, records: list[Record]) -> None:
    from ..files import write_whole

    lines = [json.dumps(_header(job))] + [json.dumps(r) for r in records]
    write_whole(path, ("\n".join(lines) + "\n").encode("utf-8"))


def _read_raw(path: str, job: Job) -> list[Record]:
    """The records of a raw results file written by a run of the same job; LabError if it is of another."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeError) as err:
        raise LabError(f"--resume {path}: {getattr(err, 'strerror', None) or err}") from None
    lines = [line for line in text.split("\n") if line.strip()]
    try:
        header = json.loads(lines[0]) if lines else None
        records = [json.loads(line) for line in lines[1:]]
    except json.JSONDecodeError as err:
        raise LabError(f"--resume {path}: line {err.lineno}: not JSON ({err.msg})") from None
    if not isinstance(header, dict) or header.get("type") != RAW_KIND:
        raise LabError(f"--resume {path}: not a raw results file of `meeple report --raw`")
    if header != _header(job):
        differ = [k for k, v in _header(job).items() if header.get(k) != v]
        raise LabError(f"--resume {path}: its matches are of another run ({', '.join(differ)} differ"
                       f"{': the game files changed' if 'game' in differ else ''})")
    if not all(isinstance(r, dict) and isinstance(r.get("index"), int) for r in records):
        raise LabError(f"--resume {path}: a record without its match index")
    return records


@contextlib.contextmanager
def _cluster(address: str | None) -> Iterator[Any]:
    """A client of the cluster `--cluster` names, for several runs (None without --cluster)."""
    if address is None:
        yield None
        return
    from .cluster import ClusterError, connected, local_workers

    try:
        local_workers(address)
        with connected(address) as client:
            yield client
    except ClusterError as err:
        raise LabError(str(err)) from None


# ---- compare --------------------------------------------------------------------------------------------


def compare(options: Compare) -> int:
    """`meeple compare`: the same seeds and bots on two versions of a game; paired differences (0, or as `report`)."""
    from ..i18n import Words
    from .jobs import make_job
    from .pairs import compare_figures
    from .tables import compare_text

    if options.game_b is None and not options.sets:
        raise LabError("give GAME_B, or --set NAME=VALUE to change GAME_A")
    game_a = _load(options.game_a, options.max_steps)
    name_b = options.game_b or options.game_a
    label_b = name_b
    if options.sets:
        from .overrides import OverrideError, describe, overridden, parse_sets

        try:
            sets = parse_sets(list(options.sets))
            _load(name_b, options.max_steps)  # its own errors first, as they are
            folder_b = str(overridden(name_b, sets))
        except OverrideError as err:
            raise LabError(str(err)) from None
        label_b = f"{name_b} with {describe(sets)}"
        game_b = _load(folder_b, options.max_steps)
    else:
        game_b = _load(name_b, options.max_steps)
    players, bots = _setting(game_a, options)
    try:
        game_b.check_players(players)
    except ValueError as err:
        raise LabError(str(err)) from None
    started = time.perf_counter()
    job_a, job_b = make_job(game_a, players, bots, options.seed), make_job(game_b, players, bots, options.seed)
    with _Bars() as bars, _cluster(options.cluster) as client:  # one cluster for both versions
        records_a, stopped_a = _play(job_a, options.n, options, _Checkpoint(None, job_a, []), bars, client, "A")
        records_b, stopped_b = ([], stopped_a) if stopped_a else \
            _play(job_b, options.n, options, _Checkpoint(None, job_b, []), bars, client, "B")
    paired_indices = {r["index"] for r in records_a} & {r["index"] for r in records_b}
    records_a = [r for r in records_a if r["index"] in paired_indices]
    records_b = [r for r in records_b if r["index"] in paired_indices]
    if not records_a:
        raise KeyboardInterrupt("interrupted; no pair of matches finished")
    figures = compare_figures(game_a, game_b, records_a, records_b, players, bots, options.seed)
    figures["a"], figures["b"] = options.game_a, label_b
    elapsed = time.perf_counter() - started
    figures["seconds"] = elapsed
    figures["games_per_s"] = 2 * len(records_a) / elapsed if elapsed > 0 else 0.0
    print(json.dumps(figures, allow_nan=False) if options.json else compare_text(figures, Words(options.lang)))
    if stopped_a or stopped_b:
        raise KeyboardInterrupt(f"{stopped_a or stopped_b}: {len(records_a)} of {options.n} pairs finished")
    return 0
