"""What `determinize` costs at a seat's next turn, the world drawn at its last turn carried on (what a search bot
pays at each of its turns), and where that time goes.

    python benchmarks/carried.py [--games hearts,overloaded] [--seeds S] [--repeat R] [--share 0.9] [--bytecodes]
                                 [--next]

For each game (4 players where it allows 4, else its default count), S random matches (the benchmarks' walk,
`walker.py`) are copied after a share of their decisions (`--share`, default 0.9: late). At each copy, R times: a
fresh draw for the seat to act (not timed), random play on to that seat's next turn, then the carried draw, timed in
CPU (`time.process_time`). Printed per game: the draws, their median, 90th percentile and worst (ms), and the share
of all their time spent in: the answers given again (`Match.apply`: the rules, the watcher, the questions), the
seat's observations rendered to compare (`information.render`), copies rebuilt (`Match._resume`), and the rest (the
walk of the match's events, drawing, comparing, copying). The three are timed where they are called, not nested in
one another. `--bytecodes`: the same draws counted in bytecodes run (`sys.settrace`, per opcode: a figure a shared
machine's load does not move), their median (and their sum) printed instead of the shares (the draws then take
several times as long). `--instructions`: the same draws counted in machine instructions (valgrind's callgrind,
counting only the draws: each runs inside `sys.call_tracing`, which callgrind counts and dumps after; with
`PYTHONHASHSEED=0`, so that a run is repeated exactly), the cyclic collector's share of them too; `--against DIR`
counts another checkout's draws in the same way (an earlier commit, `git archive COMMIT | tar -x -C DIR`). Needs
valgrind; slow (minutes a game). `--next`: the draw measured is a second one at the copy's own point instead (the
world of the first moved on: what a search pays at each of its iterations).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from callgrind import counted_spans, total
from counted import Counted
from walker import played, players_of, walk_length

from interpreter.game import load_game
from interpreter.run import information
from interpreter.run.match import Match

HERE = Path(__file__).resolve().parent
PARTS = {"answers": (Match, "apply"), "render": (information, "render"), "rebuild": (Match, "_resume")}


class Timed:
    """CPU seconds spent in the PARTS while `on` (a call inside another timed one counted once, by the outer)."""

    def __init__(self) -> None:
        self.spent = dict.fromkeys(PARTS, 0.0)
        self.on = False
        self.depth = 0
        self.saved = {name: getattr(owner, attr) for name, (owner, attr) in PARTS.items()}
        for name, (owner, attr) in PARTS.items():
            setattr(owner, attr, self.wrapped(name, self.saved[name]))

    def wrapped(self, name: str, fn):
        def timed(*args, **kwargs):
            if not self.on or self.depth:
                return fn(*args, **kwargs)
            self.depth += 1
            t0 = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.spent[name] += time.process_time() - t0
                self.depth -= 1
        return timed

    def close(self) -> None:
        for name, (owner, attr) in PARTS.items():
            setattr(owner, attr, self.saved[name])


class Traced:
    """Each draw run inside `sys.call_tracing` (what callgrind counts, and dumps after: see `instructions`)."""

    def __call__(self, fn) -> int:
        sys.call_tracing(fn, ())
        return 0


def counted_draws(name: str, seeds: int, repeat: int, share: float, then: bool = False) -> None:
    """Run under callgrind by `instructions`: the carried draws of one game (`then`: the next draws), each dumped
    apart (`Traced`); prints how many."""
    timed = Timed()
    timed.close()  # (nothing timed)
    print(len(carried_draws(load_game(name), seeds, repeat, share, timed, Traced(), then)), flush=True)


_COLLECTOR = "gc_collect_main"  # the cyclic collector's pass (CPython 3.11; `collect` before it)


def instructions(root: Path, name: str, seeds: int, repeat: int, share: float, then: bool = False
                 ) -> list[tuple[int, int]]:
    """Machine instructions of each carried draw of one game, and of the collector's passes in it, with the engine
    of `root` (`counted_draws`, under callgrind)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "draws"
        printed = counted_spans(root, "carried", "counted_draws", [name, seeds, repeat, share, then], out)
        draws = int(printed.split()[-1])
        found = []
        for i in range(draws):
            dump = Path(f"{out}.{i + 1}")
            whole = total(dump.read_text())
            annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(dump)],
                                       capture_output=True, text=True, check=True).stdout
            collector = sum(int(line.split()[0].replace(",", "")) for line in annotated.splitlines()
                            if f"gcmodule.c:{_COLLECTOR} " in line)
            found.append((whole, collector))
    return found


def counted(names: list[str], engines: list[Path], args: argparse.Namespace) -> None:
    """`main` with `--instructions`: per game and engine, the carried draws' instructions (median, 90th percentile,
    worst, all) and the collector's share of them."""
    print("| game | engine | draws | median instructions | p90 | worst | all | collector |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        for root in engines:
            found = instructions(root, name, args.seeds, args.repeat, args.share, args.next)
            counts = sorted(total for total, _ in found) or [0]
            whole = sum(total for total, _ in found) or 1
            print(f"| {name} | {root.name} | {len(found)} | {statistics.median(counts):,.0f} | "
                  f"{counts[int(len(counts) * 0.9)]:,.0f} | {counts[-1]:,.0f} | {whole:,} | "
                  f"{sum(c for _, c in found) / whole:.1%} |", flush=True)


def carried_draws(game, seeds: int, repeat: int, share: float, timed: Timed,
                  counted: Counted | Traced | None = None, then: bool = False) -> list[float]:
    """CPU seconds of each carried draw (with `counted`: bytecodes run, or each draw traced for callgrind; `then`:
    of each next draw, at the point of the first)."""
    players = players_of(game)
    out: list[float] = []
    for seed in range(seeds):
        m = played(game, players, seed, int(walk_length(game, players, seed) * share))
        if m.over:
            continue
        seat = m.to_act()[0]
        for k in range(repeat):
            c = m.clone()
            c.__dict__.pop("_kept", None)
            c.determinize(seat, random.Random(k))
            play = random.Random(k)
            while not c.over and not then:
                for p in c.to_act():
                    c.apply(p, play.randrange(len(c.legal_actions(p))))
                if seat in c.to_act():
                    break
            if c.over:
                continue
            drawn = k + (1000 if then else 2000)
            if counted is not None:
                out.append(counted(lambda c=c, s=seat, drawn=drawn: c.determinize(s, random.Random(drawn))))
                continue
            timed.on = True
            t0 = time.process_time()
            c.determinize(seat, random.Random(drawn))
            out.append(time.process_time() - t0)
            timed.on = False
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="Carried determinize: CPU per draw, and where it goes.")
    parser.add_argument("--games", default="hearts,overloaded", help="comma-separated bundled game names")
    parser.add_argument("--seeds", type=int, default=9, help="matches per game (default 9)")
    parser.add_argument("--repeat", type=int, default=2, help="carried draws per match (default 2)")
    parser.add_argument("--share", type=float, default=0.9, help="share of the match's decisions made (default 0.9)")
    parser.add_argument("--bytecodes", action="store_true", help="count the bytecodes each draw runs, not its time")
    parser.add_argument("--instructions", action="store_true",
                        help="count the machine instructions each draw runs (callgrind), not its time")
    parser.add_argument("--against", type=Path, help="with --instructions: another checkout counted too")
    parser.add_argument("--next", action="store_true",
                        help="the next draw at the copy's point, not the carried one at the seat's next turn")
    args = parser.parse_args()
    if args.instructions:
        engines = [HERE.parent] + ([args.against] if args.against is not None else [])
        counted(args.games.split(","), engines, args)
        return
    if args.bytecodes:
        print("| game | share | draws | median bytecodes | p90 | worst | all |")
        print("|---|---|---|---|---|---|---|")
        for name in args.games.split(","):
            timed = Timed()
            timed.close()  # (nothing timed)
            counts = sorted(carried_draws(load_game(name), args.seeds, args.repeat, args.share, timed, Counted(),
                                          args.next))
            counts = counts or [0]
            print(f"| {name} | {args.share} | {len(counts)} | {statistics.median(counts):,.0f} | "
                  f"{counts[int(len(counts) * 0.9)]:,.0f} | {counts[-1]:,.0f} | {sum(counts):,.0f} |", flush=True)
        return
    print("| game | share | draws | median ms | p90 ms | worst ms | answers | render | rebuild | rest |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in args.games.split(","):
        timed = Timed()
        try:
            times = sorted(carried_draws(load_game(name), args.seeds, args.repeat, args.share, timed, None, args.next))
        finally:
            timed.close()
        total = sum(times) or 1.0
        shares = [timed.spent[part] / total for part in PARTS]
        ms = [t * 1e3 for t in times] or [0.0]
        print(f"| {name} | {args.share} | {len(times)} | {statistics.median(ms):.2f} | {ms[int(len(ms) * 0.9)]:.2f} | "
              f"{ms[-1]:.1f} | " + " | ".join(f"{s:.0%}" for s in shares) + f" | {1 - sum(shares):.0%} |", flush=True)


if __name__ == "__main__":
    main()
