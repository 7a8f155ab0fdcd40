"""A round answered at once, the seat among those asked: the other seats' secret answers in it are drawn again together.

Overloaded, 6 players: every player answers the contract ("is the load at most the capacity?") in secret, and the
answers are shown together once all are in. A world draws the other seats' answers anew (`_Replay.redraw`);
where what the seat sees next does not fit, the run of answers just drawn is drawn again from before its first
(`_Replay.played`). The seat's own answer sits inside the round, and it used to end the run: only the answers after it
were drawn again, so a wrong answer before it could never be mended that way, and the drawing failed there, mend after
mend, until a new drawing happened on a round that fit. The run now goes on over the seat's own secret answer
(`_Replay.over_own`). Since secret answers show only together, a run of them is drawn again as many times as twice
their ways to go together (up to 64; 8 at least, as every run): five contracts fit one draw in 32. And a run drawn
again draws its own chance: what the run that failed drew (an overload's cards scored at random) was read back by the
next, another chance than its answers drew, and the world parted at once (`_Replay.chance_back`).

Found at the match of seed 2 of the benchmarks' walk after 72 decisions, P5 (its contract is the 4th of the round's
six answers): `benchmarks/no_world.py --fresh` had fresh draws of 1 to 6 s there. Fresh draws, generators 0 to 7,
swaps tried in all: 13,467 before, 222 after; after 96 decisions, P1 (its contract the last), generators 0 to 3:
14,842 before, 0 after. `no_world.py --games overloaded,low-tide,hearts,sky-haulers --fresh --every 3 --seeds 3`
beside the engine before: Overloaded 6 players p90 384 -> 66 ms, the dearest 4.8 -> 1.9 s; the others alike."""

import random

import pytest
from walks import played

from interpreter.game import load_game
from interpreter.run import belief
from interpreter.run.belief import stages
from interpreter.run.belief.base import _Misfit
from interpreter.run.belief.replay import _Replay


@pytest.fixture(scope="module")
def contracts():
    m = played(load_game("overloaded"), 6, 2, 72)
    first = 47  # the round of contracts: answers 47 to 52, the seat's the 50th
    assert [who for who, _ in m.history[first:first + 6]] == [2, 3, 4, 5, 0, 1]
    return m, 5, first


def restarts(monkeypatch, m, seat: int, k: int, tries: int = belief.DEFAULT_TRIES) -> tuple[list[int], object]:
    """The answers a fresh draw with generator `k` (and `tries` quick drawings) played its worlds again from
    (`_Replay.anew_from`: the start of each drawing, 0, and each run of answers drawn again), and its world (or the
    NoConsistentWorld raised)."""
    starts: list[int] = []
    anew = _Replay.anew_from

    def noted(self, d):
        starts.append(d)
        return anew(self, d)

    monkeypatch.setattr(_Replay, "anew_from", noted)
    c = m.clone()
    c.__dict__.pop("_kept", None)
    try:
        return starts, belief.determinize(c, seat, random.Random(k), tries=tries)
    except belief.NoConsistentWorld as err:
        return starts, err


def test_the_other_seats_answers_of_a_round_are_drawn_again_from_before_the_first_past_the_seats_own(
        monkeypatch, contracts):
    m, seat, first = contracts
    starts, world = restarts(monkeypatch, m, seat, 1)
    assert first in starts and first + 4 not in starts
    assert world.information_state(seat) == m.information_state(seat)
    belief.replayed(world)


def test_where_the_seats_own_answer_ended_the_run_only_the_answers_after_it_were_drawn_again(
        monkeypatch, contracts, drawings_only):
    """The test above can fail: with the run ended at the seat's own answer, the run drawn again starts at the 51st
    (one quick drawing is enough to see it, and no later stage is drawn)."""
    m, seat, first = contracts
    monkeypatch.setattr(_Replay, "over_own", lambda self, run, d: None)
    for stage in ("THOROUGH_TRIES", "PATIENT_TRIES", "TARGETED_TRIES"):
        monkeypatch.setattr(stages, stage, 0)
    starts, _ = restarts(monkeypatch, m, seat, 1, tries=1)
    assert first + 4 in starts and first not in starts


@pytest.fixture(scope="module")
def seat_last():
    """The same match after 96 decisions, P1: its contract is the last of the round, the five before it drawn anew; an
    overload then scores cards at random, after the contracts shown."""
    m = played(load_game("overloaded"), 6, 2, 96)
    return m, 1


def misfits(monkeypatch, m, seat: int, k: int, tries: int = belief.DEFAULT_TRIES) -> list[str]:
    """What the drawings of a fresh draw with generator `k` (and `tries` quick drawings) parted with."""
    seen: list[str] = []
    play = _Replay.play

    def noted(self, *args, **kwargs):
        try:
            return play(self, *args, **kwargs)
        except _Misfit as err:
            seen.append(str(err))
            raise

    monkeypatch.setattr(_Replay, "play", noted)
    c = m.clone()
    c.__dict__.pop("_kept", None)
    try:
        world = belief.determinize(c, seat, random.Random(k), tries=tries)
        assert world.information_state(seat) == m.information_state(seat)
    except belief.NoConsistentWorld:
        pass
    return seen


def test_a_run_drawn_again_draws_its_own_chance_not_that_of_the_draw_that_failed(monkeypatch, seat_last):
    """The chance the run drew (an overload's cards scored at random) is dropped with it (`_Replay.chance_back`): read
    back by the run drawn again, it was another chance than its answers draw, and the world parted at once."""
    m, seat = seat_last
    assert misfits(monkeypatch, m, seat, 0) == []


def test_with_the_failed_runs_chance_read_back_the_drawings_part_where_the_real_match_had_other_chance(
        monkeypatch, seat_last, drawings_only):
    m, seat = seat_last
    monkeypatch.setattr(_Replay, "chance_back", lambda self, mark: None)
    for stage in ("THOROUGH_TRIES", "PATIENT_TRIES", "TARGETED_TRIES"):
        monkeypatch.setattr(stages, stage, 0)
    assert "chance where the real match had other chance" in misfits(monkeypatch, m, seat, 0, tries=2)
