"""Stage 4: resolve names and types in every parsed routine, giving each its typed nodes.

Statements are resolved by resolve_statements.py, expressions by expressions.py and calls.py (the two halves of the
`Resolver`); this module holds the driving loop over a program's routines.
"""

from __future__ import annotations

from dataclasses import replace

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
        # (its own table of the functions: each replaced by its resolved routine, whose result type calls need)
        super().__init__(program.model, dict(program.functions), program.rounds, program.procedures, program.verbs)

    def routine(self, r: Routine) -> Routine:
        """The routine resolved: a new Routine with its variables and typed nodes, frozen (its errors are
        collected; a broken routine has no body). A `let` variable whose type is found only at a later `let`
        (none, then a card or a player) has it from the start: the routine is resolved once more with the types
        found, so every reference has it."""
        errors = len(self.errors)
        self.decided, self.widened = {}, {}
        done = self._routine(r)
        if self.widened:
            del self.errors[errors:]
            self.decided, self.widened = self.widened, {}
            done = self._routine(r)
            assert not self.widened  # every type was decided
        n.freeze([done.body, done.value])
        if self.functions.get(r.label) is r:
            self.functions[r.label] = done
        return done

    def _routine(self, r: Routine) -> Routine:
        self.at = r.at
        self.loops = 0
        self.lets = []
        scope = Scope(None)
        assert r.tree is not None  # only a text that parsed is resolved
        me = scope.define(n.Var("me", "me", "player"))
        this = scope.define(n.Var("this", "this", "card")) if r.kind in ("ability", "condition") else None
        params = [scope.define(n.Var(p, "param", t)) for p, t in zip(r.params, r.param_types, strict=False)]
        done = replace(r, me=me, this=this, param_vars=params, body=None, value=None)
        try:
            if r.statements:
                return replace(done, body=self.block(r.tree.children, scope))
            tree = r.tree.children[0]
            value = self.expr(tree, scope)
            if r.returns == "num":
                value = self.coerce(value, "num", tree)
            elif r.returns == "bool" or r.kind == "condition":
                value = self.yes_no(value)
            elif r.returns == "text":
                value = self.as_text(value)
            return replace(done, value=value, result_type=value.type)  # (the type of what it gives back)
        except Abort:
            pass
        except RecursionError:
            self.errors.append(too_deep(r))
        return done


def resolve_program(program: Program, functions: list[Routine]) -> Program:
    """The program resolved: a new Program whose routines that parsed carry their typed nodes, frozen (the
    program given is left as it is). The functions first, in the given order (each after those it uses, whose
    result types it needs), then the rest; its errors are the program's and resolution's."""
    r = Resolver(program)
    done = {id(routine): r.routine(routine)
            for routine in [*functions, *program.initials.values(), *program.extras, *program.conditions,
                            *program.actions()] if routine.tree is not None}
    return program.renewed(done, program.errors + r.errors)
