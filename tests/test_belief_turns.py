"""A card an answer named that moves only at a later turn moves by what the rules do then, not as the naming
player's choice of which card left its hand (`_Tracer.tabled`). Go Fish: P3 asks for Fives by naming a
Five it holds; the stock is empty, so nothing of P3's moves; at P4's turn P4 asks P3 for Fives and takes it.
Taken for P3's unseen choice, that move cut the card's life into paths any card of P3's hand could go down,
so a drawing sent the needs of later books through P3's and P0's hands at random and left P0 no Three to ask
for at decision 17: fresh draws at 5 players, seed 0, after 176 decisions, found no world in 66 drawings
(4 s a draw)."""

import random

import pytest
from walks import walker

from interpreter.game import load_game
from interpreter.run.belief import NoConsistentWorld, replayed
from interpreter.run.belief.trace import _Tracer
from interpreter.run.match import Match


def walked(players: int, seed: int, upto: int | None = None, every: int = 0):
    """Go Fish answered by `walker(seed)` (as `benchmarks/no_world.py` walked it with the random bots of the time)
    up to `upto` decisions or its end; with `every`, a fresh draw (no world kept) for the seat to act at every
    `every`-th decision. Returns the match and the draws: (decisions, seat, the world or the NoConsistentWorld
    raised, whether the world gives the seat the information state the match did)."""
    m = Match(load_game("go-fish"), players, seed)
    bot, rng = walker(seed), random.Random(seed)
    draws: list[tuple[int, int, object, bool]] = []
    while not m.over and (upto is None or len(m.history) < upto):
        acting = m.to_act()
        if every and len(m.history) % every == 0 and acting:
            c, seat = m.clone(), acting[0]
            c.__dict__.pop("_kept", None)
            try:
                world = c.determinize(seat, rng)
            except NoConsistentWorld as err:
                draws.append((len(m.history), seat, err, False))
            else:
                draws.append((len(m.history), seat, world, world.information_state(seat) == m.information_state(seat)))
        for p in acting:
            m.apply(p, bot.pick(len(m.legal_actions(p))))
    return m, draws


@pytest.fixture(scope="module")
def late_point():
    m, _ = walked(5, 0, 176)
    assert m.to_act() == [1]
    return m, 1


def test_a_card_named_at_one_turn_and_taken_at_another_is_no_choice(late_point):
    m, seat = late_point
    tr = _Tracer(m, seat).advance(m)
    # the deal's shuffle is the only point where P1 loses track of a card: nobody chose a card to leave a hand
    assert [(kind, len(incoming)) for kind, incoming, _ in tr.mixes] == [(-1, 52)]
    assert not tr.chosen and not tr.left


def test_late_in_five_player_go_fish_a_fresh_draw_finds_a_world(late_point):
    m, seat = late_point
    for k in range(2):
        c = m.clone()
        c.__dict__.pop("_kept", None)
        world = c.determinize(seat, random.Random(k))
        assert world.information_state(seat) == m.information_state(seat)
        replayed(world)  # a legal history of its own


@pytest.mark.slow
def test_fresh_draws_through_a_whole_five_player_go_fish_match_all_find_a_world():
    """`benchmarks/no_world.py --games go-fish --players 5 --seeds 1 --every 4 --fresh --check`: 47 draws, of
    which the one after 176 decisions found no world (a draw there takes about a second, some up to a minute)."""
    _, draws = walked(5, 0, every=4)
    assert len(draws) > 30
    for decisions, seat, world, same in draws:
        assert not isinstance(world, NoConsistentWorld), (decisions, seat, world)
        assert same, (decisions, seat)
        replayed(world)
