"""Chance in a world: an outcome the seat did not see (a random card taken from a hidden zone) is drawn anew by
its real probabilities, never taken from the real match; one it saw (a roll, a card it saw move) comes out as
it did (docs/information.md, "Determinization")."""

import random
from collections import Counter

from test_leaks import write_game
from walks import answered, walker

from interpreter.run.belief import replayed
from interpreter.run.match import Match

PICK = """
game: pick
title: pick
players: {min: 2, max: 2}
cards: [cards.yaml]
properties: {value: 0}
zones:
  deck: {visibility: hidden, face: down}
  hand: {owner: player, visibility: owner}
  hold: {owner: player, visibility: owner, face: down}
phases:
  deal: |
    let p0 = first player
    let p1 = next player after p0
    let c = a random card of deck
    move c to hand of p1
    move the top 2 cards of deck to hand of p0
  give: |
    let p0 = first player
    let p1 = next player after p0
    let g = p0 chooses a card from hand of p0 "Give a card"
    move g to hand of p1
    let r = a random card of hand of p1
    move r to hold of p1 face down
  bet: |
    let p0 = first player
    let x = p0 chooses one of "bet", "pass" "Bet?"
flow: {setup: [deal], rounds: 1, round: [give, bet]}
result: {score: count(my hold)}
"""
CARDS = """
cards:
  - {id: one, name: One, value: 1, start: deck}
  - {id: two, name: Two, value: 2, start: deck}
  - {id: three, name: Three, value: 3, start: deck}
  - {id: four, name: Four, value: 4, start: deck}
  - {id: five, name: Five, value: 5, start: deck}
"""


def faces(m: Match, zone: str) -> tuple:
    t = m.layout
    return tuple(sorted(t.face_ids[c] for c in m.st.zones[t.zone_names.index(zone)]))


def test_a_random_card_the_seat_did_not_see_taken_is_drawn_anew_by_its_real_probabilities(tmp_path):
    """P1 is given a random card of the (unshuffled) deck, P0 the top two, P0 gives P1 one of them, then a random
    card of P1's hand goes face down to P1's hold: P0 sees neither random card. At seed 0 P0 holds One and gave
    Two, so P1's first card was Three, Four or Five (each alike: P0's cards rule out the others), and the card
    held is Two half the time, each of the three a sixth. The real match's outcomes (Four in the hold) were
    once given to every world (300 of 300)."""
    game = write_game(tmp_path, PICK, CARDS)
    m = Match(game, 2, 0)
    assert m.apply(0, 0) is None
    assert faces(m, "hand@0") == ("one",) and faces(m, "hand@1") == ("two",) and faces(m, "hold@1") == ("four",)
    rng, n = random.Random(5), 300
    counts: Counter = Counter()
    for k in range(n):
        world = m.determinize(0, rng, fresh=True)
        assert world.information_state(0) == m.information_state(0)
        if k % 50 == 0:
            replayed(world)
        counts[faces(world, "hold@1")] += 1
    expected = {("two",): n / 2, ("three",): n / 6, ("four",): n / 6, ("five",): n / 6}
    assert set(counts) == set(expected)
    stat = sum((counts[o] - e) ** 2 / e for o, e in expected.items())
    assert stat < 16.27  # chi-square, 3 degrees of freedom, 0.1%


def test_a_random_card_the_seat_saw_go_comes_out_as_it_did(tmp_path):
    """At seed 1 P0 holds One and Three: P1's first card can only have been Two (the deck is not shuffled, and
    any other pick would have dealt P0 other cards), so every world gives it Two, as the real match did."""
    game = write_game(tmp_path, PICK, CARDS)
    m = Match(game, 2, 1)
    assert m.apply(0, 0) is None
    rng = random.Random(1)
    seen: Counter = Counter()
    for _ in range(40):
        world = m.determinize(0, rng, fresh=True)
        assert world.information_state(0) == m.information_state(0)
        seen[faces(world, "hand@1") + faces(world, "hold@1")] += 1
    assert all("two" in k for k in seen)


def test_a_roll_the_table_heard_comes_out_as_it_did():
    """Sky Haulers rolls a die every turn: every world rolls what the real match rolled."""
    from interpreter import load_game

    m = load_game("sky-haulers").new_match(players=3, seed=2)
    bot = random.Random(2)
    while not m.over and len(m.history) < 30:
        p = m.to_act()[0]
        m.apply(p, bot.randrange(len(m.legal_actions(p))))
    rolls = [e for e in m._watch.events if e[0] == "r"]
    assert rolls
    for k in range(3):
        world = m.determinize(0, random.Random(k), fresh=True)
        assert [e for e in world._watch.events if e[0] == "r"] == rolls


def test_a_look_at_several_cards_of_a_hand_puts_its_faces_where_the_hand_could_have_kept_them():
    """Sky Haulers 4p, seed 2, at its 345th answer P2 has looked at several cards of a hand a player chose a card
    from unseen before: the faces shown go, in some order, on the paths of that hand's cards. Put there in an order
    blind to which card each path could bring, the choice before the look had no card that fit in nearly every
    drawing (none of 30), and a draw afresh found no world with a drawing generator of seed 1 or 2."""
    from interpreter.run.belief.assign import _assign_some
    from interpreter.run.belief.base import _Misfit
    from interpreter.run.belief.kept import _beliefs

    m = answered("sky-haulers-4p-seed2")  # (the random bots' first 345 answers when the test was written)
    assert len(m.history) == 345
    world = m.determinize(2, random.Random(1), fresh=True)
    assert world.information_state(2) == m.information_state(2)
    replayed(world)
    tr = _beliefs(m)[2].tracer.tr
    assert tr.glimpses and any(kind >= 0 for kind, _, _ in tr.mixes)
    drawn = 0
    for k in range(12):  # (a drawing's random choices: about 60% of these generators find one)
        try:
            _assign_some(tr, m.layout.face_ids, random.Random(k))
            drawn += 1
        except _Misfit:
            pass
    assert drawn >= 5


def test_a_world_copied_onto_a_drawing_keeps_the_trades_its_random_picks_made():
    """A copy of a world played on along a drawing (`_rechanced`: a copy kept before a shuffle) keeps the trades of
    cards the world made by then (a random pick drawn anew that took another card than the drawing's): without
    them its later shuffles dealt the drawing's cards, not the ones it held, and a carried world did not replay
    from its start ("a shuffle of other cards": benchmarks/no_world.py --players 4 --seeds 2 --every 8 --check)."""
    from interpreter import load_game
    from interpreter.run.belief.world_chance import _rechanced

    m, bot = load_game("sky-haulers").new_match(players=3, seed=2), walker(2)
    while len(m.history) < 20:
        for p in m.to_act():
            m.apply(p, bot.pick(len(m.legal_actions(p))))
    drawn = m.determinize(0, random.Random(0), fresh=True)
    world = replayed(drawn)
    plan, source, _ = drawn._drawn
    chance = world._base[1][-1][1]
    chance.swap = {0: 1, 1: 0}
    chance.swaps = ((chance.pos, chance.swap),)
    copied = _rechanced(world, plan, source)._base[1][-1][1]
    assert (copied.pos, copied.used) == (chance.pos, chance.used)
    assert copied.swap == {0: 1, 1: 0} and copied.swaps == chance.swaps
