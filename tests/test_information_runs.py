"""The lines of a decision's events are written in one pass (run/information.py `_written`): a run of moves by one
call (`Moved.seen_all`), each move its card as the seat sees it and the rest of its line, both kept per layout and
seat by what they are made of (`Reader.cards`, `Reader.tails`); another seat's question kept by who is asked and
what (`Reader.asks`); one reader per layout and seat, emptied at each use. None of it may go stale: every line is
the one written from scratch (`test_information_rendering.reference_state`), through every kind of copy, and a key
that leaves out something its line depends on is found."""

from __future__ import annotations

import json
import pickle
import random
from operator import itemgetter

import pytest
from test_identical_copies import PLAY_A_PRINCE, write_game
from test_information_rendering import players_of, reference_lines, reference_state, step

from interpreter import load_game
from interpreter.run import events, look
from interpreter.run import information as info
from interpreter.run.match import Match
from interpreter.run.runtime import K_CARD, seen_by


def forget_looks(monkeypatch) -> None:
    """The looks worked out so far forgotten (one cache, read by `information` and `look`)."""
    forgotten: dict = {}
    for module in (info, look):
        monkeypatch.setattr(module, "_LOOKS", forgotten)

def _copies(m: Match, seed: int) -> list[Match]:
    """A clone, a search copy, a pickle round trip, a world drawn for the seat to act, the match played again from
    its kept base (`Match.relabeled`: its lines cut back there and rendered again)."""
    out = [m.clone(), m.search_copy(), pickle.loads(pickle.dumps(m)), m.determinize(m.to_act()[0], random.Random(seed))]
    again = Match.relabeled(m, list(range(len(m.st.face))), m.to_act()[0], None)
    if again is not None:
        out.append(again)
    return out


def _runs_of_moves(monkeypatch) -> list[int]:
    """Count the moves written by runs (`Moved.seen_all` called by `_written`): a test of them must reach them."""
    written: list[int] = []
    moves = info._MOVES

    def counted(evs, r):
        written.append(len(evs))
        return moves(evs, r)

    monkeypatch.setattr(info, "_MOVES", counted)
    return written


def _compared(game, seeds: range, decisions: int) -> int:
    """Matches of `game` played and copied every few decisions, every seat's state compared with the reference after
    every decision of the original and of each copy's next two; how many states were compared."""
    players, compared = players_of(game), 0
    for seed in seeds:
        m, rng = game.new_match(players=players, seed=seed), random.Random(seed)
        for k in range(decisions):
            if m.over:
                break
            step(m, rng)
            for seat in range(players):
                assert m.information_state(seat) == reference_state(m, seat), (seed, k, seat)
                compared += 1
            if k % 7 == 3 and not m.over:
                for i, copy in enumerate(_copies(m, seed * 100 + k)):
                    for j in range(2):
                        if copy.over:
                            break
                        step(copy, random.Random(seed * 1000 + k * 10 + i + j))
                        for seat in range(players):
                            assert copy.information_state(seat) == reference_state(copy, seat), (seed, k, i, seat)
                            compared += 1
    return compared


@pytest.mark.parametrize("name", ["low-tide", "crazy-eights", "hearts"])
def test_lines_written_by_runs_are_the_lines_written_from_scratch_through_every_copy(name, monkeypatch):
    """Low Tide passes whole hands at each pick, Crazy Eights draws until a card fits, Hearts deals and takes tricks:
    runs of moves, written with the cards and rests of lines that matches before (and copies) left kept."""
    written = _runs_of_moves(monkeypatch)
    forget_looks(monkeypatch)  # (nothing kept from other tests: every line written here)
    game = load_game(name)
    assert _compared(game, range(1), 24) > 100
    assert sum(n for n in written if n >= 4) > 20, written  # (runs of moves were written, not only single lines)


def test_a_key_that_leaves_out_where_the_card_lay_is_found(monkeypatch):
    """Kept by its zones, side and sight alone, the rest of a move's line would show the seat the place a card lay at
    in a hand whose order it knows as the place of another card that went the same way: found."""
    monkeypatch.setattr(events, "_TAIL_KEY", itemgetter(2, 4, 5, 6, 8))
    forget_looks(monkeypatch)
    with pytest.raises(AssertionError):
        _compared(load_game("low-tide"), range(1), 12)


def test_a_key_that_leaves_out_who_saw_the_card_is_found(monkeypatch):
    """Kept by the card alone, a move's card would read as its face to a seat that never saw it, or as its back to
    one that did: found."""
    monkeypatch.setattr(events, "_CARD_KEY", itemgetter(1))
    forget_looks(monkeypatch)
    with pytest.raises(AssertionError):
        _compared(load_game("low-tide"), range(1), 12)


def test_another_seats_question_is_kept_by_who_is_asked_and_what(monkeypatch):
    """The line of a question put to another seat does not show its options: kept by (seat asked, question, kind),
    it is the line written from scratch for every question so put, whatever its options; the asked seat's own line
    lists them and is never taken from there."""
    forget_looks(monkeypatch)
    game = load_game("hearts")
    m, rng = game.new_match(players=4, seed=6), random.Random(6)
    while len(m.history) < 30:
        step(m, rng)
    look = info._look(m.game, m.layout)
    asks = [e for e in m._watch.events if e[0] == info.ASK]
    assert len({e[1:4] for e in asks}) < len({e[1:] for e in asks})  # (questions asked again with other options)
    for seat in range(4):
        want = [line for line in reference_lines(m, seat) if '"type":"ask"' in line]
        r = info._Reader(m, seat, None, look)
        assert [events.Asked.seen(e, r) for e in asks] == want
    assert 0 < len(look.asks) < len(asks)  # (kept, and found again)


def test_a_reader_is_handed_out_empty():
    """One reader per layout and seat, used again: what a render left in it (its lines, the last table line, a run of
    glimpses) is gone when it is next handed out."""
    game = load_game("hearts")
    m = game.new_match(players=4, seed=2)
    look = info._look(m.game, m.layout)
    r = info._reader(m, 1, look)
    r.out.append("a line")
    r.last, r.run, r.run_of, r.start = "a table line", [("key", "a glimpse")], (3, 0), 1
    again = info._reader(m, 1, look)
    assert again is r
    assert (again.out, again.last, again.run, again.run_of, again.start) == ([], None, [], None, 0)
    assert info._reader(m, 2, look) is not r



def _options_checked(matches: list[Match], seed: int) -> dict[str, int]:
    """Matches played to their end, every seat's options in its view (`view_json`) compared with the match's labels at
    every decision; how many questions each way of writing them wrote (`view._options_json`)."""
    ways, rng = {"faces": 0, "labels": 0, "values": 0}, random.Random(seed)
    for m in matches:
        while not m.over:
            for seat in m.to_act():
                ask = m._ask_of(seat)
                if ask[2] != K_CARD:
                    ways["values"] += 1
                elif min(ask[1], default=-1) >= 0 and all(seen_by(m.st, c) >> seat & 1 for c in ask[1]):
                    ways["faces"] += 1
                else:
                    ways["labels"] += 1
                assert json.loads(info.view_json(m, seat))["options"] == m.action_labels(seat), (seat, len(m.history))
            step(m, rng)
    return ways


def _prince_taken(tmp_path) -> Match:
    """P1 takes a card from P0's hand (face up there, unseen by P1): an option named by its place."""
    return Match(write_game(tmp_path, PLAY_A_PRINCE), 2, 0, arrange={"deck": ["prince#1", "guard#1", "prince#2"]})


def test_the_options_of_a_view_are_the_matchs_labels_every_way_they_are_written(tmp_path):
    """A card the seat sees where it lies is named by its face, written from the view's cards; options that are not
    cards are kept per layout by kind and values; the rest (a card named by its place, `none`) are the match's labels.
    Sky Haulers asks for cards in the seat's sight, players, numbers and yes or no; a card taken from another's hand
    is named by its place."""
    game = load_game("sky-haulers")
    ways = _options_checked([game.new_match(players=4, seed=seed) for seed in range(2)], 0)
    assert min(ways.values()) > 20, ways
    assert _options_checked([_prince_taken(tmp_path)], 0)["labels"] == 1


def test_an_option_named_by_its_face_where_the_seat_cannot_see_it_is_found(monkeypatch, tmp_path):
    """Were every zone taken for one the seat sees card by card as it lies, a card face up in another player's hand
    would read as its face to a seat that may only name it by its place: found."""
    made = info._Look.__init__

    def every_zone_open(look, game, t) -> None:
        made(look, game, t)
        look.open_seen = [[True] * len(zones) for zones in look.open_seen]

    forget_looks(monkeypatch)
    monkeypatch.setattr(info._Look, "__init__", every_zone_open)
    with pytest.raises(AssertionError):
        _options_checked([_prince_taken(tmp_path)], 0)
