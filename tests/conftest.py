"""Shared fixtures: bundled games are compiled once per test session."""

import pytest

from interpreter.game import load_game
from interpreter.load.loader import bundled_games


@pytest.fixture(scope="session")
def overloaded():
    return load_game("overloaded")


def pytest_generate_tests(metafunc):
    if "bundled_game" in metafunc.fixturenames:
        metafunc.parametrize("bundled_game", bundled_games())
