"""The adapters pass their libraries' own checks on every bundled game: OpenSpiel's random simulation test
and its ISMCTS bot (and CFR on Kuhn poker written as a meeple game), PettingZoo's API and seed tests. The
default run gives each game a small budget (one match in OpenSpiel's test; for Hearts, the longest, one
deal); the slow marker runs the long versions."""

import pickle
import random
import shutil
import sys
from collections import Counter
from importlib.util import find_spec
from pathlib import Path

import pytest

from interpreter import NoConsistentWorld, load_game
from interpreter.load.folder import find_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_belief import KUHN, KUHN_CARDS
from test_leaks import write_game

# OpenSpiel, PettingZoo, numpy and the adapters are imported by the tests that use them: collecting the suite
# (once in every worker) does not pay for them
pytestmark = pytest.mark.skipif(find_spec("pyspiel") is None or find_spec("pettingzoo") is None,
                                reason="OpenSpiel or PettingZoo is not installed")

# every bundled game, at a player count of its own
GAMES = [("go-fish", 2), ("overloaded", 4), ("crazy-eights", 3), ("hearts", 4), ("low-tide", 3), ("sky-haulers", 2)]
SLOW_GAMES = [*GAMES, ("go-fish", 5), ("crazy-eights", 5)]

KUHN_POKER = """
game: kuhn-poker
title: Kuhn poker
players: {min: 2, max: 2}
cards: [cards.yaml]
properties: {value: 0}
zones:
  deck: {visibility: hidden, face: down}
  hand: {owner: player, visibility: owner}
counters:
  player:
    put: 1
    folded: 0
phases:
  deal: |
    shuffle deck
    for each player p:
      move the top 1 cards of deck to hand of p
  bet: |
    let p0 = first player
    let p1 = next player after p0
    let x = p0 chooses one of "bet", "pass" "Bet?"
    if x == "bet":
      add 1 to put of p0
      let b = p1 chooses one of "call", "fold" "Call?"
      if b == "call":
        add 1 to put of p1
      else:
        set folded of p1 to 1
    else:
      let b = p1 chooses one of "bet", "pass" "Bet?"
      if b == "bet":
        add 1 to put of p1
        let c = p0 chooses one of "call", "fold" "Call?"
        if c == "call":
          add 1 to put of p0
        else:
          set folded of p0 to 1
flow: {setup: [deal], rounds: 1, round: [bet]}
result:
  score: "-my put if my folded == 1 else sum(opponents, put of it) if sum(opponents, folded of it) == 1
    else sum(opponents, put of it) if sum(my hand, it.value) > sum(hand of opponents, it.value) else -my put"
"""


def openspiel_checked(name, players: int, sims: int) -> None:
    import pyspiel

    from interpreter.adapters import openspiel

    game = openspiel.load(name, players=players)
    assert game.num_players() == players and game.get_type().chance_mode == \
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize("name, players", [x for x in GAMES if x[0] != "hearts"])
def test_openspiel_random_simulation_test_passes(name, players):
    openspiel_checked(name, players, 1)


def one_deal_of_hearts(folder: Path) -> Path:
    """Hearts as bundled but over as soon as a deal is scored (a deal gives out 26 points): the passes, 13
    tricks and the scoring, without the dozen deals of a whole match (played by the slow test below)."""
    shutil.copytree(find_game("hearts"), folder)
    text = (folder / "game.yaml").read_text()
    assert text.count("score of it >= 100)") == 2  # the end of the match, and the check that it came
    (folder / "game.yaml").write_text(text.replace("score of it >= 100)", "score of it >= 1)"))
    return folder


def test_openspiel_random_simulation_test_passes_on_a_deal_of_hearts(tmp_path):
    import pyspiel

    from interpreter.adapters import openspiel

    game = openspiel.load(one_deal_of_hearts(tmp_path / "hearts"), players=4)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("name, players", SLOW_GAMES)
def test_openspiel_random_simulation_test_passes_every_bundled_game(name, players):
    openspiel_checked(name, players, 2)


def test_openspiel_serializes_and_copies_states_of_a_game_of_hidden_cards(tmp_path):
    import pyspiel

    from interpreter.adapters import openspiel

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


def test_openspiel_observation_tensors_encode_the_seats_view():
    from interpreter.adapters import openspiel

    game = openspiel.load("go-fish", players=2)
    assert game.get_type().provides_observation_tensor and not game.get_type().provides_information_state_tensor
    state, rng = game.new_initial_state(), random.Random(2)
    assert state.observation_tensor(0) == [0.0] * game.observation_tensor_size()  # nothing dealt yet
    while state.is_chance_node() or len(state.history()) < 60:
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] or state.legal_actions()))
    from open_spiel.python.observation import make_observation

    seen = make_observation(game)
    seen.set_from(state, 0)
    view = state.match.seat(0).view()
    zones = seen.dict["zones"]  # zone by zone: how many of each face seat 0 sees there, then how many unseen
    assert zones.shape == (len(view["zones"]), 14) and seen.dict["asked"].tolist() == [1, 0]
    hand = view["zones"]["hand@0"]
    assert zones[1, :13].sum() == len(hand) and zones[1].max() == max(hand.count(face) for face in hand)
    assert zones[:, 13].tolist() == [36, 0, 0, len(view["zones"]["hand@1"]), 0]  # the stock, the other hand
    assert list(seen.tensor) == state.observation_tensor(0) and seen.string_from(state, 0) == \
        state.observation_string(0)


def kuhn_poker(tmp_path):
    """Kuhn poker written as a meeple game, its returns the chips won (OpenSpiel's own is the reference)."""
    from interpreter.adapters import openspiel

    return openspiel.load(write_game(tmp_path, KUHN_POKER, KUHN_CARDS), players=2, scores=(-2, 2))


def cfr_value(game, iterations: int) -> tuple[float, float]:
    """Seat 0's value of CFR+'s average policy after some iterations, and that policy's exploitability."""
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    solver = cfr.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [average, average])[0]
    return value, exploitability.exploitability(game, average)


def test_kuhn_poker_through_the_adapter_has_the_reference_exploitability_and_cfr_nears_its_value(tmp_path):
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    game = kuhn_poker(tmp_path)
    assert exploitability.exploitability(game, policy.UniformRandomPolicy(game)) == pytest.approx(0.4583, abs=1e-4)
    value, exploitable = cfr_value(game, 20)  # −0.05603, exploitability 0.0101
    assert value == pytest.approx(-1 / 18, abs=0.002) and exploitable < 0.015


@pytest.mark.slow
def test_cfr_reaches_kuhn_pokers_value(tmp_path):
    value, exploitable = cfr_value(kuhn_poker(tmp_path), 300)  # −0.0555572, exploitability 0.00043
    assert value == pytest.approx(-1 / 18, abs=1e-4) and exploitable < 0.001


def resampled(state, player: int, seed: int):
    """`state.resample_from_infostate(player, …)` with a sampler seeded by `seed`, checked: the player cannot
    tell it from `state`, and its own history, applied to a new state, makes it again."""
    import pyspiel

    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
    assert world.information_state_string(player) == state.information_state_string(player)
    assert world.observation_string(player) == state.observation_string(player)
    assert world.observation_tensor(player) == state.observation_tensor(player)
    assert world.legal_actions() == state.legal_actions() and world.current_player() == state.current_player()
    again = world.get_game().new_initial_state()
    for action in world.history():
        again.apply_action(action)
    assert all(again.information_state_string(p) == world.information_state_string(p)
               for p in range(world.num_players()))
    return world


def test_openspiel_resamples_the_hidden_cards_of_kuhn_poker_as_likely_as_the_player_knows(tmp_path):
    import pyspiel

    game = kuhn_poker(tmp_path)
    state = game.new_initial_state()
    for action in (2, 0):  # the deck's shuffle: seat 0 is dealt the Queen, seat 1 the Jack
        state.apply_action(action)
    assert state.current_player() == 0
    dealt = Counter(resampled(state, 0, seed).information_state_string(1) for seed in range(40))
    assert len(dealt) == 2 and min(dealt.values()) >= 10  # the Jack or the King, half the time each
    state.apply_action(0)  # seat 0 bets: seat 1, holding the Jack, faces the Queen or the King
    assert state.current_player() == 1
    dealt = Counter(resampled(state, 1, seed).information_state_string(0) for seed in range(40))
    assert len(dealt) == 2 and min(dealt.values()) >= 10
    worlds = [resampled(state, 1, seed) for seed in range(4)]
    assert {tuple(w.history()) for w in worlds} <= {(2, 0, 0), (1, 0, 0)}  # the history is the world's own
    with pytest.raises(ValueError, match="chance event"):
        game.new_initial_state().resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0, 0.0, 1.0))


def test_openspiel_resamples_a_bundled_game_mid_match():
    from interpreter.adapters import openspiel

    game = openspiel.load("go-fish", players=3)
    state, rng = game.new_initial_state(), random.Random(4)
    while state.is_chance_node() or len(state.history()) < 60:
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] or state.legal_actions()))
    player = state.current_player()
    worlds = [resampled(state, player, seed) for seed in range(3)]
    assert any(w.history() != state.history() for w in worlds)
    assert resampled(state, player, 0).history() == worlds[0].history()  # the sampler's seed decides it


def level():
    """An evaluator that finds every state worth the same: ISMCTS's search through the adapter (its worlds
    resampled, its tree walked with chance) without random play to the end of a long match."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    class Level(mcts.Evaluator):
        def evaluate(self, state):
            return np.zeros(state.num_players())

        def prior(self, state):
            actions = state.legal_actions()
            return [(a, 1 / len(actions)) for a in actions]

    return Level()


def seeded_ismcts(game, evaluator, simulations: int, worlds: int = -1):
    """OpenSpiel's ISMCTS bot, its worlds drawn with a seeded sampler too (its own is seeded at random)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, max_world_samples=worlds,
                           random_state=np.random.RandomState(1))
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return bot


def ismcts_plays(name, players: int, moves: int, simulations: int, worlds: int, evaluator) -> tuple[int, int]:
    """OpenSpiel's ISMCTS bot chooses for seat 0 (its questions of two options or more, up to `moves`), the
    other seats and chance at random; ISMCTS itself checks that each world it resamples is one seat 0
    cannot tell from the state. Returns the choices made, and the questions where no world was found within
    the belief stage's budget (`NoConsistentWorld`: seat 0 then picks at random)."""
    from interpreter.adapters import openspiel

    game = openspiel.load(name, players=players)
    bot = seeded_ismcts(game, evaluator, simulations, worlds)
    state, rng, made, none = game.new_initial_state(), random.Random(0), 0, 0
    while not state.is_terminal() and made < moves:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        action = rng.choice(state.legal_actions())
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            try:
                action = bot.step(state)
                made += 1
            except NoConsistentWorld:
                none += 1
            assert action in state.legal_actions()
        state.apply_action(action)
    return made, none


@pytest.mark.parametrize("name, players", GAMES)
def test_openspiel_ismcts_plays_every_bundled_game_through_the_adapter(name, players):
    assert ismcts_plays(name, players, moves=3, simulations=8, worlds=2, evaluator=level()) == (3, 0)


@pytest.mark.slow
@pytest.mark.parametrize("name, players", GAMES)
def test_openspiel_ismcts_plays_longer_with_random_rollouts(name, players):
    import numpy as np
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    made, none = ismcts_plays(name, players, moves=6, simulations=12, worlds=4,
                              evaluator=evaluator if name != "hearts" else level())
    assert made == 6 and none <= 2  # deep in a match the belief stage may find no world within its budget


def test_openspiel_ismcts_plays_kuhn_poker_through_the_adapter(tmp_path):
    import numpy as np
    from open_spiel.python.algorithms import mcts

    game = kuhn_poker(tmp_path)
    bot = seeded_ismcts(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 200)
    state = game.new_initial_state()
    for action in (0, 1, 0):  # seat 0 is dealt the King, seat 1 the Queen; seat 0 bets
        state.apply_action(action)
    assert state.current_player() == 1 and [state.action_to_string(a) for a in (0, 1)] == ["call", "fold"]
    # to seat 1 the bet is the King's or the Jack's alike: calling wins 2 or loses 2, 0 on average, folding
    # loses 1, so it calls; a search that saw seat 0's King would fold
    assert dict(bot.get_policy(state)) == {0: 1.0, 1: 0.0}


@pytest.mark.parametrize("name, players", GAMES)
def test_pettingzoo_api_and_seed_tests_pass(name, players):
    from pettingzoo.test import api_test, seed_test

    from interpreter.adapters import pettingzoo

    api_test(pettingzoo.env(name, players=players), num_cycles=100)
    seed_test(lambda: pettingzoo.env(name, players=players), num_cycles=30)


@pytest.mark.slow
@pytest.mark.parametrize("name, players", SLOW_GAMES)
def test_pettingzoo_api_and_seed_tests_pass_every_bundled_game(name, players):
    from pettingzoo.test import api_test, seed_test

    from interpreter.adapters import pettingzoo

    api_test(pettingzoo.env(name, players=players), num_cycles=1000)
    seed_test(lambda: pettingzoo.env(name, players=players), num_cycles=200)


def test_pettingzoo_observes_through_the_seat_and_rewards_at_the_end():
    from interpreter.adapters import pettingzoo

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


QUITTERS = """
game: quitters
title: Quitters
players: {min: 3, max: 3}
cards: [cards.yaml]
zones:
  deck: {visibility: hidden, face: down}
counters:
  player:
    stayed: 0
phases:
  play: |
    for each player p:
      let x = p chooses one of "stay", "quit" "Stay?"
      if x == "quit":
        knock out p
      else:
        add 1 to stayed of p
flow: {rounds: 3, round: [play]}
result: {score: my stayed}
"""


def test_a_pettingzoo_agent_knocked_out_leaves_at_once_with_a_loss(tmp_path):
    from pettingzoo.test import api_test

    from interpreter.adapters import pettingzoo

    game = write_game(tmp_path, QUITTERS, "cards:\n  - {id: token, start: deck}\n")
    api_test(pettingzoo.env(game), num_cycles=200)
    env = pettingzoo.env(game)
    env.reset(seed=0)
    choices = iter([1, 0, 0, 0, 0])  # player_0 quits; the others stay
    left = []
    for agent in env.agent_iter(max_iter=100):
        _, reward, terminated, _, _ = env.last()
        if terminated:
            left.append((agent, reward, env.unwrapped.match.over))
            env.step(None)
        else:
            env.step(next(choices, 0))
    assert left[0] == ("player_0", -1.0, False)  # gone before the match ends
    assert sorted(a for a, _, _ in left[1:]) == ["player_1", "player_2"] and all(over for _, _, over in left[1:])
    assert [r for _, r, _ in left[1:]] == [0.5, 0.5]  # the two who stayed share the pot: zero-sum with the -1
