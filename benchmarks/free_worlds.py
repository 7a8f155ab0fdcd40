"""What `determinize` costs where no rule has read a card's face (interpreter/run/free_worlds.py): the world
drawn without replay against the world drawn and played by `belief`, early, midway and late in a match.

    python benchmarks/free_worlds.py [--games tests/games/kuhn-poker,...] [--seeds S] [--draws D]
                                     [--against DIR] [--instructions] [--digest]

For each game (two players), S random matches are played through the step API and copied after 10%, 50% and
90% of their decisions. At each point, for the seat to act, in CPU µs, the median over the matches of:
- `first`: a draw on a fresh copy of a match no copy drew from yet (what a bot pays on a match it was just
  handed: the seat's walk of the events and its free cards, kept as the match was played at each base it kept,
  carried on over the events since);
- `copied`: a draw on a fresh copy made after another copy drew (the walk of the events, kept with the record
  the copies share, is not made again), with a generator in the state `first`'s was (the same world);
- `next`: a draw at the same point again, D draws each (what a search pays at every iteration);
- `belief first`, `belief next`: the same by `belief.determinize` (the draw played from the match's start);
- `fast`: the share of the points where the fast path applied.

`--against DIR` runs the same in another checkout (an earlier commit, `git archive COMMIT | tar -x -C DIR`), each
engine in a fresh Python, in turn, in one run. `--instructions`: `first`, `copied` and `next` counted in machine
instructions instead (valgrind's callgrind, counting only inside the draws, the cyclic collector off; the median
and the mean a draw, the change of the mean against the first engine; needs valgrind). `--digest`: a digest of the
worlds drawn at every decision of the matches (each seat, from a copy of the match, again on it, and from another
copy: each world's places, faces, seed and drawing, and every seat's information state and view in it; the last
world played on to its end), to show that two engines draw the same worlds for the same generator.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from callgrind import counted_spans, total
from walker import walk_length, walker

from interpreter.game import load_game
from interpreter.run import belief, free_worlds
from interpreter.run.match import Match

HERE = Path(__file__).resolve().parent  # the benchmarks' folder
POINTS = (("early", 0.1), ("mid", 0.5), ("late", 0.9))
GAMES = "tests/games/kuhn-poker,tests/games/leduc-poker"
FAST = ("first", "copied", "next")  # the draws without replay, each made by `fast_draws`


def copies_at(game, seed: int) -> dict[str, Match]:
    """A random match (the benchmarks' walk, `walker`) copied at each point of POINTS."""
    decisions = walk_length(game, 2, seed)
    cuts = {int(decisions * share): name for name, share in POINTS}
    m, bot, out = Match(game, 2, seed), walker(seed), {}
    while not m.over:
        for name in (cuts[len(m.history)],) if len(m.history) in cuts else ():
            out.setdefault(name, m.clone())
        for p in m.to_act():
            m.apply(p, bot.pick(len(m.legal_actions(p))))
    return out


def points(game, seeds: int) -> dict[str, list[Match]]:
    """The copies of the matches of seeds 0..seeds-1 at each point (a match too short for a point has none)."""
    at: dict[str, list[Match]] = {name: [] for name, _ in POINTS}
    for seed in range(seeds):
        for name, m in copies_at(game, seed).items():
            at[name].append(m)
    return at


def cpu(fn, times: int = 1) -> float:
    """CPU µs per call of `fn`."""
    start = time.process_time()
    for _ in range(times):
        fn()
    return (time.process_time() - start) / times * 1e6


def fast_draws(m: Match, seat: int, k: int, draws: int, run: Callable[..., float]) -> list[float]:
    """`first`, `copied` and `next` (FAST) at the point of `m`, each as `run(fn, times)` gives it: `first` and `copied`
    draw the same world (a generator seeded with `k` each), `next` draws on from the first's generator."""
    c, rng = m.clone(), random.Random(k)
    first = run(lambda: c.determinize(seat, rng))
    again, same = m.clone(), random.Random(k)
    copied = run(lambda: again.determinize(seat, same))
    return [first, copied, run(lambda: c.determinize(seat, rng), draws)]


def measure(path: str, seeds: int, draws: int) -> list[list[str]]:
    at = points(load_game(path), seeds)
    rows = []
    for name, _ in POINTS:
        cols: dict[str, list[float]] = {kind: [] for kind in (*FAST, "belief first", "belief next")}
        fast = 0
        for k, m in enumerate(at[name]):
            seat = m.to_act()[0]
            for kind, took in zip(FAST, fast_draws(m, seat, k, draws, cpu), strict=True):
                cols[kind].append(took)
            rng = random.Random(k)
            fast += free_worlds.free_world(m.clone(), seat, rng) is not None
            b = m.clone()
            cols["belief first"].append(cpu(lambda b=b, s=seat, r=rng: belief.determinize(b, s, r)))
            cols["belief next"].append(cpu(lambda b=b, s=seat, r=rng: belief.determinize(b, s, r), draws))
        done = statistics.median(len(m.history) for m in at[name]) if at[name] else 0
        rows.append([path, name, f"{done:g}", *(f"{statistics.median(v):,.0f}" if v else "-" for v in cols.values()),
                     f"{fast}/{len(at[name])}"])
    return rows


def rows_of(path: str, seeds: int, draws: int) -> None:
    """Run in a fresh Python by `in_engine`: `measure`'s rows, as JSON."""
    print(json.dumps(measure(path, seeds, draws)))


def in_engine(root: Path, call: str, args: list) -> str:
    """What `call(*args)` of this script prints, run in a fresh Python with the engine of the checkout `root`."""
    code = ("import ast, sys; root, here, call, *args = sys.argv[1:]; sys.path.insert(0, root); "
            "import interpreter; assert interpreter.__file__.startswith(root), interpreter.__file__; "
            "sys.path.insert(0, here); import free_worlds; getattr(free_worlds, call)(*map(ast.literal_eval, args))")
    return subprocess.run([sys.executable, "-c", code, str(root.resolve()), str(HERE), call, *map(repr, args)],
                          capture_output=True, text=True, check=True).stdout


def traced(fn, times: int = 1) -> float:
    """`fn` called `times` times inside `sys.call_tracing` (a span callgrind counts, and dumps after), with a line
    saying how many."""
    sys.call_tracing(lambda: [fn() for _ in range(times)], ())
    print(times, flush=True)
    return 0.0


def counted_draws(path: str, seeds: int, draws: int) -> None:
    """Run under callgrind by `instructions`: at each point of each match, `fast_draws` traced (`traced`), after a line
    naming the point; the cyclic collector off (what it would find is not the draw's doing)."""
    at = points(load_game(path), seeds)
    gc.collect()
    gc.disable()
    for name, _ in POINTS:
        for k, m in enumerate(at[name]):
            print(name, flush=True)
            fast_draws(m, m.to_act()[0], k, draws, traced)


def instructions(root: Path, path: str, seeds: int, draws: int) -> dict[str, list[list[float]]]:
    """Per point, the instructions of each draw of each of FAST (`next`: a draw's share of its span), with the engine
    of `root` (`counted_draws`)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "draws"
        lines = counted_spans(root, "free_worlds", "counted_draws", [path, seeds, draws], out).split()
        found: dict[str, list[list[float]]] = {name: [[] for _ in FAST] for name, _ in POINTS}
        span = 0
        for at in range(0, len(lines), 1 + len(FAST)):
            for kind, times in enumerate(lines[at + 1:at + 1 + len(FAST)]):
                span += 1
                found[lines[at]][kind].append(total(Path(f"{out}.{span}").read_text()) / int(times))
    return found


def counted(paths: list[str], engines: list[Path], seeds: int, draws: int) -> None:
    """`main` with `--instructions`: per game and point, the median and the mean instructions a draw, each engine's
    (the first the one compared with)."""
    print(f"machine instructions a draw (callgrind; median / mean of {seeds} matches; `next` over {draws} draws each)")
    head = ["game", "point", *(f"{kind} {root.name}" for kind in FAST for root in engines)]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for path in paths:
        found = [instructions(root, path, seeds, draws) for root in engines]
        for name, _ in POINTS:
            cells = []
            for kind in range(len(FAST)):
                was = found[0][name][kind]
                for f in found:
                    now = f[name][kind]
                    cell = f"{_median(now):,.0f} / {_mean(now):,.0f}"
                    if f is not found[0] and was and now:
                        cell += f" ({_mean(now) / _mean(was) - 1:+.0%})"
                    cells.append(cell)
            print(f"| {path} | {name} | " + " | ".join(cells) + " |", flush=True)


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def world_digest(path: str, seeds: int) -> None:
    """Print a digest of the worlds drawn at every decision of the walks of seeds 0..seeds-1 (see the module)."""
    game = load_game(path)
    digest = hashlib.blake2b(digest_size=16)
    worlds = 0
    for seed in range(seeds):
        m, bot = Match(game, 2, seed), walker(seed)
        while not m.over:
            for seat in range(2):
                rng, c = random.Random(seed * 1000 + len(m.history) * 10 + seat), m.clone()
                for w in (c.determinize(seat, rng), c.determinize(seat, rng), m.clone().determinize(seat, rng)):
                    digest.update(repr(world_of(w)).encode())
                    worlds += 1
                digest.update(repr(played_on(w, walker(seed + 1))).encode())
            for p in m.to_act():
                m.apply(p, bot.pick(len(m.legal_actions(p))))
    print(worlds, digest.hexdigest())


def world_of(w: Match) -> tuple:
    """What the digest reads of a world: its places, faces, seed, drawing and every seat's information state."""
    seats, (plan, source, upto) = range(w.players), w._drawn
    return (w.st.zones, w.st.face, w.seed, plan.deals, plan.card, source.events, upto, w.history,
            [w.information_state(p) for p in seats], [w.view(p) for p in seats])


def played_on(w: Match, bot) -> tuple:
    """What the digest reads of a world played on to its end by `bot`: its places, faces and scores."""
    while not w.over:
        for p in w.to_act():
            w.apply(p, bot.pick(len(w.legal_actions(p))))
    return w.st.zones, w.st.face, w.scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=GAMES, help="comma-separated games (bundled names or folders)")
    parser.add_argument("--seeds", type=int, default=10, help="matches per game")
    parser.add_argument("--draws", type=int, default=200, help="draws at the same point, for `next`")
    parser.add_argument("--against", type=Path, metavar="DIR", help="another checkout, measured in the same run")
    parser.add_argument("--instructions", action="store_true", help="machine instructions a draw (valgrind)")
    parser.add_argument("--digest", action="store_true", help="a digest of the worlds drawn (see the module)")
    args = parser.parse_args()
    paths = args.games.split(",")
    engines = [HERE.parent] + ([args.against] if args.against is not None else [])
    if args.instructions:
        counted(paths, engines[::-1], args.seeds, args.draws)
        return
    if args.digest:
        for path in paths:
            for root in engines:
                print(path, root.name, in_engine(root, "world_digest", [path, args.seeds]).strip(), flush=True)
        return
    head = ["game", "point", "done", "first", "copied", "next", "belief first", "belief next", "fast", "engine"]
    rows = [[*row, root.name] for path in paths for root in engines[::-1]
            for row in json.loads(in_engine(root, "rows_of", [path, args.seeds, args.draws]))]
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, ["-" * w for w in widths], *rows]:
        print("| " + " | ".join(str(x).ljust(w) for x, w in zip(r, widths, strict=True)) + " |")


if __name__ == "__main__":
    main()
