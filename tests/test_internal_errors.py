"""A fault of the engine (any exception that is neither bad input nor a refusal of the system) is an internal
error: the command prints its traceback and a line asking to report it, on stderr, and exits 1. Bad input never
shows a traceback (tests/test_hostile_input.py)."""

import pytest

from interpreter import cli
from interpreter.cli import main
from interpreter.cli.common import CliError


def test_an_internal_error_shows_its_traceback_and_asks_to_report_it(capsys, monkeypatch):
    def faulty(args):
        raise ZeroDivisionError("a fault of the engine")

    monkeypatch.setitem(cli.COMMANDS, "games", faulty)
    assert main(["games"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("Traceback (most recent call last):\n")
    assert 'in faulty\n    raise ZeroDivisionError("a fault of the engine")' in err  # where it was raised
    assert err.endswith("meeple games: internal error (please report it): ZeroDivisionError: a fault of the engine\n")


@pytest.mark.parametrize("refusal", [OSError(2, "No such file or directory", "x.yaml"), CliError("bad input")])
def test_a_refusal_is_one_line_without_a_traceback(capsys, monkeypatch, refusal):
    def refusing(args):
        raise refusal

    monkeypatch.setitem(cli.COMMANDS, "games", refusing)
    assert main(["games"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err and len(err.splitlines()) == 1, err
