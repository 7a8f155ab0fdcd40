"""`meeple report` and `meeple compare`: their arguments, read into the values `interpreter/lab/command.py`'s
`report` and `compare` take."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING, TypeVar

from .common import CliError, Subcommands, _count, _limit_args, _seed, add_lang

if TYPE_CHECKING:
    from ..lab.command import Run

R = TypeVar("R", bound="Run")


def cmd_report(args: argparse.Namespace) -> int:
    """The balance report of a game (interpreter/lab/command.py)."""
    from ..lab.command import Report, report

    return _lab(lambda: report(_values(Report, args)))


def cmd_compare(args: argparse.Namespace) -> int:
    """A paired comparison of two versions of a game (interpreter/lab/command.py)."""
    from ..lab.command import Compare, compare

    return _lab(lambda: compare(_values(Compare, args)))


def _values(kind: type[R], args: argparse.Namespace) -> R:
    """The options of the command line as the lab's values (each option is named as the field it fills)."""
    return kind(**{f.name: getattr(args, f.name) for f in fields(kind)})


def _lab(command: Callable[[], int]) -> int:
    from ..files import OutputError
    from ..lab.command import LabError

    try:
        return command()
    except (LabError, OutputError) as err:
        raise CliError(str(err)) from None


def _width(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number between 0 and 1, not {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be a number between 0 and 1, not {text!r}")
    return value


def add_parsers(sub: Subcommands) -> None:
    """report, compare."""
    if not (sub.wants("report") or sub.wants("compare")):
        return
    from ..lab.command import DEFAULT_SKILL_N

    p = sub.add_parser("report", help="the balance report of a game: fairness, length, cards, skill",
                       description="Play many bot matches (seeds seed, seed+1, …) and report each figure with its "
                                   "95%% interval and sample size: a page of text, one offline HTML page (-o), "
                                   "JSON (--json) or CSV files (--csv).")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    _common(p)
    p.add_argument("-o", "--output", metavar="FILE.html", help="write the report as one self-contained HTML page")
    p.add_argument("--csv", metavar="DIR", help="write each table of figures as a CSV file into DIR")
    p.add_argument("--rotate", action="store_true",
                   help="seat the bots of --bots shifted by one place each match, so each sits in every seat "
                        "equally often (the skill figures free of seat effects)")
    p.add_argument("--width", type=_width, default=0.04, metavar="W",
                   help="the interval width a rate should reach, for the matches each figure needs (default 0.04)")
    p.add_argument("--skill", metavar="KIND:N",
                   help="also measure whether skill matters: KIND:N against random, KIND:2N against KIND:N and KIND:4N "
                        "against KIND:2N, each seated in every seat in turn (e.g. ismcts:16)")
    p.add_argument("--skill-n", type=_count, default=DEFAULT_SKILL_N, metavar="M",
                   help=f"matches of each skill rung (default {DEFAULT_SKILL_N})")
    p.add_argument("--raw", metavar="FILE", help="keep every match's record in FILE (JSON Lines), to extend later")
    p.add_argument("--resume", metavar="FILE",
                   help="start from the records kept in FILE (same game, players, bots, seed): only the matches "
                        "it lacks are played; the records are written back to it (or to --raw)")
    _limit_args(p)

    p = sub.add_parser("compare", help="a paired comparison of two versions of a game",
                       description="Play the same seeds with the same bot generators on two versions of a game "
                                   "(two folders, or one with --set overrides) and give each figure's difference "
                                   "with a paired 95%% interval, and which differences are real.")
    p.add_argument("game_a", metavar="GAME_A", help="a bundled game name or a game folder")
    p.add_argument("game_b", metavar="GAME_B", nargs="?",
                   help="the other version (default: GAME_A itself, changed by --set)")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="change a value of GAME_B: a counter's initial value (NAME=3) or a value game.yaml "
                        "declares, by its path (flow.rounds=6); repeatable")
    _common(p)
    _limit_args(p)


def _common(p: argparse.ArgumentParser) -> None:
    """The options of a run of matches (the lab's `Run`)."""
    from ..lab.command import DEFAULT_N

    p.add_argument("-n", type=_count, default=DEFAULT_N, metavar="N", help=f"number of matches (default {DEFAULT_N})")
    p.add_argument("--players", type=_count, help="number of players (default: the game's default)")
    p.add_argument("--bots", metavar="KIND,...",
                   help="the bot of every seat, or one per seat, comma-separated (default: random)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the first match (default 0)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    add_lang(p, "language of the printed summary's words (JSON and the files written stay in English)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=_count, default=1, metavar="W",
                       help="local processes (default 1); the figures do not depend on it")
    where.add_argument("--cluster", metavar="ADDR",
                       help="run on a Dask cluster: tcp://HOST:8786, or local:N for N local worker processes")
