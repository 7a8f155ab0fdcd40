"""Speed and memory figures of the engine, printed (not a timed test).

    python benchmarks/bench.py [-n GAMES] [--repeat R]
    python benchmarks/bench.py --against DIR [-n GAMES] [--repeat R]

Figures on shared machines are noisy, so rates are per second of the process's CPU time (not wall time), and
the interpreted engine and its yardstick (a straight hand-written Python version of the same rules,
`handwritten_overloaded.py`) run alternately in one process and the best of R runs of each is compared.

`--against DIR` gives only that ratio, for this checkout and another (an earlier commit unpacked with
`git archive COMMIT | tar -x -C DIR`), each in a process of its own, taken in turns R times (each checkout first
every other turn): each turn's ratios, then the median of each (the load of a shared machine moves both alike
within a turn). Within a turn the engine's matches and the hand-written ones alternate 50 at a time, each one's
CPU time summed: a change of load in the turn falls on both alike (run one after the other, the two halves of a
turn saw different loads: at a load of about 8, single turns gave 0.32–0.73 where they now give 0.39–0.44).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from interpreter.game import load_game
from interpreter.load.loader import bundled_games
from interpreter.run.information import new_cache
from interpreter.run.random_bots import bot_bytes, seeded
from interpreter.run.sim import Outcome, run_many, simulate

HERE = Path(__file__).resolve().parent


def handwritten():
    spec = importlib.util.spec_from_file_location("handwritten_overloaded", HERE / "handwritten_overloaded.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rate(fn, games: int) -> float:
    """Calls of `fn(seed)` per second of this process's CPU time (on a shared machine, wall time counts the
    time other processes ran too)."""
    start = time.process_time()
    for seed in range(games):
        fn(seed)
    return games / (time.process_time() - start)


def best_rates(fns: dict, games: int, repeat: int) -> dict[str, float]:
    best = dict.fromkeys(fns, 0.0)
    for _ in range(repeat):
        for name, fn in fns.items():
            best[name] = max(best[name], rate(fn, games))
    return best


def peak_memory(game, players: int, games: int) -> int:
    """Peak traced memory (bytes) of a `sim` run of `games` matches."""
    tracemalloc.start()
    run_many(game, players, games, 0, 1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def copy_costs(game, players: int, seeds: int = 20) -> dict[str, float]:
    """Mean cost in µs of copying a match halfway through (clone; clone and then rebuild its flow, as
    its first use does; pickle round trip) and of the old way, a replay of its decisions from the start,
    over `seeds` matches."""
    import pickle

    from interpreter.run.match import play_random, replay

    def used(m):
        m.clone().to_act()  # a clone rebuilds its running flow when first used

    totals = {"clone": 0.0, "clone_used": 0.0, "pickle": 0.0, "replay": 0.0}
    for seed in range(seeds):
        whole = play_random(game, players, seed)
        half = whole.history[: len(whole.history) // 2]
        m = replay(game, players, seed, half)
        for name, fn, times in (("clone", m.clone, 200),
                                ("clone_used", lambda m=m: used(m), 100),
                                ("pickle", lambda m=m: pickle.loads(pickle.dumps(m)), 50),
                                ("replay", lambda s=seed, h=half: replay(game, players, s, h), 10)):
            start = time.perf_counter()
            for _ in range(times):
                fn()
            totals[name] += (time.perf_counter() - start) / times
    return {name: total / seeds * 1e6 for name, total in totals.items()}


def information_costs(game, players: int, seeds: int = 10) -> dict[str, float]:
    """What a seat's knowledge costs: a whole match through the step API (which watches who sees what,
    unlike `sim`), and at points through a match, in µs: `information_state` after one more decision
    (incremental) and from a fresh copy (everything rendered), and one `determinize`."""
    from walker import walker

    from interpreter.run.belief import NoConsistentWorld
    from interpreter.run.match import play_random

    rng = random.Random(0)
    start = time.perf_counter()
    for seed in range(seeds):
        play_random(game, players, seed)
    step = (time.perf_counter() - start) / seeds * 1e3
    start = time.perf_counter()
    for seed in range(seeds):
        simulate(game, players, seed)
    bare = (time.perf_counter() - start) / seeds * 1e3
    totals = {"info_next": 0.0, "info_fresh": 0.0, "determinize": 0.0}
    points = no_world = 0
    for seed in range(seeds):
        m = game.new_match(players=players, seed=seed)
        bot = walker(seed)
        while not m.over:
            for seat in m.to_act():
                m.apply(seat, bot.pick(len(m.legal_actions(seat))))
            if len(m.history) % 9 == 0 and not m.over:
                seat = len(m.history) % players
                m.information_state(seat)
                m.apply(m.to_act()[0], 0)
                if m.over:
                    break
                t0 = time.perf_counter()
                m.information_state(seat)
                t1 = time.perf_counter()
                fresh = m.clone()
                fresh._seen = [new_cache() for _ in range(players)]  # nothing rendered yet
                t2 = time.perf_counter()
                fresh.information_state(seat)
                t3 = time.perf_counter()
                try:
                    m.determinize(seat, rng)
                except NoConsistentWorld:
                    no_world += 1
                t4 = time.perf_counter()
                totals["info_next"] += t1 - t0
                totals["info_fresh"] += t3 - t2
                totals["determinize"] += t4 - t3
                points += 1
    found = {name: total / points * 1e6 for name, total in totals.items()}
    found.update(step_ms=step, sim_ms=bare, no_world=no_world, points=points)
    return found


def fixed_cost(matches: int, repeat: int) -> dict[str, float]:
    """What a match costs besides its play, in µs (best of `repeat` runs): a `sim` match of One Bet
    (`benchmarks/one-bet`: one shuffle, one card dealt each, one bet each), and of that its random draws begun: its
    chance generator seeded and its bots' stream begun (its first block hashed), as the engine does them."""
    game = load_game(HERE / "one-bet")
    best = min(1 / rate(lambda seed: simulate(game, 2, seed), matches) for _ in range(repeat))
    seeds = min(1 / rate(lambda seed: (seeded(random.Random, seed), next(bot_bytes(seed))), matches)
                for _ in range(repeat))
    return {"match": best * 1e6, "seeding": seeds * 1e6}


def match_parts(game, players: int, matches: int, repeat: int) -> dict[str, float]:
    """Where a `sim` match's time goes besides its play, in µs per match (best of `repeat` runs of `matches`
    seeds): the whole `simulate`; building its state from the compiled game (`State`, which seeds the match's
    chance generator; `seeding`: that seeding alone); seeding the bots' generator; and finishing (scores, winners,
    report groups and the `Outcome`) of matches already played. `play` is what is left: the flow itself."""
    from interpreter.run.flow import finish
    from interpreter.run.runtime import State
    from interpreter.run.sim import _play_random

    layout, steps = game.model.setup(players), game.max_steps

    def played(seed: int):
        st = State(layout, players, seed, None, steps)
        st.table_counters = game.counter_names
        return st, _play_random(game, st, seed)[0]

    ended = [played(seed) for seed in range(matches)]

    def finished(seed: int) -> None:
        st, declared = ended[seed]
        scores, winners = finish(game, st, declared)
        groups = [str(game.report_by(st, p)) for p in range(players)] if game.report_by else [""] * players
        Outcome(scores, winners, st.turn or st.rounds_played, st.decisions, list(st.gc), False, st.rounds_played,
                groups)

    parts = {
        "match": lambda seed: simulate(game, players, seed),
        "state": lambda seed: State(layout, players, seed, None, steps),
        "seeding": lambda seed: seeded(random.Random, seed),
        "bots": lambda seed: next(bot_bytes(seed)),
        "finish": finished,
    }
    found = {name: min(1 / rate(fn, matches) for _ in range(repeat)) * 1e6 for name, fn in parts.items()}
    found["play"] = found["match"] - found["state"] - found["bots"] - found["finish"]
    return found


def start_up() -> dict[str, float]:
    """Seconds of a fresh process for `meeple games` and `meeple validate cards/overloaded` (best of 3)."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    found = {}
    for label, argv in (("games", ["games"]), ("validate", ["validate", str(root / "cards" / "overloaded")])):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "interpreter", *argv], cwd=root, capture_output=True, check=True)
            best = min(best, time.perf_counter() - start)
        found[label] = best
    return found


# One turn of `--against`: the ratio of an engine (its checkout first on the path) to the hand-written yardstick.
_ONE_RATIO = """
import json, random, sys, time, importlib.util
root, here, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, root)
from interpreter.game import load_game
from interpreter.run.sim import simulate
spec = importlib.util.spec_from_file_location("hw", here + "/handwritten_overloaded.py")
hw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hw)
game = load_game(root + "/cards/overloaded")
spent = [0.0, 0.0]
for start in range(0, n, 50):  # in turns of 50 matches each: what the machine's load does to one, it does to both
    seeds = range(start, min(start + 50, n))
    begun = time.process_time()
    for seed in seeds:
        simulate(game, 4, seed)
    middle = time.process_time()
    for seed in seeds:
        hw.play(4, random.Random(seed))
    spent[0] += middle - begun
    spent[1] += time.process_time() - middle
print(json.dumps([n / spent[0], n / spent[1]]))
"""


def against(other: Path, games: int, turns: int) -> int:
    """The interpreted / hand-written ratio of this checkout and of `other`, taken in turns."""
    roots = {"this": HERE.parent, "against": other.resolve()}
    ratios: dict[str, list[float]] = {name: [] for name in roots}
    print(f"Python {sys.version.split()[0]}, overloaded, 4 players, {games} matches a run; ratio interpreted / "
          "hand-written")
    for turn in range(turns):
        shown = {}
        for name in (list(roots) if turn % 2 == 0 else list(roots)[::-1]):  # each goes first every other turn
            out = subprocess.run([sys.executable, "-c", _ONE_RATIO, str(roots[name]), str(HERE), str(games)],
                                 capture_output=True, text=True, check=True).stdout
            a, b = json.loads(out)
            ratios[name].append(a / b)
            shown[name] = f"{name} {a / b:.3f} ({a:,.0f} against {b:,.0f} games/s)"
        print(f"turn {turn + 1}: " + "; ".join(shown[name] for name in roots))
    print("median: " + "; ".join(f"{name} {statistics.median(r):.3f}" for name, r in ratios.items()))
    paired = [a / b for a, b in zip(ratios["this"], ratios["against"], strict=True)]
    print(f"median of each turn's this / against: {statistics.median(paired):.3f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=3000, help="matches per measurement (default 3000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, best taken (default 3)")
    parser.add_argument("--against", type=Path, metavar="DIR", help="only the ratio, of this checkout and DIR's")
    args = parser.parse_args(argv)
    if args.against is not None:
        return against(args.against, args.n, args.repeat)

    overloaded = load_game("overloaded")
    hw = handwritten()
    rates = best_rates({
        "interpreted": lambda seed: simulate(overloaded, 4, seed),
        "hand-written": lambda seed: hw.play(4, random.Random(seed)),
    }, args.n, args.repeat)
    ratio = rates["interpreted"] / rates["hand-written"]
    decisions = sum(simulate(overloaded, 4, s)[3] for s in range(200)) / 200
    print(f"Python {sys.version.split()[0]}, {args.n} matches per run, best of {args.repeat}")
    print(f"overloaded, 4 players, random bots: {rates['interpreted']:8.0f} games/s interpreted")
    print(f"overloaded, 4 players, random bots: {rates['hand-written']:8.0f} games/s hand-written")
    print(f"ratio interpreted / hand-written:   {ratio:8.2f}   (bar 0.10, goal 0.50)")
    print(f"mean decisions per match:           {decisions:8.1f}")
    parts = match_parts(overloaded, 4, max(500, args.n // 2), args.repeat)
    seeds = min(1 / rate(lambda seed: random.Random(seed), args.n) for _ in range(args.repeat)) * 1e6
    print(f"a sim match, overloaded 4 players: {parts['match']:.1f} µs: its state built {parts['state']:.1f} (of which "
          f"seeding its chance generator {parts['seeding']:.1f}), the bots' stream begun {parts['bots']:.1f}, "
          f"scores, winners and outcome {parts['finish']:.1f}, the play itself {parts['play']:.1f} (the hand-written "
          f"match seeds one generator: {seeds:.1f})")

    for name in bundled_games():
        if name == "overloaded":
            continue
        game = load_game(name)
        for players in sorted({game.min_players, game.max_players}):
            r = best_rates({"x": lambda seed, g=game, p=players: simulate(g, p, seed)},
                           max(200, args.n // 5), args.repeat)["x"]
            d = sum(simulate(game, players, s)[3] for s in range(100)) / 100
            print(f"{name}, {players} players, random bots: {r:8.0f} games/s, {d:.0f} decisions/match")

    f = fixed_cost(max(2000, args.n * 5), args.repeat)
    print(f"a match's fixed cost (one-bet, 2 decisions): {f['match']:.1f} µs, of which its chance generator "
          f"seeded and its bots' stream begun {f['seeding']:.1f} µs")

    for name, players in (("overloaded", 4), ("sky-haulers", 2), ("sky-haulers", 4)):
        c = copy_costs(load_game(name), players)
        print(f"{name}, {players} players, a match halfway: clone {c['clone']:.1f} µs "
              f"(x{c['replay'] / c['clone']:.0f} cheaper than a replay), clone + first use (flow rebuilt) "
              f"{c['clone_used']:.0f} µs (x{c['replay'] / c['clone_used']:.0f}), pickle round trip "
              f"{c['pickle']:.0f} µs, replay from the start {c['replay']:.0f} µs")
    for name, players in (("overloaded", 4), ("sky-haulers", 2), ("sky-haulers", 4)):
        c = information_costs(load_game(name), players)
        print(f"{name}, {players} players: a match {c['step_ms']:.1f} ms by the step API (watched), "
              f"{c['sim_ms']:.1f} ms by sim; information_state {c['info_next']:.0f} µs after a decision, "
              f"{c['info_fresh']:.0f} µs from scratch; determinize {c['determinize']:.0f} µs "
              f"(no world found at {c['no_world']} of {c['points']} points)")
    times = start_up()
    print(f"start-up: `meeple games` {times['games']:.2f} s, `meeple validate cards/overloaded` "
          f"{times['validate']:.2f} s")

    small, large = (peak_memory(overloaded, 4, n) for n in (500, 5000))
    print(f"sim peak memory: {small / 1024:8.0f} KiB for 500 matches, {large / 1024:.0f} KiB for 5000 "
          f"(x{large / small:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
