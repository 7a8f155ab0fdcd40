"""A rule failing during play is reported at its DSL text, with the seed and the decisions so far; the
match up to the failure is kept as a log that `meeple replay` re-runs; generated code can be read."""

import json
import textwrap

import pytest

from interpreter import AuthoringError, RuleError, load_game
from interpreter.cli import main
from interpreter.diagnostics import source_line
from interpreter.run.match import play_random
from interpreter.run.sim import simulate

GAME = """
game: failing
title: Failing
players: {min: 2, max: 2}
cards: [cards.yaml]
properties: {value: 0}
counters:
  game:
    divisor: 1
zones:
  hand: {owner: player, visibility: owner}
  pile: {visibility: public}
phases:
  play: |
    let c = I choose a card from my hand "Play which card?"
    move c to pile
    set divisor to divisor - c.value
    say "{me} plays {c}: {12 / divisor}"
flow: {rounds: 2, turn: [play]}
result: {score: count(pile)}
"""
CARDS = """
cards:
  - {id: a, name: A, each_player: true, start: hand, value: 1}
  - {id: b, name: B, each_player: true, start: hand, value: 0}
"""


@pytest.fixture
def failing(tmp_path):
    (tmp_path / "game.yaml").write_text(textwrap.dedent(GAME))
    (tmp_path / "cards.yaml").write_text(CARDS)
    return tmp_path


def play_a_first(m):
    while not m.over:
        seat = m.to_act()[0]
        m.apply(seat, m.option_ids(seat).index(f"a@{seat}") if f"a@{seat}" in m.option_ids(seat) else 0)


def test_a_division_by_zero_names_the_dsl_line_the_seed_and_the_decisions(failing):
    m = load_game(failing).new_match(2, seed=5, log=True)
    with pytest.raises(RuleError) as err:
        play_a_first(m)
    message = str(err.value)
    assert message.startswith(f"{failing / 'game.yaml'}:18:"), message  # the `say` line of `play`
    assert "division by zero" in message and "seed 5" in message and "after 1 decision)" in message
    assert m.failure is err.value and not m.over and m.to_act() == []
    assert m.log[-1]["type"] == "error"


def test_sim_reports_the_same_failure(failing):
    game = load_game(failing)  # (every match fails: someone plays `a` and the divisor reaches 0)
    with pytest.raises(RuleError) as stepped:
        play_random(game, 2, 3)
    failed_at = r"game\.yaml:18:\d+: division by zero \(seed 3, after \d decisions?\)"
    with pytest.raises(RuleError, match=failed_at) as quick:
        simulate(game, 2, 3)
    assert str(quick.value) == str(stepped.value)


def test_play_prints_one_line_exits_1_and_keeps_a_log_that_replays(failing, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "m.jsonl"
    assert main(["play", str(failing), "--seed", "5", "--log", str(log)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "game.yaml:18:" in err[0] and "division by zero" in err[0] and str(log) in err[0]
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[-1]["type"] == "error"
    assert main(["replay", str(log), "--game", str(failing)]) == 0
    assert "the rules fail at the same point" in capsys.readouterr().out


def test_a_traceback_shows_the_generated_lines(failing):
    import traceback

    m = load_game(failing).new_match(2, seed=5)
    with pytest.raises(RuleError) as err:
        play_a_first(m)
    shown = "".join(traceback.format_exception(err.value.__cause__))
    assert "12 /" in shown or "floordiv" in shown, shown


def test_compile_prints_the_python_headed_by_yaml_lines(capsys, tmp_path):
    assert main(["compile", "overloaded"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# game.yaml:") and "def phase_" in out
    compile(out, "overloaded.py", "exec")  # it is Python
    target = tmp_path / "o.py"
    assert main(["compile", "overloaded", "-o", str(target)]) == 0
    assert target.read_text() == out


def test_a_sentence_that_rolls_is_refused_before_play(tmp_path):
    """A sentence is only shown: chance inside `say` would make a logged match differ from a quiet one
    (or, in a prompt, what a seat is shown draw chance), so it is an authoring error at its place."""
    game = GAME.replace('say "{me} plays {c}: {12 / divisor}"', 'say "{me} plays {c} and rolls {roll d6}"')
    (tmp_path / "game.yaml").write_text(textwrap.dedent(game))
    (tmp_path / "cards.yaml").write_text(CARDS)
    with pytest.raises(AuthoringError) as err:
        load_game(tmp_path)
    (d,) = err.value.diagnostics
    assert "cannot roll or pick at random" in d.message and "let r = roll d6" in d.hint
    assert source_line(d.pos.file, d.pos.line)[d.pos.col - 1:].startswith("roll d6")


def test_an_engine_fault_inside_a_rule_is_an_internal_error_not_the_authors(failing, capsys, monkeypatch):
    """A TypeError raised under a rule (here by the shuffle the rule calls) is a fault of the engine: it reaches
    the caller as it is (sim, the step API) and the command line calls it an internal error to report, its message
    with no YAML place, as it would any other engine fault; its traceback shows the rule's YAML line all the same."""
    (failing / "game.yaml").write_text(textwrap.dedent(GAME).replace("  play: |\n", "  play: |\n    shuffle pile\n"))
    game = load_game(failing)
    play = game.flow["turn"][0][0]  # the phase `play`, compiled

    def broken(st, zone):
        raise TypeError("unsupported operand type(s) for +: 'int' and 'NoneType'")

    monkeypatch.setitem(play.__globals__, "shuffle", broken)
    with pytest.raises(TypeError, match="unsupported operand"):
        simulate(game, 2, 1)
    with pytest.raises(TypeError, match="unsupported operand"):
        game.new_match(2, seed=1)
    assert main(["sim", str(failing), "-n", "2"]) == 1
    err = capsys.readouterr().err
    assert "internal error (please report it): TypeError: unsupported operand" in err
    assert "rules failed" not in err and "game.yaml:" not in err
    assert 'game.yaml", line 15, in phase_play\n    shuffle pile\n' in err  # the frame under which it was raised
