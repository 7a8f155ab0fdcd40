"""What test files cost, printed (not a timed test): each file's default run (`-m 'not slow'`) in a fresh
pytest process of its own, one after the other, in CPU seconds (user and system, the process's and its
children's: steadier than wall on a busy machine, and what the suite's CPU figure adds up) and in wall seconds.
`--against DIR` runs another checkout's copy of each file too (an earlier commit unpacked there:
`git archive REV | tar -x -C DIR`), the two taken in turn, so that before and after share the machine's load.
`--collect` also prints what collecting the whole default suite costs (`pytest --collect-only`: what each xdist
worker pays before its first test), twice, the second after the first has kept any bytecode it may keep.
`--all` takes every tests/test_*.py of the checkout.

    python benchmarks/test_cost.py tests/test_random_play.py tests/test_error_corpus.py [--against DIR]
    python benchmarks/test_cost.py --all --collect
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cost(checkout: Path, test_file: str, *options: str) -> tuple[float, float, str]:
    """CPU and wall seconds of one file's default run in `checkout` (or of the whole suite's with `options`, e.g.
    `--collect-only`, and no file), and pytest's last line."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options]
    argv += [test_file] if test_file else []
    done = subprocess.run(argv, cwd=checkout, env=env, capture_output=True, text=True, check=False)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    lines = done.stdout.strip().splitlines()
    return cpu, wall, lines[-1] if lines else done.stderr.strip()[-80:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="test files, relative to the checkout")
    parser.add_argument("--all", action="store_true", help="every tests/test_*.py of this checkout")
    parser.add_argument("--collect", action="store_true", help="also the cost of collecting the whole suite")
    parser.add_argument("--against", type=Path, help="another checkout whose copy of each file runs too")
    args = parser.parse_args()
    if args.all:
        args.files += sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("test_*.py"))
    sides = [("this", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    totals = {name: [0.0, 0.0] for name, _ in sides}
    print(f"{'file':40} {'checkout':8} {'CPU s':>7} {'wall s':>7}  pytest")
    for run in ("collect", "collect again") if args.collect else ():
        for name, checkout in reversed(sides):
            cpu, wall, last = cost(checkout, "", "--collect-only")
            print(f"{run:40} {name:8} {cpu:7.1f} {wall:7.1f}  {last}", flush=True)
    for test_file in args.files:
        for name, checkout in reversed(sides):  # the other checkout first: before, then after
            if not (checkout / test_file).is_file():
                print(f"{test_file:40} {name:8} {'-':>7} {'-':>7}  (no such file there)")
                continue
            cpu, wall, last = cost(checkout, test_file)
            totals[name][0] += cpu
            totals[name][1] += wall
            print(f"{test_file:40} {name:8} {cpu:7.1f} {wall:7.1f}  {last}", flush=True)
    for name, (cpu, wall) in totals.items():
        print(f"{'total':40} {name:8} {cpu:7.1f} {wall:7.1f}")


if __name__ == "__main__":
    main()
