"""The command line's hints and refusals a new user follows: a replay hint that works for a game outside
the bundle, a seed from 0, `replay --as` refused before the replay, a word when --workers is cut down, a
seat's log shown rather than refused."""

import re
import shutil

import pytest

from interpreter.cli import main
from interpreter.paths import data_dir


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_replay_hint_after_a_rule_failure_names_the_game_folder_and_works(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "mine"
    shutil.copytree(data_dir("cards") / "overloaded", folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    old = "set capacity to donkey.capacity_per_player * players + donkey.capacity_bonus"
    game_yaml.write_text(text.replace(old, "set capacity to donkey.capacity_per_player * players / (round - 3)"),
                         encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "play", str(folder), "--seed", "1")
    assert code == 1 and "division by zero" in err
    hint = re.search(r"\(`(meeple replay [^`]+)` re-runs it\)", err).group(1)
    assert hint == f"meeple replay rule-failure.jsonl --game {folder}"
    code, out, err = run(capsys, *hint.split()[1:])  # following it: the same failure, no mismatch
    assert code == 0 and out.startswith("replay ok") and "the rules fail at the same point" in out, err


@pytest.mark.parametrize("command", [["play", "overloaded"], ["sim", "overloaded", "-n", "1"],
                                     ["check", "overloaded", "--examples", "1"]])
def test_a_negative_seed_is_refused_alike_by_every_command(capsys, command):
    for bad in ("-3", "abc"):
        code, out, err = run(capsys, *command, "--seed", bad)
        assert code == 2 and out == ""
        assert err.startswith(f"meeple {command[0]}: error: argument --seed: must be a whole number from 0, of at most")


def test_replay_as_a_seat_outside_the_match_is_refused_before_replaying(tmp_path, capsys, monkeypatch):
    log = tmp_path / "m.jsonl"
    assert main(["play", "overloaded", "--seed", "1", "--log", str(log)]) == 0
    capsys.readouterr()

    def no_replay(*args, **kwargs):
        raise AssertionError("the match was replayed before --as was checked")

    import interpreter.replaying  # where replay starts a match (patched there: its own name for it)

    monkeypatch.setattr(interpreter.replaying, "begin", no_replay)
    code, out, err = run(capsys, "replay", str(log), "--as", "9")
    assert code == 1 and out == "" and err.strip() == "meeple replay: error: --as 9: the match has seats 0..3"


def test_sim_says_when_it_runs_fewer_workers_than_asked(capsys, monkeypatch):
    monkeypatch.setattr("interpreter.cli.matches._cores", lambda: 2)
    code, out, err = run(capsys, "sim", "overloaded", "-n", "4", "--workers", "9", "--json")
    assert code == 0 and '"workers": 2' in out
    assert err.strip() == "meeple sim: --workers 9: this machine has 2 cores, so 2 workers run"
    code, _, err = run(capsys, "sim", "overloaded", "-n", "4", "--workers", "2", "--json")
    assert code == 0 and err == ""


def test_replaying_a_seats_log_shows_it(tmp_path, capsys):
    full, seat = tmp_path / "m.jsonl", tmp_path / "p1.jsonl"
    assert main(["play", "overloaded", "--seed", "1", "--log", str(full), "--log-for", "1", str(seat)]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "replay", str(seat))
    assert code == 0 and err == ""
    assert out.startswith(f"{seat} is what P1 saw of a match of overloaded for 4 players (a seat log")
    assert "unknown key" not in out and "missing required keys" not in out


def test_every_python_name_the_readme_gives_exists():
    import importlib
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    names = set(re.findall(r"\b(interpreter(?:\.[A-Za-z_]\w*)+)", text))
    assert "interpreter.run.sim.simulate" in names  # not interpreter.sim.simulate, which is gone
    missing = []
    for name in sorted(names):
        parts = name.split(".")
        for i in range(len(parts), 0, -1):  # the longest importable module, then its attributes
            try:
                found = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            for part in parts[i:]:
                found = getattr(found, part, None)
            break
        if found is None:
            missing.append(name)
    assert missing == []
