"""The typed intermediate form's cards and lists: a zone's cards, filters, groups, a card of a list, helpers'
results, copies and lengths."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Expr, Var
from .leaves import _ONE, PlayerZone


@dataclass(eq=False)
class ZoneCards(Expr):
    """The cards of a zone (the zone's own list: copy it before moving its cards)."""

    zone: Expr
    type: ClassVar[str] = "cards"
    READS: ClassVar[frozenset[str]] = frozenset({"zones"})


@dataclass(eq=False)
class Filter(Expr):
    """`cards where …` / `players where …`: the members for which `test` holds (`it` is `var`)."""

    base: Expr
    var: Var
    test: Expr
    type: str
    FRESH: ClassVar[bool] = True


@dataclass(eq=False)
class Groups(Expr):
    """`groups(CARDS, VALUE)`: the cards split by their value of `key` (`it` is `var`), a list a value, in the
    order of each value's first card, the cards of a group in the pool's order; made in one pass."""

    pool: Expr
    var: Var
    key: Expr
    type: ClassVar[str] = "groups"
    FRESH: ClassVar[bool] = True


@dataclass(eq=False)
class Firsts(Expr):
    """`firsts(GROUPS)`: the first card of each group, in the groups' order."""

    groups: Expr
    type: ClassVar[str] = "cards"
    FRESH: ClassVar[bool] = True


@dataclass(eq=False)
class FirstCard(Expr):
    """The first card of a list, or none."""

    cards: Expr
    type: ClassVar[str] = "card"

    @property
    def maybe_none(self) -> bool:
        return True

# Runtime helpers that can fail on some values (a RuleError) or draw chance.
RISKY_HELPERS = frozenset({"floordiv", "mod", "ring_distance", "roll", "random_card", "random_player"})


@dataclass(eq=False)
class Helper(Expr):
    """A call of one of the runtime's helpers: `name(args…)` (`with_state`: `name(st, args…)`)."""

    name: str
    args: list[Expr]
    type: str
    with_state: bool = False
    chance: bool = False

    def children(self) -> list[Expr]:
        return list(self.args)

    def reads(self) -> frozenset[str]:
        out = frozenset({"rng"}) if self.chance else frozenset()
        for a in self.args:
            out = out | a.reads()
        return out

    @property
    def risky(self) -> bool:
        return self.name in RISKY_HELPERS or super().risky

    @property
    def maybe_none(self) -> bool:
        return self.type in _ONE


@dataclass(eq=False)
class Copy(Expr):
    """A fresh list of the members of `items` (`all …`)."""

    items: Expr
    type: str
    FRESH: ClassVar[bool] = True


@dataclass(eq=False)
class Single(Expr):
    """A list of one card or one player."""

    item: Expr
    type: str
    FRESH: ClassVar[bool] = True


@dataclass(eq=False)
class Concat(Expr):
    left: Expr
    right: Expr
    type: ClassVar[str] = "cards"
    FRESH: ClassVar[bool] = True


@dataclass(eq=False)
class Length(Expr):
    items: Expr
    type: ClassVar[str] = "num"


@dataclass(eq=False)
class OwnedCards(Expr):
    """`hand of opponents`: the cards of one zone of each of several players, in player order."""

    zone: PlayerZone  # its `who` is `var`
    var: Var
    players: Expr
    type: ClassVar[str] = "cards"
    FRESH: ClassVar[bool] = True
    READS: ClassVar[frozenset[str]] = frozenset({"zones"})


@dataclass(eq=False)
class OwnedCounters(Expr):
    """`bonus of players`: one player counter's value for each of several players (a list of the counter's type)."""

    index: int
    players: Expr
    type: str
    READS: ClassVar[frozenset[str]] = frozenset({"pc"})
