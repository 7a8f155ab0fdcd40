"""Nobody sees what they should not: the leak check passes on the bundled games, and finds each of the
four ways a seat once learned more than the rules allow when that way is put back."""

import textwrap

import pytest

from interpreter import load_game
from interpreter.leaks import check_leaks
from interpreter.run import information, runtime

GAMES = ["overloaded", "sky-haulers", "low-tide", "go-fish", "crazy-eights", "hearts"]
# Low Tide: each round of picks is one decision point (18–24 a match), so determinize more often.
DETERMINIZE = {"low-tide": 4}


@pytest.mark.parametrize("name", GAMES)
def test_a_bundled_game_hides_what_its_rules_hide_at_every_player_count(name):
    """Whether a player is asked counts too: every choice asks, even with one option."""
    game = load_game(name)
    report = check_leaks(game, seeds=range(2), determinize=DETERMINIZE.get(name, 9))
    assert sorted(report.by_players) == list(range(game.min_players, game.max_players + 1))
    assert report.answers > 100 and report.deals > 20 and report.determinized > 20


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_a_bundled_game_hides_what_its_rules_hide_over_many_matches(name):
    check_leaks(load_game(name), seeds=range(2, 30))


@pytest.mark.slow
def test_sky_haulers_asks_a_player_whatever_the_hand_holds():
    """"Play which card?" with one playable card in hand is asked all the same (once it was not, and the
    check above found it at seeds 0 and 1 at every player count)."""
    check_leaks(load_game("sky-haulers"), seeds=range(16))


def write_game(folder, game: str, cards: str):
    (folder / "game.yaml").write_text(textwrap.dedent(game))
    (folder / "cards.yaml").write_text(textwrap.dedent(cards))
    return load_game(folder)


# ---- 1. the order of hidden cards ----------------------------------------------------------------------


def test_leak_1_a_hand_shown_in_its_kept_order_is_found(monkeypatch):
    """Other seats' hands shown as backs in the order kept (and option labels with positions) tell
    which of two cards with the same back was loaded."""
    game = load_game("overloaded")
    check_leaks(game, players=3, seeds=[0])
    monkeypatch.setattr(information, "ordered_for", lambda layout, zi, seat: True)
    with pytest.raises(AssertionError, match="leak in overloaded"):
        check_leaks(game, players=3, seeds=[0])


# ---- 2. glimpses that last ------------------------------------------------------------------------------

PEEK = """
game: peek
title: Peek
players: {min: 2, max: 3}
cards: [cards.yaml]
properties: {value: 0}
zones:
  deck: {visibility: hidden, face: down}
  hand: {owner: player, visibility: owner}
  hold: {owner: player, visibility: public, face: down}
phases:
  deal: |
    shuffle deck
    for each player p:
      move the top 3 cards of deck to hand of p
  play: |
    for each player p:
      show hand of p to next player after p
      let c = p chooses a card from hand of p "Hide one face down"
      move c to hold of p face down
flow: {setup: [deal], rounds: 2, round: [play]}
result: {score: count(my hold)}
"""
PEEK_CARDS = """
cards:
  - {id: card, name: Card, count: 12, start: deck}
"""


def test_leak_2_a_glimpse_that_follows_a_hand_is_found(tmp_path, monkeypatch):
    """After a look at a hand, the looker must not go on seeing the cards left in it once the owner
    plays one face down: it would tell which one was played."""
    game = write_game(tmp_path, PEEK, PEEK_CARDS)
    check_leaks(game, seeds=range(2))
    monkeypatch.setattr(runtime, "lapse", lambda st, c, src: None)
    with pytest.raises(AssertionError, match="can tell the two apart at the view"):
        check_leaks(game, seeds=range(2))


# ---- 3. counters that are all public ----------------------------------------------------------------------

BIDS = """
game: bids
title: Bids
players: {min: 2, max: 3}
cards: [cards.yaml]
zones:
  pile: {visibility: public}
counters:
  player:
    bid: {initial: 0, reset: round%s}
  game:
    bids_open: {initial: 0, reset: round}
phases:
  bid: |
    for each player p simultaneously:
      let b = p chooses a number from 1 to 3 "Your secret bid"
      set bid of p to b
    for each player p simultaneously:
      let raise = p chooses yes or no "Raise your bid by 1?"
      if raise:
        add 1 to bid of p
    set bids_open to 1
    for each player p:
      say "{p} bids {bid of p}"
flow: {rounds: 2, round: [bid]}
result: {score: my bid}
"""
BID_CARDS = """
cards:
  - {id: token, name: Token, start: pile}
"""


def test_leak_3_a_secret_number_in_a_public_counter_is_found(tmp_path):
    """A secret bid kept in a public counter shows in the view before the bids are announced."""
    (tmp_path / "public").mkdir()
    public = write_game(tmp_path / "public", BIDS % "", BID_CARDS)
    with pytest.raises(AssertionError, match=r"leak in bids(.|\n)*\"bid\":\[1,1\]"):
        check_leaks(public, seeds=range(2))


def test_a_counter_seen_by_its_owner_until_the_rules_show_it_keeps_the_secret(tmp_path):
    (tmp_path / "owner").mkdir()
    game = write_game(tmp_path / "owner", BIDS % ", visibility: owner, public_while: bids_open", BID_CARDS)
    check_leaks(game, seeds=range(2))
    m = game.new_match(players=2, seed=0)
    m.apply(0, 2)
    m.apply(1, 0)  # bids 3 and 1, not yet announced
    assert m.view(0)["counters"]["bid"] == [3, None]
    assert m.view(1)["counters"]["bid"] == [None, 1]
    m.apply(0, 1)
    m.apply(1, 1)  # no raises: the bids are said and shown
    assert m.st.round == 2 and m.view(1)["counters"]["bid"] == [None, 0]  # a new round: new secret bids
    said = [line for line in m.information_state_json(1)["observed"] if line.get("event") == "say"]
    assert [s["text"] for s in said] == ["P0 bids 3", "P1 bids 1"]


# ---- 4. whether a player is asked ---------------------------------------------------------------------------

FORCED = """
game: forced
title: Forced
players: {min: 2, max: 2}
cards: [cards.yaml]
properties: {value: 0}
zones:
  deck: {visibility: hidden, face: down}
  hand: {owner: player, visibility: owner}
  hold: {owner: player, visibility: public, face: down}
phases:
  deal: |
    shuffle deck
    for each player p:
      move the top 2 cards of deck to hand of p
  play: |
    for each player p:
      let c = p chooses a card from hand of p where it.value >= 5 "Hide a high card"
      move c to hold of p face down
flow: {setup: [deal], rounds: 1, round: [play]}
result: {score: count(my hold)}
"""
FORCED_CARDS = """
cards:
  - {id: ace, name: Ace, each_player: true, start: hand, value: 5}
  - {id: low, name: Low, count: 6, start: deck, value: 1}
  - {id: high, name: High, count: 4, start: deck, value: 5}
"""


def test_leak_4_a_choice_with_one_option_is_asked_all_the_same(tmp_path):
    """Once, a choice with one legal option was taken without asking: whether the player was asked then
    told the others whether they held one high card or two. Every choice asks now, so the game is clean."""
    game = write_game(tmp_path, FORCED, FORCED_CARDS)
    check_leaks(game, seeds=range(12), deals=1)
    one_high = [m for m in (game.new_match(players=2, seed=s) for s in range(12)) if len(m.option_ids(0)) == 1]
    assert one_high and all(m.to_act() == [0] and m.prompt(0) == "Hide a high card" for m in one_high)


def test_leak_4_rules_that_ask_only_when_a_hand_allows_a_choice_are_found(tmp_path):
    """The same leak written into the rules: asking only when the hand holds two high cards. The check
    finds it, and `ignore_who_is_asked` (for a game that means it) lets it pass."""
    asked_only_with_a_choice = FORCED.replace(
        """      let c = p chooses a card from hand of p where it.value >= 5 "Hide a high card"
      move c to hold of p face down""",
        """      if count(hand of p, it.value >= 5) > 1:
        let c = p chooses a card from hand of p where it.value >= 5 "Hide a high card"
        move c to hold of p face down
      else:
        move hand of p where it.value >= 5 to hold of p face down""")
    game = write_game(tmp_path, asked_only_with_a_choice, FORCED_CARDS)
    with pytest.raises(AssertionError, match="swapped places"):
        check_leaks(game, seeds=range(12), deals=1)
    check_leaks(game, seeds=range(12), deals=1, ignore_who_is_asked=True)


# ---- a card put back at a random place -----------------------------------------------------------------

BURY = """
game: bury
title: Bury
players: {min: 2, max: 3}
cards: [cards.yaml]
properties: {value: 0}
zones:
  deck: {visibility: hidden, face: down}
  turned: {visibility: public}
  hand: {owner: player, visibility: owner}
  pile: {owner: player, visibility: public}
phases:
  deal: |
    shuffle deck
    move the top card of deck to turned face up
    move the top card of turned to a random position of deck
  play: |
    for each player p:
      move the top card of deck to hand of p
      let c = p chooses a card from hand of p "Play a card"
      move c to pile of p
flow: {setup: [deal], rounds: 2, round: [play]}
result: {score: "sum(my pile, it.value)"}
"""
BURY_CARDS = """
cards:
  - {id: one, name: One, value: 1, start: deck}
  - {id: two, name: Two, value: 2, start: deck}
  - {id: three, name: Three, value: 3, start: deck}
  - {id: four, name: Four, value: 4, start: deck}
  - {id: five, name: Five, value: 5, start: deck}
  - {id: six, name: Six, value: 6, start: deck}
"""


def test_a_card_seen_then_put_back_at_a_random_place_cannot_be_followed(tmp_path):
    """Everyone saw the card turned up; once it goes back face down at a place drawn by chance, nobody
    knows where it lies, so nobody can tell when another player draws it."""
    game = write_game(tmp_path, BURY, BURY_CARDS)
    check_leaks(game, seeds=range(6))
    m = game.new_match(2, seed=0)
    seen = m.information_state_json(1)["observed"]
    buried = [e for e in seen if e.get("event") == "move" and e.get("to") == "deck"]
    drawn = [e for e in seen if e.get("event") == "move" and e.get("to") == "hand@0"]
    assert buried and all("to_at" not in e for e in buried)
    assert drawn and all(e["card"] == {"hidden": True} for e in drawn)
