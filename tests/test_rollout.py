"""A quiet rollout plays a match on to its end as the step API would with the same bot choices (same scores,
winners and number of decisions), at any point of any bundled game, and leaves the match as it was."""

import pickle
import random

import pytest
from walks import walked, walker

from interpreter import load_game, rollout
from interpreter.run.flow import SETUP, finish
from interpreter.run.match import RandomBot, play_random, random_bot, replay
from interpreter.run.rollout import Horizon

GAMES = [("overloaded", 4), ("sky-haulers", 2), ("sky-haulers", 4), ("low-tide", 5), ("go-fish", 2),
         ("crazy-eights", 3), ("hearts", 4)]


def stepped(m, pick):
    """Play a clone of `m` to its end through the step API with `pick`; its scores, winners and decisions made."""
    c = m.clone()
    before = len(c.history)
    while not c.over:
        for seat in c.to_act():
            assert c.apply(seat, pick(len(c.legal_actions(seat)))) is None
    return c.scores, c.winners, len(c.history) - before


def points(game, players, seed):
    """Copies of a walk's match (`walks.walker`) at its start and after 10%, 50% and 90% of its decisions; and one in
    the middle of a simultaneous choice, some seats answered, if the match has one."""
    n = len(walked(game, players, seed).history)
    cuts = {0, n // 10, n // 2, n * 9 // 10}
    m, bot, out, halfway = game.new_match(players=players, seed=seed), walker(seed), [], None
    while not m.over:
        for seat in m.to_act():
            if len(m.history) in cuts:
                cuts.discard(len(m.history))
                out.append(m.clone())
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))
            if halfway is None and m.simultaneous and len(m.history) > 2 and len(m.to_act()) > 1:
                halfway = m.clone()
    return out + ([halfway] if halfway is not None else [])


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_rollout_ends_as_the_step_api_does_with_the_same_choices(name, players):
    game = load_game(name)
    for seed in (1, 2):
        for i, m in enumerate(points(game, players, seed)):
            history, view = list(m.history), m.view(0)
            k = seed * 100 + i
            got = rollout(m, random_bot(k))
            assert (got.scores, got.winners, got.decisions) == stepped(m, random_bot(k).pick), (seed, i)
            assert rollout(m, random_bot(k).pick) == got  # a RandomBot or its pick: the same draws
            last = rollout(m, lambda n: n - 1)  # any pick(n) -> int
            assert (last.scores, last.winners, last.decisions) == stepped(m, lambda n: n - 1)
            assert m.history == history and m.view(0) == view, "the match is left as it was"
            spent = m.clone()
            spent.legal_actions()  # a copy in use (its flow rebuilt), played on in place and used up
            assert rollout(spent, random_bot(k), spend=True) == got
            assert spent.to_act() == [] and rollout(m.clone(), random_bot(k), spend=True) == got


@pytest.mark.parametrize(("name", "players"), [("overloaded", 4), ("hearts", 4), ("go-fish", 2)])
def test_a_rollout_of_a_copy_not_yet_used_a_pickled_one_or_a_finished_one(name, players):
    game = load_game(name)
    whole = play_random(game, players, 4)
    m = replay(game, players, 4, whole.history[: len(whole.history) // 3])
    want = rollout(m, random_bot(9))
    assert rollout(m.clone(), random_bot(9)) == want
    assert rollout(pickle.loads(pickle.dumps(m)), random_bot(9)) == want
    assert rollout(whole, random_bot(9)) == (whole.scores, whole.winners, 0, False)


def test_a_rollout_of_a_determinized_match_is_that_match_played_on():
    game = load_game("overloaded")
    whole = play_random(game, 4, 6)
    m = replay(game, 4, 6, whole.history[:30])
    for k in range(3):
        world = m.determinize(1, random.Random(k))
        got = rollout(world, RandomBot(k))
        assert (got.scores, got.winners, got.decisions) == stepped(world, RandomBot(k).pick)


def test_a_rollout_from_the_start_is_the_sim_match_of_its_seed():
    from interpreter.run.sim import simulate

    for name, players in GAMES:
        game = load_game(name)
        o = simulate(game, players, 3)
        got = rollout(game.new_match(players=players, seed=3), random_bot(3))
        assert (got.scores, got.winners, got.decisions) == (o.scores, o.winners, o.decisions), name


SETUP_ASKS = """
game: setup-asks
title: Setup asks
players: {min: 2, max: 2}
cards: [cards.yaml]
properties: {value: 0}
counters: {game: {bid: 0}}
zones: {deck: {visibility: hidden, face: down}, table: {visibility: public}}
phases:
  bid: |
    let b = I choose a number from 1 to 3 "Bid"
    set bid to b
  play: |
    let c = I choose a card from deck "Take"
    move c to table
    add c.value * bid to bid
flow: {setup: [bid], rounds: 2, turn: [play]}
result: {score: bid}
"""


def test_a_rollout_from_a_set_up_that_asks_runs_the_arranged_set_up_on_its_own_state(tmp_path):
    (tmp_path / "game.yaml").write_text(SETUP_ASKS)
    cards = "\n".join(f"  - {{id: c{i}, start: deck, value: {i}}}" for i in range(1, 6))
    (tmp_path / "cards.yaml").write_text(f"cards:\n{cards}\n")
    game = load_game(tmp_path)
    seen = []
    m = game.new_match(players=2, seed=1, arrange={"table": ["c5"]}, after_setup=lambda match: seen.append(match))
    assert m._base[0].part == SETUP, "the match waits in its set-up, before the arranged cards are placed"
    table = m.view(0)["zones"]["table"]
    for pick in (lambda n: n - 1, lambda n: 0):
        got = rollout(m, pick)
        assert (got.scores, got.winners, got.decisions) == stepped(m, pick)
    assert m.view(0)["zones"]["table"] == table == [] and m.history == [], "the match is left as it was"
    assert seen and all(s is not m for s in seen)  # the set-up hook ran on stand-ins holding their own state


# ---- a horizon: play-outs that stop at the end of the deal or round under way -------------------------------


def stepped_to(m, pick, horizon):
    """A clone of `m` played through the step API with `pick` up to the first question past `horizon`: the
    scores and winners of the game's result there (as if the match ended), the decisions made, and whether it
    stopped short of the end."""
    c = m.clone()
    before = len(c.history)
    while not horizon.passed(c):
        for seat in c.to_act():
            assert c.apply(seat, pick(len(c.legal_actions(seat)))) is None
    made = len(c.history) - before
    if c.over:
        return c.scores, c.winners, made, False
    return (*finish(c.game, c.st, None), made, True)


@pytest.mark.parametrize(("name", "players", "part"), [("hearts", 4, "deal"), ("hearts", 4, "round"),
                                                       ("overloaded", 4, "round"), ("low-tide", 3, "round")])
def test_a_rollout_stops_at_its_horizon_as_the_step_api_would_reach_it(name, players, part):
    game = load_game(name)
    stopped = 0
    for i, m in enumerate(points(game, players, 5)):
        horizon = Horizon.at(m, part)
        got = rollout(m, random_bot(i), horizon=horizon)
        assert tuple(got) == stepped_to(m, random_bot(i).pick, horizon), i
        spent = m.clone()
        assert rollout(spent, random_bot(i), spend=True, horizon=horizon) == got
        whole = rollout(m, random_bot(i))
        assert got.decisions <= whole.decisions and (got == whole) == (not got.stopped)
        stopped += got.stopped
    assert stopped >= 3, "a horizon short of the match's end stops most play-outs"


def test_a_deal_horizon_is_the_end_of_the_deal_and_a_game_of_one_deal_plays_to_its_end():
    hearts = load_game("hearts")
    m = points(hearts, 4, 2)[1]
    deal = m.st.deal
    got = rollout(m, random_bot(1), horizon=Horizon.at(m, "deal"))
    assert got.stopped and 13 * 4 <= got.decisions <= 16 * 4  # at most a deal: its passes and its 13 tricks
    overloaded = load_game("overloaded")
    m = points(overloaded, 4, 2)[1]
    assert rollout(m, random_bot(1), horizon=Horizon.at(m, "deal")) == rollout(m, random_bot(1))
    assert Horizon.at(m, "match") is None and m.st.deal == 1 and deal >= 1
    with pytest.raises(ValueError, match="horizon is one of match, deal, round"):
        Horizon.at(m, "trick")


def test_a_rollout_already_past_its_horizon_is_scored_at_once():
    game = load_game("hearts")
    early, later = points(game, 4, 3)[0:3:2]  # the start, and halfway (a later deal)
    horizon = Horizon.at(early, "deal")
    assert horizon.passed(later) and not horizon.passed(early)
    got = rollout(later, random_bot(2), horizon=horizon)
    assert got.stopped and got.decisions == 0
    assert (got.scores, got.winners) == finish(game, later.clone().st, None)


@pytest.mark.parametrize(("name", "players"), [("overloaded", 4), ("crazy-eights", 3)])
def test_a_first_answer_given_is_the_answer_at_its_place_and_the_rest_drawn_as_before(name, players):
    """`first=(place, option)`: the answer at `place` among those the pending question still wants is `option`,
    without a draw; every other answer is the pick's, as a pick(n) that returns `option` at that call would give."""
    game = load_game(name)
    tried = 0
    for m in points(game, players, 3):
        if m.over:
            continue
        for place, seat in enumerate(m.to_act()):
            for option in range(len(m.legal_actions(seat))):
                bot, calls = random_bot(place * 10 + option), [0]

                def forced(n, bot=bot, calls=calls, place=place, option=option):
                    calls[0] += 1
                    return option if calls[0] == place + 1 else bot.pick(n)

                want = rollout(m, forced)
                assert rollout(m, random_bot(place * 10 + option), first=(place, option)) == want
                spent = m.clone()
                assert rollout(spent, random_bot(place * 10 + option), spend=True, first=(place, option)) == want
                tried += 1
    assert tried >= 8
