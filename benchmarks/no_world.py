"""How often `determinize` finds no consistent world, per bundled game, over walks of random matches.

    python benchmarks/no_world.py [--games hearts,go-fish] [--seeds S] [--players 2,4] [--every K]
                                  [--fresh] [--check] [--keep DIR] [--slowest N] [--bench]

For each game and player count (by default its smallest, 4 where it allows 4, and its largest), S random
matches are played with the random bots of `sim`; at every K-th decision the seat to act (the seats in
turn where several act) draws a world. By default each draw carries on the world the match kept from the
seat's last draw, as a search bot does at each of its turns; with `--fresh` every draw starts afresh (a copy
with no world kept). `--check` also checks each world: the same information state for the seat, and a legal
history (it replays from its own start). `--keep DIR` pickles (match, seat) of every point with no world.
`--slowest N` prints the N dearest draws (game, players, seed, decisions, seat) and the CPU of all draws.
`--bench` walks as `benchmarks/bench.py`'s information figures do (`information_costs`: its seat and forced
answer at every 9th decision, one generator for all seeds, each world carried on; `--every` is ignored), so
its count of points with no world can be told apart point by point.

Printed per game and player count: draws, draws with no world (and worlds that failed the check), draws that
walked the match (every drawing from the start failed: `stages._walked`), and the CPU time of a draw
(`time.process_time`): median, 90th percentile and worst, in ms.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from walker import walker

from interpreter.game import load_game
from interpreter.load.loader import bundled_games
from interpreter.run.belief import NoConsistentWorld, replayed, stages


def counts_of(game, asked: list[int] | None) -> list[int]:
    if asked:
        return [p for p in asked if game.min_players <= p <= game.max_players]
    mid = 4 if game.min_players <= 4 <= game.max_players else game.default_players
    return sorted({game.min_players, mid, game.max_players})


def walk(game, players: int, seed: int, every: int, fresh: bool, check: bool, keep: Path | None) -> dict:
    """One random match, a world drawn at every `every`-th decision: the draws' CPU seconds and what failed."""
    m = game.new_match(players=players, seed=seed)
    bot, rng = walker(seed), random.Random(seed)
    found = _found()
    turn = 0
    while not m.over:
        acting = m.to_act()
        if len(m.history) % every == 0 and acting:
            seat = acting[turn % len(acting)]
            turn += 1
            drawn = m
            if fresh:
                drawn = m.clone()
                drawn.__dict__.pop("_kept", None)
            _draw(found, m, drawn, seat, rng, check, keep)
        for p in m.to_act():
            m.apply(p, bot.pick(len(m.legal_actions(p))))
    return found


def bench_walk(game, players: int, seed: int, rng: random.Random, check: bool, keep: Path | None) -> dict:
    """One match as `benchmarks/bench.py`'s `information_costs` walks it: after every 9th decision the first option
    is answered, and seat `decisions % players` draws a world (carried on from its last, from `rng`)."""
    m = game.new_match(players=players, seed=seed)
    bot = walker(seed)
    found = _found()
    while not m.over:
        for seat in m.to_act():
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))
        if len(m.history) % 9 or m.over:
            continue
        seat = len(m.history) % players
        m.information_state(seat)  # (as bench.py renders the seat's lines: the next ones render incrementally)
        m.apply(m.to_act()[0], 0)
        if m.over:
            break
        m.information_state(seat)
        _draw(found, m, m, seat, rng, check, keep)
    return found


def _found() -> dict:
    """What a walk's draws found: each draw's CPU seconds, with where it was; the points with no world; the worlds
    that failed the check."""
    return {"times": [], "failed": [], "wrong": 0, "points": []}


def _draw(found: dict, m, drawn, seat: int, rng: random.Random, check: bool, keep: Path | None) -> None:
    """`drawn` (the match `m` itself, or a copy of it with no world kept) draws a world for `seat`, timed; a point
    with no world is noted (and with `keep`, `m` as it was pickled with the seat); with `check`, a world that does
    not give the seat its information state or does not replay from its start counts as wrong."""
    where = f"{m.game.name} {m.players}p seed {m.seed}, {len(m.history)} decisions, P{seat}"
    before = m.clone() if keep is not None else None
    t0 = time.process_time()
    try:
        world = drawn.determinize(seat, rng)
    except NoConsistentWorld as err:
        world = None
        found["failed"].append(f"{where}: {str(err)[:160]}")
        if before is not None and keep is not None:
            before.__dict__.pop("_kept", None)
            with open(keep / f"{m.game.name}_{m.players}_{m.seed}_{len(m.history)}_{seat}.pkl", "wb") as f:
                pickle.dump((before, seat), f)
    found["times"].append(time.process_time() - t0)
    found["points"].append((found["times"][-1], where))
    if world is not None and check:
        try:
            same = world.information_state(seat) == m.information_state(seat)
            replayed(world)
        except AssertionError:
            same = False
        found["wrong"] += not same


def walks_counted() -> list[int]:
    """A counter of the draws that walked the match (`stages._walked`: their drawings from the start all failed)."""
    count = [0]
    walk = stages._walked

    def counted(*args):
        count[0] += 1
        return walk(*args)

    stages._walked = counted
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description="The rate of draws with no consistent world, per bundled game.")
    parser.add_argument("--games", help="comma-separated bundled game names (default: all)")
    parser.add_argument("--seeds", type=int, default=2, help="matches per game and player count (default 2)")
    parser.add_argument("--players", help="comma-separated player counts (default: smallest, 4, largest)")
    parser.add_argument("--every", type=int, default=1, help="draw at every K-th decision (default 1)")
    parser.add_argument("--fresh", action="store_true", help="every draw afresh, no world carried on")
    parser.add_argument("--check", action="store_true", help="check every world (information state, replay)")
    parser.add_argument("--keep", type=Path, help="pickle each point with no world into this folder")
    parser.add_argument("--slowest", type=int, default=0, help="print the N dearest draws and the CPU of all")
    parser.add_argument("--bench", action="store_true", help="walk as bench.py's information figures do")
    args = parser.parse_args()
    names = args.games.split(",") if args.games else sorted(bundled_games())
    asked = [int(p) for p in args.players.split(",")] if args.players else None
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    print("| game | players | draws | no world | wrong | walked | median ms | p90 ms | worst ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    walked = walks_counted()
    errors: list[str] = []
    points: list[tuple[float, str]] = []
    for name in names:
        game = load_game(name)
        for players in counts_of(game, asked):
            times: list[float] = []
            failed = wrong = walked[0] = 0
            rng = random.Random(0)  # (bench.py's: one generator for every seed)
            for seed in range(args.seeds):
                found = bench_walk(game, players, seed, rng, args.check, args.keep) if args.bench else \
                    walk(game, players, seed, args.every, args.fresh, args.check, args.keep)
                times += found["times"]
                failed += len(found["failed"])
                wrong += found["wrong"]
                errors += found["failed"]
                points += found["points"]
            times.sort()
            ms = [t * 1e3 for t in times] or [0.0]
            print(f"| {name} | {players} | {len(times)} | {failed} | {wrong if args.check else '-'} | {walked[0]} | "
                  f"{statistics.median(ms):.1f} | {ms[int(len(ms) * 0.9)]:.1f} | {ms[-1]:.0f} |", flush=True)
    for i, error in enumerate(errors, 1):
        print(f"({i}) {error}")
    if args.slowest:
        print(f"CPU of all {len(points)} draws: {sum(t for t, _ in points):.2f} s; the dearest:")
        for t, where in sorted(points, reverse=True)[:args.slowest]:
            print(f"  {t * 1e3:8.1f} ms  {where}")


if __name__ == "__main__":
    main()
