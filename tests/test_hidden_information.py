"""Who may see a card: the engine's rules of knowledge, on a small game made for the purpose."""

import textwrap

from interpreter.game import load_game

GAME = """
game: peek
title: Peek
players: {min: 2, max: 2}
cards: [cards.yaml]
properties: {value: 0}
zones:
  hand: {owner: player, visibility: owner}
  hold: {owner: player, visibility: public, face: down}
  pile: {visibility: public}
phases:
  play: |
    %s
flow: {rounds: 1, round: [play]}
result: {score: count(my hold)}
"""
CARDS = """
cards:
  - {id: a, name: A, each_player: true, start: hand, value: 1}
  - {id: b, name: B, each_player: true, start: hand, value: 2}
"""


def finished(tmp_path, phase: str):
    (tmp_path / "game.yaml").write_text(GAME % textwrap.indent(textwrap.dedent(phase).strip(), "    ").strip())
    (tmp_path / "cards.yaml").write_text(CARDS)
    m = load_game(tmp_path).new_match(2, 0)
    assert m.over
    return m


def hold_of_p0_seen_by_p1(m):
    return m.view(1)["zones"]["hold@0"]


def test_a_card_put_face_down_from_hand_is_known_to_its_owner_only(tmp_path):
    m = finished(tmp_path, "move the top card of hand of first player to hold of first player")
    assert hold_of_p0_seen_by_p1(m) == [{"hidden": True}]
    assert m.view(0)["zones"]["hold@0"] == ["a@0"]


def test_a_glimpse_of_a_hand_lasts_while_the_hand_keeps_its_cards(tmp_path):
    m = finished(tmp_path, "show hand of first player to next player after first player")
    assert m.view(1)["zones"]["hand@0"] == ["a@0", "b@0"]


def test_a_glimpse_of_a_hand_lapses_when_a_card_leaves_it_unseen(tmp_path):
    """A look is a look at that moment: once the owner plays a card face down, the looker cannot tell
    which one went, so it sees neither the card played nor the card kept."""
    m = finished(tmp_path, """
    show hand of first player to next player after first player
    move the top card of hand of first player to hold of first player
    """)
    assert m.view(1)["zones"]["hand@0"] == [{"hidden": True}]
    assert hold_of_p0_seen_by_p1(m) == [{"hidden": True}]


def test_a_glimpse_of_a_hand_stays_when_the_card_that_leaves_is_seen_going(tmp_path):
    m = finished(tmp_path, """
    show hand of first player to next player after first player
    move the top card of hand of first player to pile
    """)
    assert m.view(1)["zones"]["hand@0"] == ["b@0"]
    assert m.view(1)["zones"]["pile"] == ["a@0"]


def test_a_card_once_public_is_not_known_again_after_passing_through_a_hand(tmp_path):
    m = finished(tmp_path, """
    move the top card of hand of first player to pile
    move the top card of pile to hand of first player
    move the top card of hand of first player to hold of first player
    """)
    assert hold_of_p0_seen_by_p1(m) == [{"hidden": True}]


def test_a_public_card_turned_face_down_where_it_lies_stays_known_to_all(tmp_path):
    m = finished(tmp_path, """
    move the top card of hand of first player to pile
    flip all pile face down
    """)
    assert m.view(1)["zones"]["pile"] == ["a@0"]


def test_a_player_shown_a_face_down_card_knows_it_until_it_is_shuffled(tmp_path):
    m = finished(tmp_path, """
    move the top card of hand of first player to hold of first player
    show the top card of hold of first player to next player after first player
    """)
    assert hold_of_p0_seen_by_p1(m) == ["a@0"]
    m = finished(tmp_path, """
    move the top card of hand of first player to hold of first player
    show the top card of hold of first player to next player after first player
    shuffle hold of first player
    """)
    assert hold_of_p0_seen_by_p1(m) == [{"hidden": True}]
