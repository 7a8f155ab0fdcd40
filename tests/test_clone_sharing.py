"""A clone shares what neither match changes (the kept base, the record of who saw what, each seat's
rendered observations) and rebuilds its running flow when first used: whichever of the two goes on
first, the other stays exactly at the point of cloning."""

from __future__ import annotations

import pickle
import random

import pytest
from walks import walker

from interpreter import load_game
from interpreter.run.match import Match


def snapshot(m) -> tuple:
    return (tuple(m.information_state(s) for s in range(m.players)), tuple(m.to_act()), m.history[:],
            [m.action_labels(s) for s in range(m.players)])


def go_on(m, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        if m.over:
            return
        seat = m.to_act()[0]
        m.apply(seat, rng.randrange(len(m.legal_actions(seat))))


@pytest.mark.parametrize(("name", "players"), [("overloaded", 4), ("sky-haulers", 2)])
def test_a_clone_and_its_original_go_on_apart_whichever_moves_first(name, players):
    game = load_game(name)
    m = game.new_match(players=players, seed=3)
    go_on(m, 25, walker(3))
    before = snapshot(m)
    first, second, third = m.clone(), m.clone(), m.clone()
    assert type(first) is not Match  # not rebuilt yet: nothing was asked of it
    go_on(m, 15, random.Random(1))  # the original goes on first: the copies still stand where it was
    assert snapshot(first) == before and type(first) is Match
    go_on(first, 15, random.Random(2))
    assert snapshot(pickle.loads(pickle.dumps(second))) == before
    assert snapshot(second.clone()) == before and snapshot(second) == before
    assert snapshot(third) == before
    rebuilt = m.clone()
    go_on(rebuilt, 40, random.Random(4))
    again = m.clone()
    go_on(m, 40, random.Random(4))
    go_on(again, 40, random.Random(4))
    assert snapshot(m) == snapshot(rebuilt) == snapshot(again)


@pytest.mark.parametrize(("name", "players"), [("overloaded", 4), ("hearts", 4), ("go-fish", 3)])
def test_a_search_copy_goes_on_as_a_clone_and_leaves_its_world_as_it_was(name, players):
    # a search's copy keeps no record for determinize and no new base, yet every seat's information state
    # and the match itself go on as in a clone; a copy of it is still the same match
    game = load_game(name)
    whole = Match(game, players, 3)
    bot = walker(3)
    while not whole.over and len(whole.history) < 40:
        for s in whole.to_act():
            whole.apply(s, bot.pick(len(whole.legal_actions(s))))
    world = whole.determinize(whole.to_act()[0], random.Random(2))
    before = snapshot(world)
    for k in range(3):
        plain, search = world.clone(), world.search_copy()
        go_on(plain, 5 + 7 * k, random.Random(k))
        go_on(search, 5 + 7 * k, random.Random(k))
        assert snapshot(search) == snapshot(plain)
        later_plain, later_search = plain.clone(), search.clone()
        go_on(later_plain, 9, random.Random(9))
        go_on(later_search, 9, random.Random(9))
        assert snapshot(later_search) == snapshot(later_plain)
    assert snapshot(world) == before
