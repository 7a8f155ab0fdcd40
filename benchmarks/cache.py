"""Start-up with the compiled-game cache, printed (not a timed test): each command cold (an empty cache: the game
is compiled) and warm (read back from the cache), the best of R runs in fresh processes, in wall and in CPU seconds
(the process's own, user and system: steadier than wall on a busy machine); and, in one process, loading each
bundled game cold and warm (`--no-load` skips it). `--against DIR` times another checkout's engine too (an earlier
commit unpacked there: `git archive REV | tar -x -C DIR`; given again, more than one), its runs and this one's taken
in turn, so that before and after are measured in the same run; the load average is printed at the start and the
end. Last, what each warm command imports once Python has started (`python -X importtime`, after `site`): how many
modules (a count that a busy machine does not blur), and the sum of their own import times (the least of R runs).

    python benchmarks/cache.py [--repeat R] [--games overloaded,sky-haulers] [--against DIR ...] [--no-load]
"""

from __future__ import annotations

import argparse
import os
import resource
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


def run_once(args: list[str], env: dict[str, str], root: Path = ROOT) -> tuple[float, float]:
    """One command in a fresh process of the engine in `root`: (wall, CPU) seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=root, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def command_times(game: str, repeat: int, roots: list[Path]) -> dict[tuple[str, Path], list[tuple[float, float]]]:
    """Each command's (cold, warm) seconds for each engine, (wall, CPU) each, best of `repeat`; the engines'
    runs taken in turn."""
    best: dict[tuple[str, Path], list[tuple[float, float]]] = {}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as installed: bytecode kept
    for label, template in COMMANDS.items():
        args = [a.format(game=game) for a in template]
        for _ in range(repeat):
            for root in roots:
                folder = tempfile.mkdtemp(prefix="meeple-cache-")
                runs = [run_once(args, {**env, cache.ENV: folder}, root) for _ in ("cold", "warm")]
                shutil.rmtree(folder, ignore_errors=True)
                kept = best.setdefault((label, root), [(float("inf"), float("inf"))] * 2)
                best[label, root] = [(min(k[0], r[0]), min(k[1], r[1])) for k, r in zip(kept, runs, strict=True)]
    return best


def warm_imports(args: list[str], root: Path, repeat: int = 1) -> tuple[int, float]:
    """What a warm run of a command imports after Python's start-up (`site`): (modules, seconds of their own
    import time summed), the least of `repeat` warm runs (the modules are the same in each)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env[cache.ENV] = tempfile.mkdtemp(prefix="meeple-cache-")
    command = [sys.executable, "-X", "importtime", "-m", "interpreter", *args]
    try:
        subprocess.run(command, cwd=root, env=env, check=True, capture_output=True)  # cold: fills the cache
        runs = [subprocess.run(command, cwd=root, env=env, check=True, capture_output=True,
                               text=True).stderr.splitlines() for _ in range(repeat)]
    finally:
        shutil.rmtree(env[cache.ENV], ignore_errors=True)
    best = (0, float("inf"))
    for lines in runs:
        rows = [line.split("|") for line in lines if line.startswith("import time:") and line.count("|") == 2]
        names = [row[2].strip() for row in rows]
        after = rows[names.index("site") + 1:] if "site" in names else rows
        best = min(best, (len(after), sum(int(row[0].removeprefix("import time:")) for row in after) / 1e6),
                   key=lambda found: found[1])
    return best


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
    parser.add_argument("--against", type=Path, action="append", default=[],
                        help="another checkout whose engine is timed in the same run (may be given again)")
    parser.add_argument("--no-load", action="store_true", help="skip loading each bundled game in this process")
    args = parser.parse_args(argv)
    roots = [ROOT] + [folder.resolve() for folder in args.against]
    print(f"Python {sys.version.split()[0]}, best of {args.repeat}; seconds cold (compiled) → warm (cached); "
          f"load average {load_average()}")
    for name in [] if args.no_load else bundled_games():
        cold, warm = load_times(name, args.repeat)
        print(f"load_game({name!r}):{'':<{14 - len(name)}} {cold:6.3f} → {warm:6.3f}")
    print("commands, wall (CPU)" + "".join(f"; against {root} ({root.name})" for root in roots[1:]))
    for name in args.games.split(","):
        for (label, root), ((cold, cold_cpu), (warm, warm_cpu)) in command_times(name, args.repeat, roots).items():
            command, *rest = label.split()
            which = "" if root == ROOT else f"  ({root.name})"
            print(f"meeple {' '.join([command, name, *rest])}:".ljust(36) +
                  f"{cold:6.3f} ({cold_cpu:5.3f}) → {warm:6.3f} ({warm_cpu:5.3f}){which}")
    print("warm, imported after Python's start-up: modules (their own import time, the least of the runs)")
    for name in args.games.split(","):
        for label, template in COMMANDS.items():
            for root in roots:
                modules, seconds = warm_imports([a.format(game=name) for a in template], root, args.repeat)
                command, *rest = label.split()
                which = "" if root == ROOT else f"  ({root.name})"
                print(f"meeple {' '.join([command, name, *rest])}:".ljust(36) +
                      f"{modules:4d} ({seconds:5.3f} s){which}")
    print(f"load average {load_average()}")
    return 0


def load_average() -> str:
    """The machine's load average over 1, 5 and 15 minutes (what else was running while the figures were taken)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
