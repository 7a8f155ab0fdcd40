"""The stages of a fresh draw (`stages._drawn`), in order: the quick drawings sharing one budget of mends, those with a
budget of their own, those that first swap an answer's unseen card, and last those mended the thorough way (the least
found per drawing: at the two hardest points found, 1 world in 283 thorough drawings, about 1 in 11 of the quick
ones with a budget of their own, `benchmarks/hard_points.py`). Past the first stage, every other drawing starts from
the cards of the drawing that got furthest so far, as its mends left them."""

import random

import pytest
from walks import played

from interpreter.game import load_game
from interpreter.run import belief
from interpreter.run.belief import NoConsistentWorld
from interpreter.run.belief.base import _Misfit
from interpreter.run.belief.replay import _Replay

# what the drawings from the start find, not the last stage's walk along the match
pytestmark = pytest.mark.usefixtures("drawings_only")


def failed_drawings(monkeypatch, tries: int) -> list[tuple[bool, bool, list[int], int]]:
    """Every drawing of a fresh draw (Go Fish, 3 players, after 6 decisions of `walker(0)`), each made to fail at once:
    (mended the thorough way, targeted, the cards it started from, where it parted). Drawing k parts at observation
    7k mod 11 and leaves its cards as [k, k, ...], so that a drawing that starts from another's cards tells which."""
    m = played(load_game("go-fish"), 3, 0, 6)
    seen: list[tuple[bool, bool, list[int], int]] = []

    def parts(self, repairs, start=None):
        k = len(seen)
        seen.append((self.thorough, self.targeted, self.card[:], 7 * k % 11))
        self.card = [k] * len(self.card)
        raise _Misfit("parted", 7 * k % 11)

    monkeypatch.setattr(_Replay, "play", parts)
    seat = m.to_act()[0]
    with pytest.raises(NoConsistentWorld, match=f"in {tries + 12 + 24 + 10} drawings"):
        belief.determinize(m, seat, random.Random(0), tries=tries)
    return seen


def test_past_the_quick_drawings_come_those_with_a_budget_of_their_own_and_the_thorough_ones_last(monkeypatch):
    seen = failed_drawings(monkeypatch, 3)
    stages = [(thorough, targeted) for thorough, targeted, _, _ in seen]
    assert stages == [(False, False)] * (3 + 12) + [(False, True)] * 24 + [(True, False)] * 10


def test_every_other_drawing_past_the_first_stage_starts_from_the_furthest_so_far(monkeypatch):
    seen = failed_drawings(monkeypatch, 3)
    size = len(seen[0][2])
    stage_of = [0] * 3 + [1] * 12 + [2] * 24 + [3] * 10
    first = {1: 3, 2: 15, 3: 39}
    for j, (_, _, card, _) in enumerate(seen):
        stage = stage_of[j]
        if stage and (j - first[stage]) % 2 == 1:
            furthest = max(range(j), key=lambda i: (seen[i][3], -i))  # (the first of the furthest)
            assert card == [furthest] * size, j
        else:
            assert len(set(card)) > 1, j  # a drawing of its own: cards, not another drawing's marker
