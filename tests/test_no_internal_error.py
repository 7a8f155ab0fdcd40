"""Inputs that once ended in an internal error (a Python traceback) and now get a clear message: file names the
system refuses, seat numbers in other digits than 0-9, a named set given to a function of values, deep `if`s."""

import textwrap
from pathlib import Path

import pytest
from test_hostile_input import GAME, edited, make_game, run, validate_fails

LONG = "a" * 300  # longer than a file name may be (255 bytes on the usual file systems)


@pytest.fixture
def tiny(tmp_path) -> Path:
    return make_game(tmp_path / "tiny")


# ---- file names the system refuses ---------------------------------------------------------------------


def output_commands(tmp_path: Path) -> list[list[str]]:
    long = str(tmp_path / LONG)
    return [
        ["compile", "go-fish", "-o", long],
        ["play", "go-fish", "--log", long],
        ["play", "go-fish", "--log-for", "0", long],
        ["play", "go-fish", "--log", str(tmp_path / LONG / "m.jsonl")],
        ["check", "go-fish", "--out", long],
    ]


def game_commands(tmp_path: Path) -> list[list[str]]:
    return [
        [command, game] for command in ("play", "sim", "test", "cards", "compile", "check", "validate")
        for game in (LONG, str(tmp_path / LONG), str(tmp_path / LONG / "game.yaml"))
    ] + [
        ["replay", str(tmp_path / LONG)],
        ["validate", str(tmp_path / LONG / "cards.yaml")],
        ["validate", str(tmp_path / LONG / "scenarios" / "a.yaml")],
    ]


def test_a_file_name_too_long_for_the_system_is_a_clear_error(capsys, tmp_path):
    for argv in output_commands(tmp_path) + game_commands(tmp_path):
        if argv[0] == "sim":
            argv = [*argv, "-n", "1"]
        code, _, err = run(capsys, *argv)  # no traceback, no internal error
        assert code == 1, argv
        assert LONG in err and ("File name too long" in err or "no game" in err or "cannot read" in err), err
        assert not list(tmp_path.iterdir()), "nothing written"


def test_a_listed_card_file_whose_name_is_too_long_is_a_clear_error(capsys, tiny):
    (tiny / "game.yaml").write_text(edited(GAME, ("cards: [cards.yaml]", f"cards: [{LONG}.yaml]")))
    for command in ("validate", "play"):
        code, _, err = run(capsys, command, tiny)
        assert code == 1 and "File name too long" in err, err


# ---- seat numbers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", ["²", "٣", "1_0", " 1x", "-1", "99999999999999999999999999"])
def test_a_seat_is_written_in_ascii_digits(capsys, tmp_path, seat):
    log = str(tmp_path / "seat.jsonl")
    for argv in (["play", "go-fish", "--log-for", seat, log], ["play", "go-fish", "--human", seat],
                 ["replay", log, "--as", seat], ["sim", "go-fish", "-n", "1", "--players", seat]):
        code, out, err = run(capsys, *argv)
        assert code in (1, 2) and out == "", argv
        assert ": error: " in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())


def test_a_seat_in_ascii_digits_still_works(capsys, tmp_path):
    code, _, err = run(capsys, "play", "go-fish", "--seed", "1", "--log-for", "1", str(tmp_path / "p1.jsonl"))
    assert code == 0, err
    assert (tmp_path / "p1.jsonl").read_text().startswith('{"type": "match"')


# ---- a named set where a function takes values --------------------------------------------------------


@pytest.mark.parametrize("call", ["abs(x in deck)", "seat(x in deck)", "ring_distance(x in deck, 1, 2)",
                                  "double(x in deck)", "double(x in deck where x.value > 1)"])
def test_a_named_set_given_to_a_function_of_values_is_a_located_error(capsys, tiny, call):
    (tiny / "game.yaml").write_text(edited(GAME, ('    say "{me} has {my points}"\n',
                                                  f'    say "{{me}} has {{my points}}"\n    let n = {call}\n')))
    name = call.split("(")[0]
    validate_fails(capsys, tiny, "game.yaml", rf"`{name}` takes values, not `x in …`")


def test_a_named_set_still_works_in_an_aggregate(capsys, tiny):
    (tiny / "game.yaml").write_text(edited(GAME, ('    say "{me} has {my points}"\n',
                                                  '    say "{me} has {my points}"\n'
                                                  '    let n = double(sum(x in deck where x.value > 1, x.value))\n')))
    code, _, err = run(capsys, "validate", tiny)
    assert code == 0, err


# ---- deep nesting -------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [100, 120, 145, 180, 220, 260, 300, 350, 400, 600])
def test_ifs_nested_at_any_depth_are_a_located_error(capsys, tiny, depth):
    ifs = "".join("  " * i + "if true:\n" for i in range(depth)) + "  " * depth + 'say "deep"\n'
    (tiny / "game.yaml").write_text(edited(GAME, ("  turn: |\n", "  turn: |\n" + textwrap.indent(ifs, "    "))))
    validate_fails(capsys, tiny, "game.yaml", r"this text nests too deeply to (read|compile)")
