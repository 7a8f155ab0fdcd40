"""What keeping up who sees what costs a match played through the step API (`Match`, random bots): Python
bytecodes run per match, in all and in the watcher's hooks (`run/watcher.py`), counted rather than timed (a
count does not change with the machine's load, so two versions of the engine compare on a shared machine), and
the CPU time of a whole match for scale.

    python benchmarks/watcher.py [-n MATCHES] [GAME ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from opcounts import counted

from interpreter.game import load_game
from interpreter.load.loader import bundled_games
from interpreter.run.match import play_random

WATCHER = "watcher.py"


def count(game, players: int, matches: int) -> tuple[Counter, Counter, int]:
    """Bytecodes and frames entered per function of the watcher's module over `matches` step-API matches, and
    the bytecodes of the whole matches."""
    play_random(game, players, 0)  # anything loaded or compiled on first use is not counted
    def work() -> None:
        for seed in range(matches):
            play_random(game, players, seed)

    return counted(work, lambda code: code.co_name if code.co_filename.endswith(WATCHER) else None)


def cpu_per_match(game, players: int, matches: int) -> float:
    started = time.process_time()
    for seed in range(matches):
        play_random(game, players, seed)
    return (time.process_time() - started) / matches


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="bundled games (default: all)")
    parser.add_argument("-n", type=int, default=10, help="matches per game and player count (default 10)")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, {args.n} step-API matches per game and player count, random bots")
    for name in args.games or bundled_games():
        game = load_game(name)
        for players in sorted({game.min_players, game.max_players}):
            ops, frames, total = count(game, players, args.n)
            cpu = cpu_per_match(game, players, args.n)
            print(f"{name}, {players} players, per match: {total / args.n:,.0f} bytecodes, of which "
                  f"{sum(ops.values()) / args.n:,.0f} in the watcher's module ({sum(frames.values()) / args.n:,.0f} "
                  f"frames entered there); {cpu * 1e3:.1f} ms CPU")
            print("    most: " + ", ".join(f"{k} {v / args.n:,.0f}" for k, v in ops.most_common(5)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
