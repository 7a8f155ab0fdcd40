"""A `say` whose `{…}` part needs a card or a player that may be none: a quiet match (sim's) writes no sentence,
so such a part must not stop a logged match (play, replay, --log) where the quiet one goes on. It reads
`nothing` (`nobody` for a player) where what it needs is none; a part worked out in a quiet match too (a
division, a game function) fails alike in both."""

from pathlib import Path

import pytest

from interpreter import RuleError
from interpreter.cli import main
from interpreter.game import load_game

GAME = """\
game: sayer
title: Sayer
players: {min: 2, max: 2}
cards: [cards.yaml]
properties:
  value: 0
zones:
  deck: {visibility: hidden, face: down}
  hand: {owner: player, visibility: owner}
phases:
  turn: |
    let c = the top card of deck
    move c to my hand
    say "{me} takes a card worth {c.value}"
    say "{holder of c} holds {c}"
    say "guarded: {c.value if c != none else 0}"
    say "tops: {list(players, (the top card of hand of it).value)}"
    say "{me} has {count(my hand where it.value == c.value)} alike"
    say "worth something: {c != none and c.value > 0}"
    EXTRA
flow:
  turn: [turn]
  rounds: 2
result:
  score: count(my hand)
"""

# three cards for two players and two rounds: P1's second turn finds the deck empty
CARDS = """\
cards:
  - {id: one, name: One, value: 1, count: 3, start: deck}
"""


def sayer(tmp_path: Path, extra: str = "nothing") -> Path:
    folder = tmp_path / "sayer"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.replace("EXTRA", extra), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return folder


def played(folder: Path, log: bool):
    m = load_game(folder).new_match(players=2, seed=1, log=log)
    while not m.over:
        seat = m.to_act()
        m.apply(seat, m.legal_actions(seat)[0])
    return m


def test_a_part_needing_a_card_that_is_none_reads_nothing_and_the_logged_match_is_the_quiet_one(tmp_path):
    folder = sayer(tmp_path)
    logged, quiet = played(folder, log=True), played(folder, log=False)
    assert logged.result() == quiet.result()
    said = [e["text"] for e in logged.log if e.get("event") == "say"]
    assert said[:6] == ["P0 takes a card worth 1", "P0 holds One", "guarded: 1", "tops: nothing", "P0 has 1 alike",
                        "worth something: yes"]
    # P1's second turn: no card left to take; what the text guards itself (`if`, `and`) is worked out as written
    assert said[-6:] == ["P1 takes a card worth nothing", "nobody holds nothing", "guarded: 0", "tops: [1, 1]",
                         "P1 has nothing alike", "worth something: no"]


def test_play_and_replay_go_on_where_sim_does(tmp_path, capsys):
    folder = sayer(tmp_path)
    log = tmp_path / "m.jsonl"
    assert main(["sim", str(folder), "-n", "3"]) == 0
    assert main(["play", str(folder), "--seed", "1", "--log", str(log)]) == 0
    assert main(["replay", str(log), "--game", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "P1 takes a card worth nothing" in out


def test_a_part_worked_out_in_a_quiet_match_too_fails_alike_in_both(tmp_path):
    folder = sayer(tmp_path, extra='say "half: {c.value / 2}"')
    for log in (True, False):
        with pytest.raises(RuleError, match=r"game\.yaml:20:\d+: .*none"):
            played(folder, log=log)
