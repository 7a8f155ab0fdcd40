"""Stages 4–5: resolve names and types in DSL trees, then generate Python source for the whole game.

Every phase, procedure, function and card ability becomes one Python function. A function that can
ask a player something is a generator: it yields an ask `(seat, options, kind, prompt)` (or
`(-1, [asks])` for a simultaneous choice) and receives the chosen option. Play never walks a tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lark import Tree

from ..diagnostics import Anchor
from ..load.model import GameModel
from .expressions import Abort, ExprCompiler, Scope, Typed
from .statements import STATEMENTS

# Short local names for the parts of the state that generated code reads, bound only where used.
_STATE_NAMES = {"Z": "st.zones", "G": "st.gc", "PC": "st.pc", "P": "st.props", "N": "st.n",
                "CD": "st.layout.card_def", "ZO": "st.zone_of", "F": "st.face", "KN": "st.known"}
_USES = re.compile(r"\b(" + "|".join(_STATE_NAMES) + r")\b")


def prologue(body: list[str]) -> list[str]:
    """`Z = st.zones; …` for the state names a function body uses (fewer loads on small functions)."""
    used = sorted({m for line in body if not line.lstrip().startswith("#") for m in _USES.findall(line)})
    return ["    " + "; ".join(f"{name} = {_STATE_NAMES[name]}" for name in used)] if used else []


@dataclass
class Routine:
    """One DSL text to compile into one Python function."""

    pyname: str
    tree: Tree
    at: Anchor
    params: list[str]
    label: str
    kind: str = "proc"  # proc | phase | ability | condition | function
    param_types: list[str] = field(default_factory=list)
    result_type: str = "any"
    generator: bool = False
    returns: str | None = None  # for an expression: num (a score), bool (an invariant) or text (a label)


class Emitter:
    """Indented Python source lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 1
        self.tmp = 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def fresh(self, stem: str) -> str:
        self.tmp += 1
        return f"_{stem}_{self.tmp}"  # the separator keeps `p1` + 1 apart from `p` + 11


class Compiler(ExprCompiler):
    """Turns the routines of one game into one Python module."""

    def __init__(self, model: GameModel, procedures: dict[str, Routine], functions: dict[str, Routine],
                 abilities: dict[str, list[Routine]]) -> None:
        super().__init__(model, functions)
        self.procedures = procedures
        self.verbs: dict[str, str] = {}
        self.abilities = abilities
        self.generator_abilities: set[str] = set()
        self.emit = Emitter()
        self.prompts: list[str] = []
        self.recursive: set[str] = set()
        self.roots: list[Scope] = []
        self.loops = 0  # loops open around the statement being compiled, in the current text
        self.simultaneous = False  # compiling the body of a simultaneous loop (the generator path)
        # direct: the variant for bots in the same process (sim): a choice calls `st.choose(...)`
        # instead of yielding, so no routine is a generator. `yielding` is whether the code being
        # written yields its asks (always, except in the direct variant outside simultaneous bodies).
        self.direct = False
        self.yielding = True
        self.at_stack: list = []

    # ---- driving
    def compile_routine(self, r: Routine) -> list[str]:
        """Python source for one routine (errors are collected, the routine is skipped)."""
        self.at = r.at
        self.emit = Emitter()
        scope = Scope(None)
        self.roots = [scope]  # the scopes whose `let`s start the routine (its own, inlined bodies')
        scope.define("me", "me", "player")
        if r.kind in ("ability", "condition"):
            scope.define("this", "this", "card")
        for p, typ in zip(r.params, r.param_types, strict=False):
            scope.define(p, "a_" + p, typ)
        head = {"ability": "st, me, this", "condition": "st, me, this", "phase": "st"}.get(r.kind, "st, me")
        params = "".join(f", a_{p}" for p in r.params)
        try:
            if r.kind in ("function", "condition"):
                code = self.expr(r.tree.children[0], scope)
                r.result_type = code.type
                if r.returns == "num":
                    code = self.coerce(code, "num", r.tree.children[0])
                elif r.returns == "bool" or r.kind == "condition":
                    code = Typed(self.truth(code), "bool")
                elif r.returns == "text":
                    code = Typed(f"fmt(st, {code.type!r}, {code.code})", "str")
                self.emit.line(f"return {code.code}")
            else:
                if r.kind == "phase":
                    self.emit.line("me = st.active")
                self.block(r.tree.children, scope)
                if r.generator and not self.direct:
                    self.emit.line("if False: yield")
        except Abort:
            return []
        starts = [line for root in self.roots for line in self.initial_values(root)]
        return [f"def {r.pyname}({head}{params}):", *prologue(self.emit.lines), *starts, *self.emit.lines]

    def block(self, stmts, scope: Scope) -> None:
        if not stmts:
            self.emit.line("pass")
        for s in stmts:
            if not isinstance(s, Tree):
                continue  # a `, then` separator
            if s.data == "suite":
                self.block(s.children, scope)
                continue
            fn = STATEMENTS.get(s.data)
            assert fn is not None, f"no compiler for statement {s.data}"
            try:
                fn(self, s, scope)
            except Abort:
                self.emit.line("pass")  # keep going: report every mistake of the text in one run
                if s.data in ("let", "let_choice"):
                    scope.define(str(s.children[0]), "None", "any")  # no follow-on "unknown name"

    def suite(self, tree: Tree, scope: Scope) -> None:
        self.emit.depth += 1
        self.block(tree.children, Scope(scope))
        self.emit.depth -= 1

    def loop_body(self, stmts, scope: Scope) -> None:
        """Compile the statements of a loop body one level in (where `stop` may end the loop)."""
        self.emit.depth += 1
        self.loops += 1
        try:
            self.block(stmts, scope)
        finally:
            self.loops -= 1
            self.emit.depth -= 1

    def invoke(self, proc: Routine, who: str, values: list[str]) -> None:
        """Run a procedure for player `who`: inlined (its body compiled right here), or called if recursive."""
        if proc.pyname in self.recursive or proc.tree is None:
            head = "yield from " if proc.generator and not self.direct else ""
            self.emit.line(f"{head}{proc.pyname}(st, {who}{''.join(', ' + v for v in values)})")
            return
        inner = self.inline_scope(proc, who, values)
        self.emit.line(f"# {proc.label}")
        loops, self.loops = self.loops, 0  # a `stop` never escapes an inlined body
        try:
            self.block(proc.tree.children, inner)
        finally:
            self.at = self.at_stack.pop()
            self.loops = loops

    def inline_scope(self, proc: Routine, who: str, values: list[str]) -> Scope:
        """Bind `me` and the parameters of an inlined procedure to fresh locals."""
        inner = Scope(None)
        self.roots.append(inner)
        me = self.emit.fresh("me")
        self.emit.line(f"{me} = {who}")
        inner.define("me", me, "player")
        for name, typ, value in zip(proc.params, proc.param_types, values, strict=False):
            py = self.emit.fresh("a_" + name)
            self.emit.line(f"{py} = {value}")
            inner.define(name, py, typ)
        self.at_stack.append(self.at)
        self.at = proc.at
        return inner

    def local(self, scope: Scope, name: str, typ: str) -> str:
        """The Python name of a `let` variable; it lives on to the end of its routine, as in Python.

        Let-ing a name again keeps its Python name (so a value set in both branches of an `if` is one
        variable), provided the type is the same."""
        root = scope.root()
        found = root.vars.get(name)
        if found is not None and found[1] == typ:
            return found[0]
        if found is not None and {found[1], typ} in ({"none", "card"}, {"none", "player"}):
            # `let c = none` then `let c = a card…`: one variable, of the type that is not none
            return root.define(name, found[0], typ if typ != "none" else found[1])
        return root.define(name, self.emit.fresh("v_" + name), typ)

    def initial_values(self, scope: Scope, indent: str = "    ") -> list[str]:
        """Every `let` of a routine starts as nothing, so a name let only on one branch can still be
        read after it (as none, 0 or no) instead of failing."""
        blank = {"num": "0", "bool": "False", "card": "-1", "player": "-1", "none": "-1"}
        return [f"{indent}{py} = {blank.get(typ, 'None')}" for py, typ in scope.vars.values() if py.startswith("_v_")]

    def prompt_id(self, prompt: str | None) -> int:
        """The index of a choice's question in the game's prompt table."""
        self.prompts.append(prompt or "")
        return len(self.prompts) - 1

    def ask(self, who: str, options: str, kind: int, prompt: str | None, target: str, forced: bool) -> None:
        """Yield a choice unless it is forced (no option: -1; one option and `forced`: take it)."""
        pid = self.prompt_id(prompt)
        opts = self.emit.fresh("o")
        self.emit.line(f"{opts} = {options}")
        asked = (f"yield ({who}, {opts}, {kind}, {pid})" if self.yielding
                 else f"st.choose(st, {who}, {opts}, {kind}, {pid})")
        if forced and self.simultaneous:
            # Inside a simultaneous body even a one-option choice waits for the others, so its
            # effects cannot show before everyone has chosen.
            self.emit.line(f"if {opts}: {target} = {asked}")
            self.emit.line(f"else: {target} = -1")
        elif forced:
            self.emit.line(f"if len({opts}) > 1: {target} = {asked}")
            self.emit.line(f"else: {target} = {opts}[0] if {opts} else -1")
        else:
            self.emit.line(f"{target} = {asked}")

    def ask_all(self, asks: str) -> str:
        """Code asking several players at once (the list of their asks) for their answers."""
        return f"yield (-1, {asks})" if self.yielding else f"st.choose_all(st, {asks})"
