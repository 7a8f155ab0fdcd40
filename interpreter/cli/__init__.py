"""The `meeple` command: one module per group of commands (see CONTRACT.md for the outside).

`authoring` (games, validate, test, cards, rules, compile; print and serve registered), `matches` (play, sim,
duel), `checking` (check), `replay`, `balance` (report, compare); `common` holds what they share. `main` is the
console entry point.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable

from .. import __version__
from ..diagnostics import AuthoringError
from ..interrupts import INTERRUPTED, end_interrupted, second_ctrl_c_exits
from ..run.runtime import RuleError
from . import authoring, balance, checking, matches, replay
from .common import CliError, Subcommands, _Parser

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "games": authoring.cmd_games,
    "validate": authoring.cmd_validate,
    "test": authoring.cmd_test,
    "cards": authoring.cmd_cards,
    "print": authoring.cmd_print,
    "serve": authoring.cmd_serve,
    "compile": authoring.cmd_compile,
    "play": matches.cmd_play,
    "sim": matches.cmd_sim,
    "duel": matches.cmd_duel,
    "replay": replay.cmd_replay,
    "check": checking.cmd_check,
    "report": balance.cmd_report,
    "compare": balance.cmd_compare,
    "rules": authoring.cmd_rules,
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argparse tree of every subcommand, each group's from its module; with `command`, the tree of that
    subcommand alone (all that `meeple COMMAND …` parses: the others' options, and the modules that define them,
    are not loaded)."""
    parser = _Parser(prog="meeple", description="A rules-as-data engine for tabletop card games.")
    parser.add_argument("--version", action="version", version=f"meeple {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    for group in (authoring, matches, checking, replay, balance):
        group.add_parsers(Subcommands(sub, command))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the `meeple` command; returns the exit status (never raises; prints a traceback only for a fault of the
    engine, an internal error)."""
    words = sys.argv[1:] if argv is None else argv
    if words[:1] == ["--version"]:  # what argparse would print, without building a command's parser
        print(f"meeple {__version__}")
        return 0
    try:
        args = build_parser(words[0] if words and words[0] in COMMANDS else None).parse_args(words)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
    with second_ctrl_c_exits(keep=argv is None):  # a program or test calling main keeps its own Ctrl-C
        status = _run(args)
    if status == INTERRUPTED and argv is None:  # the command line's own process: it ends with that status
        end_interrupted()
    return status


def _run(args: argparse.Namespace) -> int:
    """Run the command; every failure the input or the system can cause is one message and an exit status. Any other
    exception is the engine's fault: its traceback, then one line asking to report it."""
    try:
        return COMMANDS[args.command](args)
    except CliError as err:
        print(str(err) if err.located else f"meeple {args.command}: error: {err}", file=sys.stderr)
    except AuthoringError as err:
        for d in err.diagnostics:
            print(d.render(), file=sys.stderr)
    except RuleError as err:
        print(f"meeple {args.command}: error: the game's rules failed during play: {err}", file=sys.stderr)
    except KeyboardInterrupt as err:
        print(f"\nmeeple {args.command}: {str(err) or 'interrupted'}", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        with contextlib.suppress(OSError, ValueError):
            os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as err:  # the system refused a file or folder named on the command line
        where = f"{err.filename}: " if err.filename else ""
        print(f"meeple {args.command}: error: {where}{err.strerror or err}", file=sys.stderr)
    except Exception as err:
        import traceback  # only an engine fault prints one

        from ..run.tracebacks import show_rules_lines

        with contextlib.suppress(Exception):  # (the traceback is printed, with the rules' lines or without)
            show_rules_lines(err, _places_in_loaded_game)
        traceback.print_exception(err, file=sys.stderr)
        print(f"meeple {args.command}: internal error (please report it): {type(err).__name__}: {err}",
              file=sys.stderr)
    return 1


def _places_in_loaded_game(filename: str):
    """`Game.anchor_at` of the game loaded in this process whose generated module is named `filename` (`<meeple
    game FOLDER>`), or None: a traceback shows the YAML lines of any game it passes through."""
    from ..game import loaded_game

    prefix = "<meeple game "
    if not (filename.startswith(prefix) and filename.endswith(">")):
        return None
    try:
        game = loaded_game(filename[len(prefix):-1])
    except Exception:  # (a folder gone or broken since: that game's lines are shown as generated)
        return None
    return game.anchor_at if game.code_filename == filename else None
