"""A seat's world carried on as its match goes on (what a bot pays at each of its turns): where the cards the
seat has since seen do not fit the kept world, it is mended where it parted, not drawn again from the start."""

import random

import pytest

from interpreter.game import load_game
from interpreter.run import belief
from interpreter.run.belief import replayed, stages
from interpreter.run.belief.kept import _beliefs
from interpreter.run.belief.replay import _Replay
from interpreter.run.belief.trace import _Trace, _Tracer
from interpreter.run.information import SHUFFLE
from tests.walks import bench_walk


def play_to(m, rng: random.Random, upto: int) -> None:
    while not m.over and len(m.history) < upto:
        p = m.to_act()[0]
        m.apply(p, rng.randrange(len(m.legal_actions(p))))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_card_seen_where_the_world_had_another_is_traded_within_the_hand_it_was_chosen_from(seed, monkeypatch):
    """Overloaded: the loads are chosen from hands unseen, and shown when the donkey is weighed. A kept world
    whose load was another card of that hand is carried on with that player choosing the card shown
    instead (a card trade within the hand, played again from before that answer), never drawn afresh."""
    traded, fresh = [], []
    mended, drawn = stages._mended, stages._drawn

    def spy_mended(tr, *args):
        mend = mended(tr, *args)
        if mend is not None and mend[1] in tr.mix_answer:
            traded.append(mend)
        return mend

    def spy_drawn(*args, **kwargs):
        fresh.append(len(args[0].history))
        return drawn(*args, **kwargs)

    monkeypatch.setattr(stages, "_mended", spy_mended)
    monkeypatch.setattr(stages, "_drawn", spy_drawn)
    m = load_game("overloaded").new_match(players=3, seed=seed)
    rng, bot = random.Random(seed), random.Random(seed)
    worlds = 0
    while not m.over:
        p = m.to_act()[0]
        if p == 0:
            world = m.determinize(0, rng)
            assert world.information_state(0) == m.information_state(0)
            if worlds % 5 == 0:
                replayed(world)
            worlds += 1
        m.apply(p, bot.randrange(len(m.legal_actions(p))))
    assert traded, "no load shown was traded within its hand"
    assert fresh == [0], f"drawn afresh at decisions {fresh[1:]}"


def test_a_world_that_cannot_be_carried_is_drawn_again_from_its_last_shuffle(monkeypatch):
    """Hearts deals anew every round. Where the kept world cannot be carried on, the deals before the last one
    stay as the world had them (what the seat saw then is still explained by them), and only the last deal
    on is drawn again: its cost is one deal's play, not the whole match's."""
    m = load_game("hearts").new_match(players=4, seed=3)
    rng, bot = random.Random(3), random.Random(3)
    play_to(m, bot, 300)
    while True:  # a point with the next shuffle more than 8 decisions away
        c = m.clone()
        play_to(c, bot.__class__(len(m.history)), len(m.history) + 8)
        if not any(e[0] == SHUFFLE for e in c._watch.events[len(m._watch.events):]):
            break
        play_to(m, bot, len(m.history) + 8)
    m.determinize(0, rng)
    kept_belief = _beliefs(m)[0]
    kept = kept_belief.world.history[:]
    last_deal = max(kept_belief.tracer.tr.dealing)  # the answer after which the match dealt its last shuffle
    play_to(m, bot, len(m.history) + 8)
    fresh = []
    monkeypatch.setattr(stages, "_carried", lambda *args, **kwargs: None)
    monkeypatch.setattr(stages, "_drawn", lambda *args, **kwargs: fresh.append(1))
    world = m.determinize(0, rng)
    assert fresh == []
    assert world.information_state(0) == m.information_state(0)
    replayed(world)
    assert last_deal > 200
    assert world.history[:last_deal] == kept[:last_deal]  # the deals before the last one as they were


def test_drawings_with_a_budget_each_find_a_world_where_shared_budgets_ran_out(monkeypatch):
    """The last stage of a fresh draw alone (no quick or thorough drawing before it) finds a world."""
    m = load_game("go-fish").new_match(players=3, seed=4)
    play_to(m, random.Random(4), 24)
    monkeypatch.setattr(stages, "THOROUGH_TRIES", 0)
    monkeypatch.setattr(stages, "TARGETED_TRIES", 0)  # the stage after it left out: this one must find it
    seat = m.to_act()[0]
    world = belief.determinize(m, seat, random.Random(0), tries=0)
    assert world.information_state(seat) == m.information_state(seat)
    replayed(world)


def test_secret_answers_a_later_sight_tells_are_drawn_again_not_mended_by_trading_cards(monkeypatch):
    """Overloaded's secret contracts are shown together once the last player has had second thoughts. A world
    whose contracts, drawn uniformly, are not the ones shown is played again from before them with the
    contracts drawn anew (rejection: uniform among those that fit); trading cards could never mend it."""
    m = bench_walk("overloaded", 4, 8, 73)
    mends = []
    repair = _Replay.repair
    monkeypatch.setattr(_Replay, "repair", lambda self, *args: mends.append(1) or repair(self, *args))
    for k in range(3):
        world = m.clone().determinize(0, random.Random(k))
        assert world.information_state(0) == m.information_state(0)
        replayed(world)
    assert mends == []


def test_fresh_worlds_asked_at_one_point_are_drawn_independently_of_the_last():
    """Asked again at one point, determinize moves its kept world a few steps, so a search's worlds of one
    decision are much alike; `fresh` (through the seat's handle too) draws each anew, and each is still a
    world the seat cannot tell from the match."""
    m = load_game("crazy-eights").new_match(2, seed=3)
    play_to(m, random.Random(3), 12)
    seat = m.to_act()[0]
    handle = m.seat(seat)
    want = m.information_state(seat)

    def hands(fresh: bool) -> set[str]:
        rng, seen = random.Random(5), set()
        for _ in range(6):
            world = handle.determinize(rng, fresh=fresh)
            assert world.information_state(seat) == want
            seen.add(world.information_state(1 - seat))
        return seen

    moved, fresh = hands(False), hands(True)
    assert len(fresh) >= 5 and len(fresh) > len(moved) + 2, (len(moved), len(fresh))


@pytest.mark.parametrize("name, players, upto", [("hearts", 4, 400), ("overloaded", 3, 40), ("crazy-eights", 4, 15)])
def test_a_copy_starts_from_the_beliefs_of_its_match_and_draws_apart(name, players, upto, monkeypatch):
    """`clone()` carries the seats' beliefs: a copy's first draw is the world its match would draw with the same
    generator, with nothing walked or played from the start; copy and match then draw apart, neither changing the
    other's belief (a copy of the belief is taken by whichever draws first while both hold it)."""
    m = load_game(name).new_match(players=players, seed=4)
    play_to(m, random.Random(4), upto)
    seat = m.to_act()[0]
    m.determinize(seat, random.Random(1))
    twin = m.clone()  # the match's own draws, with no copy of it drawing in between, to compare with
    c = m.clone()
    fresh: list[int] = []
    drawn = stages._drawn
    monkeypatch.setattr(stages, "_drawn", lambda *args, **kwargs: fresh.append(1) or drawn(*args, **kwargs))
    from_copy = c.determinize(seat, random.Random(2))
    assert fresh == []  # the copy moved on from the kept world, not drawn afresh
    assert from_copy.information_state(seat) == m.information_state(seat)
    replayed(from_copy)
    bot = random.Random(5)
    play_to(c, bot, len(c.history) + 6)
    on_copy = c.determinize(seat, random.Random(3))  # the copy carried on along its own course
    assert on_copy.information_state(seat) == c.information_state(seat)
    # the match draws as if no copy had: the copy's world first, then the same worlds as its twin, which no copy
    # drew beside
    for k in (2, 6):
        world = m.determinize(seat, random.Random(k))
        assert world.history == twin.determinize(seat, random.Random(k)).history
        if k == 2:
            assert world.history == from_copy.history


def test_a_copied_walk_goes_on_apart_from_the_walk_it_was_copied_from():
    """`_Tracer.copy` (a belief copied for one of two matches): the copy walks on without changing the walk it
    came from, and a walk copied then walked on equals one that was never copied."""
    import copy as copying

    m = load_game("sky-haulers").new_match(players=4, seed=2)
    bot = random.Random(2)
    play_to(m, bot, 150)
    tracer = _Tracer(m, 1)
    tracer.advance(m)
    shared = {"t", "faces", "backs", "ids", "reach", "seat", "bit"}  # the layout's tables, never changed

    def state(tc) -> dict:
        return copying.deepcopy({**{k: v for k, v in vars(tc).items() if k not in shared | {"tr"}},
                                 **{n: getattr(tc.tr, n) for n in _Trace.__slots__}})

    twin = _Tracer(m, 1)  # walked at the same points, never copied
    twin.advance(m)
    before = state(tracer)
    other = tracer.copy()
    assert state(other) == before
    play_to(m, bot, 300)
    other.advance(m)
    assert state(tracer) == before  # the walk copied from is as it was
    twin.advance(m)
    assert state(other) == state(twin)  # and the copy walked on as a walk never copied does


@pytest.mark.parametrize("name, players, upto", [("go-fish", 4, 50), ("go-fish", 3, 30)])
def test_other_seats_answers_drawn_anew_from_a_copy_before_one_of_the_seats_answers(name, players, upto, monkeypatch):
    """A draw at the same point may draw the other seats' answers anew from a copy of the world kept before one of
    the seat's own answers since the last shuffle, not from that shuffle (`_Replay.marked`). Every copy kept is the
    world as it stood there (the world replayed from its start up to that answer: the same history, state and
    information states), and a world drawn from one is one the seat cannot tell apart, with a legal history."""
    from interpreter.run.belief.world_chance import _WorldChance

    m = load_game(name).new_match(players=players, seed=6)
    play_to(m, random.Random(6), upto)
    seat = m.to_act()[0]
    used = []
    marked = _Replay.marked
    monkeypatch.setattr(_Replay, "marked", lambda self, mark: used.append(mark.d) or marked(self, mark))
    checked = 0
    for k in range(12):
        world = m.determinize(seat, random.Random(k))
        assert world.information_state(seat) == m.information_state(seat)
        replayed(world)
        kept = _beliefs(m)[seat]
        plan, source, _ = world._drawn
        for mark in kept.marks:
            again = type(world)(world.game, world.players, world.seed, chance=_WorldChance(plan, source))
            for p, action in world.history[:mark.d]:
                assert again.apply(p, action) is None
            copy = mark.world.clone()
            assert copy.history == again.history
            assert copy.st.zones == again.st.zones and copy.st.gc == again.st.gc and copy.st.pc == again.st.pc
            assert all(copy.information_state(p) == again.information_state(p) for p in range(players))
            checked += 1
    assert used, "no world was drawn from a copy before one of the seat's answers"
    assert checked


def test_a_world_the_quick_mends_cannot_carry_on_is_mended_the_thorough_way_before_a_draw_afresh(monkeypatch):
    """Go Fish, 4 players, seed 5 of the walk, midway: at the seat's next turn the kept world parts from what the
    seat observed since, and with this generator no quick mend explains it (with most, one now does: 34 of the 40
    generators from 2001 on; five need the thorough way, one a draw afresh). Before the world is drawn afresh (there
    some 20 quick drawings found none and a thorough one did, 4.9 s in all), the carried world is mended the
    thorough way, on a share of the probes: it fits, nothing is drawn afresh."""
    from tests.walks import played, to_turn, walked

    game = load_game("go-fish")
    m = played(game, 4, 5, len(walked(game, 4, 5).history) // 2)
    seat = m.to_act()[0]
    m.determinize(seat, random.Random(1))
    to_turn(m, seat, random.Random(1))
    ways, fresh = [], []
    play, drawn = _Replay.play, stages._drawn

    def spy_play(self, repairs, start=None):
        world = play(self, repairs, start)
        ways.append(self.thorough)
        return world

    monkeypatch.setattr(_Replay, "play", spy_play)
    monkeypatch.setattr(stages, "_drawn", lambda *args, **kwargs: fresh.append(1) or drawn(*args, **kwargs))
    world = m.determinize(seat, random.Random(2013))
    assert world.information_state(seat) == m.information_state(seat)
    replayed(world)
    assert fresh == [] and ways[-1] is True  # carried on by a thorough mend
