"""The compound statements of the DSL (if, the loops), registered in statements.STATEMENTS like the
others: one class per grammar rule, plain data with its `effects` and what it holds (resolved by
resolve_statements.py, written by compiler.py)."""

from __future__ import annotations

from dataclasses import dataclass

from . import nodes as n
from .statements import statement


@statement("if_stmt")
@dataclass(eq=False)
class If(n.Stmt):
    branches: list[tuple[n.Expr, list[n.Stmt]]]
    orelse: list[n.Stmt] | None

    def blocks(self) -> list[list[n.Stmt]]:
        return [b for _, b in self.branches] + ([self.orelse] if self.orelse is not None else [])


@statement("for_players")
@dataclass(eq=False)
class ForPlayers(n.Stmt):
    """`for each player p [from P] [where …] [simultaneously]:`. Simultaneously: every player's body
    runs up to its first choice; all first choices are asked at once (nobody sees another's answer);
    then the bodies finish one by one in turn order."""

    var: n.Var
    pool: n.Expr
    where: n.Expr | None
    body: list[n.Stmt]
    simultaneous: bool = False

    def does(self) -> frozenset[str]:
        return frozenset({n.ASKS}) if self.simultaneous else frozenset()

    def blocks(self) -> list[list[n.Stmt]]:
        return [self.body]

    def sets(self) -> list[n.Var]:
        return [self.var]


@statement("for_cards")
@dataclass(eq=False)
class ForCards(n.Stmt):
    var: n.Var
    cards: n.Expr
    body: list[n.Stmt]

    def blocks(self) -> list[list[n.Stmt]]:
        return [self.body]

    def sets(self) -> list[n.Var]:
        return [self.var]


@statement("visit")
@dataclass(eq=False)
class Visit(n.Stmt):
    """`visit each card c in ZONE:` each member once, always the first not yet visited in the zone's
    current order (cards moved in or out on the way are seen or skipped)."""

    var: n.Var
    zone: n.Expr
    body: list[n.Stmt]

    def blocks(self) -> list[list[n.Stmt]]:
        return [self.body]

    def sets(self) -> list[n.Var]:
        return [self.var]


@statement("repeat")
@dataclass(eq=False)
class Repeat(n.Stmt):
    count: n.Expr
    body: list[n.Stmt]

    def blocks(self) -> list[list[n.Stmt]]:
        return [self.body]


@statement("while_stmt")
@dataclass(eq=False)
class While(n.Stmt):
    """`while COND [at most N times]:`. Without a bound a run-away loop is a rule error."""

    cond: n.Expr
    bound: n.Expr | None
    body: list[n.Stmt]

    def blocks(self) -> list[list[n.Stmt]]:
        return [self.body]
