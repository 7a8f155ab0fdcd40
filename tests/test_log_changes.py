"""A match log's state lines as changes: the first whole, each later one with only what changed since the one
before, so that a log grows with what happens in the match, not with the number of cards; `replay` makes them
whole again and compares them with the match; a log still past the size limit is refused with one message."""

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from test_hostile_input import GAME as TINY
from test_hostile_input import edited, make_game

from interpreter import load_game, logfile, play_random
from interpreter.cli import main
from interpreter.logfile import CHANGES, StateChanges, read_log, splice, whole_states, write_log
from interpreter.paths import data_dir

GAME = edited(TINY, ("rounds: 1\n", "rounds: 5\n"))
CARDS = """\
cards:
  - id: one
    name: One
    count: 10000
    start: deck
"""


def many_cards(folder: Path, game: str = GAME) -> Path:
    return make_game(folder, game, CARDS)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, Path]:
    """The game of 10,000 cards and the log `play --log` writes of its match (played once for the module's
    tests: those that edit the log write a copy of their own)."""
    folder = tmp_path_factory.mktemp("played")
    game, log = many_cards(folder / "many"), folder / "m.jsonl"
    assert main(["play", str(game), "--log", str(log)]) == 0
    return game, log


def test_a_game_of_ten_thousand_cards_logs_what_changed_and_replays(played, capsys):
    game, log = played
    states = [line for line in lines_of(log) if line["type"] == "state"]
    assert len(states) == 10 and CHANGES not in states[0] and all(s[CHANGES] is True for s in states[1:])
    first = len(json.dumps(states[0]))
    assert len(states[0]["zones"]["deck"]) == 9999 and first > 100_000  # the first state line is whole
    assert all(len(json.dumps(s)) < 400 for s in states[1:])  # one card moved, one counter: a few ids
    assert log.stat().st_size < 2 * first  # was ten whole lines (2.4 MB)
    code, out, err = run(capsys, "replay", str(log), "--game", str(game))
    assert (code, err) == (0, "") and "result matches" in out


def test_every_line_keeps_to_the_schema_and_rebuilds_the_match_state_lines(tmp_path):
    game = load_game("overloaded")
    m = play_random(game, 4, 1, log=True)
    path = tmp_path / "o.jsonl"
    write_log(path, m.log, game)
    written = lines_of(path)
    schema = json.loads((data_dir("schemas") / "log.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    for line in written:
        assert not list(validator.iter_errors(line)), line
    assert sum(1 for line in written if line.get(CHANGES)) >= 5
    whole = whole_states(read_log(path), path)
    assert whole[1:] == json.loads(json.dumps(m.log[1:]))  # every line as the engine keeps it
    assert path.stat().st_size < len("".join(json.dumps(r) + "\n" for r in m.log).encode())


def test_a_splice_is_one_change_from_the_old_list_to_the_new():
    for old, new in [([], []), ([], ["a"]), (["a"], []), (["a", "b", "c"], ["a", "c"]), (["a", "b"], ["b", "a"]),
                     (["a", "b", "c"], ["x", "a", "b", "c"]), (["a", "b"], ["a", "b", "c"]), (["a", "a"], ["a"])]:
        change = splice(old, new)
        assert old[:change["at"]] + change["put"] + old[change["at"] + change["cut"]:] == new
    assert splice(["a", "b", "c", "d"], ["a", "d"]) == {"at": 1, "cut": 2, "put": []}


def test_the_first_state_line_is_whole_and_an_unchanged_state_lists_nothing():
    state = {"type": "state", "round": 1, "turn": 1, "first": 0, "zones": {"deck": ["a"], "hand": {"0": [], "1": []}},
             "face_down": ["a"], "counters": {"points": [0, 0], "left": 3}}
    changes = StateChanges()
    assert changes.line(state) is state
    again = changes.line(dict(state, turn=2))
    assert again == {"type": "state", CHANGES: True, "round": 1, "turn": 2, "first": 0, "zones": {}, "counters": {}}
    later = dict(state, zones={"deck": [], "hand": {"0": ["a"], "1": []}}, face_down=[],
                 counters={"points": [1, 0], "left": 3})
    assert changes.line(later)["zones"] == {"deck": {"at": 0, "cut": 1, "put": []},
                                            "hand": {"0": {"at": 0, "cut": 0, "put": ["a"]}}}


def test_a_log_of_whole_state_lines_still_replays(tmp_path, capsys):
    game = load_game("sky-haulers")
    m = play_random(game, 2, 1, log=True)
    header = m.log[0] | {"files": logfile.files_digest(game)}
    path = tmp_path / "whole.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [header, *m.log[1:]]), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert (code, err) == (0, "") and "result matches" in out


@pytest.mark.parametrize(("change", "message"), [
    ({"deck": {"at": 9999, "cut": 5, "put": []}}, "the splice at 9999 cutting 5 does not fit a list of 9999"),
    ({"nowhere": {"at": 0, "cut": 0, "put": []}}, "zone `nowhere` is not in the state line before"),
    ({"hand": {"at": 0, "cut": 0, "put": []}}, "zone `hand` is a zone of each player"),
    ({"hand": {"7": {"at": 0, "cut": 0, "put": []}}}, "zone `hand` has no seat 7"),
    ({"deck": {"0": {"at": 0, "cut": 0, "put": []}}}, "zone `deck`: a change is a splice"),
    ({"deck": {"at": -1, "cut": 0, "put": []}}, "at must be"),
])
def test_a_state_line_of_changes_that_does_not_fit_is_refused_at_its_line(tmp_path, capsys, played, change,
                                                                          message):
    game, played_log = played
    log = tmp_path / "m.jsonl"
    lines = lines_of(played_log)
    number = next(i for i, line in enumerate(lines) if line.get(CHANGES))
    lines[number]["zones"] = change
    log.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(log), "--game", str(game))
    assert code != 0 and out == "" and "Traceback" not in err
    assert f"m.jsonl:{number + 1}: error:" in err and message in err


def test_changes_before_any_whole_state_line_are_refused(tmp_path, capsys, played):
    game, played_log = played
    log = tmp_path / "m.jsonl"
    lines = lines_of(played_log)
    first = next(i for i, line in enumerate(lines) if line["type"] == "state")
    lines[first] = {"type": "state", CHANGES: True, "round": 1, "turn": 1, "first": 0, "zones": {}, "counters": {}}
    log.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(log), "--game", str(game))
    assert code != 0 and "Traceback" not in err
    assert f"m.jsonl:{first + 1}: error: a state line of changes before any whole state line" in err


def test_a_log_past_the_size_limit_is_refused_with_one_message_and_not_written(tmp_path, capsys, monkeypatch):
    # a deck of 10,000 shuffled every turn changes whole every turn: its log grows by a whole deck a turn
    shuffled = GAME.replace("  turn: |\n", "  turn: |\n    shuffle deck\n")
    game = many_cards(tmp_path / "many", shuffled)
    monkeypatch.setattr(logfile, "MAX_LOG_BYTES", 1024 * 1024)
    log = tmp_path / "m.jsonl"
    code, _, err = run(capsys, "play", str(game), "--log", str(log))
    assert code != 0 and "Traceback" not in err
    assert err.strip().endswith(f"cannot write {log}: the log would be larger than 1,048,576 bytes")
    assert not log.exists()


def test_a_longer_match_grows_its_log_by_what_each_turn_changed(tmp_path, capsys, played):
    # 80 turns of a 10,000-card game (the played one lasts 5 rounds, 10 turns): whole state lines would make
    # 19 MB, past the 16 MiB limit
    game = many_cards(tmp_path / "many40", edited(GAME, ("rounds: 5\n", "rounds: 40\n")))
    log = tmp_path / "m40.jsonl"
    assert run(capsys, "play", str(game), "--log", str(log))[0] == 0
    sizes = [played[1].stat().st_size, log.stat().st_size]
    assert sizes[1] - sizes[0] < 70 * 1000  # under 1 kB for each of the 70 turns more
    code, out, err = run(capsys, "replay", str(log), "--game", str(game))
    assert (code, err) == (0, "") and "result matches" in out
