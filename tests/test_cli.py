"""The `meeple` command line, run in-process through `main([...])` (plus one real subprocess)."""

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from interpreter import load_game, play_random
from interpreter.cli import main
from interpreter.paths import data_dir
from interpreter.run.sim import simulate

OVERLOADED = data_dir("cards") / "overloaded"
RESULT_KEYS = {"game", "seed", "players", "winners", "scores", "turns", "decisions"}
SIM_KEYS = {"game", "games", "seed", "players", "wins_by_seat", "mean_turns", "games_per_s"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def broken_copy(tmp_path: Path, name: str, breaks: dict[str, tuple[str, str]]) -> tuple[Path, list[str]]:
    """A copy of Overloaded with `old` replaced by `new` once per file; returns the folder and each break's
    `file:line:` prefix."""
    folder = tmp_path / name
    shutil.copytree(OVERLOADED, folder)
    where = []
    for file, (old, new) in breaks.items():
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert old in text
        line = text[: text.index(old)].count("\n") + 1
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        where.append(f"{path}:{line}:")
    return folder, where


def log_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, lines: list[dict]) -> None:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


# ---- games and validate ----------------------------------------------------------------------------


def test_games_lists_overloaded(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    assert re.search(r"^overloaded\s+Overloaded\s+3–6 players \(default 4\)$", out, re.MULTILINE)


def test_validate_bundled_game_and_its_files(capsys):
    code, out, err = run(capsys, "validate", str(OVERLOADED), str(OVERLOADED / "game.yaml"),
                         str(OVERLOADED / "cargo.yaml"))
    assert code == 0, err
    assert f"ok: {OVERLOADED} (" in out
    assert f"ok: {OVERLOADED / 'cargo.yaml'} (10 cards, 10 copies per player)" in out


def test_validate_reports_every_dsl_break_in_one_run(tmp_path, capsys):
    folder, where = broken_copy(tmp_path, "broken", {
        "game.yaml": ("shuffle donkeys", "shufle donkeys"),
        "cargo.yaml": ("effect: add players to capacity", "effect: add players too capacity"),
    })
    code, out, err = run(capsys, "validate", str(folder))
    assert code == 1
    for prefix in where:
        assert re.search(re.escape(prefix) + r"\d+: error: ", err), (prefix, err)
    assert "^" in err  # the caret under the fault
    assert "Traceback" not in out + err


def test_validate_reports_a_card_key_typo(tmp_path, capsys):
    folder, where = broken_copy(tmp_path, "typo", {"cargo.yaml": ("    value: 1\n", "    valeu: 1\n")})
    code, _, err = run(capsys, "validate", str(folder / "cargo.yaml"))
    assert code == 1
    assert f"{where[0]}5: error: unknown card property `valeu`" in err
    assert "did you mean `value`?" in err


def test_validate_reports_card_key_typo_and_dsl_break_together(tmp_path, capsys):
    folder, where = broken_copy(tmp_path, "both", {
        "game.yaml": ("shuffle donkeys", "shufle donkeys"),
        "cargo.yaml": ("    value: 1\n", "    valeu: 1\n"),
    })
    code, _, err = run(capsys, "validate", str(folder))
    assert code == 1
    for prefix in where:
        assert prefix in err


def test_validate_reports_all_paths(tmp_path, capsys):
    one, where_one = broken_copy(tmp_path, "one", {"game.yaml": ("shuffle donkeys", "shufle donkeys")})
    two, where_two = broken_copy(tmp_path, "two", {"donkeys.yaml": ("count: 8", "count: many")})
    code, out, err = run(capsys, "validate", str(one), str(OVERLOADED), str(two))
    assert code == 1
    assert f"ok: {OVERLOADED}" in out
    assert where_one[0] in err and where_two[0] in err


def test_validate_lone_card_file(tmp_path, capsys):
    lone = tmp_path / "extra.yaml"
    shutil.copy(OVERLOADED / "donkeys.yaml", lone)
    code, out, _ = run(capsys, "validate", str(lone))
    assert (code, out.strip()) == (0, f"ok: {lone} (13 cards, 20 copies)")
    lone.write_text(lone.read_text(encoding="utf-8").replace("count: 8", "count: eight"), encoding="utf-8")
    code, _, err = run(capsys, "validate", str(lone))
    assert code == 1
    assert re.search(re.escape(str(lone)) + r":\d+:\d+: error: .*count", err)


# ---- play -------------------------------------------------------------------------------------------


def test_play_prints_say_lines_and_the_winner(capsys):
    code, out, err = run(capsys, "play", "overloaded", "--seed", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert any(line.startswith("Round 1: ") for line in lines)
    # Cargo cards go face down (loads, advantages) or are scouted face down: no line names one by its id.
    assert not any("cargo-" in line for line in lines)
    assert re.match(r"(Winner: P\d|Shared win: P\d(, P\d)+)$", lines[-1])


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (3, 7), (6, 12)])
def test_play_json_is_the_contract_result_and_equals_play_random(capsys, players, seed):
    code, out, _ = run(capsys, "play", "overloaded", "--players", str(players), "--seed", str(seed), "--json")
    assert code == 0
    result = json.loads(out)
    assert set(result) == RESULT_KEYS
    expected = play_random(load_game("overloaded"), players, seed).result()
    del expected["type"]
    assert result == {"game": "overloaded", "seed": seed, "players": players, **expected}


def test_play_russian_words(capsys):
    code, out, _ = run(capsys, "play", "overloaded", "--seed", "1", "--lang", "ru")
    assert code == 0
    assert "итоговые очки" in out and ("Победитель: P" in out or "Общая победа: " in out)
    assert "Round 1: " in out  # the game's own sentences stay as written


def test_play_log_validates_and_replays(tmp_path, capsys):
    log = tmp_path / "match.jsonl"
    code, _, _ = run(capsys, "play", "overloaded", "--seed", "5", "--log", str(log), "--json")
    assert code == 0
    lines = log_lines(log)
    schema = json.loads((data_dir("schemas") / "log.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    for line in lines:
        assert not list(validator.iter_errors(line)), line
    assert [lines[0]["type"], lines[-1]["type"]] == ["match", "result"]
    assert not list(tmp_path.glob(".*tmp"))  # the temp file was renamed into place
    code, out, err = run(capsys, "replay", str(log))
    assert code == 0, err
    decisions = sum(line["type"] == "decision" for line in lines)
    assert re.match(rf"replay ok: \d+ events, {decisions} decisions, result matches$", out.strip())


@pytest.fixture
def logged(tmp_path, capsys):
    log = tmp_path / "match.jsonl"
    assert main(["play", "overloaded", "--seed", "2", "--log", str(log)]) == 0
    capsys.readouterr()
    return log


def test_replay_catches_a_changed_decision(logged, capsys):
    lines = log_lines(logged)
    i = next(i for i, line in enumerate(lines) if line["type"] == "decision" and line["options"] > 2)
    lines[i]["choice"] = (lines[i]["choice"] + 1) % lines[i]["options"]
    write_lines(logged, lines)
    code, out, err = run(capsys, "replay", str(logged))
    assert code == 1
    assert err.startswith(f"{logged}:{i + 1}: mismatch: expected ")
    assert "Traceback" not in out + err


def test_replay_catches_a_changed_event(logged, capsys):
    lines = log_lines(logged)
    i = [i for i, line in enumerate(lines) if line["type"] == "event" and line["event"] == "say"][5]
    lines[i]["text"] += "!"
    write_lines(logged, lines)
    code, _, err = run(capsys, "replay", str(logged))
    assert code == 1
    assert err.startswith(f"{logged}:{i + 1}: mismatch: ")


def test_replay_catches_a_cut_log(logged, capsys):
    lines = log_lines(logged)
    write_lines(logged, lines[:-1])
    code, _, err = run(capsys, "replay", str(logged))
    assert code == 1
    assert "mismatch" in err


def test_replay_rejects_a_bad_line_with_its_number(logged, capsys):
    text = logged.read_text(encoding="utf-8").splitlines()
    text[3] = '{"type": "decision", "who": 0}'
    logged.write_text("\n".join(text) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(logged))
    assert code == 1
    assert err.startswith(f"{logged}:4: error: ")


def test_replay_with_a_game_path(tmp_path, logged, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(OVERLOADED, copy)
    code, out, _ = run(capsys, "replay", str(logged), "--game", str(copy))
    assert code == 0
    assert out.startswith("replay ok: ")


def test_human_seat_with_scripted_input(monkeypatch, capsys, tmp_path):
    # Garbage first: the seat is asked again; then always the first option.
    monkeypatch.setattr(sys, "stdin", io.StringIO("x\n0\n99\n" + "1\n" * 400))
    log = tmp_path / "human.jsonl"
    code, out, err = run(capsys, "play", "overloaded", "--human", "2", "--seed", "4", "--log", str(log))
    assert code == 0, err
    assert "── round 1 of 8 · first player P0 · you are P2 ──" in out
    assert out.count("not an option") == 3
    assert re.search(r"^(Winner|Shared win): ", out, re.MULTILINE)
    assert log_lines(log)[0]["bots"] == ["random", "random", "human", "random"]
    assert run(capsys, "replay", str(log))[0] == 0


def test_human_seat_end_of_input_is_a_clean_exit(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    log = tmp_path / "never.jsonl"
    code, out, err = run(capsys, "play", "overloaded", "--human", "0", "--log", str(log))
    assert code == 1
    assert "input ended" in err and "Traceback" not in out + err
    assert not log.exists()  # a log is written whole or not at all


# ---- sim --------------------------------------------------------------------------------------------


def test_sim_json_has_the_contract_keys(capsys):
    code, out, _ = run(capsys, "sim", "overloaded", "-n", "200", "--json")
    assert code == 0
    summary = json.loads(out)
    assert set(summary) >= SIM_KEYS
    assert summary["games"] == 200 and summary["players"] == 4
    assert sum(summary["wins_by_seat"]) >= 200  # a shared win counts for each winner
    assert summary["mean_turns"] > 0
    assert "overloads" in summary["mean_counters"]


def test_sim_text_summary(capsys):
    code, out, _ = run(capsys, "sim", "overloaded", "-n", "20", "--players", "3", "--seed", "10")
    assert code == 0
    assert "20 games, 3 players, seeds 10–29" in out
    assert "games/s" in out and "mean game counters" in out


def test_sim_workers_give_the_same_counts(capsys):
    one = json.loads(run(capsys, "sim", "overloaded", "-n", "120", "--seed", "40", "--json")[1])
    two = json.loads(run(capsys, "sim", "overloaded", "-n", "120", "--seed", "40", "--workers", "2",
                         "--json")[1])
    for key in ("wins_by_seat", "mean_scores", "mean_turns", "mean_decisions", "mean_counters"):
        assert one[key] == two[key], key


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_simulate_equals_play_random(players):
    game = load_game("overloaded")
    for seed in range(50):
        result = play_random(game, players, seed).result()
        scores, winners, turns, decisions = simulate(game, players, seed)[:4]
        assert (scores, winners, turns, decisions) == (
            result["scores"], result["winners"], result["turns"], result["decisions"]), seed


# ---- failures: one line, no traceback ---------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["play", "nosuchgame"],
    ["play", "overloaded", "--players", "9"],
    ["play", "overloaded", "--bots", "genius"],
    ["play", "overloaded", "--human", "5"],
    ["sim", "overloaded", "-n", "-3"],
    ["sim", "overloaded"],
    ["replay", "missing.jsonl"],
    ["validate", "no/such/folder"],
    ["frobnicate"],
])
def test_bad_arguments_give_one_line_and_no_traceback(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code != 0
    assert len(err.strip().splitlines()) == 1, err
    assert "error" in err and "Traceback" not in out + err


def test_python_dash_m_runs_the_command():
    done = subprocess.run([sys.executable, "-m", "interpreter", "games"], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "overloaded" in done.stdout


def test_sim_reports_a_dead_worker_instead_of_waiting_forever(monkeypatch):
    """A worker killed mid-run (out of memory, kill -9) ends `sim` with the matches the others finished."""
    import os

    from interpreter.run import sim

    real = sim.run_chunk

    def dies_on_its_second_chunk(folder, players, start, stop, *rest):
        if start != 0 and os.getpid() != parent:
            os._exit(9)
        return real(folder, players, start, stop, *rest)

    parent = os.getpid()
    monkeypatch.setattr(sim, "run_chunk", dies_on_its_second_chunk)
    game = load_game("overloaded")
    with pytest.raises(sim.WorkerLost, match="worker process died") as lost:
        sim.run_many(game, 4, 200, workers=2)
    assert lost.value.summary["games"] < 200


def test_sim_prints_the_partial_summary_and_the_error_when_a_worker_dies(monkeypatch, capsys):
    """`meeple sim --workers 2` with a worker killed: the finished matches' summary, then the error, exit 1."""
    import os

    from interpreter.run import sim

    real = sim.run_chunk

    def dies_on_its_second_chunk(folder, players, start, stop, *rest):
        if start != 0 and os.getpid() != parent:
            os._exit(9)
        return real(folder, players, start, stop, *rest)

    parent = os.getpid()
    monkeypatch.setattr(sim, "run_chunk", dies_on_its_second_chunk)
    monkeypatch.setattr("interpreter.cli.matches._cores", lambda: 2)
    assert main(["sim", "overloaded", "-n", "200", "--workers", "2", "--json"]) == 1
    out, err = capsys.readouterr()
    partial = json.loads(out)
    assert partial["games"] < 200 and f"{partial['games']} matches finished" in err
    assert "worker process died" in err and "Traceback" not in err


def test_sim_gives_means_only_of_number_counters(capsys):
    # Go Fish keeps the rank asked (a text) and the seat asked (a player): neither has a mean.
    code, out, _ = run(capsys, "sim", "go-fish", "-n", "20", "--json")
    assert code == 0
    means = json.loads(out)["mean_counters"]
    assert "asked_rank" not in means and "asked_of" not in means
