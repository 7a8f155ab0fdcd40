"""What every command shares: its one-message error, argument types, loading a GAME argument, writing
output files whole."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, cast

from ..diagnostics import AuthoringError
from ..i18n import LANGS
from ..limits import MAX_STEPS

# Each command imports what it uses, so that `meeple games`, `--version` and `--help` start without the
# DSL parser, the schema checker or Hypothesis.
if TYPE_CHECKING:
    from ..game import Game


class CliError(Exception):
    """A failure the user can fix: printed as one message, exit status 1.

    `located` messages already start with `FILE:LINE:` and are printed as they are.
    """

    def __init__(self, message: str, located: bool = False) -> None:
        super().__init__(message)
        self.located = located


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (and a pointer to --help), not a usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


class Subcommands:
    """Where each group of commands adds its commands' parsers: every one (`meeple --help` lists them all), or only
    the command the command line names (`meeple COMMAND …` parses no other, so the others' options, and the modules
    that define them, are not loaded). What is added to a command not wanted is dropped (`_Unwanted`): argparse
    would make and check each of its options (a help formatter each), which costs more than the command's own."""

    def __init__(self, action: Any, only: str | None = None) -> None:
        self._action, self._only = action, only

    def wants(self, name: str) -> bool:
        """Whether the parser of command `name` is being built."""
        return self._only is None or name == self._only

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        """The parser of command `name`, added to the command line if it is wanted; else a stand-in that takes the
        same calls (options, groups of them) and keeps nothing."""
        if self.wants(name):
            parser: argparse.ArgumentParser = self._action.add_parser(name, **kwargs)
            return parser
        return cast(argparse.ArgumentParser, _UNWANTED)


class _Unwanted:
    """The parser of a command the command line does not name: every call made to it (`add_argument`,
    `add_mutually_exclusive_group`, …) is taken and dropped, and gives the stand-in back."""

    def __getattr__(self, name: str) -> Callable[..., _Unwanted]:
        return self._drop

    def _drop(self, *args: Any, **kwargs: Any) -> _Unwanted:
        return self


_UNWANTED = _Unwanted()


_ASCII_WHOLE = re.compile(r"[0-9]+")
"""A whole number as a person types it: ASCII digits only (`str.isdigit` and `int` take `²` or `٣` too)."""


def _whole(minimum: int, what: str):
    """An argparse type: a whole number of at least `minimum`, in ASCII digits."""

    def parse(text: str) -> int:
        try:
            if not _ASCII_WHOLE.fullmatch(text.strip()):
                raise ValueError(text)
            value = int(text)
        except ValueError:  # also: more digits than Python converts
            raise argparse.ArgumentTypeError(f"must be {what}, not {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {what}, not {value}")
        return value

    return parse


_count = _whole(1, "a whole number of at least 1")  # -n, --workers, --players
_some = _whole(0, "a whole number of at least 0")  # --leaks
_seat = _whole(0, "a seat number (0, 1, …)")


def _seed(text: str) -> int:
    """An argparse type: a whole number from 0, short enough to be written in a match log."""
    from ..logfile import MAX_INT_DIGITS

    text = text.strip()
    if not re.fullmatch(r"\+?[0-9]+", text) or len(text.lstrip("+")) > MAX_INT_DIGITS:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0, of at most {MAX_INT_DIGITS} digits, "
                                         f"not {text!r}")
    return int(text)



def _n(count: int, word: str, plural: str | None = None) -> str:
    """`1 card`, `2 cards`, `0 copies`: a count with its word in the right number."""
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _game(name: str) -> Game:
    """Load a GAME argument; an unknown name is a one-line error, broken content an AuthoringError."""
    from ..game import load_game
    from ..load.folder import find_game

    try:
        find_game(name)
    except AuthoringError as err:
        d = err.diagnostics[0]
        raise CliError(d.message + (f"; {d.hint}" if d.hint else "")) from None
    return load_game(name)


def _players(game: Game, players: int | None) -> int:
    try:
        return game.check_players(game.default_players if players is None else players)
    except ValueError as err:
        raise CliError(str(err)) from None



def _outputs(game: Game, *named: tuple[str, str | None]) -> None:
    """Refuse, before any work, an output (option, path) that cannot be written, a file named by two options,
    or one of the game's own files."""
    from ..files import OutputError, check_targets
    from ..logfile import own_files

    targets = [(option, path) for option, path in named if path is not None]
    if not targets:
        return
    try:
        check_targets(targets, own_files(game))
    except OutputError as err:
        raise CliError(str(err)) from None


def _write(game: Game, named: tuple[str, str], data: bytes) -> None:
    """Write an output file whole (a device or FIFO: into it); never over a file of the game."""
    from ..files import OutputError, write_whole
    from ..logfile import own_files

    _outputs(game, named)
    try:
        write_whole(named[1], data, keep=own_files(game))
    except OutputError as err:
        raise CliError(str(err)) from None


def _write_log(path: str, records: list[dict[str, Any]], game: Game) -> None:
    """Write a match log (`logfile.write_log`); a failure is the command's one error message."""
    from ..logfile import LogError, write_log

    try:
        write_log(path, records, game)
    except LogError as err:
        raise CliError(str(err)) from None


CHECK_LOG = "check-failure.jsonl"


def _replay_command(game: Game, path: str) -> str:
    """The command that re-runs a log of `game` written to `path`."""
    folder = "" if game.bundled else f" --game {game.model.root}"
    return f"meeple replay {path}{folder}"


BOTS_HELP = ("bot per seat, or one for all: random, first, mc:N, ismcts:N (N iterations, or a time such as "
             "ismcts:0.5s); ismcts-deal:N, ismcts-round:N, mc-deal:N, mc-round:N play out only to the end of the "
             "deal or round under way")


def _limit_args(p: argparse.ArgumentParser) -> None:
    """The run-time limits a person may raise for a game they trust (SECURITY.md)."""
    p.add_argument("--max-steps", type=_count, default=MAX_STEPS, metavar="N",
                   help=f"loop rounds and nested calls a match may run (default {MAX_STEPS:,})")


def add_lang(p: argparse.ArgumentParser, what: str = "language of the command's own words") -> None:
    """The `--lang` option of a command that prints words to a person (one of `i18n.LANGS`)."""
    p.add_argument("--lang", choices=LANGS, default="en", help=f"{what}: {', '.join(LANGS)} (default en)")
