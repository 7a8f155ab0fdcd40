"""Quick checks of the hand-written Overloaded speed yardstick (benchmarks/handwritten_overloaded.py)."""

import importlib.util
import random
from collections import Counter
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "handwritten_overloaded.py"
_spec = importlib.util.spec_from_file_location("handwritten_overloaded", _PATH)
ho = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ho)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_match_invariants(players):
    rng = random.Random(1234 + players)
    for _ in range(200):
        state = {}
        scores, winners = ho.play(players, rng, state)
        assert state["rounds_played"] == 8
        assert len(state["donkeys"]) == 8 and len(state["box_donkeys"]) == 12
        assert Counter(state["donkeys"] + state["box_donkeys"]) == Counter(ho.DONKEY_CARDS)
        # Hands: 10 - 8 loads - k advantages; at most 2 advantages each.
        for hand, used in zip(state["hands"], state["advantages_used"], strict=False):
            assert 0 <= used <= 2
            assert len(hand) == 2 - used
        # Conservation of the 10*N cargo cards (as a multiset of values).
        everything = [v for h in state["hands"] for v in h]
        everything += [v for pile in state["piles"] for v in pile]
        everything += state["discard"]
        assert len(everything) == 10 * players
        assert Counter(everything) == Counter({v: players for v in range(1, 11)})
        # At most one scored card per player per round.
        assert all(len(pile) <= 8 for pile in state["piles"])
        # Scores.
        assert len(scores) == players
        assert all(s >= 0 for s in scores)
        assert scores == [sum(p) + b for p, b in zip(state["piles"], state["bonus"], strict=False)]
        # Winners: non-empty, highest score, then most cards.
        assert winners and winners == sorted(set(winners))
        best = max((scores[p], len(state["piles"][p])) for p in range(players))
        assert winners == [p for p in range(players) if (scores[p], len(state["piles"][p])) == best]


def test_some_cards_get_scored():
    rng = random.Random(7)
    total_scored = 0
    for _ in range(100):
        state = {}
        ho.play(4, rng, state)
        total_scored += sum(len(p) for p in state["piles"])
    assert total_scored > 0


def test_deterministic_for_seed():
    a = [ho.play(4, random.Random(s)) for s in range(50)]
    b = [ho.play(4, random.Random(s)) for s in range(50)]
    assert a == b
    rng1, rng2 = random.Random(99), random.Random(99)
    assert [ho.play(5, rng1) for _ in range(50)] == [ho.play(5, rng2) for _ in range(50)]


def test_main_runs(capsys):
    ho.main(["-n", "50", "--players", "4", "--seed", "3"])
    out = capsys.readouterr().out
    assert "games/s" in out
