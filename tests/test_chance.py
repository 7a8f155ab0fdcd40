"""Explicit chance: a match asked for it stops at every chance event (`chance_outcomes`, `apply_chance`);
told the outcomes its seed would draw, it is the seed's match."""

import pickle
import random

import pytest
from walks import walker

from interpreter import load_game
from interpreter.run import chance
from interpreter.run.match import INVALID_MOVE, NOT_YOUR_TURN, Match

GAMES = ["overloaded", "go-fish", "crazy-eights",
         *(pytest.param(name, marks=pytest.mark.slow) for name in ("sky-haulers", "low-tide", "hearts"))]


def seeded(game, players: int, seed: int) -> tuple[Match, Match, list[int]]:
    """A random-bot match drawing from its seed, the same match with its chance drawn by a function from a
    generator seeded alike, and the outcomes that function gave."""
    drawn: list[int] = []
    rng = random.Random(seed)

    def outcome(n: int) -> int:
        drawn.append(rng._randbelow(n))  # type: ignore[attr-defined]
        return drawn[-1]

    plain, recorded = Match(game, players, seed), Match(game, players, seed, chance=outcome)
    bot = walker(seed)
    while not plain.over:
        for seat in plain.to_act():
            action = bot.pick(len(plain.legal_actions(seat)))
            plain.apply(seat, action)
            recorded.apply(seat, action)
    return plain, recorded, drawn


def told(game, players: int, seed: int, outcomes: list[int], decisions: list[tuple[int, int]]) -> tuple[Match, int]:
    """A match with explicit chance given these outcomes and decisions, in the order it asks for them;
    returns it and the number of chance events it stopped at."""
    m = game.new_match(players=players, seed=seed, explicit_chance=True)
    given, decided, events = iter(outcomes), iter(decisions), 0
    while not m.over:
        at = m.chance_outcomes()
        if at:
            assert m.to_act() == [] and m.legal_actions(0) == []
            assert sorted(k for k, _ in at) == list(range(len(at))) and len(at) >= 2
            assert sum(p for _, p in at) == pytest.approx(1.0)
            events += 1
            assert m.apply_chance(next(given)) is None
            continue
        seat, action = next(decided)
        assert m.to_act()[0] == seat or seat in m.to_act()
        assert m.apply(seat, action) is None
    assert next(given, None) is None and next(decided, None) is None
    return m, events


@pytest.mark.parametrize("name", GAMES)
def test_the_outcomes_the_seed_draws_told_explicitly_give_the_seeds_match(name):
    game = load_game(name)
    players = game.default_players
    plain, recorded, drawn = seeded(game, players, 5)
    assert recorded.result() == plain.result()
    m, events = told(game, players, 123, drawn, plain.history)  # its own seed plays no part
    assert events == len(drawn) == plain.st.chance_used
    assert m.result() == plain.result()
    assert m.history == plain.history
    for seat in range(players):
        assert m.view(seat) == plain.view(seat)
        assert m.information_state(seat) == plain.information_state(seat)


def test_a_chance_event_is_a_node_to_branch_from():
    game = load_game("go-fish")
    m = game.new_match(players=2, seed=0, explicit_chance=True)
    assert m.chance_outcomes() == [(k, 1 / 52) for k in range(52)]  # the deck's shuffle, its first draw
    a, b = m.clone(), m.clone()
    assert a.apply_chance(51) is None and b.apply_chance(0) is None
    assert m.chance_outcomes() == [(k, 1 / 52) for k in range(52)]
    assert a.chance_outcomes() == b.chance_outcomes() == [(k, 1 / 51) for k in range(51)]
    for _ in range(50):
        a.apply_chance(0)
        b.apply_chance(0)
    assert a.to_act() == b.to_act() != [] and a.chance_outcomes() == []
    assert a.st.zones != b.st.zones  # another deal
    again = pickle.loads(pickle.dumps(a))
    assert again.view(0) == a.view(0) and again.chance_outcomes() == []


def test_a_chance_event_reached_by_a_decision_stands_before_it_and_branches():
    game = load_game("overloaded")
    plain, _, drawn = seeded(game, 3, 2)
    m = game.new_match(players=3, seed=2, explicit_chance=True)
    given, decided = iter(drawn), iter(plain.history)
    while not m.chance_outcomes() or not m.history:  # on to a chance event reached by a decision
        if m.chance_outcomes():
            m.apply_chance(next(given))
        else:
            m.apply(*next(decided))
    n = len(m.chance_outcomes())
    assert m.history[-1] == plain.history[len(m.history) - 1]
    first, last = m.clone(), m.clone()
    first.apply_chance(0)
    last.apply_chance(n - 1)
    assert len(m.chance_outcomes()) == n and first.st.chance_used == last.st.chance_used


def test_outcomes_out_of_range_or_out_of_turn_are_refused_as_values():
    game = load_game("go-fish")
    m = game.new_match(players=2, seed=0, explicit_chance=True)
    assert m.apply_chance(52).code == INVALID_MOVE
    assert m.apply_chance(-1).code == INVALID_MOVE
    assert m.apply(0, 0).code == NOT_YOUR_TURN  # nobody acts at a chance event
    plain = game.new_match(players=2, seed=0)
    assert plain.chance_outcomes() == []
    assert "explicit_chance" in plain.apply_chance(0).reason


def explicit_at(game, players: int, seed: int, decisions: int):
    """A match with explicit chance, its outcomes and decisions drawn at random by `seed`, stopped at a
    question after `decisions` decisions (or fewer, at the last question before the end)."""
    rng = random.Random(seed)
    m = game.new_match(players=players, seed=0, explicit_chance=True)
    last = None
    while not m.over and len(m.history) < decisions:
        at = m.chance_outcomes()
        if at:
            m.apply_chance(rng.randrange(len(at)))
            continue
        last = m.clone()
        seat = m.to_act()[0]
        m.apply(seat, rng.randrange(len(m.legal_actions(seat))))
    while m.chance_outcomes() and not m.over:
        m.apply_chance(rng.randrange(len(m.chance_outcomes())))
    return last if m.over else m


WORLD_GAMES = ["go-fish", "overloaded", "crazy-eights", "hearts", "low-tide", "sky-haulers"]


@pytest.mark.parametrize("name, decisions", [
    *((name, 8) for name in WORLD_GAMES), *(pytest.param(name, 16, marks=pytest.mark.slow) for name in WORLD_GAMES)])
def test_a_world_drawn_of_a_match_with_explicit_chance_is_one_the_seat_cannot_tell_apart(name, decisions):
    game = load_game(name)
    players = game.default_players
    m = explicit_at(game, players, 7, decisions)
    seat = m.to_act()[0]
    worlds = [chance.determinize(m, seat, random.Random(k)) for k in range(3)]
    for world in worlds:
        assert world.information_state(seat) == m.information_state(seat)
        assert world.view(seat) == m.view(seat) and world.legal_actions(seat) == m.legal_actions(seat)
        assert world.chance_outcomes() == [] and world._explicit.given != ()
    assert any(world.st.zones != m.st.zones for world in worlds)  # the hidden cards dealt anew
    again = chance.determinize(m, seat, random.Random(0))  # the same generator, the same world
    assert again._explicit.given == worlds[0]._explicit.given and again.history == worlds[0].history
    # the world is a match with explicit chance like any other: it pickles, and goes on
    world = pickle.loads(pickle.dumps(worlds[1]))
    assert world.information_state(seat) == m.information_state(seat)
    rng = random.Random(1)
    for _ in range(60):
        if world.over:
            break
        at = world.chance_outcomes()
        if at:
            assert world.apply_chance(rng.randrange(len(at))) is None
        else:
            who = world.to_act()[0]
            assert world.apply(who, rng.randrange(len(world.legal_actions(who)))) is None
    assert world.over or world.to_act() or world.chance_outcomes()


def test_a_world_is_drawn_at_a_question_not_at_a_chance_event():
    game = load_game("go-fish")
    m = game.new_match(players=2, seed=0, explicit_chance=True)
    with pytest.raises(ValueError, match="not at a chance event"):
        chance.determinize(m, 0, random.Random(0))
    with pytest.raises(ValueError, match="explicit chance"):
        chance.determinize(game.new_match(players=2, seed=0), 0, random.Random(0))
