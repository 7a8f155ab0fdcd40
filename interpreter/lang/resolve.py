"""Stage 4: resolve names and types in every parsed routine, giving each its typed nodes.

Statements are resolved by their class in statements.STATEMENTS, expressions by expressions.py; this
module holds what both need: blocks, scopes of `let` names and the driving loop over a program.
"""

from __future__ import annotations

from lark import Tree

from ..diagnostics import Diagnostic
from . import blocks  # noqa: F401  (registers the compound statements in the table)
from . import nodes as n
from .expressions import Abort, ExprResolver, Scope
from .program import Program, Routine
from .statements import STATEMENTS


def too_deep(r: Routine) -> Diagnostic:
    return Diagnostic(r.at.shifted(1, 1), "this text nests too deeply to compile",
                      "split it into procedures or functions")


class Resolver(ExprResolver):
    """Turns the lark trees of a program's routines into typed nodes, collecting authoring errors."""

    def __init__(self, program: Program) -> None:
        super().__init__(program.model, program.functions, program.rounds)
        self.procedures = program.procedures
        self.verbs = program.verbs
        self.loops = 0  # loops open around the statement being resolved, in the current text

    def routine(self, r: Routine) -> None:
        """Resolve one routine (its errors are collected; a broken routine is left without a body)."""
        self.at = r.at
        self.loops = 0
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

    def block(self, stmts, scope: Scope) -> list[n.Stmt]:
        out: list[n.Stmt] = []
        for s in stmts:
            if not isinstance(s, Tree):
                continue  # a `, then` separator
            if s.data == "suite":
                out += self.block(s.children, scope)
                continue
            cls = STATEMENTS.get(s.data)
            assert cls is not None, f"no statement class for {s.data}"
            try:
                node = cls.resolve(self, s, scope)
            except Abort:  # keep going: report every mistake of the text in one run
                if s.data in ("let", "let_choice"):
                    scope.define(n.Var(str(s.children[0]), "let", "any"))  # no follow-on "unknown name"
                continue
            node.at = self.pos(s)
            out.append(node)
        return out

    def suite(self, tree: Tree, scope: Scope) -> list[n.Stmt]:
        """The statements of a nested block (its `let`s still live to the end of the text)."""
        return self.block(tree.children, Scope(scope))

    def loop_body(self, stmts, scope: Scope) -> list[n.Stmt]:
        """The statements of a loop body (where `stop` may end the loop)."""
        self.loops += 1
        try:
            return self.block(stmts, scope)
        finally:
            self.loops -= 1

    def own_body(self, stmts, scope: Scope) -> list[n.Stmt]:
        """A body run apart from the text around it (no loop of the text is open inside it)."""
        loops, self.loops = self.loops, 0
        try:
            return self.block(stmts, scope)
        finally:
            self.loops = loops

    def local(self, scope: Scope, name: str, typ: str) -> n.Var:
        """The variable a `let` sets; it lives on to the end of its text, as in Python.

        Let-ing a name again sets the same variable (so a value set in both branches of an `if` is
        one variable), provided the type is the same."""
        root = scope.root()
        found = root.vars.get(name)
        if found is not None and found.type == typ:
            return found
        if found is not None and {found.type, typ} in ({"none", "card"}, {"none", "player"}):
            # `let c = none` then `let c = a card…`: one variable, of the type that is not none
            found.type = typ if typ != "none" else found.type
            return found
        return root.define(n.Var(name, "let", typ))


def resolve_program(program: Program, functions: list[Routine]) -> None:
    """Resolve every routine that parsed: the functions first, in the given order (each after those
    it uses, whose result types it needs), then the rest; errors go to `program.errors`."""
    r = Resolver(program)
    for routine in [*functions, *program.initials.values(), *program.extras, *program.conditions,
                    *program.actions()]:
        if routine.tree is not None:
            r.routine(routine)
    program.errors += r.errors
