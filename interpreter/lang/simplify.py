"""Between resolution and code generation: fold what is known at compile time, on the typed nodes.

Only values are folded (`2 * 3`, `max(0, 8)`, `not true`, a comparison of constants, `true and X`);
statements stay as written, so every `let` keeps its variable and every line its DSL place.
"""

from __future__ import annotations

import operator
from dataclasses import fields
from typing import Any

from . import nodes as n
from .program import Program
from .statements import Choice

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}
_HELPERS = {"max": max, "min": min, "abs": abs}


def simplify_program(program: Program) -> None:
    """Fold the constants of every resolved routine, in place."""
    for r in [*program.functions.values(), *program.extras, *program.conditions, *program.actions()]:
        if r.value is not None:
            r.value = fold(r.value)
        if r.body is not None:
            r.body = _within(r.body)


def _within(value: Any) -> Any:
    """`value` with every expression inside it folded (statements and other parts are updated in place)."""
    if isinstance(value, n.Expr):
        return fold(value)
    if isinstance(value, list):
        return [_within(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_within(v) for v in value)
    if isinstance(value, n.Stmt | Choice):
        for f in fields(value):
            if f.name != "at":
                setattr(value, f.name, _within(getattr(value, f.name)))
    return value


def _const(e: n.Expr, typ: str | None = None) -> bool:
    return isinstance(e, n.Const) and (typ is None or e.type == typ)


def fold(e: n.Expr) -> n.Expr:
    """The expression with its constant parts computed."""
    for f in fields(e):
        if f.name not in ("at", "var"):
            setattr(e, f.name, _within(getattr(e, f.name)))
    at = e.at
    if isinstance(e, n.Arith) and _const(e.left, "num") and _const(e.right, "num"):
        return n.Const(_ARITH[e.op](e.left.value, e.right.value), "num", at=at)
    if isinstance(e, n.Neg) and _const(e.value, "num"):
        return n.Const(-e.value.value, "num", at=at)
    if isinstance(e, n.Not) and _const(e.value, "bool"):
        return n.Const(not e.value.value, "bool", at=at)
    if isinstance(e, n.Compare) and _const(e.left) and _const(e.right) and e.left.type == e.right.type:
        return n.Const(_COMPARE[e.op](e.left.value, e.right.value), "bool", at=at)
    if isinstance(e, n.Cond) and _const(e.test, "bool"):
        return e.then if e.test.value else e.other
    if isinstance(e, n.Logic) and _const(e.left, "bool"):
        # Python's own rule: `true and X` is X, `false and X` is false (and the mirror for `or`).
        return e.right if e.left.value == (e.op == "and") else e.left
    if isinstance(e, n.Helper) and e.name in _HELPERS and all(_const(a, "num") for a in e.args):
        return n.Const(_HELPERS[e.name](*(a.value for a in e.args)), "num", at=at)
    if isinstance(e, n.IsSome) and _const(e.value) and e.value.type in ("none", "card", "player"):
        return n.Const((e.value.value < 0) if e.negate else (e.value.value >= 0), "bool", at=at)
    return e
