"""CPU time of a match that moves all its cards back and forth until its step limit, quiet (`sim`), watched
(`Match`: who sees what kept up to date) and logged (`Match(log=True)`, then the log written or refused),
printed (not a timed test).

    python benchmarks/watched_moves.py [--cards N] [--steps S]

The hostile game of issue 22's audit: 10,000 cards, `while true at most 1000000 times:` moving all of
them from a hidden deck to a public pile and back, as `meeple play FOLDER` and `meeple sim FOLDER -n 1`
run it; also the same between the deck and a player's hand.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from interpreter.game import load_game
from interpreter.logfile import LogError, write_log
from interpreter.run.match import Match
from interpreter.run.runtime import RuleError
from interpreter.run.sim import simulate

LOOP = "while true at most 1000000 times:\n      move all deck to {0}\n      move all {0} to deck"
LOOPS = {"deck <-> pile": LOOP.format("pile"), "deck <-> hand": LOOP.format("my hand")}


def write_game(folder: Path, loop: str, cards: int) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(f"""\
game: back-and-forth
title: Back and forth
players: {{min: 2, max: 2}}
cards: [cards.yaml]
zones:
  deck: {{visibility: hidden, face: down}}
  pile: {{visibility: public, face: up}}
  hand: {{owner: player, visibility: owner}}
counters:
  player:
    points: 0
phases:
  turn: |
    {loop}
flow:
  turn: [turn]
  rounds: 1
result:
  score: my points
""")
    (folder / "cards.yaml").write_text("cards:\n" + "".join(
        f"  - {{id: c{i}, name: C{i}, start: deck, count: {cards // 10}}}\n" for i in range(10)))
    return folder


def cpu(run) -> float:
    start = time.process_time()
    with contextlib.suppress(RuleError):  # the step limit: where every run of this game ends
        run()
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=1_000_000, help="the step limit (default: the engine's)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, loop) in enumerate(LOOPS.items()):
            game = load_game(write_game(Path(tmp) / f"game{i}", loop, args.cards)).with_max_steps(args.steps)
            quiet = cpu(lambda game=game: simulate(game, 2, 0))
            watched = cpu(lambda game=game: Match(game, 2, 0))
            m = Match.__new__(Match)
            logged = cpu(lambda game=game, m=m: Match.__init__(m, game, 2, 0, log=True))

            def write(game=game, m=m) -> None:
                with contextlib.suppress(LogError):  # past the size limit: refused, as play says
                    write_log(Path(tmp) / "match.jsonl", m.log or [], game)

            written = cpu(write)
            print(f"{name}, {args.cards:,} cards, {args.steps:,} steps: quiet {quiet:.2f} s, watched {watched:.2f} s, "
                  f"logged {logged:.2f} s ({len(m.log or []):,} log lines), log written or refused {written:.2f} s "
                  "(CPU)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
