"""What every part of a draw shares: the engine's match class, the error a draw ends with where it finds no world
(`NoConsistentWorld`), the ways a world parts from what the seat observed (`_Misfit`, `_Parted`, `_Checked`), and the
default budgets of `determinize`."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from ..information import _KEPT, render

DEFAULT_TRIES = 20
_KIND = itemgetter(0)  # an event's kind
DEFAULT_REPAIRS = 60
DEFAULT_MOVES = 2
DEFAULT_PROBES = 3000  # swaps tried, in all, to mend the worlds of one draw


def match_class(m) -> Any:
    """The engine's match class, read off a match given: the root of its class (a copy not yet rebuilt and a
    match of a subclass are of classes derived from it). So the stages a match calls on need not import the
    match module back."""
    return m.__class__.__mro__[-2]


class NoConsistentWorld(Exception):
    """No world consistent with what the seat observed was found within the budget."""


class _Misfit(Exception):
    """The world being played parts from what the seat observed; `reached`: how many of the seat's
    observations it matched first."""

    def __init__(self, message: str, reached: int = 0, blocked: Any = None, instead: bool = False) -> None:
        super().__init__(message)
        # `blocked`: (a player, its card options in the world) where the world asked it to choose a card where the
        # real match did not (`instead`), or where the answer was none of them (see `_Replay.repair_thorough`)
        self.reached, self.blocked, self.instead = reached, blocked, instead
        self.moved_last = -1  # the card the world moved last before it parted, the seat seeing it move (`last_move`)


class _Unanswered(_Misfit):
    """No answer of another player's to its question fits what the seat observed (see `_Replay.redraw`)."""


class _Parted(Exception):
    """An option of `_Replay.redraw` parted from what the seat observed: raised as the line that differs is recorded
    (`reached`: how many of the seat's observations matched first), so that the option's flow goes no further."""

    def __init__(self, reached: int) -> None:
        super().__init__(reached)
        self.reached = reached


class _Checked(list):
    """A world's record of events while `_Replay.redraw` plays an option: each event is rendered for the seat as it
    is recorded and its line compared with the seat's own (`want`, from the `at`-th on), `_Parted` at the first that
    differs or goes past them. A line of a kept kind is one of its event alone (`information.render`); past a
    glimpse (whose lines are sorted as a run) nothing more is checked here: the option is compared when it ends."""

    __slots__ = ("at", "last", "match", "seat", "want")

    def __init__(self, events: list[tuple], match: Any, seat: int, want: Sequence[str], at: int,
                 last: str | None) -> None:
        super().__init__(events)
        self.match, self.seat, self.want, self.at, self.last = match, seat, want, at, last

    def append(self, event: tuple) -> None:
        list.append(self, event)
        if self.at < 0:
            return
        if event[0] not in _KEPT:
            self.at = -1
            return
        lines, self.last = render(self.match, self.seat, [event], self.last)
        for line in lines:
            if self.at >= len(self.want) or line != self.want[self.at]:
                raise _Parted(self.at)
            self.at += 1
