"""The leaves of the typed intermediate form: constants, names, the state's fields, players, counters and zones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .base import Expr, Var


@dataclass(eq=False)
class Const(Expr):
    """A literal: number, text, yes/no, or none (-1)."""

    value: Any
    type: str

    @property
    def cheap(self) -> bool:
        return True

    @property
    def maybe_none(self) -> bool:
        return self.value == -1 and self.type in _ONE


_ONE = ("card", "player", "none")  # the types of one card or one player


def list_of(each: str) -> str:
    """The type of a list of values of type `each` (`list:card`): a list's type says what it holds, so that it is
    written as its values are (a card by its name), and two lists of different things are told apart."""
    return "list:" + each


def innermost_type(typ: str) -> str:
    """What a list type holds, lists looked into (`list:list:card`: `card`); any other type as it is."""
    while typ.startswith("list:"):
        typ = typ[len("list:"):]
    return typ


@dataclass(eq=False)
class Ref(Expr):
    """The value of a local name (me, this, a parameter, a let, a loop variable, it)."""

    var: Var
    type: str

    @property
    def cheap(self) -> bool:
        return True

    @property
    def maybe_none(self) -> bool:  # me, this, loop variables and `it` never are
        return self.var.kind in ("let", "param") and self.type in _ONE


@dataclass(eq=False)
class StateField(Expr):
    """`round`, `turn`, `deal`, `first player`, `active player`: one field of the match state."""

    field: str  # round | turn | deal | first | active
    type: str

    def reads(self) -> frozenset[str]:
        return frozenset({self.field})


@dataclass(eq=False)
class PlayerCount(Expr):
    """How many players are still in (`players` where a number is wanted)."""

    type: ClassVar[str] = "num"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})


# The seat tables (`st.orders`, `st.others`, `st.after`, `st.before`) leave out the players knocked out;
# they are built once per set of knocked-out seats (model.Setup.seats), so reading them costs an index.


@dataclass(eq=False)
class AllPlayers(Expr):
    """Every player still in, in turn order from the first player."""

    type: ClassVar[str] = "players"
    READS: ClassVar[frozenset[str]] = frozenset({"first", "out"})


@dataclass(eq=False)
class Opponents(Expr):
    """Every other player still in, in turn order from the one after `who`."""

    who: Expr
    type: ClassVar[str] = "players"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})


@dataclass(eq=False)
class SeatsFrom(Expr):
    """Every player still in, in turn order, starting with `who` (or the next one still in)."""

    who: Expr
    type: ClassVar[str] = "players"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})


@dataclass(eq=False)
class Neighbour(Expr):
    """The next (`step` 1) or previous (-1) player still in around the table from `who`."""

    who: Expr
    step: int
    type: ClassVar[str] = "player"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})


@dataclass(eq=False)
class IsOut(Expr):
    """`P is out`: the player is knocked out (of the deal or the match); none is not out."""

    who: Expr
    type: ClassVar[str] = "bool"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})


@dataclass(eq=False)
class GameCounter(Expr):
    index: int
    type: str
    READS: ClassVar[frozenset[str]] = frozenset({"gc"})

    @property
    def maybe_none(self) -> bool:
        return self.type == "player"


@dataclass(eq=False)
class PlayerCounter(Expr):
    index: int
    who: Expr
    type: str
    READS: ClassVar[frozenset[str]] = frozenset({"pc"})

    @property
    def maybe_none(self) -> bool:
        return self.type == "player"


@dataclass(eq=False)
class GameZone(Expr):
    """A shared zone: its instance number is a constant."""

    index: int
    name: str
    type: ClassVar[str] = "zone"

    @property
    def zone(self) -> str:
        return self.name

    @property
    def owner(self) -> Expr | None:
        return None

    @property
    def cheap(self) -> bool:
        return True


@dataclass(eq=False)
class PlayerZone(Expr):
    """A zone of one player: instance `base + who * stride`."""

    name: str
    base: int
    stride: int
    who: Expr
    type: ClassVar[str] = "zone"

    @property
    def zone(self) -> str:
        return self.name

    @property
    def owner(self) -> Expr:
        return self.who

    @property
    def cheap(self) -> bool:
        return self.who.cheap


@dataclass(eq=False)
class Retyped(Expr):
    """A value seen as another type: yes/no as a number, a seat as a number, `any` as what is wanted."""

    value: Expr
    type: str

    @property
    def cheap(self) -> bool:
        return self.value.cheap

    @property
    def maybe_none(self) -> bool:
        return self.type in _ONE and self.value.maybe_none
