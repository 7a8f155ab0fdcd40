"""`meeple compare`: the same matches of two versions of a game, each figure's paired difference and whether it
is real."""

import json
import shutil

import pytest

from interpreter.cli import main
from interpreter.paths import data_dir


def compare(capsys, *argv: str) -> tuple[int, dict | str, str]:
    code = main(["compare", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if "--json" in argv and code == 0 else out), err


def by_figure(result: dict) -> dict[str, dict]:
    return {row["figure"]: row for row in result["figures"]}


def test_a_game_against_itself_differs_in_nothing(capsys):
    code, result, _ = compare(capsys, "overloaded", "overloaded", "-n", "30", "--json")
    assert code == 0 and result["identical_matches"] == 30 and result["real"] == []
    assert all(row["diff"] == 0 and row["ci"] == [0, 0] for row in result["figures"])


def test_a_start_value_given_to_everyone_changes_the_scores_and_not_the_winners(tmp_path, capsys):
    # a copy of Overloaded whose per-seat `bonus` counter (part of the score) starts at 3 for everyone
    code, result, _ = compare(capsys, "overloaded", "--set", "bonus=3", "-n", "40", "--json")
    assert code == 0
    rows = by_figure(result)
    for seat in range(4):
        assert rows[f"seat {seat} mean score"]["diff"] == 3 and rows[f"seat {seat} mean score"]["real"]
        assert rows[f"seat {seat} win rate"]["diff"] == 0 and not rows[f"seat {seat} win rate"]["real"]
    assert result["b"] == "overloaded with bonus=3"


def test_fewer_rounds_are_a_real_difference_in_length_and_score(capsys):
    code, result, _ = compare(capsys, "overloaded", "--set", "flow.rounds=6", "-n", "40", "--json")
    assert code == 0
    rows = by_figure(result)
    assert rows["mean rounds"]["diff"] == -2 and rows["mean rounds"]["real"]
    assert rows["seat 0 mean score"]["ci"][1] < 0 and rows["seat 0 mean score"]["real"]
    assert {"mean rounds", "mean turns", "mean decisions"} <= set(result["real"])


def test_two_folders_are_compared_match_by_match(tmp_path, capsys):
    copy = tmp_path / "overloaded"
    shutil.copytree(data_dir("cards") / "overloaded", copy)
    code, result, _ = compare(capsys, "overloaded", str(copy), "-n", "20", "--json")
    assert code == 0 and result["identical_matches"] == 20


def test_the_text_says_which_differences_are_real(capsys):
    code, out, _ = compare(capsys, "overloaded", "--set", "flow.rounds=6", "-n", "30")
    assert code == 0
    assert "overloaded  vs  overloaded with flow.rounds=6: 30 paired matches" in out
    assert "mean rounds" in out and "REAL" in out and "noise" in out and "real differences:" in out


@pytest.mark.parametrize("argv, message", [
    (["overloaded"], "give GAME_B, or --set NAME=VALUE"),
    (["overloaded", "--set", "nothing=1"], "declares no counter nor value of that name"),
    (["overloaded", "--set", "flow.rounds"], "write NAME=VALUE"),
    (["overloaded", "--set", "flow.rounds=[1]"], "VALUE must be a number"),
    (["overloaded", "sky-haulers", "--players", "5"], "is played by 2–4 players, not 5"),
])
def test_bad_arguments_give_one_clear_message(capsys, argv, message):
    code, _, err = compare(capsys, *argv, "-n", "5")
    assert code == 1 and message in err and "Traceback" not in err


def test_a_value_the_rules_refuse_is_the_game_own_error(capsys):
    code, _, err = compare(capsys, "overloaded", "--set", "flow.rounds=many", "-n", "5")
    assert code == 1 and "game.yaml" in err and "Traceback" not in err


def test_a_difference_real_only_on_its_own_is_a_maybe(capsys, tmp_path):
    code, result, _ = compare(capsys, "overloaded", "--set", "flow.rounds=7", "-n", "60", "--json")
    assert code == 0
    for row in result["figures"]:
        assert row["sure"] <= row["real"]  # what survives the figures tested together is real on its own too
        assert (row["figure"] in result["real"]) == row["sure"]
        assert (row["figure"] in result["maybe"]) == (row["real"] and not row["sure"])
