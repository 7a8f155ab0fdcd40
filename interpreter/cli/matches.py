"""The commands that play matches: play (one, readable or JSON), sim (many, summarised), duel (bot A against B)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..run.runtime import RuleError
from ..table_words import WORDS
from .common import (
    _ASCII_WHOLE,
    BOTS_HELP,
    CHECK_LOG,
    CliError,
    Subcommands,
    _count,
    _game,
    _limit_args,
    _n,
    _outputs,
    _players,
    _replay_command,
    _seat,
    _seed,
    _write_log,
    add_lang,
)

# Each command imports what it uses, so that `meeple games`, `--version` and `--help` start without the
# DSL parser, the schema checker or Hypothesis.
if TYPE_CHECKING:
    from ..game import Game
    from ..run.match import Match



def _bot_kinds(kinds: str | None) -> list[str]:
    """The bot names of `--bots` (`interpreter.bots`: `random`, `first`, `mc:N`, `ismcts:N`, …), each checked."""
    if kinds is None:
        return ["random"]  # the default, as `names_for` has it: a random-bot `sim` goes without loading the bots
    from ..bots import BotNameError
    from ..bots.lineup import names_for

    try:
        return names_for(kinds, None)
    except BotNameError as err:
        raise CliError(str(err)) from None


def _bots(names: list[str], players: int, human: int | None) -> list[str]:
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise CliError(f"--bots names {len(names)} seats, but the match has {players} players")
    if human is not None:
        if human >= players:
            raise CliError(f"--human {human}: seats are 0–{players - 1}")
        names[human] = "human"
    return names


def cmd_play(args: argparse.Namespace) -> int:
    """Play one match: bots (and maybe one human) with a readable running log, or a JSON result."""
    from ..bots.lineup import Lineup
    from ..table import Table

    game = _game(args.game).with_max_steps(args.max_steps)
    kinds = _bot_kinds(args.bots)
    players = _players(game, args.players if args.players is not None else (len(kinds) if len(kinds) > 1 else None))
    bots = _bots(kinds, players, args.human)
    log_for = _log_for(args.log_for or [], players)
    _outputs(game, ("--log", args.log), *((f"--log-for {seat}", path) for seat, path in log_for))
    words = WORDS[args.lang]
    out = None if args.json else sys.stdout
    human_out = sys.stderr if args.json else sys.stdout
    m, failed = _started(game, players, args.seed, bots)
    assert m.log is not None  # made with its log
    if out is not None:
        print(words["header"].format(title=game.title, n=players, players=_n(players, "player"), seed=args.seed),
              file=out)
    table = Table(m, out, words, args.human, prompt_out=human_out)
    table.catch_up()
    if failed is not None:  # the rules failed before the first decision
        raise _kept(failed, m.log, game, args.log or FAILURE_LOG) from None
    try:
        if not _play_out(m, table, Lineup(bots, args.seed), args.human, out, words):
            print(words["quit"], file=human_out)
            return 0
    except RuleError as err:
        table.catch_up()
        raise _kept(err, m.log, game, args.log or FAILURE_LOG) from None
    if args.log:
        _write_log(args.log, m.log, game)
    if log_for:
        from ..logfile import seat_log

        for seat, path in log_for:
            _write_log(path, seat_log(m, seat), game)
    if args.json:
        print(json.dumps({"game": game.name, "seed": args.seed, "players": players, "winners": m.winners,
                          "scores": m.scores, "turns": m.result()["turns"], "decisions": m.st.decisions}))
        return 0
    table.final()
    return 0


def _log_for(asked: list[list[str]], players: int) -> list[tuple[int, str]]:
    """The (seat, file) pairs of `--log-for SEAT FILE`, each seat checked."""
    found = []
    for seat_text, path in asked:
        if not _ASCII_WHOLE.fullmatch(seat_text) or int(seat_text) >= players:
            raise CliError(f"--log-for: {seat_text!r} is not a seat of this match (0..{players - 1})")
        found.append((int(seat_text), path))
    return found


def _play_out(m: Match, table: Any, lineup: Any, human: int | None, out: Any, words: dict[str, str]) -> bool:
    """Play the match on to its end, the person's seat asked at the table and each other seat's bot given its
    seat handle; False if the person left the match."""
    handles = [m.seat(s) for s in range(m.players)]
    while not m.over:
        together = m.simultaneous
        for seat in m.to_act():
            if seat == human:
                action = _asked(table, seat, words)
            else:
                action = _bot_answer(table, lineup, handles[seat], seat, out)
            if action is None:
                return False
            problem = m.apply(seat, action)
            assert problem is None, problem
            table.catch_up(together)
    return True


def _asked(table: Any, seat: int, words: dict[str, str]) -> int | None:
    """The person's answer at the table (None: they left the match)."""
    from ..table import InputEnded, Quit

    try:
        return table.ask(seat)
    except Quit:
        return None
    except InputEnded:
        raise CliError(words["eof"]) from None


def _bot_answer(table: Any, lineup: Any, handle: Any, seat: int, out: Any) -> int:
    """A bot's answer for its seat (a search bot's thinking time shown)."""
    table.asking(seat)
    bot = lineup.bots[seat]
    assert bot is not None
    thought = bot.stats.seconds
    action = bot.choose(handle)
    if out is not None and bot.budget is not None:  # a search bot: how long it thought
        print(f"  [P{seat} {bot.name} · {bot.stats.seconds - thought:.2f} s]", file=out)
    return action


def _progress_bar() -> Callable[[int, int], None] | None:
    """A progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        end = "\r" + " " * (width + 30) + "\r" if done >= total else ""
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}{end}")
        sys.stderr.flush()

    return show


def _cores() -> int:
    """The processor cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


FAILURE_LOG = "rule-failure.jsonl"


def _started(game: Game, players: int, seed: int, bots: list[str] | None) -> tuple[Match, RuleError | None]:
    """A logged match run up to its first question, and the rules' failure if they failed before it: the
    match and its log so far are in hand either way (a log is written of a failure during set-up too)."""
    from ..run.match import Match

    m = Match.__new__(Match)  # made before it runs, so that a failure while it starts leaves it in hand
    try:
        Match.__init__(m, game, players, seed, log=True, bots=bots)
    except RuleError as err:
        return m, err
    return m, None


def _kept(err: RuleError, log: list[dict[str, Any]] | None, game: Game, path: str) -> RuleError:
    """Write the log of a match whose rules failed (up to the failure) and say where it is (or why not)."""
    from ..logfile import LogError, write_log

    if log is None:
        return err
    try:
        write_log(path, log, game)
    except LogError as why:
        return RuleError(f"{err}; its log was not written: {why}", err.seed, err.decisions)
    return RuleError(f"{err}; the match up to there is in {path} (`{_replay_command(game, path)}` re-runs it)",
                     err.seed, err.decisions)


def cmd_sim(args: argparse.Namespace) -> int:
    """Many bot matches (random bots through the fast path); print a summary."""
    from ..run.sim import Interrupted, Watch, WorkerLost, run_many, seed_ranges

    game = _game(args.game).with_max_steps(args.max_steps)
    players = _players(game, args.players)
    bots = _bots(_bot_kinds(args.bots), players, None)
    workers = _sim_workers(args.workers, args.n)
    stopped: WorkerLost | Interrupted | None = None
    watch: Watch | None = None
    check_failed: tuple[type[Exception], ...] = ()  # the checks (and their failure) are loaded only for --check
    if args.check:
        from ..check import CheckFailed
        from ..check import watch_sim as watch

        check_failed = (CheckFailed,)
    try:
        summary = run_many(game, players, args.n, args.seed, workers, _progress_bar(), watch, bots)
    except (Interrupted, WorkerLost) as err:
        summary, stopped = err.summary, err
    except check_failed as err:
        raise _sim_check_failed(game, players, err) from None
    except RuleError as err:
        if err.seed is None:
            raise
        _failed_again(game, players, bots, err, err.seed)
        raise
    if args.json:
        print(json.dumps(summary))
    elif summary["games"]:  # else nothing finished: the message alone says so
        seeds = stopped.seeds if stopped is not None else seed_ranges([(args.seed, args.seed + summary["games"])])
        _print_summary(game, summary, seeds, players, args.lang)
    if isinstance(stopped, Interrupted):
        raise stopped
    if stopped is not None:
        raise CliError(str(stopped))
    return 0


def _sim_workers(asked: int, matches: int) -> int:
    """The worker processes `sim` runs: at most one per match and per core (said when fewer than asked)."""
    workers = min(asked, matches, _cores())
    if asked > _cores():
        print(f"meeple sim: --workers {asked}: this machine has {_n(_cores(), 'core')}, so {_n(workers, 'worker')} run",
              file=sys.stderr)
    return workers


def _failed_again(game: Game, players: int, bots: list[str], err: RuleError, seed: int) -> None:
    """The match of a rule failing in `sim` played again with its log, kept as FAILURE_LOG (`_kept` raises)."""
    from ..bots.lineup import Lineup

    m, failed = _started(game, players, seed, bots)
    if failed is None:
        try:
            Lineup(bots, seed).play(m)
        except RuleError as again:
            failed = again
    if failed is not None:
        raise _kept(err, m.log, game, FAILURE_LOG) from None


def _sim_check_failed(game: Game, players: int, err: Exception) -> CliError:
    """The match of a failed `sim --check` (`err`, a CheckFailed) again, through the step API with its log: write
    the log, say why."""
    from ..check import CheckFailed, failure_log, sim_match

    assert isinstance(err, CheckFailed)
    played = sim_match(game, players, err.seed)
    if played.broken is None:  # not the same match: an engine fault, reported as such
        return CliError(f"check failed in the match of seed {err.seed}: {err}, but not when that match is played "
                        "again through the step API")
    message = played.broken[1]
    _write_log(CHECK_LOG, failure_log(played), game)
    return CliError(f"check failed in the match of seed {err.seed} after {_n(len(played.match.history), 'decision')}: "
                    f"{message}; its log is in {CHECK_LOG} "
                    f"(`{_replay_command(game, CHECK_LOG)}` re-runs it)")


def _print_summary(game: Game, s: dict[str, Any], seeds: str, players: int, lang: str) -> None:
    """The readable summary of `meeple sim` (`seeds`: those of the matches it sums up, in words)."""
    from ..figures_words import sim_summary
    from ..i18n import Words

    print("\n".join(sim_summary(game.title, s, seeds, players, Words(lang))))


def cmd_duel(args: argparse.Namespace) -> int:
    """Bot A against bot B, seats rotated: A's win rate and mean score with 95% intervals (bots/duel.py)."""
    from ..bots.duel import WorkerLost, duel
    from ..figures_words import duel_report
    from ..i18n import Words

    game = _game(args.game).with_max_steps(args.max_steps)
    players = _players(game, args.players)
    _bot_kinds(f"{args.a},{args.b}")
    workers = min(args.workers, args.n, _cores())
    if args.workers > _cores():
        print(f"meeple duel: --workers {args.workers}: this machine has {_n(_cores(), 'core')}, so "
              f"{_n(workers, 'worker')} run", file=sys.stderr)
    try:
        figures = duel(game, args.a.strip(), args.b.strip(), args.n, players, args.seed,
                       None if args.json else _progress_bar(), workers=workers)
    except WorkerLost as err:
        raise CliError(str(err)) from None
    print(json.dumps(figures) if args.json else duel_report(game.title, figures, Words(args.lang)))
    return 0


def add_parsers(sub: Subcommands) -> None:
    """play, sim, duel."""
    p = sub.add_parser("play", help="play one match", description="Play one match (all bots by default).")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--players", type=_count, help="number of players (default: the game's default)")
    p.add_argument("--seed", type=_seed, default=0, help="the match seed (default 0)")
    p.add_argument("--bots", metavar="KIND,...", help=BOTS_HELP)
    p.add_argument("--human", type=_seat, metavar="SEAT", help="let a person play this seat (0-based)")
    p.add_argument("--log", metavar="FILE", help="write the match log as JSON Lines")
    p.add_argument("--log-for", nargs=2, action="append", metavar=("SEAT", "FILE"),
                   help="also write what SEAT saw of the match (its information state) as JSON Lines")
    p.add_argument("--json", action="store_true", help="print only the result as one JSON object")
    add_lang(p, "language of the CLI's own words")
    _limit_args(p)

    p = sub.add_parser("sim", help="many bot matches, summarised",
                       description="Play many random-bot matches (seeds seed, seed+1, …) and summarise them.")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("-n", type=_count, required=True, metavar="N", help="number of matches")
    p.add_argument("--players", type=_count, help="number of players (default: the game's default)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the first match (default 0)")
    p.add_argument("--workers", type=_count, default=1, metavar="W",
                   help="processes to use (default 1; at most one per match and per core)")
    p.add_argument("--bots", metavar="KIND,...", help=BOTS_HELP)
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    add_lang(p, "language of the summary's words")
    _limit_args(p)
    p.add_argument("--check", action="store_true",
                   help="check the game's invariants and that every card lies in one zone at every decision, "
                        "and its checks where each says (slower); the first failure is written to "
                        "check-failure.jsonl")

    p = sub.add_parser("duel", help="bot A against bot B, seats rotated",
                       description="Play bot A against bot B: game g has A at seat g % P and B at the other "
                                   "seats (seed S + g // P); print A's win rate (a shared win counts 1/k; Wilson "
                                   "95% interval) and mean score (95% interval).")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("a", metavar="A", help="bot A (e.g. ismcts:200)")
    p.add_argument("b", metavar="B", help="bot B (e.g. random)")
    p.add_argument("-n", type=_count, default=100, metavar="N", help="number of games (default 100)")
    p.add_argument("--players", type=_count, help="number of players (default: the game's default)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the first deal (default 0)")
    p.add_argument("--workers", type=_count, default=1, metavar="W",
                   help="processes to use (default 1; at most one per game and per core; same figures)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    add_lang(p, "language of the report's words")
    _limit_args(p)
