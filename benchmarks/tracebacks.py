"""What giving a traceback the rules' YAML lines costs (run/tracebacks.py), printed (not a timed test): the
traceback of a failure D calls deep in a module named like a game's generated one (each generated frame gets a
YAML frame before it), cold (no placed code compiled yet) and warm (the same places again), the best of R runs;
per traceback and per generated frame. Only a failing match pays it (`rule_error`, an internal error's print).

    python benchmarks/tracebacks.py [--repeat R] [--depths 1,10,100,900]
"""

from __future__ import annotations

import argparse
import linecache
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's engine, not an installed one

from interpreter.diagnostics import Pos  # noqa: E402
from interpreter.run import tracebacks  # noqa: E402

GENERATED = "<meeple game bench>"
SOURCE = "def phase_x(n):\n    if n > 1: return phase_x(n - 1)\n    return 1 // (n - 1)\n"


def failure(depth: int) -> BaseException:
    where: dict = {}
    exec(compile(SOURCE, GENERATED, "exec"), where)
    try:
        where["phase_x"](depth)
    except ZeroDivisionError as err:
        return err
    raise AssertionError("no failure")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--depths", default="1,10,100,900")
    args = parser.parse_args()
    sys.setrecursionlimit(5000)
    linecache.cache[GENERATED] = (len(SOURCE), None, SOURCE.splitlines(True), GENERATED)
    with tempfile.TemporaryDirectory() as folder:
        yaml_file = str(Path(folder) / "game.yaml")
        Path(yaml_file).write_text("phases:\n  x: |\n    if n > 1: x n - 1\n    set pot to 1 / (n - 1)\n")
        lines = {2: Pos(yaml_file, 3, 5), 3: Pos(yaml_file, 4, 16)}

        def places_of(name: str):
            return lines.get if name == GENERATED else None

        print(f"{'depth':>6} {'cold µs':>10} {'warm µs':>10} {'warm µs/frame':>14}")
        for depth in (int(d) for d in args.depths.split(",")):
            cold = warm = float("inf")
            for _ in range(args.repeat):
                tracebacks._placed_code.cache_clear()
                for first in (True, False):
                    err = failure(depth)
                    start = time.perf_counter()
                    tracebacks.show_rules_lines(err, places_of)
                    spent = time.perf_counter() - start
                    if first:
                        cold = min(cold, spent)
                    else:
                        warm = min(warm, spent)
            print(f"{depth:>6} {cold * 1e6:>10.1f} {warm * 1e6:>10.1f} {warm * 1e6 / depth:>14.2f}")


if __name__ == "__main__":
    main()
