"""`meeple replay`: a logged match re-run and compared line by line, or a seat log shown."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..i18n import Words
from .common import CliError, Subcommands, _game, _limit_args, _seat, add_lang

if TYPE_CHECKING:
    from ..run.match import Match



SHOWN_CHARS = 2000
"""The longest line of a seat log `replay` shows (the rest is cut, with `…`)."""


def _show_seat_log(file: str, lines: list[dict[str, Any]], asked: int | None, lang: str = "en") -> int:
    """A seat log (`play --log-for`) is shown as that seat saw the match: it holds no seed and not what the
    seat did not see, so there is nothing to re-run (the full log of `play --log` replays)."""
    from ..load.source import readable
    from ..logfile import LogError, seat_log_words

    header = lines[0]
    seat = header["seat"]
    if asked is not None and asked != seat:
        raise CliError(f"{file}:1: error: this is what P{seat} saw (a seat log); it holds nothing of what P{asked} "
                       f"saw: replay the full log (`play --log`) with --as {asked}", located=True)
    try:
        shown = seat_log_words(file, lines, lang)
    except LogError as err:
        raise CliError(str(err), located=True) from None
    w = Words(lang)
    print(w("replay.seat_log", file=file, seat=seat, game=readable(header["game"]),
            players=w.n(header["players"], "player")))
    for text in shown:  # the file may come from anyone: no control character of it reaches the terminal
        print("  " + readable(text, SHOWN_CHARS))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Re-run a logged match from its seed and decisions (`replaying.replay_log`); every line must come out the
    same. A seat log is shown as that seat saw it."""
    from ..logfile import LogError, game_to_replay, is_seat_log, read_log
    from ..replaying import ReplayFailed, replay_log

    file = args.file
    try:
        expected = read_log(file)
        header = expected[0]
        if is_seat_log(header):
            return _show_seat_log(file, expected, args.seat, args.lang)
        game = _game(game_to_replay(header, args.game, file)).with_max_steps(args.max_steps)
    except LogError as err:
        raise CliError(str(err), located=True) from None
    if header["game"] != game.name:
        raise CliError(f"{file}:1: error: this log is of `{header['game']}`, but --game {args.game} is `{game.name}`",
                       located=True)
    players = header.get("players")
    if args.seat is not None and isinstance(players, int) and args.seat >= players:  # before replaying it all
        raise CliError(f"--as {args.seat}: the match has seats 0..{players - 1}")
    try:
        done = replay_log(game, expected, file)
    except ReplayFailed as err:
        raise CliError(str(err), located=True) from None
    w = Words(args.lang)
    note = w("replay.changed") if done.changed else ""
    print(w("replay.ok", events=w.n(done.events, "event"), decisions=w.n(done.decisions, "decision"),
            ending=done.ending) + note)
    if args.seat is not None:
        _show_as(done.match, args.seat, args.lang)
    return 0


def _show_as(m: Match, seat: int, lang: str = "en") -> None:
    """The replayed match as `seat` saw it."""
    from ..run.information import describe as observed

    if seat >= m.players:
        raise CliError(f"--as {seat}: the match has seats 0..{m.players - 1}")
    w = Words(lang)
    print(w("replay.as", seat=seat))
    for line in m.information_state_json(seat)["observed"]:
        print("  " + observed(line, seat, lang))
    if m.over:
        print("  " + w("replay.result", scores=m.scores, winners=m.winners))

def add_parsers(sub: Subcommands) -> None:
    """replay."""
    p = sub.add_parser("replay", help="re-run a logged match and compare",
                       description="Re-run a match log's decisions; every line must come out the same.")
    p.add_argument("file", metavar="FILE", help="a JSON Lines log written by `meeple play --log`")
    p.add_argument("--game", metavar="FOLDER",
                   help="the game to replay against: a bundled name or a game folder (needed for games outside "
                        "the bundle; a folder named in the log itself is never used)")
    p.add_argument("--as", dest="seat", type=_seat, metavar="SEAT",
                   help="then show the match as that seat saw it (hidden cards by their backs)")
    add_lang(p, "language of the command's words and of a seat's observations (--as, or a seat log)")
    _limit_args(p)
