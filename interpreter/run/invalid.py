"""An illegal action, as a value: what `Match.apply` and a seat handle's `apply` return instead of raising
(boardgame.io's `INVALID_MOVE`). Its own module, below both the match and the seat handle."""

from __future__ import annotations

from dataclasses import dataclass

INVALID_MOVE = "INVALID_MOVE"
NOT_YOUR_TURN = "NOT_YOUR_TURN"
MATCH_OVER = "MATCH_OVER"


@dataclass(frozen=True, slots=True)
class Invalid:
    """An illegal action, returned (never raised): a stable code and a reason."""

    code: str
    reason: str
