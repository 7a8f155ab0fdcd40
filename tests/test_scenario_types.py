"""A scenario's counters are typed against the game's: a value the counter cannot hold is an authoring
error at the scenario file's `file:line:col`, from `meeple validate` and from `meeple test` alike."""

import re
from pathlib import Path

import pytest
from test_hostile_input import run

GAME = """\
game: typed
title: Typed
players: {min: 2, max: 3}
cards: [cards.yaml]
zones:
  deck: {visibility: hidden, face: down}
counters:
  game:
    pot: {initial: 0, min: 0}
    leader: {initial: -1, type: player}
    trump: {initial: "", type: text}
  player:
    coins: 0
    partner: {initial: -1, type: player}
phases:
  turn: |
    add pot to my coins
    if leader:
      add 1 to coins of leader
    if trump == "hearts":
      add 1 to my coins
flow:
  turn: [turn]
  rounds: 1
result:
  score: my coins
"""

CARDS = "cards:\n  - {id: one, name: One, start: deck}\n"

SCENARIO = """\
- name: pot paid
  rule: "The pot is paid."
  players: 2
  counters: {COUNTERS}
  expect:
    over: true
"""


def game_with(tmp_path: Path, counters: str) -> tuple[Path, Path]:
    folder = tmp_path / "typed"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "cards.yaml").write_text(CARDS)
    scenario = folder / "scenarios" / "basics.yaml"
    scenario.write_text(SCENARIO.replace("{COUNTERS}", counters))
    return folder, scenario


@pytest.mark.parametrize("counters, col, message", [
    ('{pot: "abc"}', 19, r"`pot` holds a whole number, not 'abc'"),
    ("{pot: -1}", 19, r"`pot` is never below its min, 0: not -1"),
    ("{pot: true}", 19, r"\[0\]\.counters\.pot must be a whole number, text or a list, not true"),
    ("{leader: 99}", 22, r"`leader` holds a seat: 99 is no seat at 2 players"),
    ('{leader: "p1"}', 22, r"`leader` holds a seat \(0–1, or -1 for none\), not 'p1'"),
    ("{trump: 5}", 21, r"`trump` is a text counter: give a text, not 5"),
    ("{coins: [1, abc]}", 25, r"`coins` holds a whole number, not 'abc'"),
    ("{partner: [0, 2]}", 27, r"`partner` holds a seat: 2 is no seat at 2 players"),
], ids=["text for a number", "below min", "yes for a number", "no seat", "text for a seat", "number for a text",
        "text in a player counter", "no seat in a player counter"])
def test_a_counter_value_of_the_wrong_kind_is_located_in_the_scenario(capsys, tmp_path, counters, col, message):
    folder, scenario = game_with(tmp_path, counters)
    for command in ("validate", "test"):
        code, out, err = run(capsys, command, folder)
        assert code == 1, out + err
        assert re.search(rf"{re.escape(str(scenario))}:4:{col}: error: {message}", err), err
        assert "TypeError" not in err and "IndexError" not in err


def test_an_expected_counter_of_the_wrong_kind_is_located_too(capsys, tmp_path):
    folder, scenario = game_with(tmp_path, "{}")
    scenario.write_text(scenario.read_text().replace("    over: true\n", "    over: true\n    counters: {trump: 5}\n"))
    code, _, err = run(capsys, "validate", folder)
    assert code == 1 and re.search(rf"{re.escape(str(scenario))}:7:\d+: error: `trump` is a text counter", err), err


def test_values_each_counter_can_hold_pass(capsys, tmp_path):
    folder, _ = game_with(tmp_path, '{pot: 5, leader: 1, trump: hearts, coins: [1, 2], partner: [-1, 0]}')
    assert run(capsys, "validate", folder)[0] == 0
    code, out, err = run(capsys, "test", folder)
    assert code == 0, out + err
