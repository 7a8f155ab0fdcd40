"""What `determinize` costs where no rule has read a card's face (interpreter/run/free_worlds.py): the world
drawn without replay against the world drawn and played by `belief`, early, midway and late in a match.

    python benchmarks/free_worlds.py [--games tests/games/kuhn-poker,...] [--seeds S] [--draws D]

For each game (two players), S random matches are played through the step API and copied after 10%, 50% and
90% of their decisions. At each point, for the seat to act, in CPU µs, the median over the matches of:
- `first`: a draw on a fresh copy of a match no copy drew from yet (what a bot pays on a match it was just
  handed: the seat's walk of the events and its free cards, kept as the match was played at each base it kept,
  carried on over the events since);
- `copied`: a draw on a fresh copy made after another copy drew (the walk of the events, kept with the record
  the copies share, is not made again);
- `next`: a draw at the same point again, D draws each (what a search pays at every iteration);
- `belief first`, `belief next`: the same by `belief.determinize` (the draw played from the match's start);
- `fast`: the share of the points where the fast path applied.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from walker import walk_length, walker

from interpreter.game import load_game
from interpreter.run import belief, free_worlds
from interpreter.run.match import Match

POINTS = (("early", 0.1), ("mid", 0.5), ("late", 0.9))
GAMES = "tests/games/kuhn-poker,tests/games/leduc-poker"


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


def cpu(fn, times: int = 1) -> float:
    """CPU µs per call of `fn`."""
    start = time.process_time()
    for _ in range(times):
        fn()
    return (time.process_time() - start) / times * 1e6


def measure(path: str, seeds: int, draws: int) -> list[list[str]]:
    game = load_game(path)
    at: dict[str, list[Match]] = {name: [] for name, _ in POINTS}
    for seed in range(seeds):
        for name, m in copies_at(game, seed).items():
            at[name].append(m)
    rows = []
    for name, _ in POINTS:
        cols: dict[str, list[float]] = {"first": [], "copied": [], "next": [], "belief first": [], "belief next": []}
        fast = 0
        for k, m in enumerate(at[name]):
            seat = m.to_act()[0]
            rng = random.Random(k)
            c = m.clone()
            cols["first"].append(cpu(lambda c=c, s=seat, r=rng: c.determinize(s, r)))
            again = m.clone()
            cols["copied"].append(cpu(lambda c=again, s=seat, r=rng: c.determinize(s, r)))
            cols["next"].append(cpu(lambda c=c, s=seat, r=rng: c.determinize(s, r), draws))
            fast += free_worlds.free_world(m.clone(), seat, rng) is not None
            b = m.clone()
            cols["belief first"].append(cpu(lambda b=b, s=seat, r=rng: belief.determinize(b, s, r)))
            cols["belief next"].append(cpu(lambda b=b, s=seat, r=rng: belief.determinize(b, s, r), draws))
        done = statistics.median(len(m.history) for m in at[name]) if at[name] else 0
        rows.append([path, name, f"{done:g}", *(f"{statistics.median(v):,.0f}" if v else "-" for v in cols.values()),
                     f"{fast}/{len(at[name])}"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=GAMES, help="comma-separated games (bundled names or folders)")
    parser.add_argument("--seeds", type=int, default=10, help="matches per game")
    parser.add_argument("--draws", type=int, default=200, help="draws at the same point, for `next`")
    args = parser.parse_args()
    head = ["game", "point", "done", "first", "copied", "next", "belief first", "belief next", "fast"]
    rows = [row for path in args.games.split(",") for row in measure(path, args.seeds, args.draws)]
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, ["-" * w for w in widths], *rows]:
        print("| " + " | ".join(str(x).ljust(w) for x, w in zip(r, widths, strict=True)) + " |")


if __name__ == "__main__":
    main()
