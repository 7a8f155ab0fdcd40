"""What telling a match in words costs, printed (not a timed test): `meeple check`'s story of a failed match
(`check_story.story`, each event told through its kind in the catalogue of run/events.py) over the whole log
of one random match of each bundled game, in English and in Russian: lines, and CPU milliseconds (the
process's own), the best of R runs.

    python benchmarks/stories.py [--seed S] [--repeat R]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from interpreter.check_story import story
from interpreter.game import load_game
from interpreter.i18n import LANGS
from interpreter.load.loader import bundled_games
from interpreter.run.match import play_random


def best_ms(game, log: list[dict], lang: str, repeat: int) -> tuple[int, float]:
    """(lines, best CPU ms) of the story of one log in `lang`."""
    best, lines = float("inf"), 0
    for _ in range(repeat):
        started = time.process_time()
        lines = len(story(game, log, lang=lang))
        best = min(best, time.process_time() - started)
    return lines, 1000 * best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'game':<14}{'players':>8}{'log lines':>10}{'story lines':>12}"
          + "".join(f"{lang + ' ms':>9}" for lang in LANGS))
    for name in bundled_games():
        game = load_game(name)
        log = play_random(game, game.default_players, args.seed, log=True).log or []
        told = [best_ms(game, log, lang, args.repeat) for lang in LANGS]
        print(f"{name:<14}{game.default_players:>8}{len(log):>10}{told[0][0]:>12}"
              + "".join(f"{ms:>9.2f}" for _, ms in told))


if __name__ == "__main__":
    main()
