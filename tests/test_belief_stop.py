"""Another seat's secret answer drawn anew (`_Replay.redraw`): an option that parts from what the seat observed
stops at the seat's first line that differs (`_Checked`), where the game's rules draw no chance after an answer;
the worlds drawn are the same as where every option runs its flow on to the next question."""

import random

import pytest

from interpreter.game import load_game
from interpreter.run.belief.base import _Parted
from interpreter.run.belief.replay import _Replay
from interpreter.run.match import Match


def at_point(name: str, seed: int, decisions: int, players: int = 4):
    m = load_game(name).new_match(players=players, seed=seed)
    rng = random.Random(seed)
    while not m.over and len(m.history) < decisions:
        for p in m.to_act():
            m.apply(p, rng.randrange(len(m.legal_actions(p))))
    return m


def drawn(m, seat: int, monkeypatch, stop: bool) -> tuple[list, int, int]:
    """Worlds drawn for `seat` (their histories and records), the events the options tried recorded, and how many
    options stopped early."""
    recorded, parted = [0], [0]
    redraw, apply, init = _Replay.redraw, Match.apply, _Parted.__init__
    inside = [False]

    def redrawing(self, world, who, d):
        inside[0] = True
        try:
            return redraw(self, world, who, d)
        finally:
            inside[0] = False

    def applying(self, seat, action):
        if not inside[0]:
            return apply(self, seat, action)
        watch = self._watch
        before = len(watch.events)
        try:
            return apply(self, seat, action)
        finally:
            recorded[0] += len(watch.events) - before

    def parting(self, reached):
        parted[0] += 1
        init(self, reached)

    with monkeypatch.context() as patch:
        patch.setattr(_Replay, "redraw", redrawing)
        patch.setattr(Match, "apply", applying)
        patch.setattr(_Parted, "__init__", parting)
        if not stop:
            patch.setattr(m.game, "chance_after_answers", True)
        worlds = []
        for k in range(3):
            world = m.clone().determinize(seat, random.Random(k))
            assert world.information_state(seat) == m.information_state(seat)
            worlds.append((list(world.history), list(world._watch.events), world.information_state(seat)))
    return worlds, recorded[0], parted[0]


@pytest.mark.parametrize(("seed", "decisions"), [(0, 40)])
def test_an_option_that_parts_stops_there_and_the_worlds_are_the_same(seed, decisions, monkeypatch):
    m = at_point("go-fish", seed, decisions)
    seat = m.to_act()[0]
    stopped, fewer, parted = drawn(m, seat, monkeypatch, True)
    ran, more, none = drawn(m, seat, monkeypatch, False)
    assert stopped == ran
    assert parted and not none
    assert fewer < more, (fewer, more)


def test_which_games_draw_chance_after_an_answer():
    assert not load_game("go-fish").chance_after_answers  # (shuffled at its set-up only)
    assert load_game("crazy-eights").chance_after_answers  # (the discards shuffled into the stock in play)
    assert load_game("overloaded").chance_after_answers
    assert load_game("hearts").chance_after_answers  # (each deal after the first shuffles again, after answers)
    assert not load_game("tests/games/kuhn-poker").chance_after_answers  # (dealt from the set-up's shuffle)
