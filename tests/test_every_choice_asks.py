"""Every choice asks its player, whatever the player holds: with one option, and with nothing to choose
(the one option `none`), so that being asked tells the others nothing (docs/dsl.md, Choices)."""

import pytest
from test_leaks import write_game

from interpreter import RuleError

GAME = """
game: asks
title: Asks
players: {min: 2, max: 2}
cards: [cards.yaml]
properties: {value: 0}
zones:
  deck: {visibility: hidden, face: down}
  hand: {owner: player, visibility: owner}
  table: {visibility: public}
counters:
  game: {low: 1, high: 3}
phases:
  play: |
    let c = I choose a card from my hand where it.value >= 5 "A high card"
    if c != none:
      move c to table
    let p = I choose a player from opponents where count(hand of it) > 5 "Whose big hand?"
    let t = I choose one of "trade" if count(my hand) > 5, "rest" if count(my hand) > 6 "Trade or rest?"
    let two = I choose 2 cards from my hand where it.value < 5 "Two low cards"
    move two to table
    let n = I choose a number from low to high "How many?"
    say "{me} picks {n}"
flow: {rounds: 1, turn: [play]}
result: {score: count(table)}
"""
CARDS = """
cards:
  - {id: high, name: High, each_player: true, start: hand, value: 5}
  - {id: low, name: Low, each_player: true, start: hand, value: 1}
"""


@pytest.fixture
def game(tmp_path):
    return write_game(tmp_path, GAME, CARDS)


def asked(m) -> tuple[str, list[str]]:
    seat = m.to_act()[0]
    return m.prompt(seat), m.option_ids(seat)


def test_a_choice_with_one_option_or_none_asks_all_the_same(game):
    m = game.new_match(players=2, seed=0)
    assert asked(m) == ("A high card", ["high@0"])  # one high card: asked
    m.apply(0, 0)
    assert asked(m) == ("Whose big hand?", ["nobody"])  # nobody to choose: asked, with "nobody"
    m.apply(0, 0)
    assert asked(m) == ("Trade or rest?", ["none"])  # no text offered: asked, with "none"
    m.apply(0, 0)
    assert asked(m) == ("Two low cards", ["low@0"])  # N cards: asked N times, with "none" once empty
    m.apply(0, 0)
    assert asked(m) == ("Two low cards", ["none"])
    m.apply(0, 0)
    assert asked(m) == ("How many?", ["1", "2", "3"])
    m.apply(0, 0)
    assert m.to_act() == [1] and m.st.decisions == 6


def test_a_lone_option_is_logged_as_a_decision(game):
    m = game.new_match(players=2, seed=0, log=True)
    m.apply(0, 0)
    decision = next(line for line in m.log if line["type"] == "decision")
    assert decision == {"type": "decision", "who": 0, "choice": 0, "options": 1, "label": "high@0"}


def test_an_empty_number_range_is_a_rule_error_naming_the_text(game):
    m = game.new_match(players=2, seed=0)
    m.st.gc[game.model.counters["low"].index] = 4
    for _ in range(4):
        m.apply(0, 0)
    with pytest.raises(RuleError, match=r"game\.yaml:\d+:\d+: `a number from 4 to 3`: there is no number to choose"):
        m.apply(0, 0)
