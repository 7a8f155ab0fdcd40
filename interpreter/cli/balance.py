"""`meeple report` and `meeple compare`, run by interpreter/lab."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from .common import CliError, Subcommands, _count, _limit_args, _seed


def cmd_report(args: argparse.Namespace) -> int:
    """The balance report of a game (interpreter/lab/command.py)."""
    from ..lab.command import report

    return _lab(report, args)


def cmd_compare(args: argparse.Namespace) -> int:
    """A paired comparison of two versions of a game (interpreter/lab/command.py)."""
    from ..lab.command import compare

    return _lab(compare, args)


def _lab(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    from ..files import OutputError
    from ..lab.command import LabError

    try:
        return command(args)
    except (LabError, OutputError) as err:
        raise CliError(str(err)) from None


def add_parsers(sub: Subcommands) -> None:
    """report, compare (interpreter/lab/command.py)."""
    if sub.wants("report") or sub.wants("compare"):
        from ..lab.command import add_parsers as lab_parsers

        lab_parsers(sub, _count, _seed, _limit_args)
