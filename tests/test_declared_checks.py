"""Game-declared checks (game.yaml `checks:`): rules that must hold at the end of the match, of every
round or of every turn, for the table or for each player; `meeple check` and `meeple sim --check` find a
broken one, shrink it, and write a log that `meeple replay` re-runs to the same point."""

import json
import re
import textwrap
from pathlib import Path

import pytest
from test_check import planted

from interpreter import load_game
from interpreter.check import check_players
from interpreter.cli import main
from interpreter.diagnostics import AuthoringError

EIGHT = '  eight_rounds: {at: end, holds: "round == 8"}'

TURNS = """
game: turns
title: Turns
players: {min: 2, max: 3}
cards: [cards.yaml]
properties: {value: 0}
zones:
  deck: {visibility: hidden, face: down}
  hand: {owner: player, visibility: owner}
  table: {visibility: public}
counters:
  game: {turns_taken: 0}
phases:
  deal: |
    shuffle deck
  draw: |
    move the top card of deck to my hand
    let c = I choose up to 1 card from my hand "Play a card?"
    if c != none:
      move c to table
    add 1 to turns_taken
flow: {setup: [deal], rounds: 4, turn: [draw]}
result: {score: count(table where it.owner == me)}
checks:
%s
"""
TURN_CARDS = """
cards:
  - {id: card, name: Card, count: 20, start: deck}
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def turns_game(folder: Path, checks: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(textwrap.dedent(TURNS) % textwrap.indent(textwrap.dedent(checks), "  "))
    (folder / "cards.yaml").write_text(textwrap.dedent(TURN_CARDS))
    return folder


def line_of(folder, text: str) -> int:
    """The line of the folder's game.yaml where `text` first stands (errors are told at their line)."""
    lines = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


@pytest.mark.parametrize("name", ["overloaded", "sky-haulers", "low-tide"])
def test_bundled_games_declare_checks(name):
    """Overloaded lasts 8 rounds; Sky Haulers ends with the active player holding five cargo; a Low Tide
    round ends with the hands played out. That they hold: tests/test_check.py runs `meeple check` on every
    bundled game (2 matches a player count by default, 30 under the slow marker), its header naming the game's
    declared checks and every count's line saying that every property holds."""
    game = load_game(name)
    assert game.checks


def test_a_check_at_the_end_that_fails_is_found_named_and_replays(capsys, tmp_path):
    """Overloaded said to last 7 rounds: every match breaks it; the shrunk one takes first options."""
    folder = planted(tmp_path, "seven", EIGHT, '  eight_rounds: {at: end, holds: "round == 7"}')
    log = tmp_path / "failure.jsonl"
    code, out, _ = run(capsys, "check", str(folder), "--players", "3", "--out", str(log))
    assert code == 1
    assert "property: check `eight_rounds` holds at the end of the match" in out
    at = line_of(folder, "eight_rounds:")
    assert re.search(rf"failure:  check `eight_rounds` \(game\.yaml:{at}:\d+\) is false at the end of the match", out)
    assert re.search(r"the shrunk match: \d+ decisions, \d+ chance outcomes: (0 )+0\n", out)  # all shrunk to 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[-2]["type"] == "result" and lines[-1]["check"] == "check:eight_rounds"
    code, out, err = run(capsys, "replay", str(log), "--game", str(folder))
    assert code == 0, err
    assert "the check fails at the same point: check `eight_rounds`" in out


def test_a_round_check_for_each_player_is_found_at_the_first_round_that_breaks_it(capsys, tmp_path):
    """Hands of 10 said to stay whole: each player loads a card in round 1, so it fails there, for all."""
    folder = planted(tmp_path, "whole", EIGHT,
                     EIGHT + '\n  whole_hand: {at: round_end, for: each_player, holds: "count(my hand) == 10"}')
    failure = check_players(load_game(folder), 3, examples=20).failure
    assert failure is not None and failure.check == "check:whole_hand"
    at = line_of(folder, "whole_hand:")
    assert re.fullmatch(rf"check `whole_hand` \(game\.yaml:{at}:\d+\) is false at the end of round 1 for P0, P1, P2",
                        failure.message)
    log = failure.log
    assert log[-2]["type"] == "state" and log[-2]["round"] == 1  # the log stops at the end of round 1
    path = tmp_path / "round.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in log))
    code, out, err = run(capsys, "replay", str(path), "--game", str(folder))
    assert code == 0, err
    assert "the check fails at the same point: check `whole_hand`" in out


def test_a_turn_check_fails_at_the_end_of_its_turn_and_sim_check_finds_it_too(capsys, tmp_path, monkeypatch):
    folder = turns_game(tmp_path / "turns", """
        short_hands: {at: turn_end, for: each_player, holds: "count(my hand) <= 1"}
    """)
    failure = check_players(load_game(folder), 2, examples=30).failure
    assert failure is not None and failure.check == "check:short_hands"
    turn = failure.log[-2]["turn"]
    assert re.fullmatch(rf"check `short_hands` \(game\.yaml:\d+:\d+\) is false at the end of turn {turn} for P\d",
                        failure.message)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "sim", str(folder), "-n", "10", "--check")
    assert code == 1 and "check `short_hands`" in err and "its log is in check-failure.jsonl" in err
    code, out, err = run(capsys, "replay", "check-failure.jsonl", "--game", str(folder))
    assert code == 0, err
    assert "the check fails at the same point: check `short_hands`" in out


def test_checks_that_hold_pass_check_and_sim_check(capsys, tmp_path):
    folder = turns_game(tmp_path / "fine", """
        one_draw_a_turn: {at: turn_end, holds: "count(deck) == 20 - turns_taken"}
        hand_stays_small: {at: round_end, for: each_player, holds: "count(my hand) <= round"}
        four_rounds: {at: end, holds: "round == 4"}
    """)
    code, out, err = run(capsys, "check", str(folder), "--examples", "10")
    assert code == 0, out + err
    assert "3 checks" in out
    code, out, err = run(capsys, "sim", str(folder), "-n", "50", "--check")
    assert code == 0, err


@pytest.mark.parametrize(("checks", "message"), [
    ('bad: {at: round_end, holds: "count(my hand) < 3"}',
     r"game\.yaml:\d+:\d+: error: check `bad` is for the table, but it speaks of `me`"),
    ('bad: {at: end, holds: "count(deck) <"}', r"game\.yaml:\d+:\d+: error: "),
    ('bad: {at: sometimes, holds: "round > 0"}', r"game\.yaml:\d+:\d+: error: .*sometimes"),
    ('bad: {at: end, holds: "round > 0", for: everyone}', r"game\.yaml:\d+:\d+: error: .*everyone"),
    ('bad: {at: end}', r"game\.yaml:\d+:\d+: error: .*holds"),
])
def test_a_broken_check_is_an_authoring_error_at_its_place(tmp_path, checks, message):
    folder = turns_game(tmp_path / "bad", checks)
    with pytest.raises(AuthoringError) as err:
        load_game(folder)
    assert re.search(message, str(err.value)), str(err.value)


def test_a_turn_check_needs_a_game_with_turns(tmp_path):
    folder = planted(tmp_path, "no-turns", EIGHT, EIGHT + '\n  per_turn: {at: turn_end, holds: "round > 0"}')
    at = line_of(folder, "per_turn:")
    with pytest.raises(AuthoringError, match=rf"game\.yaml:{at}:\d+: error: this game has no turns"):
        load_game(folder)
