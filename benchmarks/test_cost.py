"""What test files cost, printed (not a timed test): each file's default run (`-m 'not slow'`) in a fresh
pytest process of its own, one after the other, in CPU seconds (user and system, the process's and its
children's: steadier than wall on a busy machine, and what the suite's CPU figure adds up) and in wall seconds.
`--against DIR` runs another checkout's copy of each file too (an earlier commit unpacked there:
`git archive REV | tar -x -C DIR`), the two taken in turn, so that before and after share the machine's load.
`--collect` also prints what collecting the whole default suite costs (`pytest --collect-only`: what each xdist
worker pays before its first test), twice, the second after the first has kept any bytecode it may keep.
`--all` takes every tests/test_*.py of the checkout.

`--per-test N` runs the files (with `--all`, the whole default suite) in one pytest run instead (`--workers W`:
with pytest-xdist, as the suite runs) and prints where its CPU went: the N dearest tests (set-up and tear-down
included, a shared fixture charged to the first test that asks for it; with the CPU of the subprocesses it
waited for), each file's sum, what each process spent before its first test, and what the cycle collector took.

    python benchmarks/test_cost.py tests/test_random_play.py tests/test_error_corpus.py [--against DIR]
    python benchmarks/test_cost.py --all --collect
    python benchmarks/test_cost.py --all --per-test 40 --workers 2
    python benchmarks/test_cost.py --mypy

`--mypy` prints what tests/test_types.py's check costs with an empty cache (a fresh machine, as CI is) and warm.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import pytest

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


# ---- --per-test: this module is also the pytest plugin (`-p test_cost`) each test process loads -------------

RECORDS = "TEST_COST_RECORDS"  # the folder the plugin writes each process's records to
_spent: dict = {"rows": [], "gc": 0.0}


def _cpu() -> tuple[float, float]:
    """This process's CPU seconds, and those of the subprocesses it has waited for."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time(), children.ru_utime + children.ru_stime


def _collector(phase: str, info: dict) -> None:
    if phase == "start":
        _spent["gc_start"] = time.process_time()
    elif "gc_start" in _spent:
        _spent["gc"] += time.process_time() - _spent.pop("gc_start")


def pytest_configure(config) -> None:
    if os.environ.get(RECORDS):
        gc.callbacks.append(_collector)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before = _cpu()
    yield
    after = _cpu()
    _spent["rows"].append((item.nodeid, after[0] - before[0], after[1] - before[1]))


def pytest_unconfigure(config) -> None:
    folder = os.environ.get(RECORDS)
    if not folder or not _spent["rows"]:
        return
    tests = sum(own + children for _, own, children in _spent["rows"])
    own, children = _cpu()
    name = os.environ.get("PYTEST_XDIST_WORKER", "main")
    record = {"rows": _spent["rows"], "gc": _spent["gc"], "before_tests": own + children - tests}
    Path(folder, f"{name}.json").write_text(json.dumps(record), encoding="utf-8")


def per_test(files: list[str], top: int, workers: int) -> None:
    """One pytest run of `files` (all of the default suite if none), each test's CPU recorded by the plugin."""
    with tempfile.TemporaryDirectory(prefix="test-cost-") as folder:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "benchmarks")]), RECORDS: folder}
        argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "test_cost"]
        argv += ["-n", str(workers)] if workers else []
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        done = subprocess.run([*argv, *files], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        records = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in Path(folder).glob("*.json")}
    lines = done.stdout.strip().splitlines()
    rows = [row for record in records.values() for row in record["rows"]]
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for nodeid, own, children in rows:
        sums = by_file[nodeid.split("::")[0]]
        sums[0] += own
        sums[1] += children
        sums[2] += 1
    total = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    print(f"the run: {total:.1f} s of CPU, {wall:.1f} s of wall; {lines[-1] if lines else done.stderr[-200:]}")
    print(f"tests: {sum(p + c for _, p, c in rows):.1f} s of CPU ({sum(c for *_, c in rows):.1f} in subprocesses); "
          f"the cycle collector: {sum(r['gc'] for r in records.values()):.1f} s")
    for name, record in sorted(records.items()):
        print(f"  {name}: {record['before_tests']:.1f} s of CPU besides its tests (start, collection, end)")
    print(f"\n{'CPU s':>7} {'subproc':>7} {'tests':>5}  file")
    for name, (own, children, count) in sorted(by_file.items(), key=lambda kv: -(kv[1][0] + kv[1][1])):
        print(f"{own + children:7.1f} {children:7.1f} {count:5}  {name}")
    print(f"\n{'CPU s':>7} {'subproc':>7}  test (the {top} dearest)")
    for nodeid, own, children in sorted(rows, key=lambda row: -(row[1] + row[2]))[:top]:
        print(f"{own + children:7.2f} {children:7.2f}  {nodeid}")


def mypy_cost() -> None:
    """The package's mypy check (pyproject.toml's settings) in a cache folder of its own: empty, then warm."""
    with tempfile.TemporaryDirectory(prefix="mypy-cost-") as cache:
        for run in ("empty cache", "warm cache"):
            argv = [sys.executable, "-m", "mypy", "--config-file", "pyproject.toml", "--cache-dir", cache,
                    "interpreter"]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.monotonic()
            done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
            wall = time.monotonic() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            print(f"mypy, {run}: {cpu:.1f} s of CPU, {wall:.1f} s of wall; {done.stdout.strip().splitlines()[-1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="test files, relative to the checkout")
    parser.add_argument("--all", action="store_true", help="every tests/test_*.py of this checkout")
    parser.add_argument("--collect", action="store_true", help="also the cost of collecting the whole suite")
    parser.add_argument("--against", type=Path, help="another checkout whose copy of each file runs too")
    parser.add_argument("--per-test", type=int, metavar="N", help="one run; print the N dearest tests and each file")
    parser.add_argument("--workers", type=int, default=0, help="with --per-test: pytest-xdist workers (-n)")
    parser.add_argument("--mypy", action="store_true", help="what the mypy check costs, empty cache and warm")
    args = parser.parse_args()
    if args.mypy:
        mypy_cost()
        return
    if args.per_test is not None:
        per_test([] if args.all else args.files, args.per_test, args.workers)
        return
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
