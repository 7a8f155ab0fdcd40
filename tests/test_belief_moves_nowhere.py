"""The next draws at one point (`_moved`), where no chance follows an answer: a proposal that would draw the
other seats' answers anew and come out as the kept world is not played (`moves._moves_nowhere`), and an option the
kept world found to fail is not tried again on it (`_Replay.redraw`, `known`). Both give the very worlds that
playing every proposal in full, every option tried, gives: what was skipped would have changed nothing."""

import random

import pytest
from test_belief_stop import at_point
from test_leaks import hiding, write_game

from interpreter.run.belief import moves
from interpreter.run.belief.kept import _belief
from interpreter.run.belief.replay import _Replay


def next_draws(m, seat: int, draws: int, monkeypatch, in_full: bool) -> tuple[list[tuple], dict[str, int]]:
    """A fresh draw and `draws` next ones at `m`'s point, each as its history and where its cards lie; how many
    proposals and options were skipped."""
    skipped = {"proposals": 0, "options": 0}
    nowhere, redraw = moves._moves_nowhere, _Replay.redraw

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
        patch.setattr(moves, "_moves_nowhere", moving)
        patch.setattr(_Replay, "redraw", redrawing)
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
        assert not _belief(c, seat).found



TALLY = hiding("tally", """  pick: |
    for each player p simultaneously:
      let n = p chooses one of "low", "high" "Add one or three?"
      if n == "high":
        add 3 to tally of p
      else:
        add 1 to tally of p
    for each player p:
      if tally of p >= 5:
        say "{p} passed five"
""".rstrip("\n"), players="{min: 2, max: 2}", flow="rounds: 3, round: [pick]", dealt=1,
               zones="\ncounters:\n  player:\n    tally: {initial: 0, visibility: owner}")
BLANKS = "cards:\n  - {id: blank, name: Blank, value: 0, start: deck, count: 6}\n"  # (no cards to swap)


@pytest.mark.parametrize("seed", range(4))
def test_an_answer_drawn_otherwise_leaves_what_was_known_of_the_next_ones_behind(tmp_path, seed, monkeypatch):
    """P1 adds one or three to a tally only it sees, in secret, at each round; the table hears when it passes five.
    A next draw may draw P1's first answer otherwise: its tally at the second is then another, and an option the
    kept world found to fail there (three, which would have passed five) may fit. P0 is asked at the third round."""
    game = write_game(tmp_path, TALLY, BLANKS)
    assert not game.chance_after_answers
    m = game.new_match(players=2, seed=seed)
    for p, n in ((0, 0), (1, 0), (0, 1), (1, 1)):  # P1: one, then three (four: not past five, as one and three are)
        m.apply(p, n)
    skipping, skipped = next_draws(m, 0, 30, monkeypatch, False)
    in_full, _ = next_draws(m, 0, 30, monkeypatch, True)
    assert skipping == in_full
    assert skipped["proposals"]
    assert len({h for h, _ in skipping}) > 1  # (P1's answers drawn otherwise)
