"""Helpers for designers' own tests: the game's scenarios as pytest cases, and Hypothesis strategies.

    import pytest
    from interpreter.testing import check_scenario, scenario_cases

    @pytest.mark.parametrize("case", scenario_cases("path/to/my-game"))
    def test_scenario(case):
        check_scenario(case)      # AssertionError: the rule, file:line and what differed

Random playthroughs that shrink:

    from hypothesis import given
    from interpreter import load_game
    from interpreter.testing import matches

    GAME = load_game("path/to/my-game")

    @given(matches(GAME))
    def test_scores_are_never_negative(m):
        assert min(m.result()["scores"]) >= 0

`checked_matches(GAME)` also checks the game's own `invariants:` before every decision. Every
decision is drawn by Hypothesis, so a failing match shrinks towards early options and a short
history; `m.seed`, `m.players` and `m.history` replay it exactly (`interpreter.replay`). Needs the
`test` extra (hypothesis).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from .game import Game, load_game
from .run.match import Match
from .scenarios import Scenario, load_scenarios, play

MAX_DECISIONS = 20_000


def scenario_cases(game: Game | str | Path) -> list[Any]:
    """The scenarios of a game (GAME/scenarios/*.yaml) as pytest parameters, each with its
    `file: name` as the test id. A broken scenario file raises AuthoringError (file:line:col)."""
    import pytest

    g = game if isinstance(game, Game) else load_game(game)
    return [pytest.param(sc, id=sc.id) for sc in load_scenarios(g)]


def check_scenario(case: Scenario) -> Match:
    """Play one scenario; AssertionError (a ScenarioFailure) with the rule, the `file:line` of what
    differed, the decisions made and the game's sentences if it does not hold. Returns the match."""
    __tracebackhide__ = True  # pytest shows the failure, not this helper
    return play(case)


@st.composite
def matches(take, game, players: int | None = None, finished: bool = True,
            max_decisions: int = MAX_DECISIONS) -> Match:
    """A match of `game` played by Hypothesis-drawn decisions (to the end unless `finished=False`,
    in which case it stops after a drawn number of decisions)."""
    n = players if players is not None else take(st.integers(game.min_players, game.max_players),
                                                 label="players")
    seed = take(st.integers(0, 2**32 - 1), label="seed")
    m = Match(game, n, seed)
    stop_after = max_decisions if finished else take(st.integers(0, 400), label="decisions")
    while not m.over and len(m.history) < stop_after:
        for seat in m.to_act():
            legal = m.legal_actions(seat)
            m.apply(seat, take(st.integers(0, len(legal) - 1)))
    return m


def broken_invariants(m: Match) -> list[str]:
    """The game's declared invariants (game.yaml `invariants:`, each a yes/no expression of `me`)
    that do not hold now, with the players for whom they fail: `hand_limit (P2)`."""
    broken = []
    for name, holds in m.game.invariants.items():
        seats = [f"P{p}" for p in range(m.players) if not holds(m.st, p)]
        if seats:
            broken.append(f"{name} ({', '.join(seats)})")
    return broken


@st.composite
def checked_matches(take, game, players: int | None = None, finished: bool = True) -> Match:
    """Like `matches`, but the game's invariants are checked before every decision; a failure
    raises AssertionError naming the invariant, the seat, the seed and the decisions so far."""
    n = players if players is not None else take(st.integers(game.min_players, game.max_players),
                                                 label="players")
    seed = take(st.integers(0, 2**32 - 1), label="seed")
    m = Match(game, n, seed)
    stop_after = MAX_DECISIONS if finished else take(st.integers(0, 400), label="decisions")
    while True:
        broken = broken_invariants(m)
        assert not broken, (f"{', '.join(broken)} broken in {game.name}, {n} players, seed {seed}, "
                            f"after decisions {m.history}")
        if m.over or len(m.history) >= stop_after:
            return m
        for seat in m.to_act():
            m.apply(seat, take(st.integers(0, len(m.legal_actions(seat)) - 1)))
from .leaks import LeakReport, check_leaks  # noqa: E402,F401  (the leak check, for designers' tests)
