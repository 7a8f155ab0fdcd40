"""Stage 5, the code writer's craft: lines, indentation, fresh names, nested functions, inlined bodies and the
line → DSL place table. What each node is written as is said by the visitors above it (write_expressions.py for
values, compiler.py for statements), found by `visit_<NodeClass>` as jinja2's CodeGenerator finds its
`visit_<Node>`; the nodes themselves are plain data and know nothing of writing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Pos, source_line
from ..limits import MAX_NUMBER, UNCHARGED
from ..load.model import GameModel
from . import nodes as n
from .analysis import Plan
from .compiled import Compiled
from .program import Program, Routine
from .ranges import Ranges
from .resolve import too_deep

# Short local names for the parts of the state that generated code reads, bound only where used.
STATE_NAMES = {"Z": "st.zones", "G": "st.gc", "PC": "st.pc", "P": "st.props", "N": "st.n",
               "CD": "st.layout.card_def", "ZO": "st.zone_of", "F": "st.face", "KN": "st.known",
               "AC": "ABILITY_CARDS[st.n] or ABILITIES_AT(st.n)"}
_BLANK = {"num": "0", "bool": "False", "card": "-1", "player": "-1", "none": "-1"}


@dataclass(eq=False)
class Frame:
    """One Python function being written: its lines, and what goes at its top once they are known."""

    depth: int  # indentation of its body
    lines: list[tuple[str, Pos | None]] = field(default_factory=list)
    inits: list[tuple[str, n.Var]] = field(default_factory=list)  # `let` names first set here
    outer: list[str] = field(default_factory=list)  # names of enclosing functions it sets (nonlocal)


@dataclass
class Layer:
    """The Python names of one text's variables where it is written (an inlined procedure body gets
    a layer of its own, so the same body inlined twice has distinct names)."""

    names: dict[int, tuple[str, Frame]] = field(default_factory=dict)
    bindings: list[str] = field(default_factory=list)  # lines that set its `me` and parameters


class Writer:
    """Writes Python for nodes: lines, indentation, fresh names, and the line → DSL place table. A node is
    written by the method `visit_<its class>` (the first found along its class's bases) of the visitor that
    subclasses this one; a node class with an `emit(writer)` of its own writes itself (a statement added
    from outside the package, as docs/architecture.md's worked example)."""

    def __init__(self, program: Program, plan: Plan, shared: set[str]) -> None:
        self.program = program
        self.plan = plan
        self.root = str(Path(program.model.root).resolve())
        self.prompts: list[str] = []
        self._prompt_ids: dict[str, int] = {}
        self.places: list[Pos] = []
        self._place_ids: dict[tuple[str, int, int], int] = {}
        self.constants: dict[str, int] = {}  # the named numbers the source uses (zones, properties, counters)
        self._constant_names = _constant_names(program.model)
        self.shared = shared  # procedures written once and called, though they do not reach themselves
        self.out: list[tuple[str, Pos | None]] = []
        self.starts: list[tuple[int, Routine]] = []
        self.errors: list = []
        model = program.model
        self.cards = sum(d.count * (model.max_players if d.each_player else 1) for d in model.cards)
        self.free = False  # writing a sentence of the log: nothing charged
        self._iterating: dict[tuple[str, str], bool] = {}  # functions and conditions: do they run over a list?
        self._visitors: dict[type, str] = {}  # a node class → the name of the method that writes it
        self.ranges = Ranges(model, self.cards)  # what numbers can pass the limit, to test only those
        self._begin(None)

    def _begin(self, at) -> None:
        self.frames = [Frame(1)]
        self.layers = [Layer()]
        self.depth = 1
        self.tmp = 0
        self.aliases: set[str] = set()
        self.at = at
        self.kind: str | None = None  # the kind of routine being written (phase, ability, …)
        self.sure = {"me", "this"}  # Python names that are never none (a parameter given `me`, …)
        self.commented: tuple | None = None
        self.uses_me = False  # whether the routine's `me` is read or set (a phase sets it only then)
        self.logged = False  # writing what only a logged (or watched) match runs

    # ---- lines
    def line(self, text: str) -> None:
        self.frames[-1].lines.append(("    " * self.depth + text, self.at))

    @contextmanager
    def indent(self, levels: int = 1) -> Iterator[None]:
        self.depth += levels
        try:
            yield
        finally:
            self.depth -= levels

    @contextmanager
    def for_the_log(self) -> Iterator[None]:
        """Write what only a logged (or watched) match runs (under a test of `st.log`)."""
        saved, self.logged = self.logged, True
        try:
            yield
        finally:
            self.logged = saved

    def relative(self, file: str) -> str:
        """A file of the game as the generated code names it: relative to the game folder."""
        return file[len(self.root) + 1:] if file.startswith(self.root + "/") else file

    def where(self, at: Pos) -> str:
        """`file:line` of a DSL place, the file relative to the game folder."""
        return f"{self.relative(at.file)}:{at.line}"

    def place(self, at: Pos | None) -> str:
        """Code for the DSL place an error at run time names: `AT[k]`, an entry of the game's table of places
        (its files relative to the game folder in the source, the module is given them whole when it is
        loaded), so that the source is the same wherever the game folder lies. No place: the empty text."""
        if at is None:
            return "''"
        key = (self.relative(at.file), at.line, at.col)
        k = self._place_ids.get(key)
        if k is None:
            k = self._place_ids[key] = len(self.places)
            self.places.append(Pos(*key))
        return f"AT[{k}]"

    def constant(self, kind: str, index: int) -> str:
        """The name the source gives a zone's (or a player zone's first) number, a card property's column or
        a counter's slot (`kind`: zone, stride, prop, counter, player_counter); defined at the module's top."""
        name = self._constant_names[kind, index]
        self.constants[name] = index
        return name

    # ---- names
    def fresh(self, stem: str) -> str:
        self.tmp += 1
        return f"_{stem}_{self.tmp}"  # the separator keeps `p1` + 1 apart from `p` + 11

    def alias(self, name: str) -> str:
        """The short local name of a state part (bound at the top of the routine)."""
        self.aliases.add(name)
        return name

    def _lookup(self, var: n.Var) -> tuple[str, Frame] | None:
        for layer in reversed(self.layers):
            hit = layer.names.get(id(var))
            if hit is not None:
                return hit
        return None

    def _name(self, var: n.Var) -> str:
        py = self.fresh("i" if var.kind == "it" else "v_" + var.name)
        frame = self.frames[-1]
        self.layers[-1].names[id(var)] = (py, frame)
        if var.kind == "let":
            frame.inits.append((py, var))  # read before it is set on every path: starts blank
        return py

    def ref(self, var: n.Var) -> str:
        """The Python name of a variable, to read it."""
        hit = self._lookup(var)
        if hit is None:
            return self._name(var)
        if hit[0] == "me":
            self.uses_me = True
        return hit[0]

    def bind(self, var: n.Var) -> str:
        """The Python name of a variable, to set it (from a nested function: declared nonlocal)."""
        hit = self._lookup(var)
        if hit is None:
            return self._name(var)
        py, frame = hit
        if py == "me":
            self.uses_me = True
        if frame is not self.frames[-1] and py not in self.frames[-1].outer:
            self.frames[-1].outer.append(py)
        return py

    def prompt(self, text: str | n.Text | None) -> str:
        """A choice's question as the ask carries it: the index of a fixed text in the game's prompt
        table; a question with `{…}` parts: (the index of the question as written, which is what the
        other seats see, and the code that writes the sentence for the asked seat)."""
        if isinstance(text, n.Text):
            return f"({self.prompt(text.written)}, {self.expr(text)})"
        text = text or ""
        if text not in self._prompt_ids:
            self._prompt_ids[text] = len(self.prompts)
            self.prompts.append(text)
        return str(self._prompt_ids[text])

    # ---- the visitors
    def visit(self, node: n.Node) -> Any:
        """Write a node: the code of a value, the lines of a statement."""
        cls = type(node)
        name = self._visitors.get(cls)
        if name is None:
            for base in cls.__mro__:
                if "emit" in vars(base) and base is not n.Expr:
                    name = "emit"
                    break
                if hasattr(self, f"visit_{base.__name__}"):
                    name = f"visit_{base.__name__}"
                    break
            else:
                raise TypeError(f"no visitor writes a {cls.__name__}")
            self._visitors[cls] = name
        if name == "emit":
            return getattr(node, "emit")(self)  # noqa: B009  (a node that writes itself)
        return getattr(self, name)(node)

    def expr(self, node: n.Expr) -> str:
        """The Python code of a value."""
        code: str = self.visit(node)
        return code

    def expr_or(self, node: n.Expr, fallback: str) -> str | None:
        """Code of a card or player with `fallback` (code that raises) where it would be none, if it has a
        form that tests for none anyway (else None: the writer checks the value it gives)."""
        return None

    # ---- statements
    def block(self, body: list[n.Stmt]) -> None:
        if not body:
            self.line("pass")
        for s in body:
            self.statement(s)

    def suite(self, body: list[n.Stmt]) -> None:
        with self.indent():
            self.block(body)

    def statement(self, s: n.Stmt) -> None:
        """One statement, headed by its DSL line (once per line)."""
        saved, self.at = self.at, s.at
        self.comment(s.at)
        try:
            self.visit(s)
        finally:
            self.at = saved

    def comment(self, at: Pos | None) -> None:
        """Head what follows with its DSL line (once per line)."""
        if at is not None and (at.file, at.line) != self.commented:
            self.commented = (at.file, at.line)
            text = source_line(at.file, at.line)
            self.line(f"# {self.where(at)}" + (f"  {text.strip()}" if text and text.strip() else ""))

    def spend(self, count: str, at: Pos | None) -> None:
        """Charge `count` steps (loop rounds) to the match, which stops past its step limit (cheap: once
        per loop, not per round; only a `while` pays each round)."""
        self.line(f"st.steps -= {count}")
        self.line(f"if st.steps < 0: out_of_steps(st, {self.place(at)})")

    def seat_count(self, seats: str, pool: n.Expr, where: n.Expr | None) -> str:
        """Code of how many seats the list `seats` (made of `pool`, kept where `where` holds) holds: where no
        statement of the game can knock a player out, every player (`st.n`) for the list of all players."""
        if where is None and isinstance(pool, n.AllPlayers) and n.KNOCKS_OUT not in self.plan.effects:
            return "st.n"
        return f"len({seats})"

    def charge(self, items: str, at: Pos | None) -> str:
        """Code of the list `items`, charged as steps (one an element) as it is worked out (not in a
        sentence of the log, which a quiet match never works out: see statements.Say)."""
        return items if self.free else f"charge(st, {items}, {self.place(at or self.at)})"

    def call_iterates(self, call: n.Expr) -> bool:
        """Whether working out a game function, or a declared condition of the cards, runs over a list
        (or calls what does)."""
        if isinstance(call, n.FunctionCall):
            key = ("function", call.pyname)
            texts = [f for f in self.program.functions.values() if f.pyname == call.pyname]
        else:
            assert isinstance(call, n.CardCondition)
            name = list(self.program.model.conditions)[call.index]
            key, texts = ("condition", name), [r for r in self.program.conditions if r.ability == name]
        if key not in self._iterating:
            self._iterating[key] = not texts or any(r.value is None or n.iterates(r.value, self.call_iterates)
                                                    for r in texts)
        return self._iterating[key]

    def may_be_long(self, items: n.Expr, bounded: bool) -> bool:
        """Whether a list may hold more than UNCHARGED elements (`bounded`: at most one of each card)."""
        return items.type != "players" and not (bounded and self.cards <= UNCHARGED)

    def bound(self, name: str, value: n.Expr, floor: int | None = None) -> None:
        """After a number `value` is stored in `name` (kept at or above `floor`): stop it past MAX_NUMBER
        either way (a comparison; one side only where it can only grow or shrink; none where the value is
        a stored number or a literal already)."""
        if value.type != "num" or isinstance(value, n.Ref | n.GameCounter | n.PlayerCounter | n.CardProp | n.Length):
            return
        if self.ranges.within(value):  # it cannot pass the limit (a sum of card values, a roll, …)
            return
        where = self.place(self.at)
        step = value if isinstance(value, n.Arith) and value.op in "+-" and value.left is not value.right and \
            isinstance(value.left, n.GameCounter | n.PlayerCounter | n.Ref) else None
        change = self.ranges.span(step.right) if step is not None else None
        if step is not None and change is not None and (change[0] >= 0 or change[1] <= 0):  # `add 2 to …`: one way
            grows = (change[0] >= 0) == (step.op == "+")
            test = f"{name} > {MAX_NUMBER}" if grows or floor is not None else f"{name} < {-MAX_NUMBER}"
            self.line(f"if {test}: too_big({name}, {where})")
            return
        if not isinstance(value, n.Const):
            test = f"{name} > {MAX_NUMBER}" if floor is not None else f"not {-MAX_NUMBER} <= {name} <= {MAX_NUMBER}"
            self.line(f"if {test}: too_big({name}, {where})")
        elif abs(value.value) > MAX_NUMBER:  # a literal worked out before play
            self.errors.append(Diagnostic(value.at or self.at, f"{value.value:,} is past the limit of {MAX_NUMBER:,} "
                                          "(2**63 - 1) either way that a counter, a name or a score may keep"))

    def some(self, value: n.Expr, what: str) -> str:
        """A player or card that must not be none here: checked where it may be none (a RuleError at
        run time), refused before play where it always is."""
        code = self.expr(value)
        if not value.maybe_none or code in self.sure:
            return code
        at = value.at or self.at
        if isinstance(value, n.Const):
            self.errors.append(Diagnostic(at, f"{what} cannot be none"))
        tested = self.expr_or(value, f"need(-1, {what!r}, {self.place(at)})")
        if tested is not None:  # e.g. the top card of a zone: the call only when the zone is empty
            return tested
        if value.cheap:  # a name: tested in place, the call only when it fails
            return f"({code} if {code} >= 0 else need({code}, {what!r}, {self.place(at)}))"
        return f"need({code}, {what!r}, {self.place(at)})"

    def ask(self, who: str, options: str, kind: int, prompt: str, target: str) -> None:
        """Yield a choice: always, even with one option, so that being asked tells the others nothing."""
        self.line(f"{target} = yield ({who}, {options}, {kind}, {prompt})")

    # ---- procedures and abilities
    def procedure(self, name: str) -> Routine:
        return self.program.procedures[name]

    def inlined(self, name: str) -> bool:
        """Is a procedure written into its callers? Not one that reaches itself, nor one run from more than
        INLINED_SITES places (written once and called: the module stays in proportion to the DSL)."""
        return name not in self.plan.recursive and name not in self.shared

    def ability_asks(self, ability: str) -> bool:
        return ability in self.plan.asking_abilities

    def invoke(self, name: str, who: str | n.Expr, args: list[n.Expr]) -> None:
        """Run a procedure for player `who` (a Python name or a node): inlined, or called if recursive."""
        proc = self.procedure(name)
        if not self.inlined(name):
            head = "yield from " if proc in self.plan.asking else ""
            values = [who if isinstance(who, str) else self.some(who, "the player it runs for"),
                      *(self.expr(a) for a in args)]
            recursive = name in self.plan.recursive
            if recursive:  # a call that may reach itself: counted, and its depth
                self.line(f"enter(st, {self.place(self.at)})")
            self.line(f"{head}{proc.pyname}(st, {', '.join(values)})")
            if recursive:
                self.line("st.depth -= 1")
            return
        if not isinstance(who, str) and who.maybe_none:
            me = self.fresh("me")
            self.line(f"{me} = {self.some(who, 'the player it runs for')}")
            who = me
        layer = self.inline_layer(proc, who, args)
        for text in layer.bindings:
            self.line(text)
        with self.entered(layer):
            self.body_of(proc)

    def inline_layer(self, proc: Routine, who: str | n.Expr, args: list[n.Expr]) -> Layer:
        """Names for an inlined procedure's `me` and parameters, and the lines that set them (a plain
        name or a constant is used as it is, where the body never sets that parameter)."""
        layer = Layer()
        frame = self.frames[-1]
        assert proc.body is not None and proc.me is not None  # an inlined procedure is resolved
        assigned = _assigned(proc.body)
        for var, value in [(proc.me, who), *zip(proc.param_vars, args, strict=True)]:
            code = value if isinstance(value, str) else self.expr(value)
            plain = isinstance(value, str | n.Ref | n.Const)
            if plain and var not in assigned:
                layer.names[id(var)] = (code, frame)
                if isinstance(value, str) or not value.maybe_none:
                    self.sure.add(code)
                continue
            py = self.fresh("me" if var.kind == "me" else "a_" + var.name)
            layer.names[id(var)] = (py, frame)
            layer.bindings.append(f"{py} = {code}")
        return layer

    @contextmanager
    def entered(self, layer: Layer) -> Iterator[None]:
        """Write inside an inlined body (its names in `layer`)."""
        self.layers.append(layer)
        try:
            yield
        finally:
            self.layers.pop()

    def body_of(self, proc: Routine) -> None:
        """The statements of an inlined procedure, headed by where it comes from."""
        self.heading(proc)
        assert proc.body is not None  # an inlined procedure is resolved
        self.block(proc.body)

    def heading(self, proc: Routine) -> None:
        self.line(f"# procedure {proc.label} ({self.where(proc.at.shifted(1, 1))})")
        self.commented = None

    @contextmanager
    def function(self, head: str, params: list[n.Var]) -> Iterator[None]:
        """A nested Python function (`def …:`) written here, taking `params`; its own `let` names
        start inside it, names of the functions around it that it sets are declared nonlocal."""
        self.line(head)
        frame = Frame(self.depth + 1)
        saved = [(var, hit) for var in params if (hit := self._lookup(var)) is not None]
        assert len(saved) == len(params)  # the caller has bound each one
        for var, (py, _) in saved:
            self.layers[-1].names[id(var)] = (py, frame)
        self.frames.append(frame)
        depth = self.depth
        self.depth += 1
        try:
            yield
        finally:
            self.depth = depth
            self.frames.pop()
            self.frames[-1].lines += self._assemble(frame, [])
            for var, hit in saved:
                self.layers[-1].names[id(var)] = hit

    def _assemble(self, frame: Frame, head: list[str]) -> list[tuple[str, Pos | None]]:
        pad = "    " * frame.depth
        top = [pad + text for text in head]
        if frame.outer:
            top.append(f"{pad}nonlocal {', '.join(frame.outer)}")
        top += [f"{pad}{py} = {_BLANK.get(var.type, 'None')}" for py, var in frame.inits]
        at = frame.lines[0][1] if frame.lines else self.at
        return [(text, at) for text in top] + frame.lines

    # ---- routines
    def rehearse(self, r: Routine) -> None:
        """Work through a routine as `routine` would, for its mistakes, and keep nothing of what it wrote."""
        out, starts, constants = len(self.out), len(self.starts), dict(self.constants)
        places, place_ids, prompts, prompt_ids = len(self.places), dict(self._place_ids), len(self.prompts), \
            dict(self._prompt_ids)
        self.routine(r)
        del self.out[out:], self.starts[starts:], self.places[places:], self.prompts[prompts:]
        self.constants, self._place_ids, self._prompt_ids = constants, place_ids, prompt_ids

    def routine(self, r: Routine) -> None:
        """Write one routine as one Python function (a text Python cannot nest that deep is reported)."""
        self._begin(r.at.shifted(1, 1))
        self.kind = r.kind
        layer = self.layers[0]
        layer.names[id(r.me)] = ("me", self.frames[0])
        if r.this is not None:
            layer.names[id(r.this)] = ("this", self.frames[0])
        for var in r.param_vars:
            layer.names[id(var)] = ("a_" + var.name, self.frames[0])
        head = {"ability": "st, me, this", "condition": "st, me, this", "phase": "st"}.get(r.kind, "st, me")
        params = "".join(f", a_{p}" for p in r.params)
        try:
            if not r.statements:
                assert r.value is not None  # written only once resolved
                if r.pyname == "result_score":  # a score is logged: kept within MAX_NUMBER too
                    self.line(f"score = {self.expr(r.value)}")
                    self.bound("score", r.value)
                    self.line("return score")
                else:
                    self.line(f"return {self.expr(r.value)}")
            else:
                assert r.body is not None
                self.block(r.body)
                if r.kind == "phase" and self.uses_me:  # the active player, where the phase names it
                    self.frames[0].lines.insert(0, ("    me = st.active", r.at.shifted(1, 1)))
                if r in self.plan.asking:
                    self.line("if False: yield")  # a generator even where no ask is written
        except RecursionError:
            self.errors.append(too_deep(r))
            return
        frame = self.frames[0]
        used = sorted(self.aliases)
        prologue = ["; ".join(f"{a} = {STATE_NAMES[a]}" for a in used)] if used else []
        start = r.at.shifted(1, 1)
        self.starts.append((len(self.out) + 1, r))
        self.out.append((f"# {self.where(start)}  {r.kind} {r.label}", start))
        self.out.append((f"def {r.pyname}({head}{params}):", start))
        self.out += self._assemble(frame, prologue)
        self.out.append(("", None))

    def footer(self) -> list[str]:
        """The module's last lines: the named numbers the routines use (read when they run, so after them is
        early enough) and the table of DSL places `AT` (as a comment: the module is given it when loaded)."""
        tail = ["", "# The numbers named above: zones (a player's zone: that of the first seat), properties, counters,",
                "# abilities and conditions."]
        tail += [f"{name} = {index}" for (_, index), name in self._constant_names.items() if name in self.constants]
        if self.places:
            tail += ["", "# AT[k]: the DSL place (file:line:col, the file in the game folder) a failure names."]
            tail += [f"# AT[{k}] = {p}" for k, p in enumerate(self.places)]
        return tail

    def compiled(self) -> Compiled:
        lines = [*self.out, *((text, None) for text in self.footer())]
        return Compiled("\n".join(text for text, _ in lines) + "\n", [at for _, at in lines], self.prompts,
                        self.starts, self.places, dict(self.constants))


def _assigned(body: list[n.Stmt]) -> set[n.Var]:
    """Variables a body sets (a procedure parameter set in its body needs a copy of its own)."""
    out: set[n.Var] = set()
    for s in n.walk(body):
        out.update(s.sets())
    return out


def _constant_names(model: GameModel) -> dict[tuple[str, int], str]:
    """The Python name of each number the source may use: zones (a player's zone: that of the first seat),
    the count of zones each player has, card properties, counters, abilities and conditions."""
    g = len(model.game_zones)
    names = {("stride", len(model.player_zones)): "PLAYER_ZONES"}
    names |= {("zone", i): f"ZONE_{name}" for name, i in model.game_zones.items()}
    names |= {("zone", g + i): f"ZONE_{name}" for name, i in model.player_zones.items()}
    names |= {("prop", i): f"PROP_{name}" for name, i in model.prop_index.items()}
    for c in model.counters.values():
        names["player_counter" if c.per_player else "counter", c.index] = f"COUNTER_{c.name}"
    names |= {("ability", i): f"ABILITY_{name}" for i, name in enumerate(model.abilities)}
    names |= {("condition", i): f"CONDITION_{name}" for i, name in enumerate(model.conditions)}
    return names
