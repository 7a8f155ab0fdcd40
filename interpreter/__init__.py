"""meeple: a rules-as-data engine for tabletop card games.

Load a game with `load_game`, start a match with `Game.new_match`, then drive it with
`Match.to_act()`, `Match.legal_actions(seat)` and `Match.apply(seat, action)`.
"""

from .diagnostics import AuthoringError, Diagnostic
from .game import Game, load_game
from .run.match import Invalid, Match, play_random, replay
from .run.runtime import RuleError

__all__ = ["AuthoringError", "Diagnostic", "Game", "Invalid", "Match", "RuleError", "load_game", "play_random",
           "replay"]
__version__ = "0.1.0"
