"""The typed intermediate form's card facts (a property, face up, a holder, a declared condition), arithmetic and
logic, aggregates, calls and texts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Expr, Var
from .leaves import _ONE


@dataclass(eq=False)
class CardProp(Expr):
    """A printed property of a card (of no card: the property's default)."""

    index: int
    card: Expr
    type: str


@dataclass(eq=False)
class FaceUp(Expr):
    card: Expr
    type: ClassVar[str] = "bool"
    READS: ClassVar[frozenset[str]] = frozenset({"face"})


@dataclass(eq=False)
class Holder(Expr):
    """The player whose zone holds the card now (none for a shared zone)."""

    card: Expr
    type: ClassVar[str] = "player"
    READS: ClassVar[frozenset[str]] = frozenset({"zone_of"})

    @property
    def maybe_none(self) -> bool:  # the holder of a card on the table
        return True


@dataclass(eq=False)
class CardCondition(Expr):
    """A card's answer to a declared condition (its own text, or the default)."""

    index: int
    card: Expr
    me: Expr
    type: ClassVar[str] = "bool"
    READS: ClassVar[frozenset[str]] = frozenset({"call"})


# ---- arithmetic and logic ------------------------------------------------------------------------------


@dataclass(eq=False)
class Neg(Expr):
    value: Expr
    type: ClassVar[str] = "num"


@dataclass(eq=False)
class Arith(Expr):
    """`+`, `-` or `*` of two numbers (division and remainder are Helpers: they check for zero)."""

    op: str
    left: Expr
    right: Expr
    type: ClassVar[str] = "num"


@dataclass(eq=False)
class Compare(Expr):
    op: str
    left: Expr
    right: Expr
    type: ClassVar[str] = "bool"


@dataclass(eq=False)
class IsSome(Expr):
    """A card or player that is not none (`negate`: that is none)."""

    value: Expr
    negate: bool = False
    type: ClassVar[str] = "bool"


@dataclass(eq=False)
class Logic(Expr):
    op: str  # and | or
    left: Expr
    right: Expr
    type: ClassVar[str] = "bool"


@dataclass(eq=False)
class Cond(Expr):
    """`then if test else other` (only the branch taken is worked out)."""

    test: Expr
    then: Expr
    other: Expr
    type: str

    @property
    def maybe_none(self) -> bool:
        return self.then.maybe_none or self.other.maybe_none


@dataclass(eq=False)
class Not(Expr):
    value: Expr
    type: ClassVar[str] = "bool"


# ---- aggregates and calls ------------------------------------------------------------------------------


@dataclass(eq=False)
class Aggregate(Expr):
    """count/any/sum/max/min/highest/lowest/list over a pool, with `it` bound to `var` in `value`."""

    kind: str
    pool: Expr
    var: Var
    value: Expr
    type: str

    @property
    def maybe_none(self) -> bool:
        return self.type in _ONE


@dataclass(eq=False)
class FunctionCall(Expr):
    """A game function's value for a player (`chance`: working it out rolls or picks at random)."""

    pyname: str
    me: Expr
    args: list[Expr]
    type: str
    chance: bool = False
    READS: ClassVar[frozenset[str]] = frozenset({"call"})

    def children(self) -> list[Expr]:
        return [self.me, *self.args]

    def reads(self) -> frozenset[str]:
        return super().reads() | {"rng"} if self.chance else super().reads()

    @property
    def maybe_none(self) -> bool:
        return self.type in _ONE


@dataclass(eq=False)
class Format(Expr):
    """A value rendered as text for a sentence of the log."""

    value: Expr
    type: ClassVar[str] = "str"


@dataclass(eq=False)
class Text(Expr):
    """A sentence with `{…}` parts: the parts joined (`written`: the sentence as the text wrote it)."""

    parts: list[Expr]
    written: str = ""
    type: ClassVar[str] = "str"

    def children(self) -> list[Expr]:
        return list(self.parts)
