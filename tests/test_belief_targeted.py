"""Where every other drawing found no world: drawings whose mends first swap the card an answer named where the
seat never saw which card it was (`_Replay.own_card_first`). Sky Haulers at 4 players, seed 4: early on
P0 plays a card from its hand unseen and is asked "Into whose hold does the Artifact go?" (so it was an
Artifact), and P1's face-down cargo makes it lose a card at the end of its turn (so it was the Jinxed Crate).
A drawing puts any card there; one swap out of hundreds explains each answer, and before these drawings 7 of 20
fresh draws at the point after 28 decisions found no world."""

import random

import pytest

from interpreter.run import belief
from interpreter.run.belief import NoConsistentWorld, replayed, stages
from tests.walks import bench_walk

# what the drawings from the start find, not the last stage's walk along the match
pytestmark = pytest.mark.usefixtures("drawings_only")


@pytest.fixture(scope="module")
def hard_point():
    """The match after 28 decisions of the walk `benchmarks/bench.py` makes (a random bot, one forced answer at
    every 9th decision), and the seat it draws for there."""
    m = bench_walk("sky-haulers", 4, 4, 28)
    assert len(m.history) == 28
    return m, 3


def targeted_only(monkeypatch) -> None:
    """Only the targeted drawings are made (the stages before them, which may find the world, left out)."""
    monkeypatch.setattr(stages, "THOROUGH_TRIES", 0)
    monkeypatch.setattr(stages, "PATIENT_TRIES", 0)


def draws(m, seat: int, seeds: range) -> list[object]:
    """Fresh draws (no world kept) at `m` for `seat`, one per seed: the world, or the NoConsistentWorld raised."""
    out: list[object] = []
    for k in seeds:
        c = m.clone()
        c.__dict__.pop("_kept", None)
        try:
            out.append(belief.determinize(c, seat, random.Random(k), tries=0))
        except NoConsistentWorld as err:
            out.append(err)
    return out


def test_drawings_that_swap_an_answers_unseen_card_first_find_the_world(hard_point, monkeypatch):
    m, seat = hard_point
    targeted_only(monkeypatch)
    for world in draws(m, seat, range(2)):
        assert not isinstance(world, NoConsistentWorld), world
        assert world.information_state(seat) == m.information_state(seat)
        replayed(world)  # a legal history of its own
