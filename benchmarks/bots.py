"""How fast the search bots think and how strong they play, per game; OpenSpiel's ISMCTS as the yardstick.

    python benchmarks/bots.py [--games hearts,kuhn-poker] [--budget 64] [--seeds 2] [--kinds mc,ismcts]
                              [--strength N] [--ladder N] [--horizon N] [--workers W] [--breakdown] [--reference N]
                              [--worlds K]

Speed: for each game (the bundled ones, `tests/games/kuhn-poker` and `leduc-poker`; 4 players where it
allows 4, else its default count), S random matches are played to 10%, 50% and 90% of their decisions (on to the next
decision with a choice), and there `mc:B` and `ismcts:B` (or the `--kinds` named: `ismcts-deal` for play-outs
that stop at the end of the deal) choose for the seat asked. At the pokers, with OpenSpiel installed, each
decision is followed by one search of OpenSpiel's ISMCTS of the same budget from the first deal, and `× ref`
is the median of the paired ratios of CPU rates (ours over its): timed side by side, a load that changes
over the run hits both alike. Printed per point, the
median over the matches of: iterations per second of the whole decision (`it/s`), and of the search alone,
the worlds' draws left out (`search it/s`); worlds drawn and the milliseconds a draw costs (`ms/world`);
and iterations per second of this process's CPU time (`cpu it/s`: what a loaded machine's other work does
not slow down as much as the wall clock; the reference's rate is printed both ways too).

Strength (`--strength N`): `meeple duel`'s figures for mc:B and ismcts:B against random, N games each
(seats rotated): A's win rate with its Wilson 95% interval and the rate of a bot as good as random
(1/players); at the two poker games A's mean chips a game (they declare `result.payoff: score`) with its 95% interval.
`--ladder N`: ismcts:4B against ismcts:B, N games per game. `--horizon N`: ismcts-deal:3B against ismcts:B, N
games per game: about equal CPU time a decision in Hearts, where an iteration of the deal horizon costs a
quarter to a third of one played to the match's end (iteration budgets, unlike seconds, replay alike on a
loaded machine).

Breakdown (`--breakdown`): where an iteration's time goes, per game and point, for mc:B and ismcts:B (median
over the matches): microseconds an iteration in all, and the share of it in each part, timed exclusively
(a part called inside another counts once): `draw` the worlds (`determinize`, all it calls included),
`rebuild` a copy's running flow on its first use (`Match._resume`), `step` the step API in a drawn world
(`Match.apply`, its rebuild left out), `info` the seat's information state there (the tree's key), `flow` the quiet flow
rebuilt for a play-out (`Match._quiet_flow`), `play` the play-out itself (`rollout`, its flow left out) and
`bot` the rest (the tree, selection, copies, questions asked of the world).

Worlds (`--worlds K`): at each point, K worlds drawn one after another through the seat's handle (as a search's
pool draws them), and how many of them differ in what some other seat holds or saw (their information states in
the world): how much of the seat's uncertainty the worlds of one decision cover.

Reference (`--reference N`, needs `pip install open_spiel`): OpenSpiel's Python ISMCTS (uct_c 2, one random
rollout per leaf, 1,000 simulations) in the same run: iterations per second at Kuhn and Leduc poker (the
median of three searches from the first deal), and
with N > 0 its mean chips a game against uniform random over both seats (95% interval).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's engine, not an installed one
sys.path.insert(1, str(ROOT / "benchmarks"))  # (its walk, when loaded from elsewhere)

from walker import players_of, walker  # noqa: E402

from interpreter.bots import base as bots_base  # noqa: E402
from interpreter.bots import check, get  # noqa: E402
from interpreter.bots import ismcts as bots_ismcts  # noqa: E402
from interpreter.bots.duel import duel, mean_interval  # noqa: E402
from interpreter.game import load_game  # noqa: E402
from interpreter.paths import bundled_games  # noqa: E402
from interpreter.run.match import Match  # noqa: E402
from interpreter.run.seat import Seat  # noqa: E402

POINTS = (("early", 0.1), ("mid", 0.5), ("late", 0.9))
TEST_GAMES = ROOT / "tests" / "games"
POKER = ("kuhn-poker", "leduc-poker")  # written as meeple games for the bots' tests
ISSUE_REFERENCE = {"kuhn_poker": (11_700, 0.219, 0.063), "leduc_poker": (4_100, 1.20, 0.25)}


def games_named(names: str | None) -> list[tuple[str, object]]:
    every = [*sorted(bundled_games()), *POKER]
    chosen = names.split(",") if names else every
    return [(name, load_game(TEST_GAMES / name if name in POKER else name)) for name in chosen]


def point(game, players: int, seed: int, share: float) -> Match | None:
    """A random match after `share` of its decisions, on to the next decision with a choice."""
    whole = Match(game, players, seed)
    bot = walker(seed)
    while not whole.over:
        for s in whole.to_act():
            whole.apply(s, bot.pick(len(whole.legal_actions(s))))
    goal = int(len(whole.history) * share)
    m = Match(game, players, seed)
    for s, a in whole.history[:goal]:
        m.apply(s, a)
    bot = walker(seed + 1)
    while not m.over and max(len(m.legal_actions(s)) for s in m.to_act()) < 2:
        for s in m.to_act():
            m.apply(s, bot.pick(len(m.legal_actions(s))))
    return None if m.over else m


def reference_search(name: str, budget: int):
    """One search of OpenSpiel's Python ISMCTS (as `reference` runs it) from the first deal of the poker of that
    name, returning its iterations per CPU second; None if OpenSpiel is not installed or the game is no poker."""
    if name not in POKER:
        return None
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return None
    game = pyspiel.load_game(name.replace("-", "_"))
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, budget, random_state=rng)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])

    def search() -> float:
        used = time.process_time()
        bot.run_search(state)
        return budget / max(time.process_time() - used, 1e-9)

    return search


def speed(games, budget: int, seeds: int, kinds: tuple[str, ...] = ("mc", "ismcts")) -> None:
    print(f"Speed: one decision of {' and '.join(f'{k}:{budget}' for k in kinds)}, median over {seeds} matches")
    print(f"| {'game':<12} | p | point | {'bot':<15} | {'it/s':>6} | {'search it/s':>11} | worlds | "
          f"{'ms/world':>8} | no world | cpu it/s | × ref |")
    print(f"|{'-' * 14}|---|-------|{'-' * 17}|{'-' * 8}|{'-' * 13}|--------|{'-' * 10}|----------|----------|"
          f"-------|")
    for name, game in games:
        players = players_of(game)
        reference_rate = reference_search(name, budget)
        for label, share in POINTS:
            matches = [m for m in (point(game, players, seed, share) for seed in range(seeds)) if m is not None]
            for kind in kinds:
                rates, search, worlds, per_world, missed, cpu, ratios = [], [], [], [], 0, [], []
                for m in matches:
                    seat = next(s for s in m.to_act() if len(m.legal_actions(s)) > 1)
                    bot = get(f"{kind}:{budget}", seed=1)
                    started, used = time.perf_counter(), time.process_time()
                    bot.choose(m.seat(seat))
                    spent, used = time.perf_counter() - started, time.process_time() - used
                    st = bot.stats
                    rates.append(st.iterations / spent)
                    cpu.append(st.iterations / max(used, 1e-9))
                    search.append(st.iterations / max(spent - st.drawing, 1e-9))
                    worlds.append(st.worlds)
                    per_world.append(1000 * st.drawing / max(st.worlds + st.no_world, 1))
                    missed += st.no_world
                    if reference_rate is not None:  # timed right after, so a changing load hits both alike
                        ratios.append(cpu[-1] / reference_rate())
                if not matches:
                    continue
                ratio = f"{statistics.median(ratios):5.2f}" if ratios else "    —"
                print(f"| {name:<12} | {players} | {label:<5} | {kind + ':' + str(budget):<15} | "
                      f"{statistics.median(rates):>6,.0f} | {statistics.median(search):>11,.0f} | "
                      f"{statistics.median(worlds):>6.0f} | {statistics.median(per_world):>8,.1f} | "
                      f"{missed:>8} | {statistics.median(cpu):>8,.0f} | {ratio} |")
        sys.stdout.flush()


def diversity(games, draws: int, seeds: int) -> None:
    """How different the worlds a search gets are: `draws` worlds drawn one after another through the seat's
    handle at each point (as a search's pool draws them, with one generator), and how many of them differ in
    what some other seat holds or saw (their information states in the world); the median over the matches."""
    print(f"Worlds: {draws} drawn one after another at a point, distinct by the other seats' information states, "
          f"median over {seeds} matches")
    print(f"| {'game':<12} | p | point | draws | distinct | ms/draw |")
    print(f"|{'-' * 14}|---|-------|-------|----------|---------|")
    for name, game in games:
        players = players_of(game)
        for label, share in POINTS:
            distinct, per_draw = [], []
            for seed in range(seeds):
                m = point(game, players, seed, share)
                if m is None:
                    continue
                seat = next(s for s in m.to_act() if len(m.legal_actions(s)) > 1)
                handle, rng, seen = m.seat(seat), random.Random(seed), set()
                started = time.process_time()
                for _ in range(draws):
                    world = handle.determinize(rng)
                    seen.add(tuple(world.information_state(o) for o in range(players) if o != seat))
                per_draw.append(1000 * (time.process_time() - started) / draws)
                distinct.append(len(seen))
            if distinct:
                print(f"| {name:<12} | {players} | {label:<5} | {draws:>5} | {statistics.median(distinct):>8.0f} | "
                      f"{statistics.median(per_draw):>7,.1f} |")
        sys.stdout.flush()


PARTS = ("draw", "rebuild", "step", "info", "flow", "play", "bot")


class Parts:
    """Exclusive time per part: each timed call's own time, the timed calls inside it left out (inside a
    draw nothing else is timed: a world's cost is all of it)."""

    def __init__(self) -> None:
        self.spent = dict.fromkeys(PARTS, 0.0)
        self.inner: list[float] = []
        self.drawing = False
        self.undo: list[tuple[object, str, object]] = []

    def wrap(self, owner: object, attr: str, part: str) -> None:
        original = getattr(owner, attr)
        parts = self

        def timed(*args, **kwargs):
            if parts.drawing:
                return original(*args, **kwargs)
            parts.inner.append(0.0)
            parts.drawing = part == "draw"
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                spent = time.perf_counter() - started
                parts.drawing = False
                inner = parts.inner.pop()
                parts.spent[part] += spent - inner
                if parts.inner:
                    parts.inner[-1] += spent

        self.undo.append((owner, attr, original))
        setattr(owner, attr, timed)

    def __enter__(self) -> Parts:
        self.wrap(Seat, "determinize", "draw")
        self.wrap(Match, "_resume", "rebuild")
        self.wrap(Match, "apply", "step")
        self.wrap(Match, "information_state", "info")
        self.wrap(bots_ismcts, "information_since", "info")  # the tree's key
        self.wrap(Match, "_quiet_flow", "flow")
        self.wrap(bots_base, "rollout", "play")
        return self

    def __exit__(self, *exc: object) -> None:
        for owner, attr, original in reversed(self.undo):
            setattr(owner, attr, original)


def breakdown(games, budget: int, seeds: int, kinds: tuple[str, ...] = ("mc", "ismcts")) -> None:
    print(f"\nBreakdown: where an iteration of {' and '.join(f'{k}:{budget}' for k in kinds)} goes, median over "
          f"{seeds} matches")
    print(f"| {'game':<12} | p | point | {'bot':<15} | µs/it | " + " | ".join(f"{p:>7}" for p in PARTS) + " |")
    print(f"|{'-' * 14}|---|-------|{'-' * 17}|--------|" + "|".join("-" * 9 for _ in PARTS) + "|")
    for name, game in games:
        players = players_of(game)
        for label, share in POINTS:
            matches = [m for m in (point(game, players, seed, share) for seed in range(seeds)) if m is not None]
            for kind in kinds:
                per_it, shares = [], {p: [] for p in PARTS}
                for m in matches:
                    seat = next(s for s in m.to_act() if len(m.legal_actions(s)) > 1)
                    bot = get(f"{kind}:{budget}", seed=1)
                    handle = m.seat(seat)
                    with Parts() as parts:
                        started = time.perf_counter()
                        bot.choose(handle)
                        spent = time.perf_counter() - started
                    parts.spent["bot"] = spent - sum(parts.spent.values())
                    per_it.append(1e6 * spent / max(bot.stats.iterations, 1))
                    for p in PARTS:
                        shares[p].append(parts.spent[p] / spent)
                if not matches:
                    continue
                print(f"| {name:<12} | {players} | {label:<5} | {kind + ':' + str(budget):<15} | "
                      f"{statistics.median(per_it):>6,.0f} | "
                      + " | ".join(f"{statistics.median(shares[p]):>7.0%}" for p in PARTS) + " |")
        sys.stdout.flush()


def strength(games, budget: int, n: int, ladder: bool, workers: int = 1, horizon: bool = False) -> None:
    pairs = [(f"ismcts-deal:{3 * budget}", f"ismcts:{budget}")] if horizon else \
        [(f"ismcts:{4 * budget}", f"ismcts:{budget}")] if ladder else \
        [(f"mc:{budget}", "random"), (f"ismcts:{budget}", "random")]
    title = "Horizon" if horizon else "Ladder" if ladder else "Strength"
    print(f"\n{title}: {n} games each, seats rotated (A at one seat, B at the others)")
    print(f"| {'game':<12} | p | {'A':<17} | {'B':<17} | A win rate (95% CI)       | even  | A mean score (95% CI) "
          f"| s |")
    print(f"|{'-' * 14}|---|{'-' * 19}|{'-' * 19}|{'-' * 27}|-------|{'-' * 23}|---|")
    for name, game in games:
        players = players_of(game)
        for a, b in pairs:
            d = duel(game, a, b, n, players, workers=workers)  # the pokers pay by score: their `result.payoff`
            lo, hi = d["a_win_rate_ci"]
            mlo, mhi = d["a_mean_score_ci"]
            print(f"| {name:<12} | {players} | {a:<17} | {b:<17} | {d['a_win_rate']:6.1%} ({lo:6.1%}–{hi:6.1%}) "
                  f"| {d['even_rate']:5.1%} | {d['a_mean_score']:6.2f} ({mlo:6.2f}, {mhi:6.2f}) "
                  f"| {d['seconds']:.0f} |")
            sys.stdout.flush()


def reference(games_each: int) -> None:
    """OpenSpiel's own ISMCTS, timed and played in this process."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        print("\nReference: OpenSpiel is not installed (pip install open_spiel); the issue's figures:")
        for name, (rate, chips, half) in ISSUE_REFERENCE.items():
            print(f"  {name}: {rate:,} iterations/s, {chips:+.3f} ± {half} chips a game against uniform random")
        return
    print("\nReference: OpenSpiel's Python ISMCTS (uct_c 2, one random rollout a leaf, 1,000 simulations)")
    for name in ISSUE_REFERENCE:
        game = pyspiel.load_game(name)
        rng = np.random.RandomState(0)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 1000, random_state=rng)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        rates, cpus = [], []
        for _ in range(3):  # the median of three searches
            started, used = time.perf_counter(), time.process_time()
            bot.run_search(state)
            rates.append(1000 / (time.perf_counter() - started))
            cpus.append(1000 / max(time.process_time() - used, 1e-9))
        line = (f"  {name}: {statistics.median(rates):,.0f} iterations/s ({statistics.median(cpus):,.0f} a CPU "
                f"second; the median of three searches)")
        if games_each:
            chips = []
            dice = random.Random(1)
            for g in range(games_each):
                seat = g % 2
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                        state.apply_action(outcomes[dice.choices(range(len(outcomes)), probs)[0]])
                    elif state.current_player() == seat:
                        state.apply_action(bot.step(state))
                    else:
                        state.apply_action(dice.choice(state.legal_actions()))
                chips.append(state.returns()[seat])
            mean, lo, hi = mean_interval(sum(chips), sum(c * c for c in chips), len(chips))
            line += (f"; {mean:+.3f} chips a game against uniform random (95% CI {lo:+.3f} to {hi:+.3f}, "
                     f"{games_each} games)")
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", help="comma-separated games (default: the bundled ones and kuhn-poker)")
    parser.add_argument("--budget", type=int, default=64, help="iterations of each search bot (default 64)")
    parser.add_argument("--seeds", type=int, default=2, help="matches per point for the speed (default 2)")
    parser.add_argument("--strength", type=int, default=0, metavar="N", help="games per duel against random")
    parser.add_argument("--ladder", type=int, default=0, metavar="N", help="games of ismcts:4B against ismcts:B")
    parser.add_argument("--horizon", type=int, default=0, metavar="N",
                        help="games of ismcts-deal:3B against ismcts:B (about equal time in Hearts)")
    parser.add_argument("--kinds", default="mc,ismcts", help="the search bots timed (default mc,ismcts)")
    parser.add_argument("--reference", type=int, default=-1, metavar="N",
                        help="OpenSpiel's ISMCTS speed, and N games of it against random (default: not run)")
    parser.add_argument("--workers", type=int, default=1, metavar="W", help="processes for the duels (default 1)")
    parser.add_argument("--breakdown", action="store_true", help="where an iteration's time goes, part by part")
    parser.add_argument("--no-speed", action="store_true", help="skip the speed table")
    parser.add_argument("--worlds", type=int, default=0, metavar="K",
                        help="K worlds drawn in a row at each point: how many differ (default: not run)")
    args = parser.parse_args()
    games = games_named(args.games)
    kinds = tuple(k.strip() for k in args.kinds.split(","))
    for kind in kinds:
        check(f"{kind}:1")
    if not args.no_speed:
        speed(games, args.budget, args.seeds, kinds)
    if args.breakdown:
        breakdown(games, args.budget, args.seeds, kinds)
    if args.worlds:
        diversity(games, args.worlds, args.seeds)
    if args.strength:
        strength(games, args.budget, args.strength, False, args.workers)
    if args.ladder:
        strength(games, args.budget, args.ladder, True, args.workers)
    if args.horizon:
        strength(games, args.budget, args.horizon, False, args.workers, horizon=True)
    if args.reference >= 0:
        reference(args.reference)


if __name__ == "__main__":
    main()
