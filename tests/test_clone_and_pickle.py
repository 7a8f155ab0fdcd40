"""A match is a value: `clone()` and `pickle` copy it at any point, and the copy plays on exactly as the
original would (same state, chance, history, log and pending question), independently of it."""

import json
import pickle
from pathlib import Path

import pytest
from walks import walked, walker

from interpreter import load_game


def finish_randomly(m, seed):
    """Play a match to its end with random answers from `seed`; returns the decisions made."""
    rng = walker(seed)
    made = []
    while not m.over:
        for seat in m.to_act():
            action = rng._randbelow(len(m.legal_actions(seat)))
            made.append((seat, action))
            assert m.apply(seat, action) is None
    return made


def dump(m):
    return [json.dumps(rec, sort_keys=True) for rec in m.log] if m.log is not None else None


def copies(m):
    return {"clone": m.clone(), "pickle": pickle.loads(pickle.dumps(m))}


LOW_HAND = str(Path(__file__).parent / "games" / "low-hand")  # deals, knock-outs, asks in every part of a deal


@pytest.mark.parametrize(("name", "players"), [("overloaded", 4), ("overloaded", 3), ("sky-haulers", 2),
                                               ("sky-haulers", 4), ("low-tide", 5), ("go-fish", 2),
                                               ("crazy-eights", 3), ("hearts", 4)])
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)])
def test_a_copy_mid_match_plays_on_exactly_like_the_original(name, players, seed):
    """A copy taken at the start, a third of the way in and at the last decision plays on as the original did
    (the original's own decisions after the cut give its very log, chance and result)."""
    game = load_game(name)
    whole = walked(game, players, seed, log=True)
    m = game.new_match(players=players, seed=seed, log=True)
    done = 0
    for cut in (0, 1, len(whole.history) // 3, len(whole.history) - 1):
        for seat, action in whole.history[done:cut]:
            assert m.apply(seat, action) is None
        done = cut
        for how, other in copies(m).items():
            assert other.history == m.history and other.to_act() == m.to_act(), how
            assert [other.view(s) for s in range(players)] == [m.view(s) for s in range(players)], how
            assert other.st.decisions == m.st.decisions
            for seat, action in whole.history[cut:]:
                assert other.apply(seat, action) is None, how
            assert other.over and other.result() == whole.result() and dump(other) == dump(whole), how


@pytest.mark.parametrize(("players", "seed"), [(3, 1), pytest.param(4, 2, marks=pytest.mark.slow), (2, 5)])
def test_a_copy_at_any_decision_of_a_match_of_several_deals_plays_on_like_the_original(players, seed):
    """The flow's cursor carries the deal: a copy taken in a deal's own phases (a simultaneous pass), its
    turns, or its after-deal phases, in any deal and with players knocked out, goes on the same way."""
    game = load_game(LOW_HAND)
    whole = walked(game, players, seed)
    assert whole.st.deal >= 2, "the match has several deals"
    m = game.new_match(players=players, seed=seed, log=True)
    bot = walker(seed)
    deals_seen = set()
    for cut, (seat, action) in enumerate(whole.history):
        if cut % 3 == 0 or m.st.out:
            deals_seen.add(m.st.deal)
            b = finish_randomly(m.clone(), seed * 7 + cut)
            for how, other in copies(m).items():
                assert [other.view(s) for s in range(players)] == [m.view(s) for s in range(players)], how
                assert finish_randomly(other, seed * 7 + cut) == b, how
        bot._randbelow(len(m.legal_actions(seat)))
        assert m.apply(seat, action) is None
    assert m.over and m.result() == whole.result()
    assert len(deals_seen) >= 2


def test_a_copy_is_independent_of_its_original():
    game = load_game("overloaded")
    m = game.new_match(players=4, seed=5)
    for _ in range(7):
        seat = m.to_act()[0]
        m.apply(seat, 0)
    before = (m.view(0), list(m.history), m.to_act())
    other = m.clone()
    finish_randomly(other, 99)
    assert other.over and not m.over
    assert (m.view(0), m.history, m.to_act()) == before
    finish_randomly(m, 98)  # and the original still plays


def test_a_copy_during_a_simultaneous_choice_keeps_the_answers_already_given():
    game = load_game("overloaded")
    m = game.new_match(players=4, seed=2)
    while not m.simultaneous:
        m.apply(m.to_act()[0], 0)
    first = m.to_act()[0]
    m.apply(first, 0)
    for other in copies(m).values():
        assert other.to_act() == m.to_act() and first not in other.to_act()
        assert finish_randomly(other, 4) == finish_randomly(m.clone(), 4)


def test_a_finished_match_copies_with_its_result():
    m = walked(load_game("sky-haulers"), 3, seed=4, log=True)
    for other in copies(m).values():
        assert other.over and other.result() == m.result() and dump(other) == dump(m)


def test_a_pickled_match_needs_only_the_game_folder():
    """The compiled game is not in the pickle: unpickling loads it (once per process) by its folder."""
    m = load_game("overloaded").new_match(players=4, seed=1)
    data = pickle.dumps(m)
    assert len(data) < 20_000
    assert b"def phase_" not in data


def test_chance_may_come_from_a_function_and_a_copy_keeps_drawing_from_it():
    """A property test answers chance events itself; a clone goes on asking the same function."""
    asked = []

    def lowest(n):
        asked.append(n)
        return 0

    m = load_game("overloaded").new_match(players=4, seed=1, chance=lowest)
    assert asked, "the set-up shuffles through the function"
    before = len(asked)
    other = m.clone()
    finish_randomly(other, 3)
    assert len(asked) > before
