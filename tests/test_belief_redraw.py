"""Another seat's secret answer drawn anew (`_Replay.redraw`) tries its options in turn, each from a copy of the
world made before the first; a copy rebuilt from its kept base must draw an option's chance as the world itself would
have: for the answer being given (what the seat saw of it decides whether an outcome is the real one or drawn anew),
and afresh, not read back from what an option that failed drew."""

import random

import pytest

from interpreter.game import load_game
from interpreter.run.belief.world_chance import _WorldChance


def at_point(seed: int, decisions: int, players: int = 4):
    m = load_game("overloaded").new_match(players=players, seed=seed)
    rng = random.Random(seed)
    while not m.over and len(m.history) < decisions:
        for p in m.to_act():
            m.apply(p, rng.randrange(len(m.legal_actions(p))))
    return m


@pytest.mark.parametrize(("seed", "decisions"), [(4, 78)])  # (a point where an option tried after one that
# failed draws: found over six matches, every sixth decision)
def test_an_option_tried_after_one_that_failed_draws_its_chance_for_its_own_answer(seed, decisions, monkeypatch):
    given: list[int] = []  # the answer being given again
    drawn: list[tuple[int, int]] = []  # each outcome not read back: (the answer its chance took it for, that answer)
    begin, draw = _WorldChance.begin, _WorldChance._drawn

    def begun(self, d):
        given.append(d)
        begin(self, d)

    def drawing(self, n, real):
        drawn.append((self.at, given[-1] if given else -1))
        return draw(self, n, real)

    monkeypatch.setattr(_WorldChance, "begin", begun)
    monkeypatch.setattr(_WorldChance, "_drawn", drawing)
    m = at_point(seed, decisions)
    seat = m.to_act()[0]
    c = m.clone()
    for k in range(6):
        world = c.determinize(seat, random.Random(k))
        assert world.information_state(seat) == m.information_state(seat)
    assert drawn, "no outcome was drawn"
    assert [at for at, _ in drawn] == [d for _, d in drawn]
