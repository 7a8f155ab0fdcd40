"""A quiet rollout plays a match on to its end as the step API would with the same bot choices (same scores,
winners and number of decisions), at any point of any bundled game, and leaves the match as it was."""

import pickle
import random

import pytest

from interpreter import load_game, rollout
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
