"""`groups(CARDS, VALUE)`, `firsts(GROUPS)` and `for each group g in …`: cards split by a value in one pass,
so that content needs no scan of a hand for each of its cards (Go Fish's books, Low Tide's kinds). Each test
names the rule it pins, on the small game of tests/test_compiler_cases.py (a deck of C1..C8, values 1..8)."""

import re

import pytest

from interpreter.diagnostics import AuthoringError
from interpreter.run.match import play_random
from interpreter.run.sim import simulate
from tests.test_compiler_cases import game, says


def said(tmp_path, main: str, players: int = 2) -> list[str]:
    return says(play_random(game(tmp_path, main), players, 0, log=True))


def refused(tmp_path, main: str) -> str:
    with pytest.raises(AuthoringError) as err:
        game(tmp_path, main)
    return str(err.value)


def test_groups_come_in_the_order_of_their_first_card_and_keep_the_cards_order(tmp_path):
    out = said(tmp_path, """
        for each group g in groups(deck, it.value % 3):
          say "{g}"
        say "{count(groups(deck, it.value % 3))} {firsts(groups(deck, it.value % 3))}"
    """)
    assert out[:4] == ["[C1, C4, C7]", "[C2, C5, C8]", "[C3, C6]", "3 [C1, C2, C3]"]


def test_groups_filter_count_and_aggregate_like_any_set(tmp_path):
    out = said(tmp_path, """
        let big = groups(deck, it.value % 3) where count(it) == 3
        say "{firsts(big)} {count(g in groups(deck, it.value % 3), count(g) == 2)}"
        say "{max(g in groups(deck, it.value % 3), sum(g, it.value))} {any(groups(table, it.value))}"
        say "{list(g in groups(c in deck where c.value > 4, c.value % 2), count(g))}"
    """)
    assert out[:3] == ["[C1, C2] 1", "15 no", "[2, 2]"]


def test_a_group_may_be_moved_inside_its_loop(tmp_path):
    out = said(tmp_path, """
        for each group g in groups(deck, it.value > 6):
          if count(g) == 2:
            move g to table face up
        say "{table} {count(deck)}"
    """)
    assert out[0] == "[C8, C7] 6"


def test_a_grouping_match_is_the_same_by_sim_and_by_the_step_api(tmp_path):
    g = game(tmp_path, """
        for each player p:
          let c = p chooses a card from firsts(groups(deck, it.value % 4))
          move c to hand of p
          for each group b in groups(hand of p, it.value):
            if count(b) >= 2:
              add count(b) to bonus of p
    """)
    for seed in range(5):
        m = play_random(g, 3, seed)
        assert simulate(g, 3, seed).scores == m.result()["scores"]


def test_cards_are_grouped_in_one_pass(tmp_path):
    g = game(tmp_path, 'for each group g in groups(deck, it.value % 3):\n  say "{count(g)}"')
    line = next(x for x in g.python_source.splitlines() if "setdefault" in x)
    assert len(re.findall(r"\bin Z\[", line)) == 1  # the zone is run over once, not once a card


@pytest.mark.parametrize("main, message", [
    ("for each group g in deck:\n  nothing", "`for each group` runs over groups of cards, but this is a zone"),
    ("for each card c in groups(deck, it.value):\n  nothing", "write `for each group g in …`"),
    ('say "{groups(deck, it.value)}"', "a text cannot show groups of cards"),
    ("let x = groups(players, seat(it))", "`groups` splits cards, but this is players"),
    ("let x = groups(deck, hand of me)", "not by a zone"),
    ("let x = highest(g in groups(deck, it.value), count(g))", "`highest` is not offered over groups"),
    ("let x = groups(deck)", "`groups` takes cards and the value that groups them"),
    ("move groups(deck, it.value) to table", "expected cards here, but this is groups of cards"),
    ("let x = firsts(deck)", "expected groups of cards here, but this is a zone"),
])
def test_a_misused_group_is_refused_with_what_to_write(tmp_path, main, message):
    assert message in refused(tmp_path, main)


def test_group_is_a_keyword_whose_hint_names_its_loop(tmp_path):
    assert "`group` became a keyword with `for each group g in …`" in refused(tmp_path, "let group = 1")


def test_one_card_of_each_value_of_a_property_is_found_as_by_any_value(tmp_path):
    # my hand: three H of value 5, then the deck's C1..C8: C5 joins the group of the H cards
    out = said(tmp_path, """
        let both = my hand + deck
        say "{firsts(groups(both, it.value))} {count(groups(both, it.value))}"
        say "{firsts(groups(both, it.value + 0))} {count(groups(both, it.value + 0))}"
    """)
    assert out[0] == out[1] == "[H (P0), C1, C2, C3, C4, C6, C7, C8] 8"
