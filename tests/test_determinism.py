"""Same seed + same decisions = the same match, byte for byte."""

import json

from interpreter.run.match import play_random, replay


def dump(log):
    return "\n".join(json.dumps(rec, sort_keys=True) for rec in log)


def test_same_seed_same_decisions_give_an_identical_log(overloaded):
    first = play_random(overloaded, 4, seed=7, log=True)
    second = replay(overloaded, 4, 7, first.history, log=True)
    assert dump(first.log) == dump(second.log)


def test_a_different_seed_gives_a_different_match(overloaded):
    a = play_random(overloaded, 4, seed=1, log=True)
    b = play_random(overloaded, 4, seed=2, log=True)
    assert dump(a.log) != dump(b.log)


def test_replaying_a_prefix_clones_the_match_state(overloaded):
    full = play_random(overloaded, 5, seed=3)
    half = full.history[: len(full.history) // 2]
    a = replay(overloaded, 5, 3, half)
    b = replay(overloaded, 5, 3, half)
    assert a.st.zones == b.st.zones and a.st.pc == b.st.pc and a.to_act() == b.to_act()
    assert a.view(0) == b.view(0)


def test_matches_share_no_state(overloaded):
    """A compiled game is reused by many matches; none may leak into another."""
    a = play_random(overloaded, 4, seed=5)
    play_random(overloaded, 4, seed=6)
    again = play_random(overloaded, 4, seed=5)
    assert a.result() == again.result() and a.history == again.history


def test_a_shuffle_draws_as_random_shuffle_does():
    """A zone's shuffle (its draws written out, a run of places at a time) gives the order `random.shuffle`
    gives from the same generator, and leaves the generator where it leaves it: the chance stream of a
    seed is Python's own, whatever the zone's size."""
    import random

    from interpreter.run.runtime import _fisher_yates

    for size in (0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 52, 100):
        for seed in range(4):
            ours, theirs = random.Random(seed), random.Random(seed)
            cards, expected = list(range(size)), list(range(size))
            _fisher_yates(cards, ours.getrandbits)
            theirs.shuffle(expected)
            assert cards == expected and ours.getstate() == theirs.getstate(), (size, seed)


def test_a_quiet_match_is_the_match_the_step_api_plays():
    """`sim`'s quiet match (no log, no watcher: cards moved without tracking who knows them, several at once)
    ends as the same seed's match through the step API, for every bundled game: scores, winners, turns,
    decisions and every game counter."""
    from interpreter import load_game
    from interpreter.load.loader import bundled_games
    from interpreter.run.sim import simulate

    for name in bundled_games():
        game = load_game(name)
        for seed in (1, 2):
            m = play_random(game, game.max_players if seed == 2 else game.min_players, seed)
            result = m.result()
            quiet = simulate(game, m.players, seed)
            assert (quiet.scores, quiet.winners, quiet.turns, quiet.decisions, quiet.counters) == (
                result["scores"], result["winners"], result["turns"], result["decisions"], list(m.st.gc)), (name, seed)
