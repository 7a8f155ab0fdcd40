"""The generic random-play test: every bundled game, at every player count, plays to the end."""

import pytest
from walks import walker

from interpreter.game import load_game
from interpreter.run.match import Match

MATCHES = 10  # random matches per game and player count in the default run (25 were 2.4 s of CPU more)
SLOW_MATCHES = 200  # ... and with -m slow (the seeds after those)


def check_conservation(m: Match) -> None:
    st = m.st
    total = len(m.layout.card_ids)
    assert sum(len(z) for z in st.zones) == total, "a card was lost or duplicated"
    for zi, cards in enumerate(st.zones):
        for c in cards:
            assert st.zone_of[c] == zi, f"{m.layout.card_ids[c]} is listed in the wrong zone"


def plays_to_the_end(name: str, seeds: range) -> None:
    """Each seed's random match at every player count ends, with winners, its cards conserved at every step."""
    game = load_game(name)
    for players in range(game.min_players, game.max_players + 1):
        for seed in seeds:
            m = Match(game, players, seed)
            rng = walker(seed)
            steps = 0
            while not m.over:
                check_conservation(m)
                for seat in m.to_act():
                    legal = m.legal_actions(seat)
                    assert legal, f"seat {seat} must act but has no legal action"
                    assert m.apply(seat, legal[rng._randbelow(len(legal))]) is None
                steps += 1
                assert steps < 100_000, "the match does not end"
            check_conservation(m)
            result = m.result()
            assert result["winners"], "a finished match has at least one winner"
            assert len(result["scores"]) == players


def test_every_bundled_game_plays_to_the_end_at_every_player_count(bundled_game):
    plays_to_the_end(bundled_game, range(MATCHES))


@pytest.mark.slow
def test_every_bundled_game_plays_to_the_end_in_many_more_matches(bundled_game):
    plays_to_the_end(bundled_game, range(MATCHES, SLOW_MATCHES))


@pytest.mark.parametrize("players", [3, 6])
def test_zone_sizes_of_a_finished_overloaded_match(overloaded, players):
    m = Match(overloaded, players, seed=11)
    rng = walker(11)
    while not m.over:
        for seat in m.to_act():
            m.apply(seat, rng._randbelow(len(m.legal_actions(seat))))
    names = m.layout.zone_names
    sizes = {names[zi]: len(z) for zi, z in enumerate(m.st.zones)}
    assert sizes["walked"] == 8 and sizes["box"] == 12 and sizes["deck"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_many_fast_random_matches_end_with_winners(bundled_game, players):
    """The long run (`-m slow`): 3,000 matches per game and player count through the fast simulator."""
    from interpreter.run.sim import simulate

    game = load_game(bundled_game)
    if not game.min_players <= players <= game.max_players:
        pytest.skip("player count out of range")
    for seed in range(3000):
        outcome = simulate(game, players, seed)
        assert outcome.winners and len(outcome.scores) == players
