"""A seat's agent sees only the seat: a bot given `m.seat(s)` decides alike in matches the seat cannot tell
apart, and nothing reachable from the handle reads the match's hidden state."""

import copy
import gc
import hashlib
import pickle
import random

import pytest
from walks import walker

from interpreter import RuleError, Seat, load_game
from interpreter.game import Game
from interpreter.run import seat as seat_module
from interpreter.run.information import Watcher
from interpreter.run.match import Match, Recorded
from interpreter.run.runtime import State


def hashing_bot(handle) -> int:
    """A deterministic bot that reads only its handle: its information state and labels pick the action."""
    key = "\x00".join([handle.information_state(), handle.prompt(), *handle.labels()])
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % len(handle.legal_actions())


def shuffled(order, outcomes):
    """A zone's order after `shuffle` with these chance outcomes (Fisher-Yates from the bottom card up)."""
    cards = list(order)
    for i, j in zip(range(len(cards) - 1, 0, -1), outcomes, strict=True):
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def outcomes_for(order, target):
    """The chance outcomes with which `shuffle` puts `order` in the order `target`."""
    cards, outcomes = list(order), []
    for i in range(len(cards) - 1, 0, -1):
        j = cards.index(target[i])
        outcomes.append(j)
        cards[i], cards[j] = cards[j], cards[i]
    return outcomes


def hearts_twins(seed):
    """Two Hearts matches that deal alike but for a card of P1 and one of P2 (same suit) trading places:
    P0 cannot tell them apart. Returns the matches and the two card ids."""
    game = load_game("hearts")
    t = game.new_match(players=4, seed=seed).layout
    deck = t.zone_names.index("deck")
    order = list(t.start_zones[deck])
    rng = random.Random(seed)
    outcomes = [rng.randrange(i + 1) for i in range(len(order) - 1, 0, -1)]
    dealt = shuffled(order, outcomes)  # the top 13 cards to P0, the next 13 to P1, …
    ids = t.card_ids
    x = next(c for c in dealt[13:26] if ids[c] != "2-clubs")
    y = next(c for c in dealt[26:39] if ids[c].split("-")[1] == ids[x].split("-")[1] and ids[c] != "2-clubs")
    other = [y if c == x else x if c == y else c for c in dealt]
    a = game.new_match(players=4, seed=seed, chance=Recorded(outcomes, then=seed))
    b = game.new_match(players=4, seed=seed, chance=Recorded(outcomes_for(order, other), then=seed))
    return a, b, ids[x], ids[y]


def hand(m, seat):
    t = m.layout
    return sorted(t.card_ids[c] for c in m.st.zones[t.zone_names.index(f"hand@{seat}")])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_bot_given_the_handle_decides_alike_in_matches_its_seat_cannot_tell_apart(seed):
    a, b, x, y = hearts_twins(seed)
    assert hand(a, 0) == hand(b, 0) and x in hand(a, 1) and x in hand(b, 2) and y in hand(b, 1)
    swap = {x: y, y: x}
    others = random.Random(seed)
    mine_a, mine_b = a.seat(0), b.seat(0)
    compared = 0
    while not a.over and mine_a.information_state() == mine_b.information_state():
        assert mine_a.to_act() == mine_b.to_act() == b.to_act()
        for p in a.to_act():
            if p == 0:  # P0's bot sees only its handle, in each match
                choice = hashing_bot(mine_a)
                assert hashing_bot(mine_b) == choice
                assert mine_a.apply(choice) is None and mine_b.apply(choice) is None
                compared += 1
            else:  # the others play the same cards, the two traded ones traded (and kept back while they can)
                options = a.option_ids(p)
                card = others.choice([c for c in options if c not in swap] or options)
                assert a.apply(p, a.option_ids(p).index(card)) is None
                assert b.apply(p, b.option_ids(p).index(swap.get(card, card))) is None
            if mine_a.information_state() != mine_b.information_state():
                break
    assert compared >= 6, "P0 decided several times before it could tell the matches apart"
    assert not a.over and {x, y} & seen(a, 0), "the matches parted only when a traded card showed"


def seen(m, seat):
    """The ids of the cards `seat` sees now."""
    return {card for cards in m.view(seat)["zones"].values() if isinstance(cards, list)
            for card in cards if isinstance(card, str)}


def test_the_handle_reads_only_what_its_seat_may_read():
    game = load_game("hearts")
    m = game.new_match(players=4, seed=5)
    h = m.seat(2)
    assert h.seat == 2 and h.players == 4 and h.is_asked and not h.over and h.result() is None
    assert h.view() == m.view(2) and h.information_state() == m.information_state(2)
    assert h.information_state_json() == m.information_state_json(2)
    assert h.labels() == m.action_labels(2) and h.legal_actions() == m.legal_actions(2)
    assert h.prompt() == m.prompt(2) and h.to_act() == m.to_act()
    assert h.apply(0) is None and len(m.history) == 1 and m.history[0][0] == 2
    assert not h.is_asked and h.apply(0).code == "NOT_YOUR_TURN"  # only its own questions


def seat_leads_to_match(handle, m) -> list[str]:
    """Names of the handle's attributes (followed through containers, bound methods and closures) that
    reach the match or a piece of its state."""
    inner = (Match, State, Game, Watcher)
    found = []

    def reaches(value, depth=0) -> bool:
        if value is m or isinstance(value, inner) or depth > 4:
            return value is m or isinstance(value, inner)
        if isinstance(value, dict):
            return any(reaches(k, depth + 1) or reaches(v, depth + 1) for k, v in value.items())
        if isinstance(value, (list, tuple, set, frozenset)):
            return any(reaches(v, depth + 1) for v in value)
        owner = getattr(value, "__self__", None)
        if owner is not None and owner is not handle and not isinstance(owner, type):
            return reaches(owner, depth + 1)
        function = getattr(value, "__func__", value)
        cells = getattr(function, "__closure__", None) or ()
        return any(reaches(cell.cell_contents, depth + 1) for cell in cells)

    for name in dir(handle):
        try:
            value = getattr(handle, name)
        except (AttributeError, TypeError):
            continue
        if reaches(value):
            found.append(name)
    return found


def test_nothing_on_the_handle_leads_to_the_match():
    game = load_game("go-fish")
    m = game.new_match(players=2, seed=1)
    h = m.seat(0)
    assert seat_leads_to_match(h, m) == []
    assert not hasattr(h, "__dict__") and not hasattr(h, "match") and not hasattr(h, "option_ids")
    assert not any(r is m or isinstance(r, (Match, State)) for r in gc.get_referents(h))
    with pytest.raises(AttributeError):
        h.seat = 1  # a handle plays its own seat only
    with pytest.raises(AttributeError):
        h.match = m


def test_a_handle_is_not_pickled_nor_copied_with_its_match():
    m = load_game("go-fish").new_match(players=2, seed=1)
    h = m.seat(1)
    for how in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match="cannot be pickled"):
            how(h)
    again = pickle.loads(pickle.dumps(m)).seat(1)  # the match is pickled, its handle handed out again
    assert again.information_state() == h.information_state()


def test_a_handle_lets_its_match_go_with_it():
    m = load_game("go-fish").new_match(players=2, seed=1)
    held = len(seat_module._HELD)
    h = m.seat(0)
    assert len(seat_module._HELD) == held + 1
    del h
    assert len(seat_module._HELD) == held


def test_a_handle_determinizes_a_world_for_its_seat():
    m = load_game("overloaded").new_match(players=4, seed=3)
    bot = walker(3)
    for _ in range(12):
        for p in m.to_act():
            m.apply(p, bot.pick(len(m.legal_actions(p))))
    h = m.seat(1)
    world = h.determinize(random.Random(7))
    assert isinstance(world, Match) and world.information_state(1) == h.information_state()


def test_a_seat_outside_the_match_has_no_handle():
    m = load_game("go-fish").new_match(players=2, seed=1)
    with pytest.raises(ValueError, match="no seat 2"):
        m.seat(2)
    assert isinstance(m.seat(1), Seat) and "Seat 1" in repr(m.seat(1))


def test_a_rule_failing_through_the_handle_does_not_tell_the_seed(tmp_path):
    from test_rule_failures import CARDS, GAME  # a division by zero when a player plays its card `a`

    (tmp_path / "game.yaml").write_text(GAME)
    (tmp_path / "cards.yaml").write_text(CARDS)
    m = load_game(tmp_path).new_match(2, seed=5)
    seat = m.to_act()[0]
    with pytest.raises(RuleError, match="division by zero") as err:
        m.seat(seat).apply(m.option_ids(seat).index(f"a@{seat}"))
    assert "seed" not in str(err.value) and err.value.seed is None and err.value.decisions == 1
    assert err.value.__context__ is None and err.value.__cause__ is None
    frames = []
    tb = err.value.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    assert not any(isinstance(v, Match) for f in frames for v in f.f_locals.values() if f.f_code.co_name == "apply")
    assert m.failure is not None and "seed 5" in str(m.failure)  # the match itself keeps it, for its tools
