"""Machine instructions, cache misses and mispredicted branches per match, of `sim` and of the hand-written
Overloaded, counted by valgrind's cachegrind (simulated caches and branch predictor): figures that do not move
with a shared machine's load, and that show what bytecode counts cannot (the interpreter's cost per bytecode,
calls from C, the data a match reads).

    python benchmarks/instructions.py [-n MATCHES] [--against DIR] [--game FOLDER --players P]

Each figure is the difference between a run of MATCHES matches and a run of none (the same start-up), divided
by MATCHES; Overloaded at 4 players, random bots. `--against DIR` counts another checkout's `sim` too (an
earlier commit, `git archive COMMIT | tar -x -C DIR`). `--game` counts the `sim` of another game folder instead
(at P players, 2 by default), with no hand-written match beside it: `--game benchmarks/one-bet`, what a match
costs besides its play. Needs valgrind; slow (a minute or two a figure).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# One run: `sim` or the hand-written match, MATCHES times, after one of each (anything made on first use).
_RUN = """
import random, sys, importlib.util
root, here, which, n, folder, players = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], \\
    int(sys.argv[6])
sys.path.insert(0, root)
from interpreter.game import load_game
from interpreter.run.sim import simulate
spec = importlib.util.spec_from_file_location("hw", here + "/handwritten_overloaded.py")
hw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hw)
game = load_game(folder or root + "/cards/overloaded")
simulate(game, players, 10**6)
hw.play(4, random.Random(10**6))
for seed in range(n):
    simulate(game, players, seed) if which == "sim" else hw.play(4, random.Random(seed))
"""

NAMES = {"Ir": "instructions", "I1mr": "L1 code misses", "D1mr": "L1 data read misses",
         "D1mw": "L1 data write misses", "Bcm": "conditional branches mispredicted",
         "Bim": "indirect branches mispredicted"}


def events(root: Path, which: str, matches: int, cache: str, game: tuple[str, int]) -> dict[str, int]:
    """cachegrind's totals of one run of `matches` matches (of `game`: its folder, "" for Overloaded, and players)."""
    env = dict(os.environ, MEEPLE_CACHE=cache)
    argv = [sys.executable, "-c", _RUN, str(root), str(HERE), which, str(matches), game[0], str(game[1])]
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes",
                        f"--cachegrind-out-file={out.name}", *argv], env=env, capture_output=True, check=True)
        names: list[str] = []
        totals: list[int] = []
        for line in Path(out.name).read_text().splitlines():
            if line.startswith("events:"):
                names = line.split()[1:]
            elif line.startswith("summary:"):
                totals = [int(v) for v in line.split()[1:]]
    return dict(zip(names, totals, strict=True))


def per_match(root: Path, which: str, matches: int, game: tuple[str, int] = ("", 4)) -> dict[str, float]:
    """Each event per match: a run of `matches` matches less a run of none, in a compiled-game cache of its own
    (filled first, so that neither run compiles)."""
    with tempfile.TemporaryDirectory() as cache:
        subprocess.run([sys.executable, "-c", _RUN, str(root), str(HERE), which, "0", *map(str, game)],
                       env=dict(os.environ, MEEPLE_CACHE=cache), capture_output=True, check=True)
        none, some = events(root, which, 0, cache, game), events(root, which, matches, cache, game)
    return {k: (some[k] - none[k]) / matches for k in NAMES}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=300, help="matches per run (default 300)")
    parser.add_argument("--against", type=Path, metavar="DIR", help="another checkout whose sim to count too")
    parser.add_argument("--game", type=Path, metavar="FOLDER", help="count this game's sim alone (not Overloaded's)")
    parser.add_argument("--players", type=int, default=2, help="players of --game's matches (default 2)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("instructions.py: valgrind is needed (its cachegrind tool), and was not found", file=sys.stderr)
        return 1
    if args.game is not None:
        return _one_game(args)
    runs = {"sim": (HERE.parent, "sim"), "hand-written": (HERE.parent, "hw")}
    if args.against is not None:
        runs["sim, against"] = (args.against.resolve(), "sim")
    found = {label: per_match(root, which, args.n) for label, (root, which) in runs.items()}
    print(f"Python {sys.version.split()[0]}, overloaded, 4 players, random bots; per match, {args.n} matches a run")
    print(f"{'':36}" + "".join(f"{label:>16}" for label in found))
    for key, name in NAMES.items():
        print(f"{name:36}" + "".join(f"{f[key]:>16,.0f}" for f in found.values()))
    hand = found["hand-written"]

    def per_thousand(f: dict[str, float]) -> str:
        return (f"{f['D1mr'] / f['Ir'] * 1000:.1f} L1 data read misses, "
                f"{(f['Bcm'] + f['Bim']) / f['Ir'] * 1000:.1f} branches mispredicted")

    print(f"hand-written: per 1,000 instructions {per_thousand(hand)}")
    for label, f in found.items():
        if label != "hand-written":
            print(f"{label}: ratio by instructions (hand-written / {label}) {hand['Ir'] / f['Ir']:.3f}; "
                  f"per 1,000 instructions {per_thousand(f)}")
    return 0


def _one_game(args: argparse.Namespace) -> int:
    """The figures of `--game`'s sim, of this checkout and of `--against`'s."""
    game = (str(args.game.resolve()), args.players)
    roots = {"sim": HERE.parent} | ({"sim, against": args.against.resolve()} if args.against is not None else {})
    found = {label: per_match(root, "sim", args.n, game) for label, root in roots.items()}
    print(f"Python {sys.version.split()[0]}, {args.game.name}, {args.players} players, random bots; per match, "
          f"{args.n} matches a run")
    print(f"{'':36}" + "".join(f"{label:>16}" for label in found))
    for key, name in NAMES.items():
        print(f"{name:36}" + "".join(f"{f[key]:>16,.0f}" for f in found.values()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
