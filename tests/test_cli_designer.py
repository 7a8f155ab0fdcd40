"""The designer's commands and the small things users hit: cards, --version, validate by name and as JSON,
counts in words, --workers, leaving a match at the prompt."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

import interpreter
from interpreter import load_game
from interpreter.cli import main
from interpreter.paths import data_dir

OVERLOADED = data_dir("cards") / "overloaded"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"meeple {interpreter.__version__}"


# ---- cards ------------------------------------------------------------------------------------------


def test_cards_lists_id_name_count_kind_and_text(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(capsys, "cards", "overloaded")
    assert code == 0
    lines = out.splitlines()
    assert re.fullmatch(r"id\s+name\s+count\s+kind\s+text", lines[0])
    assert re.search(r"^standard-donkey\s+Standard Donkey\s+8\s+donkey\s+capacity 5 × N, no effect$", out, re.M)
    assert re.search(r"^cargo-2\s+Cargo 2\s+1 each\s+cargo\s+As a drover advantage: the donkey's capacity goes up by "
                     r"the number of players this round$", out, re.M)
    assert lines[-2:] == ["Overloaded: 23 cards, 20 copies + 10 per player", "The rules: meeple rules overloaded"]
    assert len(lines) == 1 + len(load_game("overloaded").model.cards) + 2


@pytest.mark.parametrize("columns", [100, 60])
def test_cards_fit_the_terminal(capsys, monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, _ = run(capsys, "cards", "sky-haulers")
    assert code == 0
    lines = out.splitlines()
    rows = [line for line in lines[1:-2] if not line.startswith(" ")]  # the count and the rules line after
    assert len(rows) == len(load_game("sky-haulers").model.cards)
    assert all(len(line) <= columns for line in lines), max(lines, key=len)
    assert any(line.startswith(" ") and "draw" in line for line in lines)  # wrapped or put under the row


def test_cards_of_an_unknown_game_is_one_line(capsys):
    code, _, err = run(capsys, "cards", "overlodaed")
    assert code == 1 and len(err.strip().splitlines()) == 1 and "did you mean `overloaded`?" in err


# ---- validate ---------------------------------------------------------------------------------------


def test_validate_takes_a_bundled_name_and_counts_copies_and_scenarios(capsys):
    code, out, err = run(capsys, "validate", "overloaded", "sky-haulers")
    assert code == 0, err
    assert re.search(r"^ok: overloaded \(23 cards, 20 copies \+ 10 per player; \d+ scenarios\)$", out, re.M)
    assert re.search(r"^ok: sky-haulers \(64 cards, 69 copies; \d+ scenarios\)$", out, re.M)


def test_validate_counts_in_words_of_the_right_number(tmp_path, capsys):
    card_file = tmp_path / "one.yaml"
    card_file.write_text("cards:\n  - {id: solo, start: deck}\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(card_file))
    assert code == 0 and out.strip() == f"ok: {card_file} (1 card, 1 copy)"
    card_file.write_text("cards:\n  - {id: solo, start: deck, count: 3, each_player: true}\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(card_file))
    assert out.strip() == f"ok: {card_file} (1 card, 3 copies per player)"
    card_file.write_text("cards:\n  - {id: solo, start: deck, count: 0}\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(card_file))
    assert code == 1 and err.strip().endswith("1 error found")


def test_validate_checks_the_games_scenario_files(tmp_path, capsys):
    folder = tmp_path / "game"
    shutil.copytree(OVERLOADED, folder)
    path = folder / "scenarios" / "rounds.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("  decisions:", "  decisons:", 1), encoding="utf-8")
    code, _, err = run(capsys, "validate", str(folder))
    assert code == 1
    assert re.search(rf"^{re.escape(str(path))}:\d+:3: error: unknown key `decisons`", err, re.M)
    assert "did you mean `decisions`?" in err
    code, _, err = run(capsys, "validate", str(path))  # one scenario file alone
    assert code == 1 and "unknown key `decisons`" in err


def test_validate_format_json_is_one_list_of_diagnostics(tmp_path, capsys):
    folder = tmp_path / "game"
    shutil.copytree(OVERLOADED, folder, ignore=shutil.ignore_patterns("scenarios"))
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("shuffle donkeys", "shufle donkeys", 1),
                         encoding="utf-8")
    code, out, err = run(capsys, "validate", "--format", "json", str(folder), "no-such-game", "overloaded")
    assert code == 1 and err == ""
    found = json.loads(out)
    assert isinstance(found, list) and len(found) == 2
    dsl, missing = found
    assert set(dsl) == {"file", "line", "col", "severity", "message", "hint"}
    assert dsl["file"] == str(game_yaml) and dsl["severity"] == "error"
    assert isinstance(dsl["line"], int) and isinstance(dsl["col"], int)
    assert "shufle" in dsl["message"] and dsl["hint"] == "did you mean `shuffle`?"
    assert missing["file"] == "no-such-game" and missing["line"] is None
    code, out, _ = run(capsys, "validate", "--format", "json", "overloaded")
    assert code == 0 and json.loads(out) == []


# ---- play and sim -----------------------------------------------------------------------------------


@pytest.mark.parametrize("answer", ["q", "quit", "Q"])
def test_quitting_at_the_prompt_ends_the_match_with_exit_0(monkeypatch, capsys, tmp_path, answer):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"1\n{answer}\n"))
    log = tmp_path / "left.jsonl"
    code, out, err = run(capsys, "play", "overloaded", "--human", "0", "--log", str(log))
    assert code == 0, err
    assert out.rstrip().endswith("the match is abandoned")
    assert "Winner" not in out and not log.exists()  # an unfinished match writes no log


def test_play_header_counts_players_in_words(capsys):
    code, out, _ = run(capsys, "play", "overloaded", "--players", "3", "--seed", "2")
    assert code == 0 and out.startswith("Overloaded: 3 players, seed 2\n")


@pytest.mark.parametrize("count, forms, text", [
    (1, "card|cards", "1 card"), (2, "card|cards", "2 cards"), (0, "card|cards", "0 cards"),
    (1, "карта|карты|карт", "1 карта"), (3, "карта|карты|карт", "3 карты"), (5, "карта|карты|карт", "5 карт"),
    (11, "карта|карты|карт", "11 карт"), (21, "карта|карты|карт", "21 карта"), (14, "карта|карты|карт", "14 карт"),
])
def test_counts_take_the_languages_right_form(count, forms, text):
    from interpreter.table import counted

    assert counted(count, forms) == text


def test_sim_workers_are_capped_by_matches_and_cores(capsys):
    code, out, _ = run(capsys, "sim", "overloaded", "-n", "1", "--workers", "8", "--json")
    assert code == 0 and json.loads(out)["workers"] == 1
    code, out, _ = run(capsys, "sim", "overloaded", "-n", "1", "--workers", "8")
    assert re.search(r"^Overloaded: 1 game, 4 players, seed 0$", out, re.M)
    assert re.search(r", 1 worker$", out, re.M)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    code, out, _ = run(capsys, "sim", "overloaded", "-n", "40", "--workers", "64", "--json")
    assert json.loads(out)["workers"] == min(40, cores)


def test_help_lists_the_new_commands(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("test", "cards", "validate"):
        assert re.search(rf"^\s+{command}\s", out, re.M), out


def test_bundled_scenarios_ship_with_the_package():
    """pyproject's package data must carry every file under cards/, scenario files included."""
    import tomllib

    config = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["interpreter.cards"]
    cards = data_dir("cards")
    carried = {p for pattern in patterns for p in cards.glob(pattern)}
    every = {p for p in cards.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert every and every <= carried, sorted(str(p) for p in every - carried)
    assert any(p.parent.name == "scenarios" for p in every)
