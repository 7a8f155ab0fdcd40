"""The adapters pass their libraries' own checks: OpenSpiel's random simulation test (and CFR on a small
game of hidden cards written for it), PettingZoo's API and seed tests. Bundled games beyond the first two
of each run under the slow marker."""

import pickle
import random
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from interpreter import load_game  # noqa: E402
from interpreter.adapters import openspiel, pettingzoo  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_belief import KUHN, KUHN_CARDS  # noqa: E402
from test_leaks import write_game  # noqa: E402

SLOW_GAMES = [("sky-haulers", 2), ("low-tide", 3), ("hearts", 4), ("overloaded", 4), ("go-fish", 5)]

HIGH_CARD = KUHN.replace("game: kuhn", "game: high-card").replace('''      let b = p chooses one of "bet", "pass" "Bet?"
      if b == "bet":
        add 1 to chips of p''', '''      let b = p chooses one of "stay", "fold" "Stay?"
      if b == "fold":
        add 1 to chips of p''').replace("result: {score: count(my hold)}",
                                        "result: {score: 'sum(my hand, it.value) - 10 * my chips'}")


def openspiel_checked(name, players: int, sims: int) -> None:
    game = openspiel.load(name, players=players)
    assert game.num_players() == players and game.get_type().chance_mode == \
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize("name, players", [("go-fish", 2), ("crazy-eights", 3)])
def test_openspiel_random_simulation_test_passes(name, players):
    openspiel_checked(name, players, 1)


@pytest.mark.slow
@pytest.mark.parametrize("name, players", SLOW_GAMES)
def test_openspiel_random_simulation_test_passes_every_bundled_game(name, players):
    openspiel_checked(name, players, 2)


def test_openspiel_serializes_and_copies_states_of_a_game_of_hidden_cards(tmp_path):
    game = openspiel.load(write_game(tmp_path, KUHN, KUHN_CARDS), players=2)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(0)
    copy = state.clone()
    copy.apply_action(1)
    assert state.chance_outcomes() == [(0, 1 / 2), (1, 1 / 2)] and not copy.is_chance_node()
    again = pickle.loads(pickle.dumps(state))
    assert again.chance_outcomes() == state.chance_outcomes() and again.history() == state.history()
    # the two deals seat 0 cannot tell apart are one information state of its own, the other seat's differ
    a, b = copy.clone(), state.clone()
    b.apply_action(0)
    assert a.current_player() == b.current_player() == 0
    assert a.information_state_string(0) != b.information_state_string(0) or \
        a.information_state_string(1) != b.information_state_string(1)
    assert pyspiel.load_game(game.get_type().short_name).num_players() == 2


def test_cfr_solves_a_small_game_of_hidden_cards_through_the_adapter(tmp_path):
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, exploitability

    game = openspiel.load(write_game(tmp_path, HIGH_CARD, KUHN_CARDS), players=2)
    uniform = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    solver = cfr.CFRSolver(game)
    for _ in range(30):
        solver.evaluate_and_update_policy()
    solved = exploitability.nash_conv(game, solver.average_policy())
    print(f"nash_conv: uniform {uniform:.4f}, CFR after 30 iterations {solved:.4f}")
    assert uniform > 0.3 and solved < 0.05 * uniform


@pytest.mark.parametrize("name", ["go-fish", "overloaded"])
def test_pettingzoo_api_and_seed_tests_pass(name):
    api_test(pettingzoo.env(name), num_cycles=200)
    seed_test(lambda: pettingzoo.env(name), num_cycles=50)


@pytest.mark.slow
@pytest.mark.parametrize("name, players", [*SLOW_GAMES, ("crazy-eights", 3)])
def test_pettingzoo_api_and_seed_tests_pass_every_bundled_game(name, players):
    api_test(pettingzoo.env(name, players=players), num_cycles=1000)
    seed_test(lambda: pettingzoo.env(name, players=players), num_cycles=200)


def test_pettingzoo_observes_through_the_seat_and_rewards_at_the_end():
    env = pettingzoo.env(load_game("go-fish"), players=2)
    env.reset(seed=3)
    assert env.observation_space("player_0") is env.observation_space("player_0")
    assert env.action_space("player_1") is env.action_space("player_1")
    inner = env.unwrapped
    steps, ended = 0, {}
    for agent in env.agent_iter(max_iter=5000):
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            ended[agent] = reward
            env.step(None)
            continue
        seat = int(agent[-1])
        if steps == 10:  # a world the seat cannot tell from this one (the other hand dealt anew) looks alike
            real = inner.match
            assert list(observation["action_mask"].nonzero()[0]) == real.legal_actions(seat)
            inner.match = real.seat(seat).determinize(random.Random(0))
            assert inner.match.st.zones != real.st.zones
            world = inner.observe(agent)
            assert (world["observation"] == observation["observation"]).all()
            inner.match = real
        steps += 1
        env.step(int(observation["action_mask"].nonzero()[0][0]))
    result = inner.match.result()
    assert steps == result["decisions"] and set(ended) == {"player_0", "player_1"}
    assert sum(ended.values()) == pytest.approx(0)
    assert all((ended[f"player_{p}"] > 0) == (p in result["winners"]) for p in range(2))
