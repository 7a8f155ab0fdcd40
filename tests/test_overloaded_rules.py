"""Overloaded, rule by rule: one test per sentence of the rulebook (overloaded.md).

Each test's name states the rule and its docstring quotes it. Rules with a scenario in
cards/overloaded/scenarios/ run it by name; the others drive a match through the step API.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import yaml
from test_scenarios import RULEBOOKS, game_of, run_scenario

from interpreter import load_game
from interpreter.run.match import finish
from interpreter.run.runtime import move
from interpreter.scenarios import counter, decide, says, zone_cards

GAME = game_of("overloaded")
ROUNDS = 8
ADVANTAGE_OF = {1: "Scout", 6: "Scout", 2: "Extra Harness", 7: "Extra Harness", 3: "Loose Strap",
                8: "Loose Strap", 4: "Second Thoughts", 9: "Second Thoughts", 5: "Double Stake",
                10: "Double Stake"}
DONKEYS = {"standard-donkey": 8, "strong-donkey": 1, "weak-donkey": 1, "mule": 1, "foal": 1,
           "stubborn-donkey": 1, "nervous-donkey": 1, "sleepy-donkey": 1, "blindfolded-donkey": 1,
           "show-off-donkey": 1, "moody-donkey": 1, "old-donkey": 1, "generous-donkey": 1}
CARGO_ZONES = ("hand", "table", "drovers", "pile", "discard", "box")
DONKEY_ZONES = ("donkeys", "deck", "donkey", "walked", "box")


def scenario(name: str):
    return run_scenario("overloaded", name)


# ---- driving a match ---------------------------------------------------------------------------------


def new(players: int = 3, seed: int = 0, **arrange):
    """A logged match; `deck=[...]`, `box=[...]` put those cards on top of those zones after set-up."""
    return GAME.new_match(players, seed, log=True, arrange=arrange or None)


def kind_of(m, seat: int, labels: list[str]) -> str:
    """Which question a seat is asked: load, drovers, scout, contract or flip."""
    if labels == ["accept", "refuse"]:
        return "contract"
    if labels == ["yes", "no"]:
        return "flip"
    if "none" in labels:
        return "drovers"
    hand = zone_cards(m, f"hand@{seat}")
    return "load" if all(x in hand for x in labels) else "scout"


def drive(m, choose=None, stop=None) -> None:
    """Answer every question until `stop(m)` or the end: `choose(m, seat, kind, labels)` may return
    a label; otherwise load the first card, use no advantage, scout the first card, accept, keep."""
    default = {"drovers": "none", "contract": "accept", "flip": "no"}
    while not m.over and not (stop and stop(m)):
        for seat in m.to_act():
            labels = m.action_labels(seat)
            kind = kind_of(m, seat, labels)
            label = choose(m, seat, kind, labels) if choose else None
            decide(m, seat, label or default.get(kind, labels[0]))


def play_round(m, loads: dict, advantages: dict | None = None, contracts: dict | None = None) -> None:
    """Play the current round with the given loads, advantage cards and contracts (by seat)."""
    r = m.st.round
    picks = {"load": loads, "drovers": advantages or {}, "contract": contracts or {}}
    drive(m, lambda m, seat, kind, labels: picks.get(kind, {}).get(seat), lambda m: m.st.round != r)


def random_choices(seed: int):
    rng = random.Random(seed)
    return lambda m, seat, kind, labels: rng.choice(labels)


def visible(m, seat: int) -> set[str]:
    """The card ids `seat` can see anywhere in its view."""
    return {x for cards in m.view(seat)["zones"].values() if isinstance(cards, list)
            for x in cards if isinstance(x, str)}


def index(m, cid: str) -> int:
    return m.layout.card_ids.index(cid)


def prop(m, cid: str, name: str):
    return m.layout.props[GAME.model.prop_index[name]][index(m, cid)]


def seat_zone(name: str) -> str:
    return name.partition("@")[0]


def counter_index(name: str) -> int:
    return next(i for i, n in GAME.counter_names[1] if n == name)


def test_every_rule_test_quotes_the_rulebook():
    """Each test's docstring opens with a sentence of the rulebook, word for word."""
    book = RULEBOOKS / "overloaded.md"
    if not book.is_file():
        pytest.skip(f"no rulebook at {book}")
    text = " ".join(book.read_text(encoding="utf-8").split())
    for name, fn in globals().items():
        if name.startswith("test_") and name != "test_every_rule_test_quotes_the_rulebook":
            quote = (fn.__doc__ or "").split("\n\n")[0]
            assert quote and " ".join(quote.split()) in text, f"{name} does not quote the rulebook: {quote!r}"


# ---- Components --------------------------------------------------------------------------------------


def test_three_to_six_players_play_and_four_is_the_default():
    """Per player (3–6 players, default 4), in the player's colour:"""
    for n in (3, 4, 5, 6):
        assert GAME.new_match(n, 0).to_act() == list(range(n))
    for n in (2, 7):
        with pytest.raises(ValueError):
            GAME.new_match(n, 0)
    assert GAME.new_match(None, 0).players == 4


def test_the_contract_card_has_an_accept_side_and_a_refuse_side():
    """one **contract card**: a green tick on one side ("accept"), a red cross on the other ("refuse");"""
    scenario("the contract card offers accept or refuse")
    scenario("a contract card has no third side")


def test_each_player_owns_ten_cargo_cards_valued_one_to_ten():
    """ten **cargo cards**, values 1..10 **[completion]**."""
    m = new(4)
    for p in range(4):
        mine = [cid for cid in m.layout.card_ids if cid.startswith("cargo-") and cid.endswith(f"@{p}")]
        assert sorted(prop(m, cid, "value") for cid in mine) == list(range(1, 11))
    assert sum(cid.startswith("cargo-") for cid in m.layout.card_ids) == 40


def test_the_back_of_every_cargo_card_shows_its_drover_advantage_to_the_other_players():
    """The back of every cargo card shows a **drover advantage** (table below) **[completion]**;"""
    m = new(3)
    backs = m.view(1)["zones"]["hand@0"]
    # the other players see the backs only (the advantage, and the player's colour: whose card it is), in a
    # canonical order (not the order of the hand)
    assert backs == sorted(({"hidden": True, "advantage": ADVANTAGE_OF[v], "owner": 0} for v in range(1, 11)),
                           key=lambda b: b["advantage"])


def test_the_advantage_on_a_cargo_back_follows_its_value():
    """values 1 and 6 → Scout, 2 and 7 → Extra Harness, 3 and 8 → Loose Strap, 4 and 9 → Second Thoughts,
    5 and 10 → Double Stake."""
    m = new(3)
    for v, advantage in ADVANTAGE_OF.items():
        for p in range(3):
            assert prop(m, f"cargo-{v}@{p}", "advantage") == advantage


def test_there_are_twenty_donkeys_as_in_the_donkey_table():
    """20 **donkey cards** (table below) **[completion]**."""
    m = new(3)
    donkeys = [cid for cid in m.layout.card_ids if prop(m, cid, "kind") == "donkey"]
    assert len(donkeys) == 20
    assert Counter(cid.partition("#")[0] for cid in donkeys) == Counter(DONKEYS)


# ---- Setup -------------------------------------------------------------------------------------------


def test_each_player_starts_with_ten_cargo_cards_in_hand():
    """Each player takes the contract card and the ten cargo cards of their colour into hand."""
    for n in (3, 6):
        m = new(n, seed=n)
        for p in range(n):
            assert zone_cards(m, f"hand@{p}") == [f"cargo-{v}@{p}" for v in range(1, 11)]
            assert zone_cards(m, f"pile@{p}") == []
            assert m.action_labels(p) == zone_cards(m, f"hand@{p}")


def test_eight_random_donkeys_form_the_deck_and_the_twelve_others_go_to_the_box_unseen():
    """Shuffle the 20 donkeys, take 8 at random face down as the donkey deck; the other 12 go back to
    the box unseen."""
    decks = set()
    for seed in range(30):
        m = new(4, seed)
        deck = zone_cards(m, "donkey") + zone_cards(m, "deck")
        assert len(deck) == 8 and len(zone_cards(m, "box")) == 12 and zone_cards(m, "donkeys") == []
        decks.add(tuple(sorted(deck)))
        for seat in range(4):
            zones = m.view(seat)["zones"]
            assert zones["deck"] == {"count": 7} and zones["box"] == {"count": 12}
    assert len(decks) > 20, "the deck is not drawn at random"
    assert {cid for deck in decks for cid in deck} >= {"strong-donkey", "mule", "generous-donkey"}


def test_seat_zero_is_the_first_player():
    """Choose a first player (seat 0 unless the match says otherwise); they take the first-player card."""
    m = new(5, seed=3)
    assert m.st.first == 0
    assert "(first player P0)" in says(m)[0]


# ---- A round -----------------------------------------------------------------------------------------


def test_a_match_lasts_eight_rounds_one_per_donkey_of_the_deck():
    """A round (8 rounds, one per donkey)"""
    m = new(4, seed=5)
    deck = set(zone_cards(m, "donkey") + zone_cards(m, "deck"))
    drive(m, random_choices(5))
    assert m.over and m.st.round == ROUNDS
    assert set(zone_cards(m, "walked")) == deck
    rounds = [s for s in says(m) if s.startswith("Round ")]
    assert [s.split(":")[0] for s in rounds] == [f"Round {r}" for r in range(1, 9)]


def test_each_round_reveals_the_top_donkey_with_capacity_five_per_player():
    """Reveal the top donkey. Its **capacity** is 5 × number of players unless its effect says otherwise."""
    for name in ("a standard donkey carries 15 for three players", "a standard donkey carries 20 for four players",
                 "a standard donkey carries 25 for five players", "a standard donkey carries 30 for six players"):
        scenario(name)


def test_every_player_loads_one_card_at_the_same_time():
    """**Load.** Every player chooses one cargo card from hand and plays it **face down** — all at the same
    time, so no player sees another's choice."""
    scenario("every player loads at the same time")


def test_loads_stay_face_down_and_hidden_from_the_other_players_until_the_reveal():
    """**Load.** Every player chooses one cargo card from hand and plays it **face down** — all at the same
    time, so no player sees another's choice."""
    m = new(3, deck=["standard-donkey#1"])
    loads = {0: "cargo-7@0", 1: "cargo-2@1", 2: "cargo-3@2"}
    decide(m, 0, loads[0])
    assert loads[0] not in visible(m, 1) and loads[0] not in visible(m, 2)
    decide(m, 1, loads[1])
    decide(m, 2, loads[2])
    while m.to_act() != [2] or kind_of(m, 2, m.action_labels(2)) != "contract":
        for viewer in range(3):  # through the drovers and contracts: still face down
            seen = visible(m, viewer)
            assert {cid for p, cid in loads.items() if p != viewer}.isdisjoint(seen)
            assert loads[viewer] in seen
            backs = [x for x in m.view(viewer)["zones"]["table"] if not isinstance(x, str)]
            assert len(backs) == 2 and all(set(x) == {"hidden", "advantage", "owner"} for x in backs)
        seat = m.to_act()[0]
        decide(m, seat, "none" if "none" in m.action_labels(seat) else "refuse")
    assert not any(s.startswith("Loads:") for s in says(m))
    decide(m, 2, "refuse")  # everybody refused, not overloaded: every load goes to the discard, face up
    assert "Loads: [3, 2, 7], load 12, capacity 15" in says(m)
    for viewer in range(3):
        assert set(loads.values()) <= visible(m, viewer)


def test_drovers_are_asked_in_turn_order_from_the_first_player():
    """**Drovers.** Starting with the first player and going clockwise, each player says whether they use a
    drover advantage."""
    scenario("drovers are asked one by one from the first player")
    scenario("in the second round the drovers start with the second player")


def test_an_advantage_card_does_not_count_toward_the_load_and_is_discarded_at_round_end():
    """To use one, play a further cargo card from hand **advantage side up**; it does not count toward the
    load and is discarded at the end of the round."""
    scenario("an advantage card does not count toward the load")


def test_an_advantage_card_shows_only_its_advantage_to_the_other_players():
    """Only its advantage side shows: its value stays hidden from the other players (who know only that it
    is one of the two values carrying that advantage)."""
    m = new(3, deck=["standard-donkey#1"])
    for p in range(3):
        decide(m, p, f"cargo-1@{p}")
    decide(m, 0, "cargo-7@0")
    assert m.view(0)["zones"]["drovers"] == ["cargo-7@0"]
    for other in (1, 2):
        assert m.view(other)["zones"]["drovers"] == [{"hidden": True, "advantage": "Extra Harness", "owner": 0}]
    drive(m, stop=lambda m: m.st.round == 2)
    assert "cargo-7@0" in zone_cards(m, "discard")
    assert "cargo-7@0" in visible(m, 0)
    for other in (1, 2):  # discarded, it still shows only its advantage side
        assert "cargo-7@0" not in visible(m, other)
        assert {"hidden": True, "advantage": "Extra Harness", "owner": 0} in m.view(other)["zones"]["discard"]


def test_a_player_uses_at_most_two_advantages_per_game():
    """At most **2 advantages per player per game**."""
    scenario("a player uses at most two advantages in a game")
    for seed in range(12):
        m = new(3 + seed % 4, seed)
        drive(m, random_choices(seed))
        assert max(counter(m, "advantages")) <= 2


def test_advantages_resolve_at_once_in_the_order_of_players():
    """Advantages resolve at once, in this order of players."""
    scenario("advantages resolve at once in the order of players")


def test_contracts_are_chosen_openly_one_by_one_from_the_first_player():
    """**Contracts.** Starting with the first player and going clockwise, each player openly chooses:
    **accept** (green tick: "the load is at most the capacity") or **refuse** (red cross: "overloaded")."""
    scenario("contracts are chosen one by one from the first player")
    scenario("in the second round contracts start with the second player")
    scenario("a contract out of turn is refused as invalid")


def contract_views(donkey: str, first_contract: str) -> list[dict]:
    """The views of seats 1 and 2 just after seat 0 chose its contract under `donkey`."""
    m = new(3, deck=[donkey])
    for p in range(3):
        decide(m, p, f"cargo-1@{p}")
    for p in range(3):
        decide(m, p, "none")
    decide(m, 0, first_contract)
    return [m.view(1), m.view(2)]


def test_later_players_see_the_earlier_contracts():
    """Later players see earlier choices."""
    assert contract_views("standard-donkey#1", "accept") != contract_views("standard-donkey#1", "refuse")


def test_accepters_score_their_own_card_when_not_overloaded():
    """**Not overloaded** (sum ≤ capacity): every player who accepted puts **their own** cargo card into their
    score pile."""
    scenario("not overloaded - accepters score their own card")


def test_the_other_cards_go_to_the_discard_when_not_overloaded():
    """All other cargo cards of the round go to the common discard."""
    scenario("not overloaded - the refusers' cards go to the discard")


def test_each_refuser_draws_one_loaded_card_at_random_when_overloaded():
    """**Overloaded** (sum > capacity): shuffle all of the round's loaded cargo cards (not advantage cards)
    into a deck; each player who refused, in turn order from the first player, draws one **at random** into
    their score pile."""
    scenario("overloaded - each refuser draws one loaded card at random")
    scenario("overloaded - advantage cards are not drawn")
    drawn = Counter()
    for seed in range(40):
        m = new(3, seed, deck=["standard-donkey#1"])
        play_round(m, {0: "cargo-10@0", 1: "cargo-9@1", 2: "cargo-8@2"}, {}, {0: "refuse"})
        drawn.update(zone_cards(m, "pile@0"))
    assert set(drawn) == {"cargo-10@0", "cargo-9@1", "cargo-8@2"}, "the draw is not at random"


def test_refusers_draw_in_turn_order_from_the_first_player():
    """each player who refused, in turn order from the first player, draws one **at random** into their
    score pile."""
    m = new(3, seed=2, deck=["standard-donkey#1", "standard-donkey#2"])
    play_round(m, {0: "cargo-1@0", 1: "cargo-1@1", 2: "cargo-1@2"})
    start = len(m.log)
    play_round(m, {0: "cargo-10@0", 1: "cargo-10@1", 2: "cargo-10@2"}, {},
               {0: "refuse", 1: "refuse", 2: "refuse"})
    order = [e["to"] for e in m.log[start:] if e.get("event") == "move" and e["to"].startswith("pile@")]
    assert order == ["pile@1", "pile@2", "pile@0"]


def test_the_other_cards_go_to_the_discard_when_overloaded():
    """The rest go to the common discard."""
    scenario("overloaded - nobody refused, every load is discarded")
    scenario("overloaded - each refuser draws one loaded card at random")


def test_the_first_player_card_passes_clockwise():
    """The first-player card passes clockwise."""
    scenario("the first-player card passes to the next seat")
    for n in (3, 4, 5, 6):
        m = new(n, seed=n)
        drive(m, random_choices(n))
        rounds = [s for s in says(m) if s.startswith("Round ")]
        assert [s.rsplit("(", 1)[1] for s in rounds] == [f"first player P{(r - 1) % n})" for r in range(1, 9)]


# ---- End of the game ---------------------------------------------------------------------------------


def final_state(players: int = 3, seed: int = 1):
    """A finished match whose score piles are emptied and bonuses zeroed, ready to be arranged."""
    m = new(players, seed)
    drive(m, random_choices(seed))
    discard = m.layout.zone_names.index("discard")
    for p in range(players):
        for cid in zone_cards(m, f"pile@{p}"):
            move(m.st, index(m, cid), discard, 0, 1)
    m.st.pc[counter_index("bonus")] = [0] * players
    return m


def arrange_piles(m, piles: dict[int, list[str]], bonus: list[int] | None = None):
    """Put the named cards into score piles and set the bonuses; returns (scores, winners)."""
    for p, cids in piles.items():
        zi = m.layout.zone_names.index(f"pile@{p}")
        for cid in cids:
            move(m.st, index(m, cid), zi, 0, 1)
    if bonus is not None:
        m.st.pc[counter_index("bonus")] = list(bonus)
    return finish(GAME, m.st, None)


def test_a_score_is_the_sum_of_the_score_pile_plus_bonus_points():
    """After the 8th round, each player's score is the sum of the values in their score pile plus any bonus
    points."""
    m = final_state()
    scores, _ = arrange_piles(m, {0: ["cargo-3@0", "cargo-4@0"], 1: ["cargo-9@2"]}, [5, 0, 2])
    assert scores == [12, 9, 2]
    for seed in range(10):
        m = new(4, seed)
        drive(m, random_choices(seed))
        piles = [sum(prop(m, cid, "value") for cid in zone_cards(m, f"pile@{p}")) for p in range(4)]
        assert m.scores == [v + b for v, b in zip(piles, counter(m, "bonus"), strict=False)]


def test_the_highest_score_wins():
    """Highest score wins"""
    m = final_state()
    _, winners = arrange_piles(m, {0: ["cargo-10@0"], 1: ["cargo-1@1", "cargo-2@1", "cargo-3@1"]})
    assert winners == [0]
    for seed in range(10):
        m = new(5, seed)
        drive(m, random_choices(seed))
        assert m.winners and all(m.scores[w] == max(m.scores) for w in m.winners)


def test_a_tied_score_is_won_by_more_cards_in_the_score_pile():
    """a tie is broken by the **number of cards** in the score pile"""
    m = final_state()
    scores, winners = arrange_piles(m, {0: ["cargo-10@0"], 1: ["cargo-4@1", "cargo-6@1"], 2: ["cargo-1@2"]})
    assert scores == [10, 10, 1] and winners == [1]


def test_a_tie_on_score_and_card_count_is_a_shared_win():
    """a tie that remains is a **shared win**."""
    m = final_state()
    scores, winners = arrange_piles(m, {0: ["cargo-4@0", "cargo-6@0"], 1: ["cargo-3@1", "cargo-7@1"],
                                        2: ["cargo-9@2", "cargo-5@2"]}, [0, 0, -5])
    assert scores == [10, 10, 9] and winners == [0, 1]
    m = final_state(4, seed=2)
    scores, winners = arrange_piles(m, {0: ["cargo-9@0"], 1: ["cargo-10@1"], 3: ["cargo-8@3"]}, [1, 0, 0, 2])
    assert scores == [10, 10, 0, 10] and winners == [0, 1, 3]


# ---- Drover advantages -------------------------------------------------------------------------------


def scouting(first_load: str = "cargo-5@0"):
    """Seat 0 scouts with its 1 in round 1 after loading; loads 5, 6 and 7 (one per seat)."""
    m = new(3, deck=["standard-donkey#1"])
    for cid in (first_load, "cargo-6@1", "cargo-7@2"):
        decide(m, int(cid[-1]), cid)
    decide(m, 0, "cargo-1@0")
    return m


def test_scout_lets_only_the_scout_see_one_other_players_load():
    """Look at one other player's face-down cargo card (only you learn it)."""
    m = scouting()
    assert "P0 uses Scout" in says(m)
    assert m.to_act() == [0] and sorted(m.option_ids(0)) == ["cargo-6@1", "cargo-7@2"]
    decide(m, 0, "cargo-7@2")
    assert "cargo-7@2" in visible(m, 0)
    assert "cargo-6@1" not in visible(m, 0), "the scout learnt more than one card"
    assert "cargo-7@2" not in visible(m, 1), "a third player learnt the scouted card"
    assert m.to_act() == [1]
    drive(m, stop=lambda m: kind_of(m, m.to_act()[0], m.action_labels(m.to_act()[0])) == "contract")
    assert "cargo-7@2" in visible(m, 0) and "cargo-7@2" not in visible(m, 1)


def test_the_scouts_choice_does_not_show_the_face_down_loads_it_chooses_among():
    """Look at one other player's face-down cargo card (only you learn it)."""
    m = scouting()
    shown = json.dumps(m.view(0)) + json.dumps(m.action_labels(0))
    assert "cargo-6@1" not in shown and "cargo-7@2" not in shown


def test_extra_harness_raises_the_capacity_by_the_number_of_players():
    """The donkey's capacity rises by the number of players."""
    scenario("extra harness raises the capacity by the number of players")


def test_loose_strap_lowers_the_capacity_by_the_number_of_players_but_not_below_zero():
    """The donkey's capacity falls by the number of players (not below 0)."""
    scenario("loose strap lowers the capacity by the number of players")
    scenario("loose strap never takes the capacity below zero")


def test_second_thoughts_lets_its_user_flip_the_contract_after_every_contract_is_chosen():
    """After every contract is chosen (end of step 3), you may flip your own contract."""
    scenario("second thoughts flips a contract after every contract is chosen")
    scenario("second thoughts may be kept unused")
    scenario("only the player who used second thoughts may flip")


def test_double_stake_gains_the_scored_card_value_when_the_contract_is_right():
    """If your contract turns out right, gain bonus points equal to the value of the card you score this round
    (accepted and not overloaded: your own card; refused and overloaded: the card you drew)."""
    scenario("double stake on a right acceptance gains the own card's value")
    scenario("double stake on a right refusal gains the drawn card's value")
    scenario("double stake on a wrong contract gains nothing")
    scenario("double stake lasts one round only")


# ---- Donkeys -----------------------------------------------------------------------------------------


def test_standard_donkey_has_capacity_five_per_player_and_no_effect():
    """"Standard" means capacity 5 × N and no effect."""
    scenario("standard donkey carries five per player with no effect")


def test_strong_donkey_has_capacity_five_per_player_plus_three():
    """| 1 | Strong Donkey | capacity 5 × N + 3 |"""
    scenario("strong donkey carries five per player plus three")


def test_weak_donkey_has_capacity_five_per_player_minus_three():
    """| 1 | Weak Donkey | capacity 5 × N − 3 |"""
    scenario("weak donkey carries five per player minus three")


def test_mule_has_capacity_six_per_player():
    """| 1 | Mule | capacity 6 × N |"""
    scenario("mule carries six per player")


def test_foal_has_capacity_four_per_player():
    """| 1 | Foal | capacity 4 × N |"""
    scenario("foal carries four per player")


def test_stubborn_donkey_does_not_count_the_single_highest_card():
    """| 1 | Stubborn Donkey | the single highest cargo card played does not count (one card, if several tie) |"""
    scenario("stubborn donkey does not count the highest card")
    scenario("stubborn donkey drops only one of two tied highest cards")


def test_nervous_donkey_counts_the_single_lowest_card_double():
    """| 1 | Nervous Donkey | the single lowest cargo card played counts double |"""
    scenario("nervous donkey counts the lowest card twice")
    scenario("nervous donkey doubles only one of two tied lowest cards")


def test_sleepy_donkey_allows_no_drover_advantage():
    """| 1 | Sleepy Donkey | no drover advantages may be used this round (step 2 is skipped) |"""
    scenario("sleepy donkey skips the drovers")


def test_blindfolded_donkey_asks_every_contract_at_once():
    """| 1 | Blindfolded Donkey | contracts are chosen secretly and simultaneously instead of openly in turn |"""
    scenario("blindfolded donkey asks every contract at once")


def test_blindfolded_contracts_stay_secret_until_everyone_has_chosen():
    """| 1 | Blindfolded Donkey | contracts are chosen secretly and simultaneously instead of openly in turn |"""
    assert contract_views("blindfolded-donkey", "accept") == contract_views("blindfolded-donkey", "refuse")


def test_show_off_donkey_shows_every_load_before_the_drovers_but_not_while_choosing():
    """| 1 | Show-off Donkey | cargo cards are played face up this round (chosen at the same time, then all
    seen before step 2) |"""
    scenario("show-off donkey has the loads played face up before the drovers")
    m = new(3, deck=["show-off-donkey"])
    decide(m, 0, "cargo-3@0")
    assert "cargo-3@0" not in visible(m, 1) | visible(m, 2)
    decide(m, 1, "cargo-9@1")
    decide(m, 2, "cargo-4@2")
    assert m.to_act() == [0] and "none" in m.action_labels(0)
    for viewer in range(3):
        assert {"cargo-3@0", "cargo-9@1", "cargo-4@2"} <= visible(m, viewer)


def test_a_show_off_load_from_a_one_card_hand_is_asked_and_not_seen_before_the_others_choose():
    """| 1 | Show-off Donkey | cargo cards are played face up this round (chosen at the same time, then all
    seen before step 2) |"""
    deck = [f"standard-donkey#{i}" for i in range(1, 8)] + ["show-off-donkey"]
    m = new(3, deck=deck)

    def two_advantages_for_seat_0(m, seat, kind, labels):
        if seat == 0 and kind == "drovers" and m.st.round <= 2:
            return labels[-1]
        return None

    drive(m, two_advantages_for_seat_0, stop=lambda m: m.st.round == ROUNDS)
    last = zone_cards(m, "hand@0")
    assert len(last) == 1 and sorted(m.to_act()) == [0, 1, 2]  # seat 0 is asked, with one option
    assert m.action_labels(0) == last
    decide(m, 0, last[0])
    for viewer in (1, 2):
        assert last[0] not in visible(m, viewer)
    decide(m, 1, m.action_labels(1)[0])
    assert last[0] not in visible(m, 2)
    decide(m, 2, m.action_labels(2)[0])
    assert last[0] in visible(m, 1) and last[0] in visible(m, 2)


def test_a_forced_choice_in_a_simultaneous_loop_does_not_act_before_the_others_choose(tmp_path):
    """cargo cards are played face up this round (chosen at the same time, then all seen before step 2)"""
    (tmp_path / "game.yaml").write_text(yaml.safe_dump({
        "game": "secret-pick", "title": "Secret pick", "version": "1",
        "players": {"min": 2, "max": 2, "default": 2}, "cards": ["cards.yaml"], "properties": {"value": 0},
        "zones": {"hand": {"owner": "player", "visibility": "owner"}, "table": {"visibility": "public"},
                  "box": {"visibility": "hidden", "face": "down"}},
        "phases": {"pick": "for each player p simultaneously:\n  let n = 1\n"
                           "  let c = p chooses a card from hand of p\n  move c to table face up\n"},
        "flow": {"rounds": 1, "round": ["pick"]},
        "result": {"score": "sum(table where it.owner == me, it.value)"}}))
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump({"cards": [
        {"id": "low", "name": "Low", "each_player": True, "start": "hand", "value": 1},
        {"id": "high", "name": "High", "each_player": True, "start": "hand", "value": 2}]}))
    m = load_game(tmp_path).new_match(2, 0, arrange={"box": ["high@0"]})
    assert m.to_act() == [0, 1] and m.action_labels(0) == ["low@0"], "a one-option choice still waits"
    assert m.view(1)["zones"]["table"] == []
    assert m.apply(0, 0) is None and m.to_act() == [1]
    assert m.view(1)["zones"]["table"] == [], "seat 0's choice showed before seat 1 chose"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_moody_donkey_rolls_after_the_contracts_for_four_per_player_plus_a_die_times_half_the_players(players):
    """| 1 | Moody Donkey | capacity is 4 × N + a roll of one six-sided die × N/2 rounded down, rolled after
    contracts, before reveal |

    Read as 4 × N + roll × ⌊N/2⌋ (for odd N the rulebook could also mean ⌊roll × N/2⌋)."""
    rolls = set()
    for seed in range(8):
        m = new(players, seed, deck=["moody-donkey"])
        assert f"Round 1: Moody Donkey, capacity {4 * players}" in says(m)[0]
        drive(m, stop=lambda m: m.to_act() and kind_of(m, m.to_act()[0], m.action_labels(m.to_act()[0]))
              == "contract")
        assert counter(m, "capacity") == 4 * players and not any(e.get("event") == "roll" for e in m.log)
        drive(m, stop=lambda m: m.st.round == 2)
        events = m.log
        last_contract = max(i for i, e in enumerate(events) if e.get("label") in ("accept", "refuse"))
        (roll_at, roll), = [(i, e) for i, e in enumerate(events) if e.get("event") == "roll"]
        reveal_at = next(i for i, e in enumerate(events) if e.get("event") == "flip")
        assert last_contract < roll_at < reveal_at
        capacity = 4 * players + roll["result"] * (players // 2)
        assert f"The Moody Donkey rolls {roll['result']}: capacity {capacity}" in says(m)
        assert any(s.startswith("Loads:") and s.endswith(f"capacity {capacity}") for s in says(m))
        rolls.add(roll["result"])
    assert len(rolls) > 1


def test_old_donkey_loses_one_capacity_per_loaded_card_of_eight_or_more():
    """| 1 | Old Donkey | capacity 5 × N, minus 1 for every cargo card of value 8 or more played |"""
    scenario("old donkey loses one capacity for every loaded card of eight or more")
    scenario("old donkey loses two for two heavy loads")
    scenario("old donkey does not count a heavy advantage card")


def test_generous_donkey_gives_each_refuser_one_bonus_point_when_not_overloaded():
    """| 1 | Generous Donkey | if not overloaded, each player who refused scores 1 bonus point as consolation |"""
    scenario("generous donkey consoles the refusers when not overloaded")
    scenario("generous donkey gives nothing when overloaded")


# ---- Rules that tests must pin down ------------------------------------------------------------------


def test_hands_hold_ten_cards_at_start_and_two_minus_the_advantages_used_at_the_end():
    """Hands start with exactly 10 cards; after 8 rounds a player who used k advantages has 2 − k cards
    left."""
    m = new(3, seed=4)
    assert [len(zone_cards(m, f"hand@{p}")) for p in range(3)] == [10, 10, 10]

    def seat_p_uses_p_advantages(m, seat, kind, labels):
        if kind == "drovers" and m.st.round <= seat:
            return labels[1]
        return None

    drive(m, seat_p_uses_p_advantages)
    assert counter(m, "advantages") == [0, 1, 2]
    assert [len(zone_cards(m, f"hand@{p}")) for p in range(3)] == [2, 1, 0]
    for seed in range(12):
        m = new(3 + seed % 4, seed)
        drive(m, random_choices(seed))
        used = counter(m, "advantages")
        assert [len(zone_cards(m, f"hand@{p}")) for p in range(m.players)] == [2 - k for k in used]


def test_no_advantage_is_offered_that_would_leave_a_player_unable_to_load_later():
    """A player with no cargo card left in hand at step 1 cannot happen (10 = 8 + 2); the engine must still
    reject an advantage that would leave a player unable to load in a later round."""
    for seed in range(16):
        m = new(3 + seed % 4, seed)
        rng = random.Random(seed)
        while not m.over:
            for seat in m.to_act():
                labels = m.action_labels(seat)
                if kind_of(m, seat, labels) == "drovers":
                    assert len(zone_cards(m, f"hand@{seat}")) - 1 >= ROUNDS - m.st.round
                    assert counter(m, "advantages")[seat] < 2
                decide(m, seat, rng.choice(labels))
    # Seat 0 starts with 9 cards: one advantage in round 1 spends its only spare card.
    m = new(3, seed=1, box=["cargo-10@0"])
    for p in range(3):
        decide(m, p, f"cargo-1@{p}")
    decide(m, 0, "cargo-5@0")
    drive(m, stop=lambda m: m.st.round == 2)
    offered = []
    drive(m, lambda m, seat, kind, labels: offered.append(seat) if kind == "drovers" else None)
    assert 0 not in offered and {1, 2} <= set(offered)
    assert zone_cards(m, "hand@0") == []
    # Seat 0 starts with 8 cards: never a spare card, never an advantage.
    m = new(3, seed=1, box=["cargo-9@0", "cargo-10@0"])
    offered = []
    drive(m, lambda m, seat, kind, labels: offered.append(seat) if kind == "drovers" else None)
    assert 0 not in offered and zone_cards(m, "hand@0") == []


def test_an_illegal_answer_is_rejected_as_a_value_and_changes_nothing():
    """A player with no cargo card left in hand at step 1 cannot happen (10 = 8 + 2); the engine must still
    reject an advantage that would leave a player unable to load in a later round."""
    m = new(3, seed=1, deck=["standard-donkey#1"])
    for p in range(3):
        decide(m, p, f"cargo-1@{p}")
    before = [list(z) for z in m.st.zones]
    assert m.apply(0, 99).code == "INVALID_MOVE"
    assert m.apply(1, 0).code == "NOT_YOUR_TURN"
    assert [list(z) for z in m.st.zones] == before and m.to_act() == [0]


def test_the_load_is_compared_with_the_capacity_after_every_effect():
    """The sum and the capacity are compared after every donkey and advantage effect; "equal" is not
    overloaded."""
    scenario("donkey and advantage effects all count before the comparison")
    scenario("old donkey and extra harness both change the capacity")
    scenario("extra harness raises the capacity by the number of players")


def test_a_load_equal_to_the_capacity_is_not_overloaded():
    """The sum and the capacity are compared after every donkey and advantage effect; "equal" is not
    overloaded."""
    scenario("equal is not overloaded")
    scenario("one over the capacity is overloaded")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_card_is_in_exactly_one_place_at_every_step(players):
    """Score-pile card counts and values are conserved: every cargo card is, at every moment, in exactly one
    of a hand, the table, a score pile, the common discard or the box."""
    for seed in range(3):
        m = new(players, seed)
        t = m.layout
        cargo = {i for i, cid in enumerate(t.card_ids) if cid.startswith("cargo-")}
        assert len(cargo) == 10 * players and len(t.card_ids) - len(cargo) == 20
        rng = random.Random(seed)
        scored: dict[int, int] = {}
        while True:
            where = [zi for zi, cards in enumerate(m.st.zones) for _ in cards]
            assert len(where) == len(t.card_ids)
            for zi, cards in enumerate(m.st.zones):
                kind = seat_zone(t.zone_names[zi])
                for c in cards:
                    assert m.st.zone_of[c] == zi
                    assert kind in (CARGO_ZONES if c in cargo else DONKEY_ZONES), (t.card_ids[c], kind)
                    if kind == "pile":
                        assert scored.setdefault(c, zi) == zi, f"{t.card_ids[c]} left its score pile"
            assert all(m.st.zone_of[c] == zi for c, zi in scored.items())
            assert sorted(c for cards in m.st.zones for c in cards) == list(range(len(t.card_ids)))
            if m.over:
                break
            for seat in m.to_act():
                m.apply(seat, rng.randrange(len(m.legal_actions(seat))))
        piles = [sum(prop(m, t.card_ids[c], "value") for c in m.st.zones[t.zone_names.index(f"pile@{p}")])
                 for p in range(players)]
        assert m.scores == [v + b for v, b in zip(piles, counter(m, "bonus"), strict=False)]
