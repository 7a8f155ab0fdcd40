"""A quiet rollout plays a match on to its end as the step API would with the same bot choices (same scores,
winners and number of decisions), at any point of any bundled game, and leaves the match as it was."""

import pickle
import random

import pytest

from interpreter import load_game, rollout
from interpreter.run.flow import SETUP
from interpreter.run.match import RandomBot, play_random, random_bot, replay

GAMES = [("overloaded", 4), ("sky-haulers", 2), ("sky-haulers", 4), ("low-tide", 5), ("go-fish", 2),
         ("crazy-eights", 3), ("hearts", 4)]


def stepped(m, pick):
    """Play a clone of `m` to its end through the step API with `pick`; its scores, winners and decisions made."""
    c = m.clone()
    before = len(c.history)
    while not c.over:
        for seat in c.to_act():
            assert c.apply(seat, pick(len(c.legal_actions(seat)))) is None
    return c.scores, c.winners, len(c.history) - before


def points(game, players, seed):
    """Copies of a random match at its start and after 10%, 50% and 90% of its decisions; and one in the
    middle of a simultaneous choice, some seats answered, if the match has one."""
    n = len(play_random(game, players, seed).history)
    cuts = {0, n // 10, n // 2, n * 9 // 10}
    m, bot, out, halfway = game.new_match(players=players, seed=seed), random_bot(seed), [], None
    while not m.over:
        for seat in m.to_act():
            if len(m.history) in cuts:
                cuts.discard(len(m.history))
                out.append(m.clone())
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))
            if halfway is None and m.simultaneous and len(m.history) > 2 and len(m.to_act()) > 1:
                halfway = m.clone()
    return out + ([halfway] if halfway is not None else [])


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_rollout_ends_as_the_step_api_does_with_the_same_choices(name, players):
    game = load_game(name)
    for seed in (1, 2):
        for i, m in enumerate(points(game, players, seed)):
            history, view = list(m.history), m.view(0)
            k = seed * 100 + i
            got = rollout(m, random_bot(k))
            assert (got.scores, got.winners, got.decisions) == stepped(m, random_bot(k).pick), (seed, i)
            assert rollout(m, random_bot(k).pick) == got  # a RandomBot or its pick: the same draws
            last = rollout(m, lambda n: n - 1)  # any pick(n) -> int
            assert (last.scores, last.winners, last.decisions) == stepped(m, lambda n: n - 1)
            assert m.history == history and m.view(0) == view, "the match is left as it was"
            spent = m.clone()
            spent.legal_actions()  # a copy in use (its flow rebuilt), played on in place and used up
            assert rollout(spent, random_bot(k), spend=True) == got
            assert spent.to_act() == [] and rollout(m.clone(), random_bot(k), spend=True) == got


@pytest.mark.parametrize(("name", "players"), [("overloaded", 4), ("hearts", 4), ("go-fish", 2)])
def test_a_rollout_of_a_copy_not_yet_used_a_pickled_one_or_a_finished_one(name, players):
    game = load_game(name)
    whole = play_random(game, players, 4)
    m = replay(game, players, 4, whole.history[: len(whole.history) // 3])
    want = rollout(m, random_bot(9))
    assert rollout(m.clone(), random_bot(9)) == want
    assert rollout(pickle.loads(pickle.dumps(m)), random_bot(9)) == want
    assert rollout(whole, random_bot(9)) == (whole.scores, whole.winners, 0)


def test_a_rollout_of_a_determinized_match_is_that_match_played_on():
    game = load_game("overloaded")
    whole = play_random(game, 4, 6)
    m = replay(game, 4, 6, whole.history[:30])
    for k in range(3):
        world = m.determinize(1, random.Random(k))
        got = rollout(world, RandomBot(k))
        assert (got.scores, got.winners, got.decisions) == stepped(world, RandomBot(k).pick)


def test_a_rollout_from_the_start_is_the_sim_match_of_its_seed():
    from interpreter.run.sim import simulate

    for name, players in GAMES:
        game = load_game(name)
        o = simulate(game, players, 3)
        got = rollout(game.new_match(players=players, seed=3), random_bot(3))
        assert (got.scores, got.winners, got.decisions) == (o.scores, o.winners, o.decisions), name


SETUP_ASKS = """
game: setup-asks
title: Setup asks
players: {min: 2, max: 2}
cards: [cards.yaml]
properties: {value: 0}
counters: {game: {bid: 0}}
zones: {deck: {visibility: hidden, face: down}, table: {visibility: public}}
phases:
  bid: |
    let b = I choose a number from 1 to 3 "Bid"
    set bid to b
  play: |
    let c = I choose a card from deck "Take"
    move c to table
    add c.value * bid to bid
flow: {setup: [bid], rounds: 2, turn: [play]}
result: {score: bid}
"""


def test_a_rollout_from_a_set_up_that_asks_runs_the_arranged_set_up_on_its_own_state(tmp_path):
    (tmp_path / "game.yaml").write_text(SETUP_ASKS)
    cards = "\n".join(f"  - {{id: c{i}, start: deck, value: {i}}}" for i in range(1, 6))
    (tmp_path / "cards.yaml").write_text(f"cards:\n{cards}\n")
    game = load_game(tmp_path)
    seen = []
    m = game.new_match(players=2, seed=1, arrange={"table": ["c5"]}, after_setup=lambda match: seen.append(match))
    assert m._base[0].part == SETUP, "the match waits in its set-up, before the arranged cards are placed"
    table = m.view(0)["zones"]["table"]
    for pick in (lambda n: n - 1, lambda n: 0):
        got = rollout(m, pick)
        assert (got.scores, got.winners, got.decisions) == stepped(m, pick)
    assert m.view(0)["zones"]["table"] == table == [] and m.history == [], "the match is left as it was"
    assert seen and all(s is not m for s in seen)  # the set-up hook ran on stand-ins holding their own state
