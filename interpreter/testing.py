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

`checked_matches(GAME)` also checks the game's own `invariants:` (and that every card lies in exactly
one zone) before every decision, and its `checks:` where each says. Every decision and every chance
outcome (shuffles, dice, random picks) is drawn by Hypothesis, so a failing match shrinks towards early
options, a short history and a simple deal; `replay(GAME, m.players, m.seed, m.history,
chance=m.chance_drawn)` re-runs it exactly (`interpreter.replay`). `meeple check GAME` runs these
checks, and more, from the command line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from .check import INVARIANT, MAX_DECISIONS, RULES, Played, hypothesis_answers, play
from .game import Game, load_game
from .run.match import Match, Recorded
from .scenarios import Scenario, load_scenarios
from .scenarios import play as play_scenario


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
    return play_scenario(case)


def _played(take, game, players: int | None, finished: bool, checks: bool, cap: int) -> tuple[Played, int]:
    """A match drawn by Hypothesis (its players, decisions and chance outcomes); with `checks`, stopped at
    the first property that fails."""
    n = players if players is not None else take(st.integers(game.min_players, game.max_players),
                                                 label="players")
    stop_after = None if finished else take(st.integers(0, 400), label="decisions")
    answer = hypothesis_answers(take)
    played = play(game, n, 0, answer, chance=answer, checks=checks, cap=cap, stop_after=stop_after)
    played.match.chance_drawn = played.chance
    return played, n


def _on_its_own(played: Played) -> Match:
    """The match again, its chance answered by its recorded outcomes and then by its seed, so that it
    goes on, clones and pickles without Hypothesis (whose example is over once the test body runs)."""
    drawn = played.match
    m = Match(drawn.game, drawn.players, drawn.seed, chance=Recorded(played.chance or (), then=drawn.seed))
    for seat, action in drawn.history:
        m.apply(seat, action)
    m.chance_drawn = played.chance
    return m


@st.composite
def matches(take, game, players: int | None = None, finished: bool = True,
            max_decisions: int = MAX_DECISIONS) -> Match:
    """A match of `game` played by Hypothesis-drawn decisions and chance outcomes (to the end unless
    `finished=False`, in which case it stops after a drawn number of decisions, or after `max_decisions`)."""
    played, _ = _played(take, game, players, finished, False, max_decisions)
    m = played.match
    if finished and not m.over:
        raise AssertionError(f"{game.name}: the match has not ended after {len(m.history)} decisions")
    return _on_its_own(played)


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
    """Like `matches`, but the game's invariants (and that every card lies in exactly one zone) are checked
    before every decision and at the end, and its `checks:` at the end of each turn, round or of the
    match, as each says; a failure raises AssertionError naming the invariant or check, the seats,
    the decisions and the chance outcomes so far. A rule failing raises RuleError."""
    played, n = _played(take, game, players, finished, True, MAX_DECISIONS)
    m = played.match
    if played.broken is None:
        return _on_its_own(played)
    check, message = played.broken
    if check == RULES:
        assert m.failure is not None
        raise m.failure
    what = ", ".join(broken_invariants(m)) if check.startswith(INVARIANT) else message
    raise AssertionError(f"{what} broken in {game.name}, {n} players, seed {m.seed}, after decisions {m.history}, "
                         f"chance outcomes {m.chance_drawn}")


from .leaks import LeakReport, check_leaks  # noqa: E402,F401  (the leak check, for designers' tests)
