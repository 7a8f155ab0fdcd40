"""Shared fixtures: bundled games are compiled once per test session."""

import pytest

from interpreter.game import load_game
from interpreter.load.loader import bundled_games

pytest.register_assert_rewrite("tests.serving")  # the serve tests' shared helpers and fixture: asserts explained


@pytest.fixture(scope="session")
def overloaded():
    return load_game("overloaded")


def pytest_generate_tests(metafunc):
    if "bundled_game" in metafunc.fixturenames:
        metafunc.parametrize("bundled_game", bundled_games())


@pytest.fixture(autouse=True)
def _a_terminal_of_100_columns(monkeypatch):
    """Screens are laid out to the terminal's width: every test sees the width a pipe gets (100), whether
    the run has a terminal or not, and whichever process of a parallel run it lands in."""
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "24")
