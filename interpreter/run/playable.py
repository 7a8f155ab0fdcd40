"""What the run stage reads of a compiled game: the `Game` interface.

The run stage stands below the module that compiles a game folder and chains the stages (`interpreter.game`,
whose `Game` is the one implementation): it is handed a game already loaded and names only this interface.
A game crosses to a worker process by pickling (a compiled `Game` pickles as its folder and step limit, and
unpickles as the game loaded from that folder in the worker), so the run stage never loads one itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..diagnostics import Pos
from ..load.model import GameModel

CounterNames = tuple[list[tuple[int, str]], list[tuple[int, str]]]
"""(index, name) of each game counter, then of each player counter."""


class Check(Protocol):
    """A compiled `checks:` entry, as the run stage reads it."""

    @property
    def at(self) -> str:
        """When it is checked: `end`, `round_end` or `turn_end`."""
        ...

    @property
    def each_player(self) -> bool:
        """Whether it holds for every player (`holds(st, me)`) or once for the table."""
        ...

    @property
    def holds(self) -> Callable[[Any, int], bool]:
        """The check itself, on a state and a seat."""
        ...


class Game(Protocol):
    """A compiled game as the run stage plays it: its model, its flow's phases and limits, the routines that
    score it, and the names and texts a match reads. Read-only here: the run stage never changes a game."""

    # ---- what it is
    @property
    def name(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def model(self) -> GameModel: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def default_players(self) -> int: ...
    @property
    def max_steps(self) -> int:
        """Loop rounds and nested calls a match may run."""
        ...

    def check_players(self, n: int) -> int:
        """`n` if the game is played by that many, else ValueError with the range."""
        ...

    # ---- its flow: part → [(phase routine, whether it asks)], rounds and deals (at most, capped, until)
    @property
    def flow(self) -> Mapping[str, list[tuple[Any, bool]]]: ...
    @property
    def rounds(self) -> int: ...
    @property
    def rounds_capped(self) -> bool: ...
    @property
    def rounds_until(self) -> Any: ...
    @property
    def deals(self) -> int: ...
    @property
    def deals_capped(self) -> bool: ...
    @property
    def deals_until(self) -> Any: ...
    @property
    def has_deals(self) -> bool: ...
    @property
    def flow_at(self) -> Mapping[str, str]:
        """`rounds`, `deals` → where the flow says it (a step limit names it)."""
        ...

    @property
    def resets(self) -> Mapping[str, tuple[list[int], list[int]]]:
        """`deal`, `round`, `turn` → the game and player counters that part resets as it begins."""
        ...

    @property
    def knocks_out(self) -> bool: ...

    # ---- its result and report
    @property
    def score(self) -> Any: ...
    @property
    def tiebreaks(self) -> list[Any]: ...
    @property
    def lowest_wins(self) -> bool: ...
    @property
    def out_can_win(self) -> bool: ...
    @property
    def report_by(self) -> Any: ...
    @property
    def report_title(self) -> str: ...
    @property
    def report_per_round(self) -> list[str]: ...
    @property
    def checks(self) -> Mapping[str, Check]: ...

    # ---- names and texts
    @property
    def counter_names(self) -> CounterNames: ...
    @property
    def prompts(self) -> list[str]: ...
    @property
    def prop_names(self) -> Mapping[int, str]: ...

    # ---- where a failure lies in its rules
    @property
    def code_filename(self) -> str:
        """The name its generated module was compiled under (as tracebacks show it)."""
        ...

    def anchor_at(self, lineno: int) -> Pos | None:
        """The DSL place a line of the generated module was written for."""
        ...
