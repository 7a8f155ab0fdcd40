"""The shortcuts a quiet match (sim's: no log, nobody watching) takes do what the general path does: a whole zone
moved by `move_zone` as `move_cards` moves it, the generators seeded as `random.Random(seed)` seeds them, the random
bots' picks drawn from their stream as its definition says, and the sentences a quiet match leaves out cost it the
same steps."""

import copy
import hashlib
import pickle
import random
from collections import Counter
from itertools import islice

import pytest

from interpreter.game import load_game
from interpreter.run.flow import Cursor, run_flow
from interpreter.run.match import play_random
from interpreter.run.random_bots import LIMITS, RandomBot, RandomBots, bot_bytes, random_bot, seeded
from interpreter.run.runtime import BOTTOM, TOP, State, move_cards, move_zone
from interpreter.run.sim import _play_random


@pytest.mark.parametrize("kind", [random.Random, RandomBot])
@pytest.mark.parametrize("seed", [0, 1, -3, 10**12 + 7, 2**70])
def test_a_seeded_generator_is_the_one_its_class_makes_of_the_seed(kind, seed):
    made, ours = kind(seed), seeded(kind, seed)
    assert type(ours) is kind and ours.getstate() == made.getstate() and vars(ours) == vars(made)
    assert [ours.getrandbits(7) for _ in range(20)] == [made.getrandbits(7) for _ in range(20)]


@pytest.mark.parametrize("seed", [0, 5, -3, 10**12 + 7, 2**70])
def test_the_random_bots_draw_from_their_seed_s_blake2b_blocks(seed):
    head = b"meeple bots %d:" % seed
    blocks = b"".join(hashlib.blake2b(head + b"%d" % i).digest() for i in range(3))
    assert bytes(islice(bot_bytes(seed), len(blocks))) == blocks


@pytest.mark.parametrize("n", [2, 3, 5, 7, 52, 255, 256, 257, 1000, 70_000])
def test_a_random_bot_picks_every_option_alike(n):
    """Each option as often as the others, within a bound a uniform pick passes with room (the draws are fixed by
    the seed: the test gives the same answer every run); a byte at or above the last multiple of n is drawn again."""
    bot, draws = random_bot(11), 300 * min(n, 300)
    counts = Counter(bot.pick(n) for _ in range(draws))
    assert set(counts) <= set(range(n))
    if n <= 300:
        expected = draws / n
        chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(n))
        assert len(counts) == n and chi2 < n + 6 * (2 * n) ** 0.5, chi2
    stream = bot_bytes(4)
    assert LIMITS[3] == 255 and RandomBots(4).pick(3) == next(b for b in stream if b < 255) % 3


def test_the_random_bots_take_a_lone_option_without_drawing():
    bot, fresh = random_bot(9), random_bot(9)
    assert [bot.pick(1) for _ in range(5)] == [0] * 5 and bot.pick(0) == 0
    assert [bot.pick(6) for _ in range(20)] == [fresh.pick(6) for _ in range(20)]


def test_random_bots_copied_or_pickled_go_on_from_the_same_byte_without_pickling_the_stream():
    bot = random_bot(6)
    for n in (2, 3, 1, 200, 300, 5, 70_000):
        bot.pick(n)
    pickled = pickle.dumps(bot)
    assert b"itertools" not in pickled  # (its pickling of iterators is being retired)
    copies = [pickle.loads(pickled), copy.deepcopy(bot)]
    picks = [bot.pick(n) for n in (7, 300, 2, 256) * 10]
    assert all([c.pick(n) for n in (7, 300, 2, 256) * 10] == picks for c in copies)


def _dealt(game, logged: bool) -> State:
    """A 4-player Overloaded state with cards in its first three game zones (set-up run)."""
    st = State(game.model.setup(4), 4, 3, [] if logged else None, game.max_steps)
    st.table_counters = game.counter_names
    flow = run_flow(game, st, Cursor())
    next(flow)  # set-up done, the first round's first question asked
    for zi in range(3):
        for c in st.zones[4][:2]:  # two cards of the deck into each of zones 0..2
            st.zones[4].remove(c)
            st.zones[zi].append(c)
            st.zone_of[c] = zi
    return st


@pytest.mark.parametrize("logged", [False, True])
@pytest.mark.parametrize("place", [TOP, BOTTOM])
@pytest.mark.parametrize("up", [True, False])
@pytest.mark.parametrize("src, dest", [(0, 1), (2, 2), (1, 3)])
def test_move_zone_moves_a_zone_as_move_cards_does(logged, place, up, src, dest):
    game = load_game("overloaded")
    a, b = _dealt(game, logged), _dealt(game, logged)
    move_cards(a, src, -1, dest, place, 1 if up else 0)
    move_zone(b, src, dest, place, up)
    seen = ("zones", "zone_of", "face", "known", "steps", "log")
    assert [getattr(a, k) for k in seen] == [getattr(b, k) for k in seen]


@pytest.mark.parametrize("seed", [0, 7])
def test_a_quiet_match_spends_the_steps_of_a_logged_one(seed):
    """Overloaded says who accepts in a loop over the players that a quiet match skips: its rounds are still
    charged, so both run out of steps alike."""
    game = load_game("overloaded")
    assert "    if st.log is not None:\n        for " in game.python_source
    st = State(game.model.setup(4), 4, seed, None, game.max_steps)
    st.table_counters = game.counter_names
    _play_random(game, st, seed)
    logged = play_random(game, 4, seed)
    assert st.decisions == len(logged.history)
    assert st.steps == logged.st.steps


@pytest.mark.parametrize("name", ["overloaded", "sky-haulers"])
def test_the_ability_table_by_card_number_names_each_card_s_own(name):
    """`ABILITY_CARDS[n][k][c]` (what a `resolve` looks up, the table at n built by `ABILITIES_AT(n)` when first
    asked for) is ability k of card c's definition at every player count, and no function for no card (-1)."""
    game = load_game(name)
    namespace = game.score.__globals__
    by_definition, by_number = namespace["ABILITIES"], namespace["ABILITY_CARDS"]
    found = 0
    for n in range(game.min_players, game.max_players + 1):
        numbered = game.model.setup(n).card_def
        for k, row in enumerate(by_number[n] or namespace["ABILITIES_AT"](n)):
            assert len(row) == len(numbered) + 1 and row[-1] is None
            assert row[:-1] == [by_definition[k][d] for d in numbered]
            found += sum(f is not None for f in row)
    assert found > 0
