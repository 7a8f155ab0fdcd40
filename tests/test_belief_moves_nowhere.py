"""The next draws at one point (`belief._moved`), where no chance follows an answer: a proposal that would draw the
other seats' answers anew and come out as the kept world is not played (`belief._moves_nowhere`), and an option the
kept world found to fail is not tried again on it (`belief._Replay.redraw`, `known`). Both give the very worlds that
playing every proposal in full, every option tried, gives: what was skipped would have changed nothing."""

import random

import pytest

from interpreter.game import load_game
from interpreter.run import belief


def at_point(name: str, seed: int, decisions: int, players: int = 4):
    m = load_game(name).new_match(players=players, seed=seed)
    rng = random.Random(seed)
    while not m.over and len(m.history) < decisions:
        for p in m.to_act():
            m.apply(p, rng.randrange(len(m.legal_actions(p))))
    return m


def next_draws(m, seat: int, draws: int, monkeypatch, in_full: bool) -> tuple[list[tuple], dict[str, int]]:
    """A fresh draw and `draws` next ones at `m`'s point, each as its history and where its cards lie; how many
    proposals and options were skipped."""
    skipped = {"proposals": 0, "options": 0}
    nowhere, redraw = belief._moves_nowhere, belief._Replay.redraw

    def moving(found, orders):
        if in_full:
            return False
        skips = nowhere(found, orders)
        skipped["proposals"] += skips
        return skips

    def redrawing(self, world, who, d):
        if in_full:
            self.known = None  # (every option tried)
        elif self.known is not None and d in self.known:
            skipped["options"] += len(self.known[d][2])
        return redraw(self, world, who, d)

    with monkeypatch.context() as patch:
        patch.setattr(belief, "_moves_nowhere", moving)
        patch.setattr(belief._Replay, "redraw", redrawing)
        c = m.clone()
        histories = []
        for k in range(draws + 1):
            world = c.determinize(seat, random.Random(k))
            assert world.information_state(seat) == m.information_state(seat)
            histories.append((tuple(world.history), tuple(map(tuple, world.st.zones))))
    return histories, skipped


@pytest.mark.parametrize(("seed", "decisions"), [(0, 40), (1, 80), (2, 60)])
def test_what_a_next_draw_skips_would_have_changed_nothing(seed, decisions, monkeypatch):
    m = at_point("go-fish", seed, decisions)
    assert not m.game.chance_after_answers
    seat = m.to_act()[0]
    skipping, skipped = next_draws(m, seat, 20, monkeypatch, False)
    in_full, _ = next_draws(m, seat, 20, monkeypatch, True)
    assert skipping == in_full
    assert skipped["proposals"] and skipped["options"], skipped
    assert len(set(skipping)) > 1  # (the draws moved)


def test_where_chance_may_follow_an_answer_nothing_is_noted():
    """An option may fare otherwise on the same world where chance follows it: nothing is known of it ahead."""
    m = at_point("overloaded", 0, 30)
    seat = m.to_act()[0]
    c = m.clone()
    for k in range(3):
        c.determinize(seat, random.Random(k))
        assert not belief._belief(c, seat).found

