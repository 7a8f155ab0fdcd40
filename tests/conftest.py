"""Shared fixtures: bundled games are compiled once per test session. And bytecode kept where the environment
says not to write it."""

import contextlib
import gc
import os
import sys
from pathlib import Path

import pytest


def _bytecode_kept_apart() -> None:
    """Where PYTHONDONTWRITEBYTECODE is set (as in many containers), every process of a run (each xdist worker)
    would compile every module of the engine again and rewrite the asserts of every test module again: about 8 s
    of CPU a worker, each run. This process keeps that bytecode instead (pytest keeps its rewritten test modules
    where Python keeps bytecode), never beside the sources: in the user's cache folder
    (`$XDG_CACHE_HOME/meeple/pycache`, else `~/.cache/meeple/pycache`; deleting it is always safe), as Python
    does with `PYTHONPYCACHEPREFIX`. Processes the tests start are left as the environment says. An explicit
    `PYTHONPYCACHEPREFIX` is kept."""
    if not sys.dont_write_bytecode or sys.pycache_prefix:
        return
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    sys.pycache_prefix = str(Path(base) / "meeple" / "pycache")
    sys.dont_write_bytecode = False


_bytecode_kept_apart()


def _collections_less_often() -> None:
    """The cycle collector of a test process runs after 10,000 new objects, not Python's 700: the tests build
    and drop many matches, compiled games and parse trees, and at Python's pace the collector took 7-10% of a
    test file's CPU (1.5 of 15.6 s over test_check, test_sky_haulers_rules and test_print; 0.45 s so). What is
    left for it to collect stays a little longer (the processes' peak memory 4% higher). Nothing a test checks
    depends on when a cycle is collected; processes the tests start keep Python's pace."""
    gc.set_threshold(10_000, 10, 10)


_collections_less_often()

from interpreter.game import load_game  # noqa: E402  (the engine's bytecode kept too)
from interpreter.load.loader import bundled_games  # noqa: E402

pytest.register_assert_rewrite("tests.serving")  # the serve tests' shared helpers and fixture: asserts explained


def pytest_configure(config):
    """In a parallel run (pytest-xdist), the process that hands out the tests first compiles the bundled games and
    reads their scenario files into the compiled-game cache, before it starts the workers: each worker reads all
    of them while collecting (tests/test_scenarios.py), and with a cold cache (a fresh machine, or any edit of the
    engine, which names new entries) every worker compiled them at the same time, 2.9 s of CPU each instead of
    0.4. A game that does not load is left to the workers' tests to report."""
    if hasattr(config, "workerinput") or config.getoption("dist", "no") == "no" or not config.getoption("tx", []):
        return
    from interpreter.scenarios import load_scenarios

    for name in bundled_games():
        with contextlib.suppress(Exception):  # a game that does not load: the tests that load it say what is wrong
            load_scenarios(load_game(name))


@pytest.fixture(scope="session")
def overloaded():
    return load_game("overloaded")


@pytest.fixture
def drawings_only(monkeypatch):
    """`determinize` with no last stage (`stages._walked`): where its drawings from the start all fail, it raises (a
    test of those drawings, or of the error)."""
    from interpreter.run.belief import stages

    def not_walked(match, seat, rng, budget, failed):
        raise failed

    monkeypatch.setattr(stages, "_walked", not_walked)


def pytest_generate_tests(metafunc):
    if "bundled_game" in metafunc.fixturenames:
        metafunc.parametrize("bundled_game", bundled_games())


@pytest.fixture(autouse=True)
def _a_terminal_of_100_columns(monkeypatch):
    """Screens are laid out to the terminal's width: every test sees the width a pipe gets (100), whether
    the run has a terminal or not, and whichever process of a parallel run it lands in."""
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "24")
