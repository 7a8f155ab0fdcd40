"""Where a world asks a player to choose a card where the real match did not, a quick mend first trades all of that
player's options away at once (`belief._Replay.blocked_first`).

Crazy Eights: "P1 has no card to play", but the world's P1 holds a card it can play, so the world asks it "Play a card"
instead. The swaps of the quick mends were of cards drawn at random among all the zones the answer touched, and a
swap of one of several playable cards left the world parting at the same line, so they saw no step forward. The
thorough mends already traded such options away together; the quick ones now try that first (at the point below,
P1 holds one playable card: the first or second trade of it mends the world).

Measured (`python benchmarks/hard_points.py --points crazy-eights:5:4:34:1 --rngs 40:80`, fresh draws): no world in
1 of 40 draws before, 0 after; 903 drawings before, 482 after. Carried draws at the seat's next turn, Crazy Eights 4
players, 40 matches at four points each, three draws a point: 108,638 probes before, 59,518 after.
"""

import random

import pytest
from walks import played, to_turn, walked

from interpreter.game import load_game
from interpreter.run import belief
from interpreter.run.belief import replayed


@pytest.fixture(scope="module")
def next_turn():
    """Crazy Eights, 4 players, seed 2 of the walk: the seat draws a world halfway, and the match goes on to its next
    turn, where the kept world, carried on, parts from what the seat saw since: the world asks a player to play a
    card where the real one had none to play."""
    game = load_game("crazy-eights")
    m = played(game, 4, 2, len(walked(game, 4, 2).history) // 2)
    seat = m.to_act()[0]
    m.determinize(seat, random.Random(1))
    to_turn(m, seat, random.Random(1))
    return m, seat


def probes_of_carried_draws(monkeypatch, m, seat: int) -> int:
    """The swaps tried by five draws (generators 1 to 5) on copies of `m`, each carried on from its kept world."""
    probes = [0]
    tried = belief._Replay.tried

    def counted(self, *args):
        probes[0] += 1
        return tried(self, *args)

    monkeypatch.setattr(belief._Replay, "tried", counted)
    monkeypatch.setattr(belief, "_drawn", lambda *args, **kwargs: pytest.fail("drawn afresh"))
    for k in range(1, 6):
        c = m.clone()
        world = c.determinize(seat, random.Random(k))
        assert world.information_state(seat) == m.information_state(seat)
        replayed(world)
    return probes[0]


def test_a_player_asked_to_play_where_it_had_nothing_to_play_has_its_playable_cards_traded_away_together(
        monkeypatch, next_turn):
    m, seat = next_turn
    assert probes_of_carried_draws(monkeypatch, m, seat) <= 10  # (6: one or two swaps tried a draw)


def test_without_the_trades_together_the_same_draws_try_many_more_swaps(monkeypatch, next_turn):
    """The test above can fail: with the options traded one at a time, the same draws try 45 swaps."""
    m, seat = next_turn
    monkeypatch.setattr(belief._Replay, "blocked_first", lambda self, prev, d, blocked: [])
    assert probes_of_carried_draws(monkeypatch, m, seat) >= 30
