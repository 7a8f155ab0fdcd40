"""Smaller promises of the command line: `check` keeps Hypothesis's files out of the working folder, a seat
log given to `replay` is shown as that seat saw the match, and `none` where a player is needed is refused."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_hostile_input import GAME, edited, make_game, run, validate_fails

from interpreter import cache as cache_module

ROOT = Path(__file__).resolve().parent.parent


def test_check_keeps_hypothesis_files_in_the_cache_folder_not_the_working_folder(tmp_path):
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    compiled = cache_module.folder()  # the compiled games this process uses: Go Fish is not compiled again
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT),
           cache_module.ENV: str(compiled) if compiled else "off"}
    env.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
    done = subprocess.run([sys.executable, "-m", "interpreter", "check", "go-fish", "--players", "2",
                           "--examples", "2", "--leaks", "0"], cwd=work, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert list(work.iterdir()) == []
    assert (cache / "meeple" / "hypothesis").is_dir()


@pytest.fixture
def logs(capsys, tmp_path) -> tuple[Path, Path]:
    full, seat = tmp_path / "m.jsonl", tmp_path / "p1.jsonl"
    code, _, err = run(capsys, "play", "go-fish", "--seed", "2", "--log", full, "--log-for", "1", seat)
    assert code == 0, err
    return full, seat


def test_a_seat_log_is_shown_as_that_seat_saw_the_match(capsys, logs):
    full, seat = logs
    code, out, err = run(capsys, "replay", seat)
    assert code == 0, err
    head, *shown = out.splitlines()
    assert head.startswith(f"{seat} is what P1 saw of a match of go-fish for 3 players (a seat log: it has no seed")
    assert shown[-1].startswith("  scores ")
    code, out, _ = run(capsys, "replay", full, "--as", "1")
    assert code == 0
    assert out.splitlines()[2:] == shown, "the same lines as `replay --as 1` of the full log"


def test_a_seat_log_holds_nothing_of_another_seat(capsys, logs):
    _, seat = logs
    code, out, err = run(capsys, "replay", seat, "--as", "2")
    assert code == 1 and out == ""
    assert err.startswith(f"{seat}:1: error: this is what P1 saw (a seat log); it holds nothing of what P2 saw")


@pytest.mark.parametrize("line, number", [('{"type": "event", "event": "move"}', 2), ("[]", 2),
                                          ('{"type": "result", "scores": 3}', 2)])
def test_a_broken_seat_log_is_refused_at_its_line(capsys, logs, line, number):
    _, seat = logs
    seat.write_text(seat.read_text().splitlines()[0] + "\n" + line + "\n")
    code, out, err = run(capsys, "replay", seat)
    assert code == 1 and out == ""
    assert err.startswith(f"{seat}:{number}: error: ")


def test_a_seat_log_header_names_a_seat_of_the_match(capsys, tmp_path):
    seat = tmp_path / "p9.jsonl"
    seat.write_text('{"type": "match", "game": "go-fish", "version": "1.0", "players": 3, "seat": 9}\n')
    code, _, err = run(capsys, "replay", seat)
    assert code == 1 and err.startswith(f"{seat}:1: error: the seat must be one of the match's seats 0..2")


@pytest.mark.parametrize("statement, message", [
    ("knock out none", "the player to knock out cannot be none"),
    ("let p = none\n    knock out p", "the player to knock out cannot be none"),
    ("move the top card of deck to hand of none", r"`hand of none`: none is no player and no card"),
    ("let v = value of none", r"`value of none`: none is no player and no card"),
])
def test_none_where_a_player_is_needed_is_refused_before_play(capsys, tmp_path, statement, message):
    folder = make_game(tmp_path / "tiny", edited(GAME, ('    say "{me} has {my points}"\n',
                                                        f'    say "{{me}} has {{my points}}"\n    {statement}\n')))
    validate_fails(capsys, folder, "game.yaml", message)


def test_knocking_out_no_one_at_run_time_is_a_rule_error(capsys, tmp_path, monkeypatch):
    folder = make_game(tmp_path / "tiny", edited(GAME, ('    say "{me} has {my points}"\n',
                                                        '    say "{me} has {my points}"\n'
                                                        "    knock out holder of the top card of deck\n")))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # where play leaves the failed match's log (not the folder the tests run from)
    code, _, err = run(capsys, "play", folder)
    assert code == 1
    assert "game.yaml:31:15: the player to knock out is none here, where one is needed" in err
    assert [p.name for p in work.iterdir()] == ["rule-failure.jsonl"]


def test_a_seat_log_cannot_send_control_characters_to_the_terminal(capsys, logs):
    _, seat = logs
    seat.write_text(seat.read_text().splitlines()[0] + "\n"
                    + '{"type": "event", "event": "say", "text": "\\u001b[2J\\u009bwiped\\nforged line"}\n')
    code, out, _ = run(capsys, "replay", seat)
    assert code == 0
    assert out.splitlines()[1] == "  \\x1b[2J\\x9bwiped\\nforged line"
