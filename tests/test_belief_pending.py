"""Another seat's secret answer to a simultaneous question still open is drawn anew in every world, never
the real one: in Overloaded the others' loads are chosen from hands whose cards every seat knows, so the
real pick must not be read off the card a path carries (it was, until the question closed)."""

import random

import pytest

from interpreter.game import load_game


def at_open_load(seed: int, first_pick: int | None = None):
    """An Overloaded match (4 seats) where seats 0 and 1 have loaded in secret and seats 2 and 3 are still to."""
    m = load_game("overloaded").new_match(players=4, seed=seed)
    rng = random.Random(seed)
    while len(m.to_act()) < 2:
        p = m.to_act()[0]
        m.apply(p, rng.randrange(len(m.legal_actions(p))))
    for p in m.to_act()[:2]:
        options = len(m.legal_actions(p))
        pick = rng.randrange(options)
        if p == 0 and first_pick is not None:
            pick = first_pick % options
        m.apply(p, pick)
    assert m.to_act() == [2, 3]
    return m


@pytest.mark.parametrize("seed", [0, 1])
def test_the_others_open_secret_answers_are_drawn_anew(seed):
    m = at_open_load(seed)
    real = dict(m._answers)
    picks = []
    for k in range(10):
        world = m.determinize(2, random.Random(k))
        assert world.information_state(2) == m.information_state(2)
        picks.append(tuple(world._answers[p] for p in (0, 1)))
    assert len(set(picks)) >= 3  # the kept world moves on: its secret answers are not held for good
    assert sum(pick == (real[0], real[1]) for pick in picks) <= 2


def test_twins_that_differ_in_an_open_secret_answer_give_the_same_worlds():
    """Seat 2 cannot tell a match where seat 0 loaded one card from one where it loaded another."""
    a, b = at_open_load(0, first_pick=0), at_open_load(0, first_pick=1)
    assert a._answers[0] != b._answers[0]
    assert a.information_state(2) == b.information_state(2)
    for k in range(4):
        wa, wb = a.determinize(2, random.Random(k)), b.determinize(2, random.Random(k))
        assert wa._answers == wb._answers and wa.history == wb.history
        faces = wa.layout.face_ids
        assert [[faces[c] for c in z] for z in wa.st.zones] == [[faces[c] for c in z] for z in wb.st.zones]
