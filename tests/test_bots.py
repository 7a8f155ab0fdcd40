"""The bots (`interpreter.bots`): named as the contract says, fair (a bot decides alike in matches its seat
cannot tell apart and never plays in the true match), deterministic from their seed, still choosing when
no world can be drawn, and stronger than random where it is cheap to show (Kuhn poker)."""

import json
import random
from pathlib import Path

import pytest

from interpreter import NoConsistentWorld, load_game
from interpreter import bots as bots_module
from interpreter.bots import BotNameError, Budget, get, ismcts, register
from interpreter.bots import base as bots_base
from interpreter.bots.duel import duel, mean_interval, wilson
from interpreter.bots.lineup import Lineup, names_for, play
from interpreter.cli import main
from interpreter.paths import bundled_games
from interpreter.run import information
from interpreter.run.match import Match, play_random
from interpreter.run.seat import Seat
from interpreter.run.sim import run_many
from tests.twins import answer_twins, go_on_alike, pile_twins
from tests.walks import played, walker

KUHN = Path(__file__).parent / "games" / "kuhn-poker"
LEDUC = Path(__file__).parent / "games" / "leduc-poker"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---- names ----------------------------------------------------------------------------------------------


def test_bots_are_named_kind_and_budget():
    assert get("random").name == "random" and get("first").name == "first"
    assert get("mc:40").budget == Budget(iterations=40) and get("mc:40").name == "mc:40"
    assert get("ismcts:200").budget == Budget(iterations=200)
    assert get("ismcts:0.5s").budget == Budget(seconds=0.5) and get("ismcts:0.5s").name == "ismcts:0.5s"
    assert get("ismcts").name == "ismcts:200" and get("mc").name == "mc:100"  # a search bot's default budget
    assert [getattr(b, "worlds", None) for b in Lineup(["ismcts", "mc:3", "random"], 1, worlds=2).bots] == [2, 2, None]
    assert names_for("ismcts:20", 3) == ["ismcts:20"] * 3
    assert names_for("random, mc:5,first", None) == ["random", "mc:5", "first"]
    for bad, says in [("alpha", "unknown bot `alpha`; bots: random, first, mc:N, ismcts:N"),
                      ("random:3", "takes no budget"), ("mc:0", "a budget is"), ("mc:x", "a budget is"),
                      ("ismcts:-1s", "a budget is"), ("ismcts:nans", "a budget is"), ("mc:", "a budget is")]:
        with pytest.raises(BotNameError, match=says):
            get(bad)


def test_a_search_with_a_horizon_is_named_by_its_kind():
    assert get("ismcts-deal:50").name == "ismcts-deal:50" and get("ismcts-deal:50").horizon == "deal"
    assert get("mc-round:0.5s").name == "mc-round:0.5s" and get("mc-round").horizon == "round"
    assert get("ismcts:50", horizon="deal").name == "ismcts-deal:50" and get("ismcts:50").horizon == "match"
    assert names_for("ismcts-round:20", 2) == ["ismcts-round:20"] * 2
    with pytest.raises(ValueError, match="horizon is one of match, deal, round"):
        get("ismcts:10", horizon="trick")


def test_a_new_kind_of_bot_is_registered_by_name():
    class Last(bots_module.Bot):
        kind = "last"

        def decide(self, handle, n):
            return n - 1

    register("last", Last, budget=False)
    try:
        m = Match(load_game(KUHN), 2, 0)
        seat = m.to_act()[0]
        assert get("last").choose(m.seat(seat)) == len(m.legal_actions(seat)) - 1
        with pytest.raises(ValueError):
            register("last", Last)
    finally:
        del bots_module.KINDS["last"]


# ---- fair: the seat's handle only -----------------------------------------------------------------------


def twins(name: str):
    """Two matches of a bundled game that seat 0 cannot tell apart, at a point where it has a choice, and
    how they differ ("answer" or "pile")."""
    game = load_game(name)
    players = 4 if game.min_players <= 4 <= game.max_players else game.default_players
    for seed in range(3):
        pair = answer_twins(game, players, seed, 0)
        if pair is not None:
            return (*pair, "answer")
    for seed in range(3):
        pair = pile_twins(game, players, seed)
        if pair is not None and go_on_alike(*pair, 0, random.Random(seed)):
            return (*pair, "pile")
    raise AssertionError(f"{name}: no two matches seat 0 cannot tell apart were found")


def counts(bot) -> dict:
    """What a bot did, its times left out."""
    return {f: getattr(bot.stats, f) for f in bot.stats.__slots__ if f not in ("seconds", "drawing")}


@pytest.mark.parametrize("name", sorted(bundled_games()))
def test_a_search_bot_decides_alike_in_matches_its_seat_cannot_tell_apart(name):
    """Two real matches (of one seed: another seat's secret answer changed, or where a game has no secret
    answer, a hidden pile's top cards in the other order) that seat 0 cannot tell apart: bots seeded alike
    choose alike in both, at each of the seat's choices while the matches stay alike to it (the others
    answering alike). Each handle draws its worlds from its own match (a world of the arranged pile
    moves the cards its drawing puts where `arrange` took the named ones: `_Replay.arranged`)."""
    a, b, _ = twins(name)
    kinds = ("ismcts:4", "mc:3", "ismcts-round:4")
    bots = {(k, m): get(k, seed=11, worlds=1) for k in kinds for m in ("a", "b")}
    compared = 0
    rng = random.Random(5)
    while compared < 2 and go_on_alike(a, b, 0, rng):
        for kind in kinds:
            first, second = bots[kind, "a"], bots[kind, "b"]
            chose = first.choose(a.seat(0)), second.choose(b.seat(0))
            assert chose[0] == chose[1] and counts(first) == counts(second), f"{name}: {kind} told the two apart"
        action = rng.randrange(len(a.legal_actions(0)))
        a.apply(0, action)
        b.apply(0, action)
        compared += 1
    assert compared >= 1, f"{name}: seat 0 had no choice in the twins"


def test_a_bot_never_plays_in_the_true_match(monkeypatch):
    """The worlds a bot applies actions to and rolls out are its own draws, never the match it plays; the
    match is left as it was; and a bot handed the match itself refuses it."""
    game = load_game("overloaded")
    m = played(game, 4, 2, 9)
    seat = m.to_act()[0]
    before = (list(m.history), m.to_act(), [m.information_state(s) for s in range(4)])
    touched = []
    apply, rollout = Match.apply, bots_base.rollout

    def spy_apply(self, s, a):
        touched.append(self)
        return apply(self, s, a)

    def spy_rollout(world, pick, spend=False, horizon=None, first=None):
        touched.append(world)
        return rollout(world, pick, spend, horizon, first)

    monkeypatch.setattr(Match, "apply", spy_apply)
    monkeypatch.setattr(bots_base, "rollout", spy_rollout)
    for name in ("mc:6", "ismcts:6", "ismcts-round:6"):
        assert get(name, seed=1).choose(m.seat(seat)) in m.legal_actions(seat)
    assert touched and all(w is not m for w in touched)
    assert (list(m.history), m.to_act(), [m.information_state(s) for s in range(4)]) == before
    with pytest.raises(TypeError, match="seat handle"):
        get("mc:6").choose(m)


def test_a_bot_chooses_when_no_world_can_be_drawn(monkeypatch):
    m = played(load_game("overloaded"), 4, 1, 5)
    seat = m.to_act()[0]
    n = len(m.legal_actions(seat))

    def no_world(self, rng):
        raise NoConsistentWorld("none within the budget")

    monkeypatch.setattr(Seat, "determinize", no_world)
    for name in ("mc:10", "ismcts:10"):
        bot = get(name, seed=3)
        assert 0 <= bot.choose(m.seat(seat)) < n
        assert bot.stats.fallback == 1 and bot.stats.no_world >= 1 and bot.stats.iterations == 0


def test_a_pool_keeps_the_worlds_it_drew_when_later_draws_fail(monkeypatch):
    m = played(load_game("overloaded"), 4, 1, 5)
    seat = m.to_act()[0]
    calls = []
    determinize = Seat.determinize

    def every_other(self, rng):
        calls.append(1)
        if len(calls) % 2 == 0:
            raise NoConsistentWorld("none")
        return determinize(self, rng)

    monkeypatch.setattr(Seat, "determinize", every_other)
    bot = get("ismcts:16", seed=3)
    bot.choose(m.seat(seat))
    assert bot.stats.iterations == 16 and bot.stats.fallback == 0
    assert bot.stats.worlds >= 1 and bot.stats.no_world >= 1


def test_the_worlds_a_search_draws_keep_what_an_ask_told():
    """Go Fish at 2 players: once the other seat asked for a rank it still holds, every world drawn for the seat
    asked gives it a card of that rank (an ask is made for a rank one holds), so a search knows what to ask
    for back."""
    game = load_game("go-fish")
    checked = 0
    for seed in (7, 8):
        m, bot = Match(game, 2, seed), walker(seed)
        while not m.over and checked < 2 * (seed - 6):  # two points in each match
            for s in m.to_act():
                m.apply(s, bot.pick(len(m.legal_actions(s))))
            counters = m.view(0)["counters"]
            rank = counters["asked_rank"]
            if m.over or counters["asked_of"] != 0 or not rank or 0 not in m.to_act():
                continue
            if not any(rank in str(c) for c in m.view(1)["zones"]["hand@1"]):
                continue  # (given away since, or booked)
            handle, rng = m.seat(0), random.Random(seed)
            for _ in range(3):
                world = handle.determinize(rng)
                assert any(rank in str(c) for c in world.view(1)["zones"]["hand@1"]), (seed, rank)
            checked += 1
    assert checked == 4


def test_a_time_budget_runs_at_least_one_iteration():
    m = Match(load_game(KUHN), 2, 4)
    bot = get("ismcts:0.001s", seed=1)
    assert bot.choose(m.seat(m.to_act()[0])) in (0, 1) and bot.stats.iterations >= 1


# ---- deterministic --------------------------------------------------------------------------------------


def test_the_same_seed_plays_the_same_match():
    game = load_game("overloaded")
    names = ["ismcts:4", "mc:4", "random", "first"]
    a, b = play(game, 4, 5, names, worlds=1), play(game, 4, 5, names, worlds=1)
    assert a.history == b.history and a.scores == b.scores
    assert play(game, 4, 6, names, worlds=1).history != a.history


def test_random_bots_by_name_play_the_matches_random_bots_always_played():
    game = load_game("overloaded")
    m = play(game, 4, 3, ["random"] * 4)
    assert m.history == play_random(game, 4, 3).history
    assert Lineup(["random", "random"], 3).all_random and not Lineup(["random", "mc:2"], 3).all_random


def test_sim_with_bots_is_the_same_whatever_the_workers():
    game = load_game(KUHN)
    bots = ["mc:4", "random"]
    one = run_many(game, 2, 24, seed=5, workers=1, bots=bots)
    two = run_many(game, 2, 24, seed=5, workers=2, bots=bots)
    timing = {"games_per_s", "elapsed_s", "workers"}
    assert {k: v for k, v in one.items() if k not in timing} == {k: v for k, v in two.items() if k not in timing}
    assert one["bots"] == bots
    alone = play(game, 2, 7, bots)  # the match of seed 7, as sim tallied it
    assert alone.scores is not None and one["games"] == 24


# ---- the test pokers -------------------------------------------------------------------------------------


def by_labels(m: Match, *answers: str) -> Match:
    for answer in answers:
        seat = m.to_act()[0]
        assert m.apply(seat, m.action_labels(seat).index(answer)) is None
    return m


def card(m: Match, seat: int) -> int:
    """The rank (1–3) of the card `seat` holds."""
    hand = m.st.zones[m.layout.zone_names.index(f"hand@{seat}")]
    return ["jack", "queen", "king"].index(m.layout.face_ids[hand[0]]) + 1


def test_the_test_pokers_pay_as_poker_pays():
    m = by_labels(Match(load_game(KUHN), 2, 3), "check", "check")  # a showdown of the antes
    high = 0 if card(m, 0) > card(m, 1) else 1
    assert m.scores[high] == 1 and m.scores[1 - high] == -1
    m = by_labels(Match(load_game(KUHN), 2, 3), "bet", "fold")
    assert m.scores == [1, -1]
    m = by_labels(Match(load_game(LEDUC), 2, 3), "check", "bet", "raise", "call", "bet", "raise", "fold")
    assert m.scores == [-9, 9]  # ante 1, raise to 5 in the first round; a bet of 4 folded to a raise
    m = by_labels(Match(load_game(LEDUC), 2, 5), "bet", "call", "check", "check")
    mine, yours, board = card(m, 0), card(m, 1), ["jack", "queen", "king"].index(
        m.layout.face_ids[m.st.zones[m.layout.zone_names.index("board")][0]]) + 1
    strength = [10 * c if c == board else c for c in (mine, yours)]
    expected = [0, 0] if strength[0] == strength[1] else [3, -3] if strength[0] > strength[1] else [-3, 3]
    assert m.scores == expected


# ---- strong where it is cheap to show ------------------------------------------------------------------


def test_flat_monte_carlo_wins_chips_from_random_at_kuhn_poker():
    """Uniform random play loses chips at Kuhn poker to any bot that looks ahead: over 120 games with the
    seats rotated, mc:16's mean winnings have a 95% interval above 0 (the seeds fix every game, so the
    figure is the same on every run; its margin is wide: about +0.5 a game, the interval about ±0.25)."""
    figures = duel(load_game(KUHN), "mc:16", "random", 120, 2)
    assert figures["a_mean_score_ci"][0] > 0, figures
    assert figures["a_win_rate_ci"][0] > 0.5, figures


def test_the_intervals():
    assert wilson(0, 10)[0] == 0 and 0.25 < wilson(0, 10)[1] < 0.35
    low, high = wilson(50, 100)
    assert abs(low + high - 1) < 1e-12 and 0.40 < low < 0.41
    assert mean_interval(6, 14, 3)[0] == 2 and mean_interval(5, 25, 1) == (5, 5, 5)
    mean, low, high = mean_interval(10, 10 * 1 + 0, 10)
    assert mean == 1 and low == high == 1


# ---- the command line -----------------------------------------------------------------------------------


def test_play_with_search_bots_shows_their_thinking(capsys):
    code, out, _ = run(capsys, "play", KUHN, "--bots", "ismcts:10,random", "--seed", "2")
    assert code == 0 and "[P0 ismcts:10 · " in out and "[P1" not in out
    code, out, _ = run(capsys, "play", KUHN, "--bots", "mc:5", "--seed", "2", "--json")
    assert code == 0 and json.loads(out)["players"] == 2


def test_sim_reports_each_seats_bot(capsys):
    code, out, _ = run(capsys, "sim", KUHN, "-n", "6", "--bots", "mc:3,random")
    assert code == 0 and "mc:3" in out.splitlines()[2] and "random" in out.splitlines()[3]
    code, out, _ = run(capsys, "sim", KUHN, "-n", "6", "--bots", "first", "--json")
    assert code == 0 and json.loads(out)["bots"] == ["first", "first"]


def test_duel_prints_the_contracts_figures(capsys):
    code, out, _ = run(capsys, "duel", KUHN, "mc:4", "random", "-n", "6", "--json")
    figures = json.loads(out)
    assert code == 0 and {"game", "players", "games", "a", "b", "a_win_rate", "a_win_rate_ci", "a_mean_score",
                          "a_mean_score_ci", "seconds"} <= set(figures)
    assert figures["games"] == 6 and figures["a"] == "mc:4" and figures["b"] == "random"
    lo, hi = figures["a_win_rate_ci"]
    assert 0 <= lo <= figures["a_win_rate"] <= hi <= 1
    code, again, _ = run(capsys, "duel", KUHN, "mc:4", "random", "-n", "6", "--json", "--workers", "2")
    del figures["seconds"]  # the same figures whatever the workers
    assert {k: v for k, v in json.loads(again).items() if k != "seconds"} == figures
    code, out, _ = run(capsys, "duel", KUHN, "first", "random", "-n", "4", "--seed", "3")
    assert code == 0 and "first win rate" in out and "95% CI" in out and "seeds 3–4" in out
    code, out, _ = run(capsys, "duel", "--help")
    assert code == 0 and "seat g % P" in out and "95% interval" in out and "%%" not in out


@pytest.mark.parametrize("argv, says", [
    (["play", "overloaded", "--bots", "alpha"], "unknown bot `alpha`"),
    (["sim", "overloaded", "-n", "2", "--bots", "mc:1,mc:1"], "--bots names 2 seats, but the match has 4"),
    (["duel", "overloaded", "ismcts:0", "random"], "a budget is"),
    (["duel", "overloaded", "random", "human"], "unknown bot `human`"),
    (["duel", "overloaded", "random", "random", "--players", "9"], "players"),
])
def test_bad_bot_arguments_get_one_message(capsys, argv, says):
    code, _, err = run(capsys, *argv)
    assert code == 1 and says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_search_plays_for_what_the_game_asks_for():
    """`result.payoff: score` (the test pokers: chips) makes the score margin the search's payoff; a game that
    says nothing is played for the win; a knob given overrides the game."""
    assert load_game(KUHN).payoff == "score" and load_game("hearts").payoff == "win"
    assert bots_base.Payoff.of(0, None, load_game(KUHN)).by_score
    assert not bots_base.Payoff.of(0, None, load_game("hearts")).by_score
    assert not bots_base.Payoff.of(0, "win", load_game(KUHN)).by_score
    m = Match(load_game(KUHN), 2, 1)
    seat = m.to_act()[0]
    made = []
    payoff_of = bots_base.Payoff.of

    def spy(seat, mode, game):
        made.append(payoff_of(seat, mode, game))
        return made[-1]

    import unittest.mock

    with unittest.mock.patch.object(bots_base.Payoff, "of", spy):
        get("ismcts:8", seed=1).choose(m.seat(seat))
        get("mc:8", seed=1, payoff="win").choose(m.seat(seat))
    assert [p.by_score for p in made] == [True, False]


def test_a_deal_horizon_plays_out_no_further_than_the_deal():
    """ismcts-deal in Hearts: every play-out stops at the end of the deal under way (or sooner, scored as the
    game scores a match ended there), so none makes more decisions than the deal has left; the same seed
    decides alike."""
    def point():
        m = played(load_game("hearts"), 4, 3, 20)
        while max(len(m.legal_actions(s)) for s in m.to_act()) < 2:
            m.apply(m.to_act()[0], 0)
        return m, next(s for s in m.to_act() if len(m.legal_actions(s)) > 1)

    m, seat = point()
    ends = []
    rollout = bots_base.rollout

    def spy(world, pick, spend=False, horizon=None, first=None):
        ends.append(rollout(world, pick, spend, horizon, first))
        return ends[-1]

    import unittest.mock

    with unittest.mock.patch.object(bots_base, "rollout", spy):
        first = get("ismcts-deal:30", seed=4)
        chose = first.choose(m.seat(seat))
    assert len(ends) == 30 and all(e.stopped and e.decisions <= 16 * 4 for e in ends)
    again = get("ismcts-deal:30", seed=4)  # (in a match of its own: a match carries its seats' last worlds on)
    m, seat = point()
    assert again.choose(m.seat(seat)) == chose and counts(again) == counts(first)


# ---- strength, at length --------------------------------------------------------------------------------


@pytest.mark.slow
def test_ismcts_beats_random_at_overloaded():
    figures = duel(load_game("overloaded"), "ismcts:50", "random", 40, 4)
    assert figures["a_win_rate_ci"][0] > 0.25, figures


@pytest.mark.slow
def test_flat_monte_carlo_wins_chips_from_random_at_leduc_poker():
    figures = duel(load_game(LEDUC), "mc:16", "random", 100, 2)
    assert figures["a_mean_score_ci"][0] > 0, figures


@pytest.mark.slow
def test_ismcts_wins_chips_from_random_at_kuhn_poker():
    figures = duel(load_game(KUHN), "ismcts:200", "random", 400, 2)
    assert figures["a_mean_score_ci"][0] > 0.1, figures


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(bundled_games()))
def test_a_search_bot_decides_alike_at_many_points_its_seat_cannot_tell_apart(name):
    """The fairness check above at more points: twins of several seeds (another seat's secret answer
    changed), bots drawing several worlds a decision (their worlds moved and carried on between
    decisions as in play), compared at each of the seat's choices while the twins stay alike to it."""
    game = load_game(name)
    players = 4 if game.min_players <= 4 <= game.max_players else game.default_players
    compared = 0
    for seed in range(6):
        pair = answer_twins(game, players, seed, 0)
        if pair is None:
            continue
        a, b = pair
        bots = {(k, m): get(k, seed=seed) for k in ("ismcts:12", "mc:8") for m in ("a", "b")}
        rng = random.Random(seed)
        points = 0
        while points < 4 and go_on_alike(a, b, 0, rng):
            for kind in ("ismcts:12", "mc:8"):
                first, second = bots[kind, "a"], bots[kind, "b"]
                chose = first.choose(a.seat(0)), second.choose(b.seat(0))
                assert chose[0] == chose[1] and counts(first) == counts(second), \
                    f"{name}, seed {seed}: {kind} told the two apart"
            action = rng.randrange(len(a.legal_actions(0)))
            a.apply(0, action)
            b.apply(0, action)
            points += 1
        compared += points
    if compared == 0:
        pytest.skip(f"{name}: no other seat's secret answer is hidden from seat 0 early on (the pile twins above)")


@pytest.mark.parametrize("name", [*sorted(bundled_games()), "kuhn-poker"])
def test_a_search_keys_its_tree_by_the_information_state_less_its_zones(name, monkeypatch):
    """The tree's key ends with the view less its zones (the zones follow from the observations): over a
    search, every key stands for one whole information state since the decision, and each such state has
    one key, so the tree is the one keyed by the whole states."""
    game = load_game(KUHN if name == "kuhn-poker" else name)
    m = played(game, 2 if name == "kuhn-poker" else game.default_players, 3, 0 if name == "kuhn-poker" else 12)
    while not m.over and max(len(m.legal_actions(s)) for s in m.to_act()) < 2:
        for s in m.to_act():
            m.apply(s, 0)
    assert not m.over
    whole_of: dict[str, str] = {}
    short_of: dict[str, str] = {}

    def both(match, seat, start, zones=True):
        short = information.information_since(match, seat, start, zones=False)
        whole = information.information_since(match, seat, start)
        assert whole_of.setdefault(short, whole) == whole, f"{name}: one key for two information states"
        assert short_of.setdefault(whole, short) == short, f"{name}: two keys for one information state"
        return short

    monkeypatch.setattr(ismcts, "information_since", both)
    seat = next(s for s in m.to_act() if len(m.legal_actions(s)) > 1)
    bot = get("ismcts:24", seed=1, expand=1)
    bot.choose(m.seat(seat))
    assert len(whole_of) == bot.nodes >= 2
