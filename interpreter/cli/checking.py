"""`meeple check`: property-testing a game with Hypothesis, then the leak check."""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..i18n import Words
from .common import (
    CHECK_LOG,
    CliError,
    Subcommands,
    _count,
    _game,
    _limit_args,
    _outputs,
    _players,
    _replay_command,
    _seed,
    _some,
    _write_log,
    add_lang,
)


def cmd_check(args: argparse.Namespace) -> int:
    """Property-test a game with Hypothesis: its invariants, checks and the built-in properties, at every player
    count (or --players); on failure, the shrunk match step by step and a log that replay re-runs."""
    from ..check import NotDeterministic, check_game, describe
    from ..check_story import chance_line, story

    game = _game(args.game).with_max_steps(args.max_steps)
    if args.players is not None:
        _players(game, args.players)
    out = args.out or CHECK_LOG
    _outputs(game, ("--out", out))
    w = Words(args.lang)
    invariants = w.n(len(game.invariants), "invariant")
    if game.checks:
        invariants += ", " + w.n(len(game.checks), "check")
    print(w("check.title", title=game.title, what=invariants, matches=w.n(args.examples, "match"), seed=args.seed),
          flush=True)

    def each(run) -> None:
        if run.failure is None:
            print("  " + w("check.holds", players=w.n(run.players, "player"), examples=w.n(run.examples, "example"),
                           decisions=w.n(run.decisions, "decision"), seconds=run.seconds), flush=True)

    try:
        runs = check_game(game, args.players, args.examples, args.seed, each=each)
    except NotDeterministic as err:
        raise CliError(str(err)) from None
    failure = runs[-1].failure
    if failure is None:
        return _check_leaks(game, args)
    run, played = runs[-1], failure.played
    log = failure.log
    _write_log(out, log, game)
    print("  " + w("check.failed", players=w.n(run.players, "player"), examples=w.n(run.examples, "example"),
                   seconds=run.seconds))
    print(w("check.property", what=describe(failure.check, game, args.lang)))
    print(w("check.failure", message=failure.message))
    chance = chance_line(played.chance or [], lang=args.lang)
    print(w("check.shrunk", decisions=w.n(len(played.match.history), "decision"), chance=chance))
    for line in story(game, log, lang=args.lang):
        print(f"  {line}")
    print(w("check.its_log", path=out, command=_replay_command(game, out)))
    return 1


def _check_leaks(game: Any, args: argparse.Namespace) -> int:
    """The leak check, after the other properties: in random matches, a hidden answer or deal replaced
    by another must not change what any other seat is shown, and a determinization must keep it."""
    from ..leaks import check_leaks

    if not args.leaks:
        return 0
    w = Words(args.lang)
    counts = game.player_counts(args.players)
    seeds = range(args.seed, args.seed + args.leaks)
    for n in counts:
        started = time.perf_counter()
        try:
            report = check_leaks(game, players=n, seeds=seeds)
        except AssertionError as leak:
            print("  " + w("check.leaks_failed", players=w.n(n, "player")))
            print(w("check.leak_property"))
            print(w("check.failure", message=leak))
            print(w("check.leak_match", game=args.game, n=n))
            return 1
        no_world = w("check.no_world", count=w.n(report.no_world, "determinization")) if report.no_world else ""
        print("  " + w("check.no_leak", players=w.n(n, "player"), matches=w.n(len(seeds), "match"),
                       points=w.n(report.points, "point"), seconds=time.perf_counter() - started) + no_world,
              flush=True)
    return 0


def add_parsers(sub: Subcommands) -> None:
    """check."""
    p = sub.add_parser("check", help="property-test a game with Hypothesis",
                       description="Play Hypothesis-drawn matches (every decision and chance outcome drawn, so a "
                                   "failure shrinks) and check the game's invariants at every decision, its "
                                   "checks at the end of each turn, round or match, that no "
                                   "rule fails, that every card lies in exactly one zone, that the match ends, "
                                   "and that it replays the same; on failure print the shrunk match and write "
                                   "its log, exit 1.")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--examples", type=_count, default=100, metavar="N",
                   help="matches per player count (default 100)")
    p.add_argument("--players", type=_count, help="check only this player count (default: each the game allows)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of Hypothesis's search (default 0; same seed, same run)")
    p.add_argument("--out", metavar="FILE", help=f"where to write the log of a failure (default {CHECK_LOG})")
    p.add_argument("--leaks", type=_some, default=2, metavar="N",
                   help="then the leak check: N random matches per player count (default 2; 0: none)")
    add_lang(p)
    _limit_args(p)
