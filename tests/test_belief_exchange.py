"""A swap of two cards no rule has read since the shuffle that dealt them: the kept world with the two cards
exchanged, not played again (`belief.exchange._exchanged_kept`). It must be the very world playing it again gives."""

import random

import pytest

from interpreter.game import load_game
from interpreter.run.belief import moves, replayed
from interpreter.run.belief.exchange import _Exchanged, _exchanged, _names
from interpreter.run.belief.kept import _beliefs
from interpreter.run.belief.world_chance import _chance_of
from interpreter.run.information import SHUFFLE


def test_the_zones_whose_cards_a_face_reading_rule_may_reach():
    """Overloaded's rules read the donkey of the round, the hands and the table; the deck's donkeys only move
    by place (the top one to the donkey's place) and the box is never looked into. Kuhn reads no face."""
    assert load_game("overloaded").face_zones == frozenset({"donkey", "hand", "table"})
    assert load_game("hearts").face_zones == frozenset({"hand", "table", "tricks"})
    assert load_game("tests/games/kuhn-poker").face_zones == frozenset()


def late(name: str, seed: int, share: float = 0.9, players: int = 4):
    rng = random.Random(seed)
    m = load_game(name).new_match(players=players, seed=seed)
    length = 0
    probe = m.clone()
    while not probe.over:
        for p in probe.to_act():
            probe.apply(p, rng.randrange(len(probe.legal_actions(p))))
        length += 1
    rng = random.Random(seed)
    while len(m.history) < int(len(probe.history) * share):
        for p in m.to_act():
            m.apply(p, rng.randrange(len(m.legal_actions(p))))
    return m


def worlds(m, seat: int, draws: int, then: int) -> list:
    """A first draw, `draws` next ones at the same point, then `then` draws each a few decisions on."""
    c = m.clone()
    got = [c.determinize(seat, random.Random(k)) for k in range(1 + draws)]
    play = random.Random(5)
    for k in range(then):
        for _ in range(3):
            if c.over:
                break
            for p in c.to_act():
                c.apply(p, play.randrange(len(c.legal_actions(p))))
        if c.over:
            break
        got.append(c.determinize(c.to_act()[0], random.Random(50 + k)))
    return got


def kept_copies(m, seat: int, exchanging) -> list:
    """The copies of the seat's world kept to play again from after a first draw and six next ones (with `exchanging`
    as `moves._exchanged_kept`), each rebuilt."""
    moves._exchanged_kept, was = exchanging, moves._exchanged_kept
    try:
        c = m.clone()
        for k in range(7):
            c.determinize(seat, random.Random(k))
    finally:
        moves._exchanged_kept = was
    kept = _beliefs(c)[seat]
    return [(snap.used, snap.d, snap.world.clone()) for snap in kept.snaps]


def spied(monkeypatch) -> list[bool]:
    """Whether each swap proposed from here on was exchanged without a replay, in turn."""
    kept: list[bool] = []
    exchanged = moves._exchanged_kept

    def spy(*args):
        done = exchanged(*args)
        kept.append(done)
        return done

    monkeypatch.setattr(moves, "_exchanged_kept", spy)
    return kept


def described(world) -> tuple:
    return (world.history, [list(z) for z in world.st.zones], world.st.face,
            [world.information_state(s) for s in range(world.players)])


def test_what_the_rules_read_of_a_card_in_each_zone():
    """Hearts reads, of a card in a hand, its suit (following suit) and whether it is the Two of Clubs (who leads);
    wherever it lies, its suit and whether it is the Queen of Spades (a point card); in the tricks won, whether it
    is a heart or that Queen; on the table, all of it (the trick is said in words). Overloaded puts a card of any
    zone into words."""
    hearts = load_game("hearts")
    names = hearts.model.prop_index
    assert hearts.face_props["hand"] == tuple(sorted(((names["id"], frozenset({"2-clubs"})), (names["suit"], None))))
    assert hearts.face_props[""] == tuple(sorted(((names["id"], frozenset({"12-spades"})), (names["suit"], None))))
    assert hearts.face_props["tricks"] == tuple(sorted(((names["id"], frozenset({"12-spades"})),
                                                        (names["suit"], frozenset({"hearts"})))))
    assert hearts.face_props["table"] is None
    assert load_game("overloaded").face_props[""] is None


def test_what_the_rules_read_is_listed_by_zone_name_in_every_process():
    """The zones come in one order whatever the process's string hashing (the compiled game is cached and shared)."""
    from interpreter.lang.faces import _Props

    props = _Props()
    props.values = {name: {} for name in ("tricks", "hand", "", "stock", "table")}
    props.whole = {"discard"}
    assert list(props.read()) == ["", "discard", "hand", "stock", "table", "tricks"]


@pytest.mark.parametrize("said", ['let l = list(hand of me, it)\nsay "{l}"', 'say "{list(hand of me, it)}"',
                                  'say "{list(players, hand of it)}"'])
def test_a_list_of_cards_put_into_words_reads_every_property_of_its_cards(tmp_path, said):
    """A sentence that writes a list holding cards (kept in a name, or of zones) names each card: every property
    of a card wherever it lies is read, as for one card written, so no two cards are exchanged as alike."""
    from tests.test_compiler_cases import game

    assert game(tmp_path, said).face_props == {"": None}


@pytest.mark.parametrize(("name", "seed", "share"), [("overloaded", 0, 0.9), ("overloaded", 1, 0.9),
                                                     ("overloaded", 2, 0.9), ("hearts", 1, 0.5), ("hearts", 3, 0.9)])
def test_an_exchange_is_the_world_played_again_would_give(name, seed, share, monkeypatch):
    """Late in a match, the next draws swap two cards no rule told apart since their shuffle (Overloaded: two donkeys
    no rule looked at, the deck's and the box's; Hearts: two cards of one suit in hands); each world is the one the
    replay gives (every seat's information state, the zones, the answers), its record replays to it from its start,
    and the worlds carried on after it are the same too."""
    m = late(name, seed, share)
    seat = m.to_act()[0]
    exchanged = moves._exchanged_kept
    kept = spied(monkeypatch)
    fast = worlds(m, seat, 6, 2)
    assert any(kept), "no swap was exchanged without a replay"
    monkeypatch.setattr(moves, "_exchanged_kept", lambda *args: False)
    slow = worlds(m, seat, 6, 2)
    assert [described(w) for w in fast] == [described(w) for w in slow]
    # the copies kept to play again from, those after the shuffle exchanged when first used: the replay's
    fast_kept, slow_kept = kept_copies(m, seat, exchanged), kept_copies(m, seat, lambda *args: False)
    assert [(used, d) for used, d, _ in fast_kept] == [(used, d) for used, d, _ in slow_kept]
    assert [described(w) for _, _, w in fast_kept] == [described(w) for _, _, w in slow_kept]
    for world in fast[:7]:
        assert world.information_state(seat) == m.information_state(seat)
    for world in fast:
        again = replayed(world)
        assert described(again)[1:] == described(world)[1:]


def test_a_card_a_rule_may_have_read_is_played_again(monkeypatch):
    """Hearts: every card dealt lies in a hand whose cards' suits the rules read (following suit): a swap of two cards
    of other suits is never exchanged without a replay."""
    m = late("hearts", 1, 0.5)
    suit = m.layout.props[m.game.model.prop_index["suit"]]
    pairs: list[tuple[tuple[int, int], bool]] = []
    exchanged = moves._exchanged_kept

    def spy(match, seat, tr, rng, want, want_view, kept, deal, pair, swapped):
        done = exchanged(match, seat, tr, rng, want, want_view, kept, deal, pair, swapped)
        pairs.append((pair, done))
        return done

    monkeypatch.setattr(moves, "_exchanged_kept", spy)
    seat = m.to_act()[0]
    for w in worlds(m, seat, 8, 0):
        assert w.information_state(seat) == m.information_state(seat)
    assert any(suit[x] != suit[y] for (x, y), _ in pairs)
    assert all(suit[x] == suit[y] for (x, y), done in pairs if done)


def test_many_draws_at_one_point_stay_worlds_the_seat_cannot_tell_apart():
    """A search draws at one point again and again: every world, exchanged from the one before, is one the seat
    cannot tell from the match, and plays again from its start to itself; its copies kept after the shuffle
    (exchanged when first used) serve a draw carried on after."""
    m = late("overloaded", 3)
    seat = m.to_act()[0]
    c = m.clone()
    for k in range(40):
        world = c.determinize(seat, random.Random(k))
        assert world.information_state(seat) == m.information_state(seat)
        if k % 13 == 0:
            assert described(replayed(world))[1:] == described(world)[1:]
    play = random.Random(1)
    while (not c.over and seat not in c.to_act()) or len(c.history) == len(m.history):
        for p in c.to_act():
            c.apply(p, play.randrange(len(c.legal_actions(p))))
    if not c.over:
        world = c.determinize(seat, random.Random(99))
        assert world.information_state(seat) == c.information_state(seat)


@pytest.mark.parametrize("seed", [2, 4])
def test_a_world_carried_on_from_an_exchanged_one_keeps_its_own_chance(seed):
    """A world exchanged and then carried on (played on from a copy of it, on a new drawing) is drawn along its own
    chance: the world handed out plays again from its start to itself."""
    m = late("overloaded", seed, 0.7)
    seat = m.to_act()[0]
    c = m.clone()
    for k in range(5):
        c.determinize(seat, random.Random(k))
    play = random.Random(seed)
    for _ in range(8):
        if c.over:
            break
        c.apply(c.to_act()[0], play.randrange(len(c.legal_actions(c.to_act()[0]))))
        if not c.over and seat in c.to_act():
            world = c.determinize(seat, random.Random(7))
            kept = _beliefs(c)[seat].world
            assert _chance_of(kept) is kept.st.rng
            assert described(replayed(world))[1:] == described(world)[1:]


def _named_since(events: list, at: int, pair: tuple[int, int], faces: list[str]) -> list[int]:
    """The events from the `at`-th on that name a card of `pair` (as `_unread_since` finds them, no zone
    read)."""
    reach = [False] * 1000
    shown = (faces[pair[0]], faces[pair[1]])
    return [i for i in range(at, len(events)) if _names(events[i], pair, reach, shown, faces)]


def test_a_copy_exchanged_twice_is_the_copy_exchanged_once_then_again():
    """A kept copy exchanged with a pair of one shuffle, then with a pair of a later shuffle sharing a card (Hearts'
    deals: the same cards shuffled again), renames each event as the two exchanges one after the other do: an event
    of the first deal keeps the second pair's cards as they were then (one relabeling composed of both renamed the
    first deal's moves of the shared card with the second pair's too)."""
    m = load_game("hearts").new_match(players=4, seed=1)
    rng = random.Random(1)
    while not m.over and sum(e[0] == SHUFFLE and len(e[2]) > 1 for e in m._watch.events) < 2:
        for p in m.to_act():
            m.apply(p, rng.randrange(len(m.legal_actions(p))))
    seat = m.to_act()[0]
    c = m.clone()
    c.determinize(seat, random.Random(0))
    world = _beliefs(c)[seat].world
    events, faces = world._watch.events, world.layout.face_ids
    first, second = [i for i, e in enumerate(events) if e[0] == SHUFFLE and len(e[2]) > 1][:2]
    x, y, z = events[first][2][:3]
    named = _named_since(events, first, (x, y), faces)
    once = _exchanged(world, {x: y, y: x}, named, seat)
    again = _named_since(once._watch.events, second, (y, z), faces)
    assert any(i < second for i in named)  # (the first deal's moves of the shared card)
    twice = _exchanged(once, {y: z, z: y}, again, seat)
    kept = _Exchanged(_Exchanged(world, (x, y), named, seat), (y, z), again, seat).made()
    assert kept._watch.events == twice._watch.events
    assert kept._base[1][:4] == twice._base[1][:4]
