"""What a search bot pays for its primitives, per bundled game, early, midway and late in a match.

    python benchmarks/search.py [--games hearts,go-fish] [--seeds S] [--repeat R] [--determinize]

For each game (4 players where it allows 4, else its default count), S random matches are played
through the step API and copied after 10%, 50% and 90% of their decisions. At each point, the median
over the S matches and R repeats of:
- `det first`: `determinize` for the seat to act on a copy with no world kept (a fresh draw);
  `det next`: a second call at the same point (the kept world moved on); `det carried`: a call at the
  seat's next turn, the world drawn at this one kept (what a bot pays at each of its turns); `det copy`:
  `clone()` of the copy once it drew, and a draw on that clone (which starts from the beliefs its match keeps:
  what "copy, then draw" costs); these four in CPU time; `replay`: the match's answers given again from its start
  through the step API (`match.replay`), in CPU time: what one play of a world with a history of its own costs at
  the least, the floor of a first draw (quietly, as `sim` plays, it would cost about `done` × `sim/dec`); `no world`:
  draws that found none (each printed under the table);
- `clone`: `m.clone()`, and with its first use (the rebuild of its running flow);
- `info`: `information_state(seat)` after one more decision (the seat's earlier one already rendered), in CPU
  time (a wall-clock figure of one call of some 50 µs is mostly the other processes' time on a shared machine;
  `benchmarks/information_after.py` has the least CPU time of many runs of each call, and bytecodes);
- `pickle`: a pickle round trip, and whether it read the game's folder (found or compiled it again);
- `rebuild`: what a quiet rollout pays once, before its first decision: the kept base thawed and the
  answers since sent again (`Match._quiet_flow`);
- `rollout/dec`: a quiet rollout (`interpreter.rollout`) to the end with the match's own random bots
  (so it makes the very decisions the match went on to make), per decision (its rebuild left out),
  against `sim/dec`: the same decisions in `simulate` of the same seed (timed by a watch from the
  point to the end, the watch's own calls taken off); `ratio` (target ≤ 1.3). These three are CPU
  time, the median of R repeats each over the S matches, rollouts and `sim` taking turns.
`done`: decisions made at the point. Figures in µs. `--determinize`: the determinize columns only.
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from interpreter import game as game_module
from interpreter.game import load_game
from interpreter.load.loader import bundled_games
from interpreter.run.belief import NoConsistentWorld
from interpreter.run.match import replay
from interpreter.run.random_bots import RandomBots, random_bot
from interpreter.run.rollout import rollout
from interpreter.run.sim import simulate

POINTS = (("early", 0.1), ("mid", 0.5), ("late", 0.9))
COLUMNS = ("game", "p", "point", "done", "det first", "det next", "det copy", "det carried", "replay", "no world",
           "clone", "+use", "info", "pickle", "folder", "rebuild", "rollout/dec", "sim/dec", "ratio")
ERRORS: list[str] = []  # the draws that found no world, printed under the table


def players_of(game) -> int:
    return 4 if game.min_players <= 4 <= game.max_players else game.default_players


class Point(NamedTuple):
    """A copy of a random match at a point, the random bots' state there and the decisions left."""

    match: Any
    bots: RandomBots
    left: int


def copies_at(game, players: int, seed: int) -> dict[str, Point]:
    """A random match (step API, the random bots of `sim`) copied at each point of POINTS."""
    decisions = simulate(game, players, seed).decisions  # the same match, played as `sim` plays it
    cuts = {int(decisions * share): name for name, share in POINTS}
    m, bot, out = game.new_match(players=players, seed=seed), random_bot(seed), {}
    while not m.over and len(out) < len(cuts):
        for p in m.to_act():
            if len(m.history) in cuts and cuts[len(m.history)] not in out:
                out[cuts[len(m.history)]] = Point(m.clone(), copy.copy(bot), decisions - len(m.history))
            m.apply(p, bot.pick(len(m.legal_actions(p))))
    return out


def sim_from(game, players: int, seed: int, decisions: int) -> tuple[float, int]:
    """CPU µs that `simulate(seed)` spends from its first decision past `decisions` made to its end,
    scores included (a watch reads the clock there), and how many times the watch was called since (for
    its own cost to be taken off)."""
    marks: list[float] = []
    calls = [0]

    def watch(game, st, seed, made, at="decision"):
        if marks:
            calls[0] += 1
        elif made >= decisions:
            marks.append(time.process_time())

    simulate(game, players, seed, watch)
    return (time.process_time() - marks[0]) * 1e6, calls[0]


def call_cost() -> float:
    """µs of one call of a watch like `sim_from`'s."""
    marks = [0.0]

    def watch(game, st, seed, made, at="decision"):
        if marks:
            marks[0] += 1

    t0 = time.perf_counter()
    for i in range(100_000):
        watch(None, None, 0, i)
    return (time.perf_counter() - t0) * 10


def timed(fn) -> float:
    """µs of one call."""
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1e6


def cpu_timed(fn) -> float:
    """CPU µs of one call (`time.process_time`: a loaded machine's other work left out)."""
    t0 = time.process_time()
    fn()
    return (time.process_time() - t0) * 1e6


def folder_reads(m) -> int:
    """How often a pickle round trip of `m` looked for or compiled its game's folder."""
    calls = []
    find, load = game_module.find_game, game_module._load
    game_module.find_game = lambda name: calls.append(name) or find(name)  # type: ignore[assignment]
    game_module._load = lambda folder, stamp: calls.append(folder) or load(folder, stamp)  # type: ignore[assignment]
    try:
        pickle.loads(pickle.dumps(m))
    finally:
        game_module.find_game, game_module._load = find, load
    return len(calls)


def determinize_cost(matches, repeat: int) -> list[str]:
    """A fresh draw (on a copy with no world kept), the next draws at the same point (the kept world
    moved on), a draw on a clone of the copy (its belief carried), a draw at the seat's next turn (the world kept
    from this one carried on), and how many draws found no world."""
    firsts, nexts, copied, carried, replays, failed, tried = [], [], [], [], [], 0, 0
    for m in matches:
        seat = m.to_act()[0] if m.to_act() else 0
        for k in range(repeat):
            replays.append(cpu_timed(lambda m=m: replay(m.game, m.players, m.seed, list(m.history))))
            c = m.clone()
            c.__dict__.pop("_kept", None)
            tried += 1
            try:
                firsts.append(cpu_timed(lambda c=c, k=k, s=seat: c.determinize(s, random.Random(k))))
                copied.append(cpu_timed(lambda c=c, k=k, s=seat: c.clone().determinize(s, random.Random(k + 500))))
                nexts.append(cpu_timed(lambda c=c, k=k, s=seat: c.determinize(s, random.Random(k + 1000))))
                bot = random.Random(k)
                while not c.over:
                    acting = c.to_act()
                    for p in acting:
                        c.apply(p, bot.randrange(len(c.legal_actions(p))))
                    if seat in c.to_act():
                        tried += 1
                        carried.append(cpu_timed(lambda c=c, k=k, s=seat: c.determinize(s, random.Random(k + 2000))))
                        break
            except NoConsistentWorld as err:
                failed += 1
                ERRORS.append(f"{m.game.name}, {len(m.history)} decisions: {err}")

    def median(xs: list[float]) -> str:
        return f"{statistics.median(xs):,.0f}" if xs else "-"

    return [median(firsts), median(nexts), median(copied), median(carried), median(replays), f"{failed}/{tried}"]


def info_cost(m, k: int) -> float:
    c = m.clone()
    seat = c.to_act()[0]
    c.information_state(seat)
    for p in c.to_act():
        c.apply(p, k % len(c.legal_actions(p)))
    return cpu_timed(lambda: c.information_state(seat))


def measure(name: str, seeds: int, repeat: int, only_determinize: bool = False) -> list[list[str]]:
    game = load_game(name)
    players = players_of(game)
    at = {seed: copies_at(game, players, seed) for seed in range(seeds)}
    watching = call_cost()
    rows = []
    for point, _share in POINTS:
        here = {seed: copies[point] for seed, copies in at.items() if point in copies}
        if not here:
            continue
        matches = [p.match for p in here.values()]
        if only_determinize:
            rows.append([name, str(players), point, str(round(statistics.mean(len(m.history) for m in matches))),
                         *determinize_cost(matches, repeat), *["-"] * (len(COLUMNS) - 10)])
            continue

        def each(fn, matches=matches) -> float:
            """The median of `fn(match, k)` over the matches and the repeats."""
            return statistics.median(fn(m, k) for k in range(repeat) for m in matches)

        def rolled(here=here) -> float:
            """CPU µs of rolling every copy out with the bots of its own match: the same decisions as `sim`'s."""
            spent = 0.0
            for p in here.values():
                bot = copy.copy(p.bots)
                t0 = time.process_time()
                assert rollout(p.match, bot).decisions == p.left
                spent += time.process_time() - t0
            return spent * 1e6

        def simmed(here=here) -> float:
            """CPU µs `sim` spends on the same decisions (its watch's own calls taken off)."""
            spent = [sim_from(game, players, seed, p.match.st.decisions) for seed, p in here.items()]
            return sum(t - calls * watching for t, calls in spent)

        def rebuilt(matches=matches) -> float:
            """CPU µs of the rollouts' rebuilds."""
            t0 = time.process_time()
            for m in matches:
                m._quiet_flow()
            return (time.process_time() - t0) * 1e6

        left = sum(p.left for p in here.values()) or 1
        rebuilds, pairs = [], []
        for _ in range(repeat):  # each figure in turn, so that the machine's load weighs on them alike
            rebuilds.append(rebuilt())
            pairs.append(((rolled() - rebuilds[-1]) / left, simmed() / left))
        rebuild = statistics.median(rebuilds) / len(matches)
        roll, sim = statistics.median(r for r, _ in pairs), statistics.median(s for _, s in pairs)
        ratio = statistics.median(r / s for r, s in pairs)
        reads = max(folder_reads(m) for m in matches)
        rows.append([name, str(players), point, str(round(statistics.mean(len(m.history) for m in matches))),
                     *determinize_cost(matches, repeat),
                     f"{each(lambda m, k: timed(m.clone)):,.1f}",
                     f"{each(lambda m, k: timed(lambda: m.clone().to_act())):,.0f}",
                     f"{each(info_cost):,.0f}",
                     f"{each(lambda m, k: timed(lambda: pickle.loads(pickle.dumps(m)))):,.0f}",
                     "read" if reads else "not read", f"{rebuild:,.0f}",
                     f"{roll:.2f}", f"{sim:.2f}", f"{ratio:.2f}"])
    return rows


def table(rows: list[list[str]]) -> str:
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(COLUMNS)]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=True)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    lines += ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="Search primitives per bundled game (µs).")
    parser.add_argument("--games", help="comma-separated bundled game names (default: all)")
    parser.add_argument("--seeds", type=int, default=5, help="matches per game (default 5)")
    parser.add_argument("--repeat", type=int, default=5, help="repeats of each figure; the median is printed")
    parser.add_argument("--determinize", action="store_true", help="only the determinize columns (the others: -)")
    args = parser.parse_args()
    names = args.games.split(",") if args.games else sorted(bundled_games())
    rows = []
    for name in names:
        rows += measure(name, args.seeds, args.repeat, args.determinize)
        print(f"{name}: done", file=sys.stderr)
    print(table(rows))
    for i, error in enumerate(ERRORS, 1):
        print(f"({i}) {error}")


if __name__ == "__main__":
    main()
