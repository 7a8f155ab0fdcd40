"""What the terminal table costs a person at a seat, printed (not a timed test).

    python benchmarks/table.py [--matches M] [--seed S]

For each bundled game, M matches with seat 0 played by a scripted person (random answers) and the others
by random bots, narrated to nowhere: the time to build each screen (the seat's view, scores and declared
figures evaluated on it, the blocks), the time to tell the story between two questions (`catch_up`), and
the time the table takes to start (it starts the match again from its seed to read the scores at the end
of the set-up). Best of the matches' means; CPU time of this process.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from interpreter.game import load_game
from interpreter.load.loader import bundled_games
from interpreter.run.match import Match
from interpreter.table import WORDS, Table


def one_match(game, seed: int) -> tuple[float, float, float, int]:
    """(start ms, mean screen ms, mean story ms, screens) of one match with a scripted person at seat 0."""
    m = Match(game, game.default_players, seed, log=True)
    clock = time.process_time
    t0 = clock()
    table = Table(m, io.StringIO(), WORDS["en"], 0, prompt_out=io.StringIO())
    start = clock() - t0
    rng = random.Random(seed)
    screens, screen_time, story_time, stories = 0, 0.0, 0.0, 0
    table.catch_up()
    while not m.over:
        for seat in m.to_act():
            if seat == 0:
                t0 = clock()
                table.screen(0)
                screen_time += clock() - t0
                screens += 1
            m.apply(seat, rng.randrange(len(m.legal_actions(seat))))
            t0 = clock()
            table.catch_up(m.simultaneous)
            story_time += clock() - t0
            stories += 1
    return start * 1e3, screen_time * 1e3 / max(screens, 1), story_time * 1e3 / max(stories, 1), screens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<14} {'players':>7} {'screens':>8} {'start ms':>9} {'screen ms':>10} {'story ms':>9}")
    for name in bundled_games():
        game = load_game(name)
        runs = [one_match(game, args.seed + k) for k in range(args.matches)]
        print(f"{name:<14} {game.default_players:>7} {round(sum(r[3] for r in runs) / len(runs)):>8} "
              f"{min(r[0] for r in runs):>9.1f} {min(r[1] for r in runs):>10.2f} {min(r[2] for r in runs):>9.3f}")


if __name__ == "__main__":
    main()
