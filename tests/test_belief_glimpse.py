"""A look at several cards of another player's hand tells the seat which faces are there, not which card lies
where (docs/information.md): a later move of a card by its place in that hand, unseen, may have taken any of
them. A world keeps either card in the hand, about as often, never the true one every time."""

import random
from collections import Counter

import pytest

from interpreter.run import belief
from interpreter.run.match import Match
from tests.test_free_worlds import GLIMPSE, faces_in, glimpse_game

DRAWS = 60

# a look at one card only: its place is the one the rules gave it (the top card of the hand)
GLIMPSE_ONE = GLIMPSE.replace("show hand of q to p", "show the top card of hand of q to p")


def seen_faces(m) -> set[str]:
    """The faces P0 was shown of P1's hand."""
    t = m.layout
    return {t.face_ids[e[1]] for e in m._watch.events if e[0] == "w" and e[2] == 0}


@pytest.mark.parametrize("seed", [3, 4])
def test_after_a_look_at_a_hand_either_card_may_be_the_one_that_stayed(tmp_path, seed):
    """Each draw from a match of its own (a match keeps its last world and moves on from it)."""
    game = glimpse_game(tmp_path)
    m = Match(game, 2, seed)
    m.apply(0, 0)  # look
    shown = seen_faces(m)
    assert len(shown) == 2
    truth = faces_in(m, "hand@1")
    kept: Counter = Counter()
    for k in range(DRAWS):
        fresh = Match(game, 2, seed)
        fresh.apply(0, 0)
        world = belief.determinize(fresh, 0, random.Random(k))
        assert world.information_state(0) == m.information_state(0)
        again = belief.replayed(world)
        assert again.information_state(0) == m.information_state(0)
        (face,) = faces_in(world, "hand@1")
        kept[face] += 1
    assert set(kept) == shown, kept
    assert kept[truth[0]] >= 20 and DRAWS - kept[truth[0]] >= 20, kept


def test_the_same_draw_again_moves_between_the_two_cards(tmp_path):
    """Asked again at the same point, determinize moves from its last world (`_moved`): it reaches both."""
    game = glimpse_game(tmp_path)
    m = Match(game, 2, 3)
    m.apply(0, 0)
    rng = random.Random(5)
    kept = Counter(faces_in(belief.determinize(m, 0, rng), "hand@1") for _ in range(40))
    assert len(kept) == 2, kept


def test_a_look_at_one_card_keeps_its_place(tmp_path):
    """P0 saw the top card of P1's hand, which is the one that went back to the deck: the card that stayed is
    one P0 did not see, never the one it saw."""
    game = glimpse_game(tmp_path, GLIMPSE_ONE)
    for seed in (3, 4):
        m = Match(game, 2, seed)
        m.apply(0, 0)
        (shown,) = seen_faces(m)
        assert shown not in faces_in(m, "hand@1")
        for k in range(20):
            world = belief.determinize(m, 0, random.Random(k))
            assert world.information_state(0) == m.information_state(0)
            assert shown not in faces_in(world, "hand@1")
