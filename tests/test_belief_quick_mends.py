"""What a quick mend tries first, where the world parted from what the seat saw by what a player could do.

Where a world asks a player to choose a card where the real match did not, a quick mend first trades all of that
player's options away at once (`_Replay.blocked_first`).

Crazy Eights: "P1 has no card to play", but the world's P1 holds a card it can play, so the world asks it "Play a card"
instead. The swaps of the quick mends were of cards drawn at random among all the zones the answer touched, and a
swap of one of several playable cards left the world parting at the same line, so they saw no step forward. The
thorough mends already traded such options away together; the quick ones now try that first (at the point below,
P1 holds one playable card: the first or second trade of it mends the world).

Measured (`python benchmarks/hard_points.py --points crazy-eights:5:4:34:1 --rngs 40:80`, fresh draws): no world in
1 of 40 draws before, 0 after; 903 drawings before, 482 after. Carried draws at the seat's next turn, Crazy Eights 4
players, 40 matches at four points each, three draws a point: 108,638 probes before, 59,518 after.

Then, among single swaps, those of the card the world moved last before it parted (`_Replay.last_move`). Crazy Eights:
a player draws until a card fits; the seat saw P2 draw a fourth card, but the world's third fit, so the world said "P2
draws 3". Of the hundreds of swaps a quick mend may try, those of that third card explain it. Measured beside the above:
at the hardest point 482 drawings -> 104 (no world 0 of 40 both); the carried draws 59,518 probes -> 45,754.
"""

import random

import pytest
from walks import played, to_turn, walked

from interpreter.game import load_game
from interpreter.run.belief import replayed, stages
from interpreter.run.belief.replay import _Replay


def at_next_turn(seed: int, share: float):
    """Crazy Eights, 4 players, the match of `seed` of the walk: the seat draws a world at `share` of it, and the match
    goes on to the seat's next turn."""
    game = load_game("crazy-eights")
    m = played(game, 4, seed, int(len(walked(game, 4, seed).history) * share))
    seat = m.to_act()[0]
    m.determinize(seat, random.Random(1))
    to_turn(m, seat, random.Random(1))
    return m, seat


@pytest.fixture(scope="module")
def next_turn_2():
    """Seed 2, halfway: at the seat's next turn, the kept world, carried on, parts from what the seat saw since: the
    world asks a player to play a card where the real one had none to play."""
    return at_next_turn(2, 0.5)


@pytest.fixture(scope="module")
def next_turn_5():
    """Seed 5, at 70%: at the seat's next turn, the kept world, carried on, parts where a player drew on in the real
    match and the world's stopped at a card that fit."""
    return at_next_turn(5, 0.7)


def probes_of_carried_draws(monkeypatch, m, seat: int) -> int:
    """The swaps tried by five draws (generators 1 to 5) on copies of `m`, each carried on from its kept world."""
    probes = [0]
    tried = _Replay.tried

    def counted(self, *args):
        probes[0] += 1
        return tried(self, *args)

    monkeypatch.setattr(_Replay, "tried", counted)
    monkeypatch.setattr(stages, "_drawn", lambda *args, **kwargs: pytest.fail("drawn afresh"))
    for k in range(1, 6):
        c = m.clone()
        world = c.determinize(seat, random.Random(k))
        assert world.information_state(seat) == m.information_state(seat)
        replayed(world)
    return probes[0]


def test_a_player_asked_to_play_where_it_had_nothing_to_play_has_its_playable_cards_traded_away_together(
        monkeypatch, next_turn_2):
    m, seat = next_turn_2
    assert probes_of_carried_draws(monkeypatch, m, seat) <= 10  # (6: one or two swaps tried a draw)


def test_without_the_trades_together_the_same_draws_try_many_more_swaps(monkeypatch, next_turn_2):
    """The test above can fail: with the options traded one at a time, the same draws try 45 swaps."""
    m, seat = next_turn_2
    monkeypatch.setattr(_Replay, "blocked_first", lambda self, prev, d, blocked: [])
    assert probes_of_carried_draws(monkeypatch, m, seat) >= 30


def test_a_player_that_stopped_drawing_too_soon_has_its_last_card_drawn_traded_first(monkeypatch, next_turn_5):
    m, seat = next_turn_5
    assert probes_of_carried_draws(monkeypatch, m, seat) <= 40  # (27)


def test_without_the_last_card_first_the_same_draws_try_many_more_swaps(monkeypatch, next_turn_5):
    """The test above can fail: with the swaps in the order they came, the same draws try 203 swaps."""
    m, seat = next_turn_5
    monkeypatch.setattr(_Replay, "last_move", lambda self, world, reached, k0, lines0: -1)
    assert probes_of_carried_draws(monkeypatch, m, seat) >= 120
