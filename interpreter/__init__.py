"""meeple: a rules-as-data engine for tabletop card games.

Load a game with `load_game`, start a match with `Game.new_match`, then drive it with
`Match.to_act()`, `Match.legal_actions(seat)` and `Match.apply(seat, action)`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .diagnostics import AuthoringError, Diagnostic
    from .game import Game, load_game
    from .run.belief import NoConsistentWorld
    from .run.match import Invalid, Match, play_random, replay
    from .run.rollout import Rollout, rollout
    from .run.runtime import RuleError
    from .run.seat import Seat

__all__ = ["AuthoringError", "Diagnostic", "Game", "Invalid", "Match", "NoConsistentWorld", "Rollout", "RuleError",
           "Seat", "load_game", "play_random", "replay", "rollout"]
__version__ = "0.1.0"

# Where each public name lives: imported on first use, so that `meeple --version` or `meeple games`
# does not pay for the whole pipeline (the DSL parser, the schema checker) at start-up.
_HOME = {"AuthoringError": "diagnostics", "Diagnostic": "diagnostics", "Game": "game", "load_game": "game",
         "Invalid": "run.match", "Match": "run.match", "play_random": "run.match", "replay": "run.match",
         "NoConsistentWorld": "run.belief", "RuleError": "run.runtime", "Seat": "run.seat", "Rollout": "run.rollout",
         "rollout": "run.rollout"}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])
