"""The bundled games' rule scenarios (cards/<game>/scenarios/*.yaml), run through the package's runner.

The format and the runner live in `interpreter.scenarios`; `meeple test GAME` runs the same files.
Other test modules run a single scenario by name with `run_scenario("overloaded", name)`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.load.loader import bundled_games
from interpreter.scenarios import Scenario, find, load_scenarios, play

REPO = Path(__file__).resolve().parent.parent
RULEBOOKS = REPO.parent / "shared" / "games"  # the launch games' rulebooks, <game>.md, beside the repository


def rulebook(game: str) -> Path:
    """The game's rulebook: beside the repository for the launch games, else the README in its folder."""
    book = RULEBOOKS / f"{game}.md"
    return book if book.is_file() else Path(load_game(game).model.root) / "README.md"


def game_of(name: str):
    """A bundled game (compiled once per process)."""
    return load_game(name)


@cache
def scenarios_of(game: str) -> list[Scenario]:
    """A bundled game's scenarios, read once per process when first asked for (a module that runs a few
    scenarios of one game reads no other game's)."""
    return load_scenarios(game_of(game))


def every_scenario() -> list[Scenario]:
    return [sc for game in bundled_games() for sc in scenarios_of(game)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`test_scenario` runs once per scenario of every bundled game (read when this module's tests are
    collected, not when another module imports `run_scenario`)."""
    if "sc" in metafunc.fixturenames:
        every = every_scenario()
        metafunc.parametrize("sc", every, ids=[f"{sc.game.name}/{sc.id}" for sc in every])


def run_scenario(game: str, name: str):
    """Run the scenario called `name` of a bundled game; returns the match for further checks."""
    return play(find(scenarios_of(game), name))


def plain(text: str) -> str:
    """Rulebook text without Markdown emphasis and with single spaces, for quoting sentences."""
    return " ".join(text.replace("**", "").split())


def test_every_bundled_game_has_scenarios():
    assert {sc.game.name for sc in every_scenario()} == set(bundled_games())


@pytest.mark.parametrize("game", bundled_games())
def test_every_quoted_rule_is_in_the_rulebook(game):
    book = rulebook(game)
    if not book.is_file():
        pytest.skip(f"no rulebook at {book}")
    text = plain(book.read_text(encoding="utf-8"))
    missing = [f"{sc.id}: {plain(sc.rule)!r}" for sc in scenarios_of(game) if plain(sc.rule) not in text]
    assert not missing, f"quoted rules not in {book.name}:\n" + "\n".join(missing)


def test_scenario(sc):
    play(sc)
