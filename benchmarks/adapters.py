"""What explicit chance and the game-AI adapters cost, per bundled game (figures printed, not a test).

    python benchmarks/adapters.py [--games go-fish,hearts] [--seeds S]

For each game at its default player count:
- `seeded`: a random-bot match through the step API drawing chance from its seed (ms);
- `explicit`: the same match with explicit chance, told the same outcomes one chance event at a time
  (ms), `events` how many, and µs per event;
- `load`: `openspiel.load` (its probe matches included, ms); `sim test`: OpenSpiel's `random_sim_test`
  of one match (s); `resample`: `resample_from_infostate` at the first question after 10 decisions (ms, the
  mean of 3); `ismcts`: one choice of OpenSpiel's ISMCTS bot there (16 simulations, 4 worlds, leaves worth
  the same: the adapter's part of a search, s); `api`/`seed`: PettingZoo's `api_test` (1,000 cycles) and
  `seed_test` (s).
The OpenSpiel and PettingZoo columns need the `ai` extra; without it they read `-`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from walker import walker

from interpreter.game import load_game
from interpreter.load.loader import bundled_games
from interpreter.run.match import Match


def played(game, players: int, seed: int) -> tuple[list[int], list[tuple[int, int]], float]:
    """A random-bot match drawing from its seed: the outcomes drawn, the decisions, its time (s)."""
    drawn: list[int] = []
    rng = random.Random(seed)

    def outcome(n: int) -> int:
        drawn.append(rng._randbelow(n))  # type: ignore[attr-defined]
        return drawn[-1]

    start = time.perf_counter()
    m = Match(game, players, seed, chance=outcome)
    bot = walker(seed)
    while not m.over:
        for seat in m.to_act():
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))
    return drawn, list(m.history), time.perf_counter() - start


def told(game, players: int, drawn: list[int], history: list[tuple[int, int]]) -> float:
    """The same match with explicit chance, told its outcomes and decisions: its time (s)."""
    start = time.perf_counter()
    m = game.new_match(players=players, seed=0, explicit_chance=True)
    outcomes, decisions = iter(drawn), iter(history)
    while not m.over:
        if m.chance_outcomes():
            m.apply_chance(next(outcomes))
        else:
            m.apply(*next(decisions))
    return time.perf_counter() - start


def searched(spiel, decisions: int = 10) -> tuple[float, float]:
    """At the first question with a choice after `decisions` decisions of a random match: the mean time of
    `resample_from_infostate` (s) and of one ISMCTS choice (s)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    class Level(mcts.Evaluator):
        def evaluate(self, state):
            return np.zeros(state.num_players())

        def prior(self, state):
            return [(a, 1 / len(state.legal_actions())) for a in state.legal_actions()]

    state, rng = spiel.new_initial_state(), random.Random(0)
    while state.is_chance_node() or len(state.history()) < decisions or len(state.legal_actions()) < 2:
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] or state.legal_actions()))
    player = state.current_player()
    resample = timed(lambda: [state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
                              for k in range(3)]) / 3
    bot = ismcts.ISMCTSBot(spiel, Level(), uct_c=2.0, max_simulations=16, max_world_samples=4,
                           random_state=np.random.RandomState(0))
    return resample, timed(lambda: bot.step(state))


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(bundled_games()))
    parser.add_argument("--seeds", type=int, default=3, help="matches per game for the chance figures")
    args = parser.parse_args(argv)
    try:
        import pyspiel
        from pettingzoo.test import api_test, seed_test

        from interpreter.adapters import openspiel, pettingzoo
    except ImportError:
        pyspiel = None
    print(f"{'game':14} {'seats':>5} {'seeded':>8} {'explicit':>9} {'events':>7} {'µs/event':>9} "
          f"{'load':>7} {'sim test':>9} {'resample':>9} {'ismcts':>7} {'api':>6} {'seed':>6}")
    for name in args.games.split(","):
        game = load_game(name)
        n = game.default_players
        seeded = explicit = events = 0.0
        for seed in range(args.seeds):
            drawn, history, t = played(game, n, seed)
            seeded += t
            explicit += told(game, n, drawn, history)
            events += len(drawn)
        per_event = 1e6 * explicit / max(events, 1)
        row = (f"{name:14} {n:5d} {1e3 * seeded / args.seeds:8.1f} {1e3 * explicit / args.seeds:9.1f} "
               f"{events / args.seeds:7.0f} {per_event:9.0f}")
        if pyspiel is not None:
            start = time.perf_counter()
            spiel = openspiel.load(game, players=n)
            load = time.perf_counter() - start
            sim = timed(lambda spiel=spiel: pyspiel.random_sim_test(spiel, num_sims=1, serialize=False, verbose=False))
            resample, search = searched(spiel)
            with contextlib.redirect_stdout(io.StringIO()):  # api_test tells its progress
                api = timed(lambda g=game, k=n: api_test(pettingzoo.env(g, players=k), num_cycles=1000))
            seeds = timed(lambda g=game, k=n: seed_test(lambda: pettingzoo.env(g, players=k), num_cycles=200))
            row += f" {1e3 * load:7.0f} {sim:9.2f} {1e3 * resample:9.0f} {search:7.2f} {api:6.2f} {seeds:6.2f}"
        else:
            row += f" {'-':>7} {'-':>9} {'-':>9} {'-':>7} {'-':>6} {'-':>6}"
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
