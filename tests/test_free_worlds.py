"""A determinization without replay (interpreter/run/free_worlds.py): where no rule has read a card's face,
the world is the match with the cards the seat never saw dealt to each other's places — a legal match of its
own, drawn as docs/information.md says ("Worlds without replay")."""

import pickle
import random
from collections import Counter

import pytest

from interpreter import load_game
from interpreter.run import free_worlds
from interpreter.run.belief import NoConsistentWorld, replayed
from interpreter.run.match import Match
from interpreter.run.runtime import seen_by
from tests.walks import played, walker

KUHN, LEDUC = "tests/games/kuhn-poker", "tests/games/leduc-poker"
CRITICAL = {1: 10.83, 2: 13.82, 3: 16.27, 5: 20.52}  # 0.1% critical values of chi-square by degrees of freedom


def faces_in(m: Match, zone: str) -> tuple[str, ...]:
    t = m.layout
    return tuple(sorted(t.face_ids[c] for c in m.st.zones[t.zone_names.index(zone)]))


def chi_square(counts: Counter, expected: dict) -> float:
    return sum((counts[o] - e) ** 2 / e for o, e in expected.items())


def test_the_analysis_names_the_phases_that_may_read_a_face():
    assert load_game(KUHN).face_readers == frozenset() and load_game(LEDUC).face_readers == frozenset()
    hearts = {fn.__name__ for fn in load_game("hearts").face_readers}
    assert {"phase_trick", "phase_score_deal", "phase_pass_cards"} <= hearts  # follow suit, points, the 2 of clubs
    assert "phase_deal_cards" not in hearts and "phase_shuffle_deck" not in hearts
    low_hand = {fn.__name__ for fn in load_game("tests/games/low-hand").face_readers}
    assert "phase_choose_first" in low_hand  # a random first player: chance a world would draw again
    assert "phase_deal_cards" not in low_hand  # a shuffle is not


@pytest.mark.parametrize("path", [KUHN, LEDUC])
def test_every_point_of_a_poker_match_takes_the_fast_path_and_its_world_is_a_match_of_its_own(path):
    """At every decision the seat to act gets a world without replay: the same information state and view, the
    world played again from its own start gives it too, and every other seat's observations in the world are
    the world's own (what its replay from the start records)."""
    game = load_game(path)
    for seed in range(4):
        m = Match(game, 2, seed)
        bot = walker(seed)
        while not m.over:
            seat = m.to_act()[0]
            assert free_worlds.free_world(m, seat, random.Random(seed)) is not None
            world = m.determinize(seat, random.Random(seed))
            assert world is not m and world.seed != m.seed and world.history == m.history
            assert world.information_state(seat) == m.information_state(seat)
            assert world.view(seat) == m.view(seat)
            again = replayed(world)
            for p in range(2):
                assert again.information_state(p) == world.information_state(p)
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))


def test_a_world_holds_neither_the_real_seed_nor_the_real_generator():
    m = played(load_game(KUHN), 2, 5, 1)
    world = m.determinize(m.to_act()[0], random.Random(0))
    _, source, _ = world._drawn
    assert source.stream is None and world.seed != m.seed
    kept = world._base[1][-1]
    assert kept[0] == "object" and isinstance(kept[1], free_worlds.Seeded)
    assert world.st.rng.getstate() != m.st.rng.getstate()
    with pytest.raises(NoConsistentWorld):  # a world is not drawn from again
        world.determinize(0, random.Random(1))


def test_the_same_generator_draws_the_same_world():
    m = played(load_game(LEDUC), 2, 2, 2)
    a, b = m.determinize(0, random.Random(7)), m.determinize(0, random.Random(7))
    assert a.st.zones == b.st.zones and a.seed == b.seed


@pytest.mark.parametrize("decisions", [0, 1, 2])
def test_kuhn_the_other_hand_is_either_card_the_seat_never_saw_alike(decisions):
    """Exact counts over fixed draws: the opponent holds each of the two cards seat 0 did not see about as
    often (chi-square), and the deck the other."""
    game = load_game(KUHN)
    matches = [m for m in (played(game, 2, seed, decisions) for seed in range(8)) if not m.over][:3]
    assert matches
    for seed, m in enumerate(matches):
        assert free_worlds.free_world(m, 0, random.Random(0)) is not None
        mine = faces_in(m, "hand@0")[0]
        unseen = sorted({"jack", "queen", "king"} - {mine})
        rng, n, counts = random.Random(seed), 300, Counter()
        for _ in range(n):
            world = m.determinize(0, rng)
            other, deck = faces_in(world, "hand@1"), faces_in(world, "deck")
            assert faces_in(world, "hand@0") == (mine,) and sorted(other + deck) == unseen
            counts[other[0]] += 1
        assert chi_square(counts, {f: n / 2 for f in unseen}) < CRITICAL[1]


def test_leduc_the_other_hand_follows_the_cards_left_by_face():
    """After the board card is out, the opponent's card is one of the four left: a rank with both copies left
    comes twice as often as one with a single copy (copies alike)."""
    game = load_game(LEDUC)
    m = next(m for m in (played(game, 2, s, 3) for s in range(40)) if faces_in(m, "board") and not m.over)
    seen = Counter(faces_in(m, "hand@0") + faces_in(m, "board"))
    left = Counter({"jack": 2, "queen": 2, "king": 2}) - seen
    rng, n, counts = random.Random(1), 400, Counter()
    for _ in range(n):
        counts[faces_in(m.determinize(0, rng), "hand@1")[0]] += 1
    expected = {f: n * k / sum(left.values()) for f, k in left.items()}
    assert set(counts) <= set(expected)
    assert chi_square(counts, expected) < CRITICAL[len(expected) - 1]


def test_where_a_face_was_read_the_worlds_are_played_instead():
    """Kuhn's showdown reads both hands (the match is over); Hearts reads suits from its first phases on; a
    secret answer (Overloaded's loads) is another seat's choice the seat did not see: no fast path, and
    determinize still draws a world the seat cannot tell apart."""
    kuhn = played(load_game(KUHN), 2, 1, 10)
    assert kuhn.over and free_worlds.free_world(kuhn, 0, random.Random(0)) is None
    hearts = played(load_game("hearts"), 4, 2, 6)
    assert hearts._faces_read and free_worlds.free_world(hearts, 0, random.Random(0)) is None
    overloaded = played(load_game("overloaded"), 4, 3, 12)
    assert free_worlds.free_world(overloaded, 1, random.Random(0)) is None
    world = overloaded.determinize(1, random.Random(0))
    assert world.information_state(1) == overloaded.information_state(1)


def test_the_record_of_a_face_read_goes_with_copies_and_pickles():
    hearts = played(load_game("hearts"), 4, 2, 6)
    assert hearts.clone()._faces_read and pickle.loads(pickle.dumps(hearts))._faces_read
    assert not played(load_game(KUHN), 2, 2, 1)._faces_read


GLIMPSE = """\
game: glimpse
title: Glimpse
version: "1"
players: {min: 2, max: 2}
cards: [cards.yaml]
zones:
  deck: {visibility: hidden, face: down}
  hand: {owner: player, visibility: owner}
phases:
  deal: |
    shuffle deck
    for each player p:
      move the top 2 cards of deck to hand of p
  look: |
    let p = first player
    let q = next player after p
    let c = p chooses one of "look", "pass" "Look at the other hand?"
    if c == "look":
      show hand of q to p
      move the top 1 cards of hand of q to deck
    let d = q chooses one of "stay", "fold" "Stay?"
flow: {setup: [deal], rounds: 1, round: [look]}
"""


def glimpse_game(tmp_path, text: str = GLIMPSE):
    """The game `text` (GLIMPSE or a variant) with five cards, C1 to C5, all starting in the deck."""
    (tmp_path / "game.yaml").write_text(text)
    cards = "".join(f"  - {{id: c{i}, name: C{i}, start: deck}}\n" for i in range(1, 6))
    (tmp_path / "cards.yaml").write_text("cards:\n" + cards)
    return load_game(tmp_path)


def test_a_card_seen_and_lost_track_of_leaves_the_draw_to_belief(tmp_path):
    """P0 looks at P1's hand, then a card leaves it unseen: P0 knew both cards there and no longer knows which
    one stayed. Not a card it never saw, nor one it still follows: no fast path (a copy of the match with only
    the cards it never saw redrawn would always keep the true one in P1's hand)."""
    m = Match(glimpse_game(tmp_path), 2, 3)
    assert free_worlds.free_world(m, 0, random.Random(0)) is not None
    m.apply(0, 0)  # look
    assert free_worlds.free_world(m, 0, random.Random(0)) is None
    assert free_worlds.free_world(m, 1, random.Random(0)) is not None  # P1 saw nothing go but its own card
    world = m.determinize(0, random.Random(0))  # drawn and played by belief
    assert not isinstance(world._base[1][-1][1], free_worlds.Seeded)
    assert world.information_state(0) == m.information_state(0)


def test_a_determinized_poker_world_plays_on_to_its_end_as_its_own_history_says():
    """A world (not yet rebuilt) is rebuilt on first use and plays on: its result is the one its own history
    gives, played again from its start along its drawing (its cards, not the real match's)."""
    game = load_game(LEDUC)
    m = played(game, 2, 4, 1)
    world = m.determinize(m.to_act()[0], random.Random(2))
    bot = walker(9)
    while not world.over:
        for seat in world.to_act():
            world.apply(seat, bot.pick(len(world.legal_actions(seat))))
    again = replayed(world)
    for seat, action in world.history[world._drawn[2]:]:
        again.apply(seat, action)
    assert again.over and again.result() == world.result()


SWAP = """\
game: swap
title: Swap
version: "1"
players: {min: 2, max: 2}
cards: [cards.yaml]
zones:
  deck: {visibility: hidden, face: down}
  hand: {owner: player, visibility: owner}
phases:
  deal: |
    shuffle deck
    for each player p:
      move the top 2 cards of deck to hand of p
  swap: |
    let act = first player chooses one of "keep", "swap" "Swap a card?"
    if act == "swap":
      move the top 1 cards of hand of first player to deck
      shuffle deck
      move the top 1 cards of deck to hand of first player
  talk: |
    for each player p:
      let x = p chooses one of "yes", "no" "Talk?"
flow: {setup: [deal], rounds: 4, round: [swap, talk]}
"""


def swap_match(tmp_path) -> Match:
    """Two rounds in which P0 swapped a card of its hand with the deck (a card back, the deck shuffled again, the
    top card taken): at the third round's swap, a new base kept after both reshuffles."""
    (tmp_path / "game.yaml").write_text(SWAP)
    (tmp_path / "cards.yaml").write_text("cards:\n" + "".join(f"  - {{id: c{i}, start: deck}}\n" for i in range(1, 7)))
    m = Match(load_game(tmp_path), 2, 5)
    for seat, action in [(0, 1), (0, 0), (1, 0)] * 2:
        assert m.apply(seat, action) is None
    return m


def test_a_deck_shuffled_again_keeps_its_cards_free_with_those_it_dealt_before(tmp_path):
    """P1 never saw P0's cards nor the deck's: the reshuffles mixed only cards the first shuffle dealt it unseen,
    so every pair of those four is P0's hand as often (chi-square over the six pairs) — the card P0 kept since the
    deal as free as the others — and each world is one of its own."""
    m = swap_match(tmp_path)
    assert free_worlds.free_world(m, 1, random.Random(0)) is not None
    unseen = sorted({f"c{i}" for i in range(1, 7)} - set(faces_in(m, "hand@1")))
    rng, n, counts = random.Random(4), 600, Counter()
    for _ in range(n):
        world = m.determinize(1, rng)
        counts[faces_in(world, "hand@0")] += 1
    pairs = [(a, b) for i, a in enumerate(unseen) for b in unseen[i + 1:]]
    assert set(counts) == set(pairs)
    assert chi_square(counts, {pair: n / len(pairs) for pair in pairs}) < CRITICAL[5]
    again = replayed(world)
    assert [again.information_state(p) for p in (0, 1)] == [world.information_state(p) for p in (0, 1)]


def test_a_card_the_seat_saw_shuffled_in_with_cards_it_never_saw_leaves_the_draw_to_belief(tmp_path):
    """P0 saw the card it put back, shuffled with cards it never saw: that card is free only from the reshuffle
    on, the others from the deal on — no one relabeling; belief draws the world."""
    m = swap_match(tmp_path)
    assert free_worlds.free_world(m, 0, random.Random(0)) is None
    assert m.determinize(0, random.Random(0)).information_state(0) == m.information_state(0)


@pytest.mark.parametrize("name", ["hearts", "go-fish", "overloaded", "sky-haulers", "tests/games/low-hand"])
def test_what_the_seat_is_counted_to_see_now_it_sees(name):
    """The sight worked out from the kept base and the events since (what a copy not yet rebuilt has) is the seat's
    own, card for card, at every decision of a random match (it could only count too few: where a card left a
    hand the seat had glimpsed into, every glimpse of that hand is counted lost); no card the walk counts in a
    group is one the seat sees."""
    game = load_game(name)
    players = game.min_players + 1 if game.max_players > game.min_players else game.min_players
    m, bot = Match(game, players, 3), walker(3)
    wrong, missed, points = 0, 0, 0
    while not m.over and points < 40:
        base_events = m._base_info[0]
        for seat in range(players):
            counted = free_worlds._seen_now(m, seat, m._base[1], base_events, range(len(m.st.face)))
            truth = [bool(seen_by(m.st, c) >> seat & 1) for c in range(len(counted))]
            wrong += sum(a and not b for a, b in zip(counted, truth, strict=True))
            missed += sum(b and not a for a, b in zip(counted, truth, strict=True))
            sight = free_worlds._walk(m).seats[seat]  # a card of a group (dealt unseen, no event showed it since)
            wrong += sum(k >= 0 and seen for k, seen in zip(sight.start, truth, strict=True))
        points += 1
        for seat in m.to_act():
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))
    assert points and wrong == 0 and missed == 0  # (a glimpsed hand a card left is the one place it may miss)


@pytest.mark.parametrize("path", [KUHN, LEDUC])
def test_the_walks_and_free_cards_kept_as_a_match_is_played_are_those_worked_out_afresh(path):
    """Each seat's walk of the events, and its free cards at the kept base, are kept as the match is played
    (`walk_ahead`, at each base kept), carried through a copy that records on (`Watcher.own`) and kept past events
    that name no card: at every decision, in the match and in a copy of it played on, they are what a walk of the
    whole record made afresh gives (free cards kept past the dealing of Leduc's public card would not be)."""
    game = load_game(path)
    checked = 0
    for seed in range(6):
        m, bot = Match(game, 2, seed), random.Random(seed)
        assert all(m._watch.walks["free"].seats[s].point[0] is m._base for s in range(2))  # as the first base was kept
        other = None
        while not m.over:
            for match in (m, other) if other is not None and not other.over else (m,):
                fresh = free_worlds._Walk(match.layout, 2)
                fresh.advance(match._watch.events)
                for seat in range(2) if free_worlds._may_apply(match) else ():
                    kept = free_worlds._free_now(free_worlds._walk(match), match, seat)
                    assert kept == free_worlds._free_cards(fresh, match, seat, free_worlds._kept(fresh, match))
                    checked += kept is not None
            if other is None and len(m.history) == 1:
                other = m.clone()  # (both record on from here: the walks go on apart)
            for g in (m, other) if other is not None and not other.over else (m,):
                p = g.to_act()[0]
                g.apply(p, bot.randrange(len(g.legal_actions(p))))
    assert checked > 20


@pytest.mark.parametrize("path", [KUHN, LEDUC])
def test_a_draw_shuffles_as_the_generator_would(path):
    """A world drawn with a `random.Random` (its shuffles' draws written out) is the one drawn with a generator of
    another class in the same state (which shuffles by `rng.shuffle`), at every decision of a match."""

    class Other(random.Random):
        pass

    game = load_game(path)
    for seed in range(3):
        m, bot = Match(game, 2, seed), walker(seed)
        while not m.over:
            seat = m.to_act()[0]
            mine, other = random.Random(seed), Other(seed)
            for _ in range(3):
                a, b = m.determinize(seat, mine), m.determinize(seat, other)
                assert a.st.zones == b.st.zones and a.seed == b.seed
            m.apply(seat, bot.pick(len(m.legal_actions(seat))))
