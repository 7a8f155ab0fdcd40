"""`meeple replay --lang`: a seat's observations told in words in the language asked, as `play --lang` tells
the match (issue: `--lang` worked only on `play`)."""

from interpreter.cli import main


def logs(tmp_path):
    full, seat = tmp_path / "m.jsonl", tmp_path / "p2.jsonl"
    assert main(["play", "overloaded", "--seed", "1", "--log", str(full), "--log-for", "2", str(seat)]) == 0
    return full, seat


def test_replay_as_a_seat_tells_it_in_the_language_asked(tmp_path, capsys):
    full, _ = logs(tmp_path)
    capsys.readouterr()
    assert main(["replay", str(full), "--as", "2", "--lang", "ru"]) == 0
    russian = capsys.readouterr().out
    assert main(["replay", str(full), "--as", "2"]) == 0
    english = capsys.readouterr().out
    assert "перемешано" in russian and "shuffled" not in russian
    assert "shuffled" in english and "перемешано" not in english
    assert russian.count("\n") == english.count("\n")  # the same observations, one a line


def test_a_seat_log_is_shown_in_the_language_asked(tmp_path, capsys):
    _, seat = logs(tmp_path)
    capsys.readouterr()
    assert main(["replay", str(seat), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{seat} — то, что видел P2 в партии overloaded на 4 игрока")
    assert "перемешано" in out


def test_an_unknown_language_is_refused(tmp_path, capsys):
    full, _ = logs(tmp_path)
    try:
        code = main(["replay", str(full), "--lang", "xx"])
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    assert "invalid choice: 'xx'" in capsys.readouterr().err
