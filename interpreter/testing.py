"""Hypothesis strategies for designers' own tests: random playthroughs that shrink.

    from hypothesis import given
    from interpreter import load_game
    from interpreter.testing import matches

    GAME = load_game("path/to/my-game")

    @given(matches(GAME))
    def test_scores_are_never_negative(m):
        assert min(m.result()["scores"]) >= 0

Every decision is drawn by Hypothesis, so a failing match shrinks towards early options and a short
history; `m.seed`, `m.players` and `m.history` replay it exactly (`interpreter.replay`). Needs the
`test` extra (hypothesis).
"""

from __future__ import annotations

from hypothesis import strategies as st

from .match import Match

MAX_DECISIONS = 20_000


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


def seeds() -> st.SearchStrategy[int]:
    """Match seeds."""
    return st.integers(0, 2**32 - 1)
