"""What an agent of one seat is given: a `Seat` handle on a match (`Match.seat(s)`).

A bot, an adapter or a web page that plays a seat gets the seat's view, information state, question,
labels and legal actions, can draw a world it cannot tell from the real one (`determinize`) and answers
its own questions; nothing it is given reads the true hidden state. The match is not an attribute, a
slot or a referent of the handle: this module holds it, keyed by the handle (and lets it go with the
handle), so neither `dir()` nor `gc.get_referents` of a handle lead to the match, its state or the
omniscient option ids. That keeps an honest agent from reading by mistake what its seat may not; code
that digs through modules can reach anything in its process, so an agent not to be trusted plays
from another process, given what the handle returns.
"""

from __future__ import annotations

import random
import re
import weakref
from typing import Any, Generic, NoReturn, Protocol, Self, TypeVar, cast

from .invalid import Invalid
from .playable import Game
from .runtime import RuleError


class Seated(Protocol):
    """What a handle reads of the match it holds (`Match` is one): the step API for one seat at a time. The
    handle names this, not the match module, which hands the handles out."""

    @property
    def game(self) -> Game: ...
    @property
    def players(self) -> int: ...
    @property
    def over(self) -> bool: ...
    def to_act(self) -> list[int]: ...
    def legal_actions(self, seat: int) -> list[int]: ...
    def action_labels(self, seat: int) -> list[str]: ...
    def prompt(self, seat: int) -> str: ...
    def view(self, seat: int) -> dict[str, Any]: ...
    def information_state(self, seat: int) -> str: ...
    def information_state_json(self, seat: int) -> dict[str, Any]: ...
    def result(self) -> dict[str, Any]: ...
    def apply(self, seat: int, action: int) -> Invalid | None: ...
    def determinize(self, seat: int, rng: random.Random, *, fresh: bool = False) -> Self: ...


M = TypeVar("M", bound=Seated)

# handle id → (match, seat, the weak reference that drops the entry when the handle goes)
_HELD: dict[int, tuple[Seated, int, weakref.ref]] = {}
_SEED = re.compile(r" \(seed -?\d+, after \d+ decisions?\)$")  # the end of a rule failure's message


def _drop(key: int) -> Any:
    return lambda _ref: _HELD.pop(key, None)


class Seat(Generic[M]):
    """One seat's handle on a match: what that seat may see and do, and nothing else. (Generic in the match
    it holds, for what `determinize` returns: `Match.seat` gives a `Seat[Match]`.)"""

    __slots__ = ("__weakref__",)

    def __init__(self, match: M, seat: int) -> None:
        if not 0 <= seat < match.players:
            raise ValueError(f"no seat {seat}: the match has seats 0–{match.players - 1}")
        key = id(self)
        _HELD[key] = (match, seat, weakref.ref(self, _drop(key)))

    @property
    def seat(self) -> int:
        """The seat this handle plays."""
        return _HELD[id(self)][1]

    @property
    def players(self) -> int:
        """How many seats the match has."""
        return _HELD[id(self)][0].players

    # ---- what the seat sees
    def view(self) -> dict[str, Any]:
        """What the seat may see now (`Match.view`)."""
        m, s, _ = _HELD[id(self)]
        return m.view(s)

    def information_state(self) -> str:
        """Everything the seat observed and sees, as one canonical string (`Match.information_state`)."""
        m, s, _ = _HELD[id(self)]
        return m.information_state(s)

    def information_state_json(self) -> dict[str, Any]:
        """The information state as data (`Match.information_state_json`)."""
        m, s, _ = _HELD[id(self)]
        return m.information_state_json(s)

    def prompt(self) -> str:
        """The seat's question in words ("" when it is not asked)."""
        m, s, _ = _HELD[id(self)]
        return m.prompt(s)

    def labels(self) -> list[str]:
        """A name for each legal action, as the seat may see it (`Match.action_labels`)."""
        m, s, _ = _HELD[id(self)]
        return m.action_labels(s)

    def legal_actions(self) -> list[int]:
        """The seat's action numbers now ([] when it is not asked)."""
        m, s, _ = _HELD[id(self)]
        return m.legal_actions(s)

    def to_act(self) -> list[int]:
        """The seats that must act now (every seat sees who is asked)."""
        return _HELD[id(self)][0].to_act()

    @property
    def is_asked(self) -> bool:
        """True when this seat has a question to answer now."""
        m, s, _ = _HELD[id(self)]
        return s in m.to_act()

    @property
    def over(self) -> bool:
        """True once the match has a result."""
        return _HELD[id(self)][0].over

    def result(self) -> dict[str, Any] | None:
        """The match's result once it is over (scores and winners are public then), else None."""
        m = _HELD[id(self)][0]
        return m.result() if m.over else None

    # ---- what the seat does
    def determinize(self, rng: random.Random, *, fresh: bool = False) -> M:
        """A match the seat cannot tell from this one, its hidden part drawn with `rng`
        (`Match.determinize`): a world to search in, not the real match. Asked again at the same point, the
        world is moved from the last one drawn; `fresh` draws it independently of that one, at more cost."""
        m, s, _ = _HELD[id(self)]
        return cast(M, m.determinize(s, rng, fresh=fresh))  # a match's world is a match of its kind

    def apply(self, action: int) -> Invalid | None:
        """Answer the seat's own question; an illegal action (or none asked) is returned as `Invalid`. A rule
        failing is raised as a RuleError that does not tell the match's seed (which would replay it all)."""
        m, s, _ = _HELD[id(self)]
        try:
            return m.apply(s, action)
        except RuleError as err:
            told = RuleError(_SEED.sub("", str(err)), None, err.decisions)
        del m  # nor does its traceback lead to the match
        raise told

    def __repr__(self) -> str:
        m, s, _ = _HELD[id(self)]
        return f"<Seat {s} of a {m.players}-player {m.game.name} match>"

    def __reduce__(self) -> NoReturn:
        # A pickle of the handle would have to carry the match, hidden state and all, to whoever reads it.
        raise TypeError("a Seat handle cannot be pickled or copied (it would carry the whole match): "
                        "pickle the match and hand out match.seat(s) again")
