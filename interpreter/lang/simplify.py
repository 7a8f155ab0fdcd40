"""Between resolution and code generation: fold what is known at compile time, on the typed nodes.

Only values are folded (`2 * 3`, `max(0, 8)`, `not true`, a comparison of constants, `true and X`);
statements stay as written, so every `let` keeps its variable and every line its DSL place. A
counter's `initial` written as an expression of the player count is worked out here, at every count.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any, TypeGuard

from ..diagnostics import Diagnostic
from . import nodes as n
from .program import Program, Routine
from .resolve import too_deep
from .statements import Choice

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}
_HELPERS: dict[str, Callable[..., Any]] = {"max": max, "min": min, "abs": abs}
# What an initial value may be made of: numbers, the player count, arithmetic, comparisons, logic.
_PLAIN = (n.Const, n.PlayerCount, n.Arith, n.Neg, n.Compare, n.Logic, n.Not, n.Cond, n.Retyped)
_PLAIN_HELPERS = frozenset({"max", "min", "abs", "floordiv", "mod"})


def simplify_program(program: Program) -> Program:
    """The program with the constants of every resolved routine folded: a new Program, each routine given new
    nodes where a part folds, the program and nodes it was given left as they were (a node met twice folds to one
    node, so parts shared stay shared). A text nesting too deeply to fold is an error at its place, like one too
    deep to resolve or to write."""
    folding = _Folding()
    done: dict[int, Routine] = {}
    errors = list(program.errors)
    for r in [*program.functions.values(), *program.extras, *program.conditions, *program.actions()]:
        if r.value is None and r.body is None:
            continue
        try:
            value = folding.fold(r.value) if r.value is not None else None
            body = folding.within(r.body) if r.body is not None else None
        except RecursionError:
            errors.append(too_deep(r))
            continue
        n.freeze([body, value])
        done[id(r)] = replace(r, value=value, body=body)
    return program.renewed(done, errors)


def initial_values(program: Program) -> dict[str, dict[int, int]]:
    """Each counter's `initial` expression worked out at every player count the game allows: counter → players
    → value (a mistake goes to `program.errors`, at its place in the YAML)."""
    model = program.model
    found: dict[str, dict[int, int]] = {}
    for name, r in program.initials.items():
        if r.value is None:
            continue  # it did not parse or resolve: reported already
        odd = _not_plain(r.value)
        if odd is not None:
            program.errors.append(Diagnostic(odd.at or r.at.shifted(1, 1),
                                             "an initial value may use only numbers, `players` (how many play), "
                                             "arithmetic, comparisons and `… if … else …`",
                                             "work anything else out in a setup phase"))
            continue
        counter = model.counters[name]
        values: dict[int, int] = {}
        for players in range(model.min_players, model.max_players + 1):
            try:
                value = int(_value(r.value, players))
            except ZeroDivisionError:
                program.errors.append(Diagnostic(r.at.shifted(1, 1), f"with {players} players the initial value "
                                                 f"of `{name}` divides by zero"))
                break
            if counter.type == "player" and not -1 <= value < players:
                program.errors.append(Diagnostic(r.at.shifted(1, 1), f"with {players} players the initial value "
                                                 f"of `{name}` is {value}, which is no seat",
                                                 f"seats are 0 to {players - 1}; none is -1"))
                break
            values[players] = value
        found[name] = values
    return found


def _not_plain(e: n.Expr) -> n.Expr | None:
    """The first part of `e` an initial value may not use, if any."""
    if not (isinstance(e, _PLAIN) or (isinstance(e, n.Helper) and e.name in _PLAIN_HELPERS)):
        return e
    return next((odd for c in e.children() if (odd := _not_plain(c)) is not None), None)


def _value(e: n.Expr, players: int) -> Any:
    """The value of a plain expression (see _not_plain) when `players` play."""
    kind = next(k for k in type(e).__mro__ if k in _VALUES)
    return _VALUES[kind](e, players)


def _logic(e: Any, players: int) -> Any:
    left = _value(e.left, players)
    return (left and _value(e.right, players)) if e.op == "and" else (left or _value(e.right, players))


def _helper(e: Any, players: int) -> Any:
    args = [_value(a, players) for a in e.args]
    if e.name == "floordiv":
        return args[0] // args[1]
    if e.name == "mod":
        return args[0] % args[1]
    return _HELPERS[e.name](*args)


# The value of each plain kind of expression (_PLAIN), by its class.
_VALUES: dict[type, Callable[[Any, int], Any]] = {
    n.Const: lambda e, players: e.value,
    n.PlayerCount: lambda e, players: players,
    n.Retyped: lambda e, players: _value(e.value, players),
    n.Neg: lambda e, players: -_value(e.value, players),
    n.Not: lambda e, players: not _value(e.value, players),
    n.Cond: lambda e, players: _value(e.then if _value(e.test, players) else e.other, players),
    n.Logic: _logic,
    n.Arith: lambda e, players: _ARITH[e.op](_value(e.left, players), _value(e.right, players)),
    n.Compare: lambda e, players: _COMPARE[e.op](_value(e.left, players), _value(e.right, players)),
    n.Helper: _helper,
}


class _Folding:
    """One pass of folding over a program: a node met again gives what it gave the first time."""

    def __init__(self) -> None:
        self.done: dict[int, tuple[n.Expr, n.Expr]] = {}  # id of a node met → (that node, what it folded to)

    def within(self, value: Any) -> Any:
        """`value` with every expression inside it folded: itself where nothing in it folds, else a new value."""
        if isinstance(value, n.Expr):
            return self.fold(value)
        if isinstance(value, list | tuple):
            parts = [self.within(v) for v in value]
            if all(new is old for new, old in zip(parts, value, strict=True)):
                return value
            return parts if isinstance(value, list) else tuple(parts)
        if isinstance(value, n.Stmt | Choice):
            return self.rebuilt(value)
        return value

    def rebuilt(self, node: Any) -> Any:
        """The node with its parts folded (itself, if none folds; its variables are kept)."""
        changes = {}
        for f in fields(node):
            if f.name not in ("at", "var"):
                old = getattr(node, f.name)
                new = self.within(old)
                if new is not old:
                    changes[f.name] = new
        return replace(node, **changes) if changes else node

    def fold(self, e: n.Expr) -> n.Expr:
        """The expression with its constant parts computed."""
        met = self.done.get(id(e))
        if met is not None:
            return met[1]
        parts = self.rebuilt(e)
        folding = next((_FOLDS[k] for k in type(parts).__mro__ if k in _FOLDS), None)
        folded = folding(parts) if folding is not None else None
        out = parts if folded is None else folded
        self.done[id(e)] = (e, out)
        return out


def _const(e: n.Expr, typ: str | None = None) -> TypeGuard[n.Const]:
    return isinstance(e, n.Const) and (typ is None or e.type == typ)


def _fold_helper(e: Any) -> n.Expr | None:
    if e.name in _HELPERS and all(_const(a, "num") for a in e.args):
        return n.Const(_HELPERS[e.name](*(a.value for a in e.args if _const(a))), "num", at=e.at)
    return None


def _fold_logic(e: Any) -> n.Expr | None:
    # Python's own rule: `true and X` is X, `false and X` is false (and the mirror for `or`); X still a yes/no.
    if _const(e.left, "bool"):
        kept = e.right if e.right.type == "bool" else n.Retyped(e.right, "bool", at=e.right.at)
        return kept if e.left.value == (e.op == "and") else e.left
    return None


# How each kind of expression folds once its parts are folded: a simpler expression, or None (as it is).
_FOLDS: dict[type, Callable[[Any], n.Expr | None]] = {
    n.Arith: lambda e: n.Const(_ARITH[e.op](e.left.value, e.right.value), "num", at=e.at)
    if _const(e.left, "num") and _const(e.right, "num") else None,
    n.Neg: lambda e: n.Const(-e.value.value, "num", at=e.at) if _const(e.value, "num") else None,
    n.Not: lambda e: n.Const(not e.value.value, "bool", at=e.at) if _const(e.value, "bool") else None,
    n.Compare: lambda e: n.Const(_COMPARE[e.op](e.left.value, e.right.value), "bool", at=e.at)
    if _const(e.left) and _const(e.right) and e.left.type == e.right.type else None,
    n.Cond: lambda e: (e.then if e.test.value else e.other) if _const(e.test, "bool") else None,
    n.Logic: _fold_logic,
    n.Helper: _fold_helper,
    n.IsSome: lambda e: n.Const((e.value.value < 0) if e.negate else (e.value.value >= 0), "bool", at=e.at)
    if _const(e.value) and e.value.type in ("none", "card", "player") else None,
}
