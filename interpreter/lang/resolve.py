"""Stage 4: resolve names and types in every parsed routine, giving each its typed nodes.

Statements are resolved by resolve_statements.py, expressions by expressions.py (the two halves of the
`Resolver`); this module holds the driving loop over a program's routines.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from . import nodes as n
from .expressions import Abort, Scope
from .program import Program, Routine
from .resolve_statements import StatementResolver


def too_deep(r: Routine) -> Diagnostic:
    return Diagnostic(r.at.shifted(1, 1), "this text nests too deeply to compile",
                      "split it into procedures or functions")


class Resolver(StatementResolver):
    """Turns the lark trees of a program's routines into typed nodes, collecting authoring errors."""

    def __init__(self, program: Program) -> None:
        super().__init__(program.model, program.functions, program.rounds, program.procedures, program.verbs)

    def routine(self, r: Routine) -> None:
        """Resolve one routine (its errors are collected; a broken routine is left without a body). A `let`
        variable whose type is found only at a later `let` (none, then a card or a player) has it from the
        start: the routine is resolved once more with the types found, so every reference has it."""
        errors = len(self.errors)
        self.decided, self.widened = {}, {}
        self._routine(r)
        if self.widened:
            del self.errors[errors:]
            self.decided, self.widened = self.widened, {}
            self._routine(r)
            assert not self.widened  # every type was decided

    def _routine(self, r: Routine) -> None:
        self.at = r.at
        self.loops = 0
        self.lets = []
        r.body = r.value = None
        scope = Scope(None)
        assert r.tree is not None  # only a text that parsed is resolved
        r.me = scope.define(n.Var("me", "me", "player"))
        if r.kind in ("ability", "condition"):
            r.this = scope.define(n.Var("this", "this", "card"))
        r.param_vars = [scope.define(n.Var(p, "param", t)) for p, t in zip(r.params, r.param_types, strict=False)]
        try:
            if r.statements:
                r.body = self.block(r.tree.children, scope)
                return
            tree = r.tree.children[0]
            value = self.expr(tree, scope)
            r.result_type = value.type
            if r.returns == "num":
                value = self.coerce(value, "num", tree)
            elif r.returns == "bool" or r.kind == "condition":
                value = self.truth(value)
            elif r.returns == "text":
                value = self.as_text(value)
            r.value = value
        except Abort:
            pass
        except RecursionError:
            self.errors.append(too_deep(r))


def resolve_program(program: Program, functions: list[Routine]) -> None:
    """Resolve every routine that parsed: the functions first, in the given order (each after those
    it uses, whose result types it needs), then the rest; errors go to `program.errors`. The typed nodes are
frozen once their routine is resolved."""
    r = Resolver(program)
    for routine in [*functions, *program.initials.values(), *program.extras, *program.conditions,
                    *program.actions()]:
        if routine.tree is not None:
            r.routine(routine)
            n.freeze([routine.body, routine.value])
    program.errors += r.errors
