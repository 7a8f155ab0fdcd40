"""Start-up with the compiled-game cache, printed (not a timed test): each command cold (an empty cache: the game
is compiled) and warm (read back from the cache), the best of R runs in fresh processes; and, in one process,
loading each bundled game cold and warm.

    python benchmarks/cache.py [--repeat R] [--games overloaded,sky-haulers]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's engine, not an installed one

from interpreter import cache  # noqa: E402
from interpreter import game as game_module  # noqa: E402
from interpreter.paths import bundled_games  # noqa: E402

COMMANDS = {"sim -n 1": ["sim", "{game}", "-n", "1"], "validate": ["validate", "{game}"],
            "play --json": ["play", "{game}", "--seed", "1", "--json"]}


def run_once(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def command_times(game: str, repeat: int) -> dict[str, tuple[float, float]]:
    """Each command's (cold, warm) seconds, best of `repeat`."""
    out = {}
    for label, template in COMMANDS.items():
        args = [a.format(game=game) for a in template]
        cold, warm = float("inf"), float("inf")
        for _ in range(repeat):
            folder = tempfile.mkdtemp(prefix="meeple-cache-")
            env = {**os.environ, cache.ENV: folder}
            cold = min(cold, run_once(args, env))
            warm = min(warm, run_once(args, env))
            shutil.rmtree(folder, ignore_errors=True)
        out[label] = (cold, warm)
    return out


def load_times(game: str, repeat: int) -> tuple[float, float]:
    """Loading a game in this process: (compiled, read from the cache) seconds, best of `repeat`."""
    cold, warm = float("inf"), float("inf")
    for _ in range(repeat):
        folder = tempfile.mkdtemp(prefix="meeple-cache-")
        os.environ[cache.ENV] = folder
        for kind in ("cold", "warm"):
            game_module._load.cache_clear()
            start = time.perf_counter()
            game_module.load_game(game)
            took = time.perf_counter() - start
            cold, warm = (min(cold, took), warm) if kind == "cold" else (cold, min(warm, took))
        shutil.rmtree(folder, ignore_errors=True)
    return cold, warm


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, best taken (default 3)")
    parser.add_argument("--games", default="overloaded,sky-haulers", help="games whose commands are timed")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, best of {args.repeat}; seconds cold (compiled) → warm (cached)")
    for name in bundled_games():
        cold, warm = load_times(name, args.repeat)
        print(f"load_game({name!r}):{'':<{14 - len(name)}} {cold:6.3f} → {warm:6.3f}")
    for name in args.games.split(","):
        for label, (cold, warm) in command_times(name, args.repeat).items():
            command, *rest = label.split()
            print(f"meeple {' '.join([command, name, *rest])}:".ljust(36) + f"{cold:6.3f} → {warm:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
