"""The compound statements of the DSL (if, the loops), registered in statements.STATEMENTS like the
others: one class per grammar rule, with its `resolve`, its `emit` and its `effects`."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Tree

from ..limits import MAX_LOOP
from . import nodes as n
from .expressions import Scope, ref
from .statements import Call, LetChoice, statement

if TYPE_CHECKING:
    from .compiler import Writer
    from .resolve import Resolver

WHILE_BOUND = MAX_LOOP


@statement("if_stmt")
@dataclass(eq=False)
class If(n.Stmt):
    branches: list[tuple[n.Expr, list[n.Stmt]]]
    orelse: list[n.Stmt] | None

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> If:
        cond, body, *rest = s.children
        branches = [(r.condition(cond, scope), r.suite(body, scope))]
        orelse = None
        for clause in rest:
            if clause is None:
                continue
            if clause.data == "elif_clause":
                branches.append((r.condition(clause.children[0], scope), r.suite(clause.children[1], scope)))
            else:
                orelse = r.suite(clause.children[0], scope)
        return cls(branches, orelse)

    def blocks(self) -> list[list[n.Stmt]]:
        return [b for _, b in self.branches] + ([self.orelse] if self.orelse is not None else [])

    def emit(self, w: Writer) -> None:
        for i, (cond, body) in enumerate(self.branches):
            w.line(f"{'if' if i == 0 else 'elif'} {cond.emit(w)}:")
            w.suite(body)
        if self.orelse is not None:
            w.line("else:")
            w.suite(self.orelse)


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

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> ForPlayers:
        kind, name, *rest = s.children
        clauses = {t.data: t for t in rest[:-1] if isinstance(t, Tree)}
        inner = Scope(scope)
        var = inner.define(n.Var(str(name), "loop", "player"))
        if "from_clause" in clauses:
            pool: n.Expr = n.SeatsFrom(r.expect(clauses["from_clause"].children[0], scope, "player"))
            if kind.data != "kind_player":
                other = n.Var("x", "it", "player")
                pool = n.Filter(pool, other, n.Compare("!=", ref(other), r.me(scope)), "players")
        else:
            pool = r.player_kind(kind, scope)
        where = r.condition(clauses["where_clause"].children[0], inner) if "where_clause" in clauses else None
        if "simultaneous" not in clauses:
            return cls(var, pool, where, r.loop_body(rest[-1].children, inner))
        # The body's `let`s are its own (a fresh root scope that sees every name around it).
        own = Scope(None)
        for visible in reversed(inner.names()):
            if (found := inner.lookup(visible)) is not None:  # (always: the name is one of its own)
                own.vars[visible] = found
        return cls(var, pool, where, r.own_body(rest[-1].children, own), simultaneous=True)

    def blocks(self) -> list[list[n.Stmt]]:
        return [self.body]

    def sets(self) -> list[n.Var]:
        return [self.var]

    def emit(self, w: Writer) -> None:
        if self.simultaneous:
            if not _choice_first(w, self):
                _each_a_generator(w, self)
            return
        v, seats = w.bind(self.var), w.fresh("seats")
        w.line(f"{seats} = {self.pool.emit(w)}")
        w.spend(f"len({seats})", self.at)
        w.line(f"for {v} in {seats}:")
        if self.where is not None:
            w.line(f"    if not ({self.where.emit(w)}): continue")
        w.suite(self.body)


def _choice_plan(w: Writer, each: ForPlayers) -> tuple[list, LetChoice, list[n.Stmt]] | None:
    """When each body *starts* with its choice (maybe inside inlined procedures whose player and
    values cannot change meanwhile): the procedures on the way in (each with the statements that
    follow it), the choice, and what follows the choice."""
    route: list[tuple[Call, object, list[n.Stmt]]] = []
    body = each.body
    while body and isinstance(body[0], Call):
        call = body[0]
        if call.each or not w.inlined(call.proc) or not all(x.steady for x in [call.who, *call.args]):
            return None
        proc = w.procedure(call.proc)
        route.append((call, proc, body[1:]))
        body = proc.body or []  # (an inlined procedure is resolved: it has one)
    if not body or not isinstance(body[0], LetChoice) or body[0].choice.count is not None:
        return None
    return route, body[0], body[1:]


def _choice_first(w: Writer, each: ForPlayers) -> bool:
    """The common case, without nested generators: collect every player's options, ask once, then
    run the bodies in turn order (each player's procedure values computed again, to the same)."""
    plan = _choice_plan(w, each)
    if plan is None:
        return False
    route, let, rest = plan
    var = w.bind(each.var)
    seats, asks, answers, answer = (w.fresh(x) for x in ("seats", "asks", "ans", "a"))
    if each.where is not None:
        w.line(f"{seats} = [{var} for {var} in {each.pool.emit(w)} if {each.where.emit(w)}]")
    else:
        w.line(f"{seats} = {each.pool.emit(w)}")  # a list of seats is never changed in place
    w.spend(f"len({seats})", each.at)
    w.line(f"{asks} = []")
    w.line(f"for {var} in {seats}:")
    layers = []
    with w.indent(), ExitStack() as inside:
        for call, proc, _ in route:
            layer = w.inline_layer(proc, call.who, call.args)
            layers.append(layer)
            for text in layer.bindings:
                w.line(text)
            inside.enter_context(w.entered(layer))
        c = let.choice
        who = w.some(c.who, "the player who chooses")
        w.line(f"{asks}.append(({who}, {c.options.emit(w)}, {c.kind}, {w.prompt(c.prompt)}))")
    if not _own_choice(each, route, let):
        w.line(f"if {asks}: one_ask_each({asks}, {w.place(let.at)})")
    w.line(f"{answers} = (yield (-1, {asks})) if {asks} else ()")  # every seat of the loop is asked
    w.line(f"for {var}, {answer} in zip({seats}, {answers}):")
    with w.indent():
        _then(w, route, layers, 0, lambda: _answered(w, let, rest, answer))
    return True


def _own_choice(each: ForPlayers, route: list, let: LetChoice) -> bool:
    """Is the chooser each seat of the loop itself (through the procedures on the way in)? Then no
    seat can be asked twice (a list of seats never repeats one)."""
    seat = each.var
    for call, proc, _ in route:
        if not (isinstance(call.who, n.Ref) and call.who.var is seat):
            return False
        seat = proc.me
    return isinstance(let.choice.who, n.Ref) and let.choice.who.var is seat


def _then(w: Writer, route: list, layers: list, i: int, innermost) -> None:
    """The second pass, from the `i`-th procedure in: set its player and values, write what follows
    inside it, then what follows its call (outside it)."""
    if i == len(route):
        innermost()
        return
    _, proc, after = route[i]
    for text in layers[i].bindings:
        w.line(text)
    with w.entered(layers[i]):
        w.heading(proc)
        _then(w, route, layers, i + 1, innermost)
    if after:
        w.block(after)


def _answered(w: Writer, let: LetChoice, rest: list[n.Stmt], answer: str) -> None:
    w.line(f"{w.bind(let.var)} = {answer}")
    if rest:
        w.block(rest)


def _each_a_generator(w: Writer, each: ForPlayers) -> None:
    """The general case: each player's body is a generator of its own, run to its first ask; the
    first asks go out together; then each body is finished in turn order (asking on its own)."""
    var = w.bind(each.var)
    fn, gens, asks, g, a = (w.fresh(x) for x in ("simul", "gens", "asks", "g", "a"))
    with w.function(f"def {fn}({var}):", [each.var]):
        w.block(each.body)
        w.line("if False: yield")
    seats = w.fresh("seats")
    w.line(f"{seats} = {each.pool.emit(w)}")
    w.spend(f"len({seats})", each.at)
    w.line(f"{gens} = []; {asks} = []")
    w.line(f"for {var} in {seats}:")
    if each.where is not None:
        w.line(f"    if not ({each.where.emit(w)}): continue")
    w.line(f"    {g} = {fn}({var})")
    w.line("    try:")
    w.line(f"        {asks}.append(next({g})); {gens}.append({g})")
    w.line("    except StopIteration: pass")
    w.line(f"if {gens}:")
    w.line(f"    one_ask_each({asks}, {w.place(each.at)})")
    w.line(f"    {a} = yield (-1, {asks})")
    w.line(f"    for {g}, {a} in zip({gens}, {a}):")
    w.line("        try:")
    w.line("            while True:")
    w.line(f"                {a} = yield {g}.send({a})")
    w.line("        except StopIteration: pass")


@statement("for_cards")
@dataclass(eq=False)
class ForCards(n.Stmt):
    var: n.Var
    cards: n.Expr
    body: list[n.Stmt]

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> ForCards:
        name, cards, body = s.children
        pool = r.expect(cards, scope, "cards")
        inner = Scope(scope)
        var = inner.define(n.Var(str(name), "loop", "card"))
        return cls(var, pool, r.loop_body(body.children, inner))

    def blocks(self) -> list[list[n.Stmt]]:
        return [self.body]

    def sets(self) -> list[n.Var]:
        return [self.var]

    def emit(self, w: Writer) -> None:
        cards, own = self.cards.emit(w), w.fresh("cards")  # a copy unless made for the loop: the body may move
        # its cards
        w.line(f"{own} = {cards if self.cards.FRESH else f'list({cards})'}")
        w.spend(f"len({own})", self.at)
        w.line(f"for {w.bind(self.var)} in {own}:")
        w.suite(self.body)


@statement("visit")
@dataclass(eq=False)
class Visit(n.Stmt):
    """`visit each card c in ZONE:` each member once, always the first not yet visited in the zone's
    current order (cards moved in or out on the way are seen or skipped)."""

    var: n.Var
    zone: n.Expr
    body: list[n.Stmt]

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Visit:
        name, zone, body = s.children
        zi = r.expect(zone, scope, "zone")
        inner = Scope(scope)
        var = inner.define(n.Var(str(name), "loop", "card"))
        return cls(var, zi, r.loop_body(body.children, inner))

    def blocks(self) -> list[list[n.Stmt]]:
        return [self.body]

    def sets(self) -> list[n.Var]:
        return [self.var]

    def emit(self, w: Writer) -> None:
        var, seen, zv = w.bind(self.var), w.fresh("seen"), w.fresh("z")
        w.line(f"{seen} = set(); {zv} = {w.alias('Z')}[{self.zone.emit(w)}]")
        w.spend(f"len({zv})", self.at)
        w.line("while True:")
        w.line(f"    {var} = next((x for x in {zv} if x not in {seen}), -1)")
        w.line(f"    if {var} < 0: break")
        w.line(f"    {seen}.add({var})")
        w.suite(self.body)


@statement("repeat")
@dataclass(eq=False)
class Repeat(n.Stmt):
    count: n.Expr
    body: list[n.Stmt]

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Repeat:
        count, body = s.children
        times = r.expect(count, scope, "num")
        if isinstance(times, n.Const) and times.value > MAX_LOOP:
            r.fail(r.pos(count), f"`repeat {times.value} times` is more than {MAX_LOOP:,} rounds")
        return cls(times, r.loop_body(body.children, Scope(scope)))

    def blocks(self) -> list[list[n.Stmt]]:
        return [self.body]

    def emit(self, w: Writer) -> None:
        if isinstance(self.count, n.Const):  # checked before play
            if self.count.value > 0:
                w.spend(str(self.count.value), self.at)
            w.line(f"for _ in range({self.count.value}):")
            w.suite(self.body)
            return
        times = w.fresh("n")
        w.line(f"{times} = {self.count.emit(w)}")
        w.line(f"if {times} > {MAX_LOOP}: too_many_rounds({times}, {w.place(self.at)})")
        w.line(f"if {times} > 0:")
        with w.indent():
            w.spend(times, self.at)
            w.line(f"for _ in range({times}):")
            w.suite(self.body)


@statement("while_stmt")
@dataclass(eq=False)
class While(n.Stmt):
    """`while COND [at most N times]:`. Without a bound a run-away loop is a rule error."""

    cond: n.Expr
    bound: n.Expr | None
    body: list[n.Stmt]

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> While:
        cond, *rest = s.children
        bound = r.expect(rest[0], scope, "num") if len(rest) == 2 else None
        return cls(r.condition(cond, scope), bound, r.loop_body(rest[-1].children, Scope(scope)))

    def blocks(self) -> list[list[n.Stmt]]:
        return [self.body]

    def emit(self, w: Writer) -> None:
        limit = self.bound.emit(w) if self.bound is not None else str(WHILE_BOUND)
        w.line(f"for {w.fresh('w')} in range({limit}):")
        w.line(f"    if not ({self.cond.emit(w)}): break")
        with w.indent():
            w.spend("1", self.at)
        w.suite(self.body)
        if self.bound is None:
            w.line(f"else: check_loop({WHILE_BOUND}, {w.place(self.at)})")
