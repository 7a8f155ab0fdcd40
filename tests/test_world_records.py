"""What a watched match records, kept cheaply and kept right: a world drawn by `determinize` keeps no record of
which cards each seat can no longer tell apart (nobody draws from a world), and plays on, copied or pickled, as
before; the shadow a watcher keeps is the state as of its last hook (which lets a move out of a hand take every
card's knowledge from the state at once); a question's options, as the asked seat sees them, are what `seen_by`
says it sees."""

from __future__ import annotations

import pickle
import random

import pytest
from test_run_limits import write_game
from walks import played

from interpreter.game import load_game
from interpreter.run import free_worlds, information, moving, watcher
from interpreter.run.events import ASK
from interpreter.run.match import Match
from interpreter.run.runtime import K_CARD, OWNER, seen_by

GAMES = ["hearts", "go-fish", "crazy-eights", "sky-haulers", "low-tide", "overloaded"]


def _world(name: str, seed: int, decisions: int) -> tuple[Match, Match, int]:
    """A match of bundled game `name` after some random decisions, and a world drawn for the seat to act."""
    game = load_game(name)
    m = played(game, 4 if game.min_players <= 4 <= game.max_players else game.default_players, seed, decisions)
    seat = m.to_act()[0]
    return m, m.determinize(seat, random.Random(seed)), seat


@pytest.mark.parametrize("name", ["hearts", "crazy-eights"])
def test_a_drawn_world_keeps_no_tags_and_plays_on_as_it_did(name):
    m, world, seat = _world(name, 3, 12)
    assert m._watch.tags and not m._watch.search  # the real match keeps them (determinize reads them)
    assert world._watch.tags == [] and world._watch.search
    for w in (world, world.clone(), pickle.loads(pickle.dumps(world))):
        assert w._watch.search  # kept through a copy and a pickle round trip
        assert w.information_state(seat) == m.information_state(seat)
    # played on, a copy and a pickled copy record the same (no tag read on the way: none is kept)
    a, b = world.clone(), pickle.loads(pickle.dumps(world))
    bot = random.Random(5)
    for _ in range(12):
        if a.over:
            break
        p = a.to_act()[0]
        action = bot.randrange(len(a.legal_actions(p)))
        assert a.apply(p, action) is None and b.apply(p, action) is None
    assert a._watch.tags == b._watch.tags == []
    assert [a.information_state(s) for s in range(a.players)] == [b.information_state(s) for s in range(b.players)]


def test_a_worlds_copies_to_go_back_to_take_its_record_only_when_used():
    """A drawing copies its world before answers, to go back to (`Match.backup`): the world records on in its own
    list, and each copy, read, played, copied or pickled later, holds the record as it stood when it was made."""
    _, world, _ = _world("hearts", 3, 12)
    bot = random.Random(2)
    p = world.to_act()[0]
    assert world.apply(p, bot.randrange(len(world.legal_actions(p)))) is None  # (its own record from here on)
    record = world._watch.events
    copies = []
    for _ in range(8):
        copies.append((world.backup(), list(record), [world.information_state(s) for s in range(4)]))
        p = world.to_act()[0]
        assert world.apply(p, bot.randrange(len(world.legal_actions(p)))) is None
    assert world._watch.events is record and len(record) > len(copies[-1][1])  # no copy of the record taken
    played_on = copies[2][0]
    p = played_on.to_act()[0]
    assert played_on.apply(p, 0) is None  # a copy that records takes its own list
    assert played_on._watch.events is not record and played_on._watch.events[:len(copies[2][1])] == copies[2][1]
    for c, events, infos in copies[:2] + copies[3:]:
        for w in (c.clone(), pickle.loads(pickle.dumps(c)), c.backup(), c):
            assert w._watch.events == events
            assert [w.information_state(s) for s in range(4)] == infos
    assert world._watch.events is record
    last = world.backup()  # a copy of the record as it stands, once used, shares the list, counted
    assert last._watch.events is record and last.apply(last.to_act()[0], 0) is None
    assert last._watch.events is not record  # (it recorded: a list of its own; the world records on in place)
    assert world.apply(world.to_act()[0], 0) is None and world._watch.events is record


@pytest.mark.parametrize("name", ["hearts", "overloaded", "sky-haulers"])
def test_a_worlds_copy_made_later_is_the_copy_it_would_have_made_then(name):
    """`Match.backup_later` keeps what `backup` would copy of a world, the copy made only where it is asked for
    (`Later.made`): made after the world played on in place (recorded, rendered its seat's observations, answered a
    question of several seats in part, kept new bases), it is the copy `backup` made then, and plays on alike."""
    _, world, seat = _world(name, 3, 12)
    bot = random.Random(2)
    kept = []
    for _ in range(14):
        if world.over:
            break
        kept.append((world.backup(), world.backup_later(), world.information_state(seat)))
        p = world.to_act()[0]
        assert world.apply(p, bot.randrange(len(world.legal_actions(p)))) is None
    assert len(kept) > 5
    for backup, later, info in kept:
        made = later.made()
        assert made is later.made()  # (made once)
        assert made.__class__ is backup.__class__
        assert made.history == backup.history and made._sent == backup._sent and made._answers == backup._answers
        assert made._watch.events == backup._watch.events
        assert made.st.freeze()[:-1] == backup.st.freeze()[:-1]
        assert [made.information_state(s) for s in range(made.players)] == \
            [backup.information_state(s) for s in range(backup.players)]
        assert made.information_state(seat) == info
        if not made.over:
            p = made.to_act()[0]
            assert made.apply(p, 0) is None and backup.apply(p, 0) is None
            assert made.information_state(seat) == backup.information_state(seat)


def test_a_world_drawn_without_replay_keeps_no_tags_either():
    game = load_game("tests/games/kuhn-poker")
    m = played(game, 2, 4, 1)
    seat = m.to_act()[0]
    assert free_worlds.free_world(m, seat, random.Random(1)) is not None  # (the path without replay)
    world = m.determinize(seat, random.Random(1))
    assert world._watch.search and world._watch.tags == [] and world._base_info[2] == []
    again = pickle.loads(pickle.dumps(world))
    assert again.information_state(seat) == world.information_state(seat) == m.information_state(seat)
    p = again.to_act()[0]
    assert again.apply(p, 0) is None and again._watch.tags == []


def test_a_match_given_its_chance_keeps_no_tags_one_of_its_seed_does():
    game = load_game("hearts")
    assert Match(game, 4, 1)._watch.tags
    told = Match(game, 4, 1, chance=random.Random(1)._randbelow)
    assert told._watch.tags == [] and told._watch.search


def _hooks_checked(monkeypatch) -> list[str]:
    """Every hook of the watcher wrapped: after it, the shadow must be the state (the glimpse's own card, which
    the runtime marks known just after its hook, as the hook already has it), and a move records who sees the
    card where it went as `seen_by` says. Returns the hooks that broke either."""
    broken: list[str] = []
    for name in ("moved", "moved_many", "shuffled", "shown", "flipped", "said", "rolled", "asked", "decided",
                 "seats_changed"):
        hook = getattr(watcher.Watcher, name)

        def checked(self, st, *args, _hook=hook, _name=name):
            _hook(self, st, *args)
            if _name == "moved" and self.events[-1][8] != seen_by(st, args[0]):  # who sees the card where it went
                broken.append("moved: seen after")
            known = st.known[:]
            if _name == "shown":
                known[args[0]] |= 1 << args[1]
            if self.zones != st.zones or self.face != st.face or self.known != known or self.where != st.zone_of:
                broken.append(_name)

        monkeypatch.setattr(watcher.Watcher, name, checked)
    return broken


@pytest.mark.parametrize("name", GAMES)
def test_the_shadow_is_the_state_after_every_hook(name, monkeypatch):
    broken = _hooks_checked(monkeypatch)
    game = load_game(name)
    for seed in range(2):
        played(game, game.default_players, seed, 120)
    assert broken == []


LAPSES = """\
move the top 4 cards of deck to my hand
show my hand to next player after me
move the top card of my hand to deck face down
let x = I choose one of "a", "b" "?"
move the top card of my hand to a random position of deck
let y = I choose one of "a", "b" "?"
move my hand where it.value > 4 to pile
move all my hand to deck"""


def test_the_shadow_is_the_state_after_every_hook_where_glimpses_lapse(tmp_path, monkeypatch):
    """Cards shown from a hand, then cards of it moved one by one and many at once: the glimpses of the cards
    left there lapse in the state, and the shadow follows."""
    broken = _hooks_checked(monkeypatch)
    game = load_game(write_game(tmp_path / "glimpses", LAPSES, flow="  turn: [turn]\n  rounds: 2\n"))
    for seed in range(2):
        m = played(game, 2, seed, 400)
        assert m.over
    assert broken == []


@pytest.mark.parametrize("name", GAMES)
def test_the_options_of_a_card_question_are_named_as_seen_by_says(name):
    """Each card option recorded as the asked seat sees it: its face where `seen_by` has the seat see it, else
    its place (the quick test of what a seat surely sees agrees with the rule it stands for)."""
    game = load_game(name)
    checked = 0
    for seed in range(2):
        m = Match(game, game.default_players, seed)
        bot = random.Random(seed)
        while not m.over and len(m.history) < 120:
            asks = m._pending[1] if m._pending[0] == -1 else (m._pending,)
            recorded = [e for e in m._watch.events if e[0] == ASK][-len(asks):]
            for a, e in zip(asks, recorded, strict=True):
                if a[2] != K_CARD:
                    continue
                st, seat = m.st, a[0]
                want = tuple("none" if c < 0 else information.faces(m.layout)[c] if seen_by(st, c) >> seat & 1
                             else (c, st.zone_of[c], st.zones[st.zone_of[c]].index(c)) for c in a[1])
                assert e[4] == want
                checked += len(want)
            for p in m.to_act():
                m.apply(p, bot.randrange(len(m.legal_actions(p))))
    assert checked > 0


def test_the_walk_of_the_events_is_shared_by_the_copies_that_share_the_record():
    """A copy made before another copy walked the events (to draw a world without replay) takes that walk, and
    draws the same worlds as with a walk of its own; a copy that recorded an event since walks its own record."""
    game = load_game("tests/games/kuhn-poker")
    m = played(game, 2, 4, 1)
    seat = m.to_act()[0]
    a, b = m.clone(), m.clone()
    alone = pickle.loads(pickle.dumps(m))  # (a record of its own: nothing shared)
    wa = a.determinize(seat, random.Random(7))
    assert b._watch.walks is a._watch.walks is m._watch.walks and "free" in m._watch.walks
    wb, wc = b.determinize(seat, random.Random(7)), alone.determinize(seat, random.Random(7))
    assert alone._watch.walks is not m._watch.walks
    for w in (wb, wc):
        assert w.history == wa.history and w.seed == wa.seed and w._base[1][:-1] == wa._base[1][:-1]
        assert w._base[1][-1][1].seed == wa._base[1][-1][1].seed  # (its chance from the base on)
        assert [w.information_state(s) for s in range(2)] == [wa.information_state(s) for s in range(2)]
    b.apply(seat, 0)  # b records: its walks are its own from here on, m's stay with m
    assert b._watch.walks is not m._watch.walks and "free" in m._watch.walks
    if not b.over:
        nxt = b.to_act()[0]
        assert b.determinize(nxt, random.Random(3)).information_state(nxt) == b.information_state(nxt)


@pytest.mark.parametrize("name", ["hearts", "tests/games/kuhn-poker"])
def test_a_record_relabeled_whole_keeps_the_table_as_its_last_event_has_it(name):
    game = load_game(name)
    for decisions in (0, 3, 11):
        m = played(game, 2 if "kuhn" in name else 4, 2, decisions)
        w = m._watch
        identity = list(range(len(m.st.face)))
        assert w.relabeled(identity, len(w.events), []).last == watcher._last_table(w.events) == w.last


GLIMPSED_COPIES = """\
move the top 3 cards of deck to my hand
show the top card of my hand to next player after me
move the top 3 cards of deck to my hand
let c = I choose a card from my hand "Play one"
move c to pile
let d = I choose a card from my hand "Put one back"
move d to deck face up"""


def _lapses_checked(monkeypatch) -> dict[str, int]:
    """`Watcher.moved` wrapped: for a card that left a hand, who knows each card left there must be what the rule
    card by card gives (`lapse_copy`: a seat that did not know the card forgets the first copy of it, same face, it
    knew in the hand; `lapse`: a seat that does not see the card where it went forgets every card left there),
    worked out from the shadow (the state before the move). Counts the moves checked, those where a copy was
    forgotten, and the mismatches."""
    seen = {"checked": 0, "copy forgotten": 0, "wrong": 0}
    hook = watcher.Watcher.moved

    def checked(self, st, c, src, dst, *args):
        t = st.layout
        if t.zone_vis[src] == OWNER and self.zones:
            known = self.known[:]
            owner = t.zone_owner[src]
            blind = ((1 << st.n) - 1) & ~known[c] & ~(1 << owner if owner >= 0 else 0)
            for d in self.zones[src]:  # (the hand as it was: c still in it)
                if known[d] & blind and d != c and t.face_ids[d] == t.face_ids[c]:
                    seen["copy forgotten"] += 1
                    forget = known[d] & blind
                    known[d] &= ~forget
                    blind &= ~forget
            keep = seen_by(st, c) | (1 << owner if owner >= 0 else 0)
            left = st.zones[src]
            seen["checked"] += 1
            seen["wrong"] += [known[d] & keep for d in left] != [st.known[d] for d in left]
        hook(self, st, c, src, dst, *args)

    monkeypatch.setattr(watcher.Watcher, "moved", checked)
    return seen


def test_what_a_seat_knows_of_a_hand_a_card_left_is_what_the_rule_card_by_card_gives(tmp_path, monkeypatch):
    """The knowledge kept at a move out of a hand looks only at the copies of the card that left (and not at all
    where it lands face up in view of everyone): the same as the rule over the whole hand, in a game of copies
    glimpsed in hands and in the bundled games; a shortcut that skipped the copies is found."""
    seen = _lapses_checked(monkeypatch)
    game = load_game(write_game(tmp_path / "copies", GLIMPSED_COPIES, copies=3, flow="  turn: [turn]\n  rounds: 3\n"))
    for seed in range(6):
        played(game, 2, seed, 400)
    for name in ("hearts", "overloaded"):
        played(load_game(name), 4, 1, 80)
    assert seen["wrong"] == 0 and seen["checked"] > 100 and seen["copy forgotten"] > 0, seen
    monkeypatch.setattr(moving, "copies_of", lambda t: [()] * len(t.face_ids))  # no card has a copy: wrong here
    monkeypatch.setattr(moving, "_LAST_COPIES", [None, None])  # (nor the layout asked last kept)
    for seed in range(6):
        played(game, 2, seed, 400)
    assert seen["wrong"] > 0


@pytest.mark.parametrize("name", ["hearts", "overloaded", "low-tide"])
def test_cards_moved_from_the_tops_of_zones_are_recorded_as_one_by_one(name, monkeypatch):
    """A batch of cards each taken from the top of its zone (a deal, piles gathered) is placed with no search
    (`_from_tops`): the same record, knowledge and information states as the batch placed card by card
    (`_places`) and as the cards moved one at a time."""
    game = load_game(name)
    tops = moving._from_tops
    used = []

    def spied(*args):
        used.append(tops(*args) is not None)
        return used[-1]

    def walked() -> tuple:
        m = played(game, 4, 2, 70)
        return m._watch.events, m.st.known, [m.information_state(s) for s in range(4)]

    monkeypatch.setattr(moving, "_from_tops", lambda *args: tops(*args) if spied(*args) else None)
    at_once = walked()
    assert any(used)
    monkeypatch.setattr(moving, "_from_tops", lambda *args: None)
    assert walked() == at_once
    monkeypatch.setattr(moving, "_move_watched", lambda *args: False)
    assert walked() == at_once
