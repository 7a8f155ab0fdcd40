"""Stages 4–5: resolve names and types in DSL trees, then generate Python source for the whole game.

Every phase, procedure, function and card ability becomes one Python function. A function that can
ask a player something is a generator: it yields an ask `(seat, options, kind, prompt)` (or
`(-1, [asks])` for a simultaneous choice) and receives the chosen option. Play never walks a tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lark import Tree

from .diagnostics import Anchor, did_you_mean
from .expressions import Abort, ExprCompiler, Scope
from .model import GameModel
from .runtime import K_BOOL, K_CARD, K_NUMBER, K_PLAYER, K_TEXT

WHILE_BOUND = 10_000


@dataclass
class Routine:
    """One DSL text to compile into one Python function."""

    pyname: str
    tree: Tree
    at: Anchor
    params: list[str]
    label: str
    kind: str = "proc"  # proc | phase | ability | function
    param_types: list[str] = field(default_factory=list)
    result_type: str = "any"
    generator: bool = False
    calls: set[str] = field(default_factory=set)


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
        return f"_{stem}{self.tmp}"


STATEMENTS: dict[str, callable] = {}


def statement(name: str):
    """Register the compiler of one statement kind (one verb, one function)."""

    def register(fn):
        STATEMENTS[name] = fn
        return fn

    return register


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
        self.routine: Routine | None = None
        self.prompts: list[str] = []

    # ---- driving
    def compile_routine(self, r: Routine) -> list[str]:
        """Python source for one routine (errors are collected, the routine is skipped)."""
        self.routine = r
        self.at = r.at
        self.emit = Emitter()
        scope = Scope(None)
        scope.define("me", "me", "player")
        if r.kind == "ability":
            scope.define("this", "this", "card")
        for p, typ in zip(r.params, r.param_types):
            scope.define(p, "a_" + p, typ)
        head = {"ability": "st, me, this", "phase": "st", "function": "st, me"}.get(r.kind, "st, me")
        params = "".join(f", a_{p}" for p in r.params)
        try:
            if r.kind == "function":
                code = self.expr(r.tree.children[0], scope)
                r.result_type = code.type
                self.emit.line(f"return {code.code}")
            else:
                if r.kind == "phase":
                    self.emit.line("me = st.active")
                self.block(r.tree.children, scope)
                if r.generator:
                    self.emit.line("if False: yield")
        except Abort:
            return []
        prologue = ["    Z = st.zones; G = st.gc; PC = st.pc; P = st.props; N = st.n"]
        return [f"def {r.pyname}({head}{params}):"] + prologue + self.emit.lines

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

    def is_generator_call(self, verb: str) -> bool:
        return self.procedures[self.verbs[verb]].generator

    def ask(self, who: str, options: str, kind: int, prompt: str | None, target: str, forced: bool) -> None:
        """Yield a choice unless it is forced (no option: -1; one option and `forced`: take it)."""
        pid = len(self.prompts)
        self.prompts.append(prompt or "")
        opts = self.emit.fresh("o")
        self.emit.line(f"{opts} = {options}")
        if forced:
            self.emit.line(f"if len({opts}) > 1: {target} = yield ({who}, {opts}, {kind}, {pid})")
            self.emit.line(f"else: {target} = {opts}[0] if {opts} else -1")
        else:
            self.emit.line(f"{target} = yield ({who}, {opts}, {kind}, {pid})")


# ---- statements --------------------------------------------------------------------------------------


@statement("let")
def _let(c: Compiler, s: Tree, scope: Scope) -> None:
    name, value = s.children
    v = c.expr(value, scope)
    py = scope.define(str(name), "v_" + str(name), v.type)
    c.emit.line(f"{py} = {v.code}")


@statement("let_choice")
def _let_choice(c: Compiler, s: Tree, scope: Scope) -> None:
    name, chooser, choice = s.children
    if chooser.data == "chooser_me":
        who = "me"
    else:
        who = c.expect(chooser.children[0], scope, "player").code
    kind = choice.data
    ch = choice.children
    if kind == "choose_card":
        cards = c.expect(ch[0], scope, "cards")
        c.ask(who, f"list({cards.code})", K_CARD, None, "v_" + str(name), True)
        typ = "card"
    elif kind == "choose_up_to" or kind == "choose_exactly":
        count = c.expect(ch[0], scope, "num")
        cards = c.expect(ch[-1], scope, "cards")
        if kind == "choose_up_to" and count.code == "1":
            c.ask(who, f"[-1] + list({cards.code})", K_CARD, None, "v_" + str(name), True)
            typ = "card"
        else:
            upto = "True" if kind == "choose_up_to" else "False"
            c.emit.line(f"v_{name} = yield from choose_cards({who}, list({cards.code}), {count.code}, {upto})")
            typ = "cards"
    elif kind in ("choose_player", "choose_any_player", "choose_opponent"):
        if kind == "choose_player":
            pool = c.expect(ch[0], scope, "players").code
        elif kind == "choose_opponent":
            pool = f"st.orders[{who}][1:]"
        else:
            pool = "st.orders[st.first]"
        c.ask(who, f"list({pool})", K_PLAYER, None, "v_" + str(name), True)
        typ = "player"
    elif kind == "choose_yes_no":
        prompt = c.plain_string(ch[0]) if ch and ch[0] is not None else None
        c.ask(who, "[True, False]", K_BOOL, prompt, "v_" + str(name), False)
        typ = "bool"
    elif kind == "choose_option":
        values = [repr(c.plain_string(t)) for t in ch]
        c.ask(who, "[" + ", ".join(values) + "]", K_TEXT, None, "v_" + str(name), True)
        typ = "str"
    elif kind == "choose_number":
        lo = c.expect(ch[0], scope, "num").code
        hi = c.expect(ch[1], scope, "num").code
        c.ask(who, f"list(range({lo}, ({hi}) + 1))", K_NUMBER, None, "v_" + str(name), True)
        typ = "num"
    else:
        raise AssertionError(kind)
    scope.define(str(name), "v_" + str(name), typ)


def _counter_target(c: Compiler, t: Tree, scope: Scope) -> tuple[str, object]:
    """The Python lvalue of a `set`/`add` target, and its counter (for its floor) if any."""
    if t.data == "target_first_player":
        return "st.first", None
    if t.data == "target_name":
        name = str(t.children[0])
        local = scope.lookup(name)
        if local is not None:
            return local[0], None
        counter = c.model.counters.get(name)
        if counter is not None and not counter.per_player:
            return f"G[{counter.index}]", counter
        if counter is not None:
            c.fail(c.pos(t.children[0]), f"`{name}` is a counter of each player",
                   f"write `my {name}` or `{name} of p`")
        c.fail(c.pos(t.children[0]), f"unknown counter or variable `{name}`",
               did_you_mean(name, list(c.model.counters) + scope.names()))
    name = str(t.children[0])
    counter = c.model.counters.get(name)
    if counter is None or not counter.per_player:
        c.fail(c.pos(t.children[0]), f"`{name}` is not a counter of each player",
               did_you_mean(name, [k for k, v in c.model.counters.items() if v.per_player]))
    who = "me" if t.data == "target_my" else c.expect(t.children[1], scope, "player").code
    return f"PC[{counter.index}][{who}]", counter


def _assign(c: Compiler, target: Tree, value: str, scope: Scope) -> None:
    lhs, counter = _counter_target(c, target, scope)
    if counter is not None and counter.floor is not None:
        c.emit.line(f"{lhs} = max({counter.floor}, {value})")
    else:
        c.emit.line(f"{lhs} = {value}")


@statement("set")
def _set(c: Compiler, s: Tree, scope: Scope) -> None:
    target, value = s.children
    kind = "player" if target.data == "target_first_player" else "num"
    _assign(c, target, c.expect(value, scope, kind).code, scope)


@statement("add")
def _add(c: Compiler, s: Tree, scope: Scope) -> None:
    value, target = s.children
    lhs, _ = _counter_target(c, target, scope)
    _assign(c, target, f"{lhs} + ({c.expect(value, scope, 'num').code})", scope)


@statement("subtract")
def _subtract(c: Compiler, s: Tree, scope: Scope) -> None:
    value, target = s.children
    lhs, _ = _counter_target(c, target, scope)
    _assign(c, target, f"{lhs} - ({c.expect(value, scope, 'num').code})", scope)


def _facing(f: Tree | None) -> str:
    if f is None:
        return "-1"
    return "1" if f.data == "face_up" else "0"


@statement("move")
def _move(c: Compiler, s: Tree, scope: Scope) -> None:
    what, dest, facing = (list(s.children) + [None])[:3]
    zone_tree = dest.children[-1]
    zone = c.expect(zone_tree, scope, "zone").code
    place = "0"
    if dest.data == "dest_place":
        p = dest.children[0]
        place = {"place_top": "0", "place_bottom": "-1", "place_random": "-2"}.get(p.data)
        if place is None:
            place = f"max(0, ({c.expect(p.children[0], scope, 'num').code}) - 1)"
    cards = c.expr(what, scope)
    if cards.type in ("card", "none"):
        c.emit.line(f"move(st, {cards.code}, {zone}, {place}, {_facing(facing)})")
    else:
        cards = c.coerce(cards, "cards", what)
        c.emit.line(f"move_all(st, {cards.code}, {zone}, {place}, {_facing(facing)})")


@statement("shuffle")
def _shuffle(c: Compiler, s: Tree, scope: Scope) -> None:
    c.emit.line(f"shuffle(st, {c.expect(s.children[0], scope, 'zone').code})")


@statement("flip")
def _flip(c: Compiler, s: Tree, scope: Scope) -> None:
    what, facing = s.children
    up = "True" if facing.data == "face_up" else "False"
    v = c.expr(what, scope)
    if v.type == "card":
        c.emit.line(f"flip(st, {v.code}, {up})")
    else:
        c.emit.line(f"flip_all(st, {c.coerce(v, 'cards', what).code}, {up})")


@statement("reveal")
def _reveal(c: Compiler, s: Tree, scope: Scope) -> None:
    v = c.expr(s.children[0], scope)
    if v.type == "card":
        c.emit.line(f"flip(st, {v.code}, True)")
    else:
        c.emit.line(f"flip_all(st, {c.coerce(v, 'cards', s.children[0]).code}, True)")


@statement("show")
def _show(c: Compiler, s: Tree, scope: Scope) -> None:
    what, who = s.children
    player = c.expect(who, scope, "player").code
    v = c.expr(what, scope)
    if v.type == "card":
        c.emit.line(f"show(st, {v.code}, {player})")
    else:
        var = c.emit.fresh("c")
        c.emit.line(f"for {var} in {c.coerce(v, 'cards', what).code}: show(st, {var}, {player})")


@statement("say")
def _say(c: Compiler, s: Tree, scope: Scope) -> None:
    c.emit.line(f"if st.log is not None: say(st, {c.interpolate(s.children[0], scope)})")


@statement("nothing")
def _nothing(c: Compiler, s: Tree, scope: Scope) -> None:
    c.emit.line("pass")


@statement("end_game")
def _end_game(c: Compiler, s: Tree, scope: Scope) -> None:
    who = [x for x in s.children if isinstance(x, Tree)]
    if not who:
        c.emit.line("raise GameOver(None)")
        return
    v = c.expr(who[0], scope)
    if v.type == "player":
        c.emit.line(f"raise GameOver([{v.code}])")
    else:
        c.emit.line(f"raise GameOver(list({c.coerce(v, 'players', who[0]).code}))")


@statement("call")
def _call(c: Compiler, s: Tree, scope: Scope) -> None:
    kids = list(s.children)
    subject = kids.pop(0) if isinstance(kids[0], Tree) and kids[0].data.startswith("subject") else None
    verb = kids.pop(0)
    proc = c.procedures[c.verbs[str(verb)]]
    args = [a for a in kids if a is not None]
    if len(args) != len(proc.params):
        want = ", ".join(proc.params) or "nothing"
        c.fail(c.pos(verb), f"`{verb}` takes {len(proc.params)} value(s) ({want}), got {len(args)}")
    codes = "".join(", " + c.expect(a, scope, ty).code for a, ty in zip(args, proc.param_types))
    c.routine.calls.add(proc.pyname)
    head = "yield from " if proc.generator else ""
    if subject is None:
        c.emit.line(f"{head}{proc.pyname}(st, me{codes})")
    elif subject.data == "subject_player":
        who = c.expect(subject.children[0], scope, "player").code
        c.emit.line(f"{head}{proc.pyname}(st, {who}{codes})")
    else:
        var = c.emit.fresh("p")
        c.emit.line(f"for {var} in {c.player_kind(subject.children[0])}:")
        c.emit.line(f"    {head}{proc.pyname}(st, {var}{codes})")


@statement("resolve")
def _resolve(c: Compiler, s: Tree, scope: Scope) -> None:
    name, card = s.children
    ability = str(name)
    if ability not in c.model.abilities:
        c.fail(c.pos(name), f"unknown ability `{ability}`",
               did_you_mean(ability, c.model.abilities) or "declare it under abilities: in game.yaml")
    k = c.model.abilities.index(ability)
    v = c.expect(card, scope, "card").code
    var, fn = c.emit.fresh("c"), c.emit.fresh("f")
    c.emit.line(f"{var} = {v}")
    c.emit.line(f"{fn} = ABILITIES[{k}][st.layout.card_def[{var}]] if {var} >= 0 else None")
    head = "yield from " if ability in c.generator_abilities else ""
    c.emit.line(f"if {fn} is not None: {head}{fn}(st, me, {var})")


@statement("if_stmt")
def _if(c: Compiler, s: Tree, scope: Scope) -> None:
    cond, body, *rest = s.children
    c.emit.line(f"if {c.condition(cond, scope)}:")
    c.suite(body, scope)
    for clause in rest:
        if clause is None:
            continue
        if clause.data == "elif_clause":
            c.emit.line(f"elif {c.condition(clause.children[0], scope)}:")
            c.suite(clause.children[1], scope)
        else:
            c.emit.line("else:")
            c.suite(clause.children[0], scope)


@statement("for_players")
def _for_players(c: Compiler, s: Tree, scope: Scope) -> None:
    kind, name, *rest = s.children
    body = rest[-1]
    clauses = {t.data: t for t in rest[:-1] if isinstance(t, Tree)}
    inner = Scope(scope)
    var = inner.define(str(name), "v_" + str(name), "player")
    if "from_clause" in clauses:
        start = c.expect(clauses["from_clause"].children[0], scope, "player").code
        pool = f"st.orders[{start}]"
        if kind.data != "kind_player":
            pool = f"[x for x in st.orders[{start}] if x != me]"
    else:
        pool = c.player_kind(kind)
    cond = c.condition(clauses["where_clause"].children[0], inner) if "where_clause" in clauses else None
    if "simultaneous" not in clauses:
        c.emit.line(f"for {var} in {pool}:")
        c.emit.depth += 1
        if cond:
            c.emit.line(f"if not ({cond}): continue")
        c.block(body.children, inner)
        c.emit.depth -= 1
        return
    # Simultaneous: every player's body runs up to its first choice; all first choices are asked
    # at once (nobody sees another's answer); then the bodies finish one by one in turn order.
    fn, gens, asks, g, a = (c.emit.fresh(x) for x in ("simul", "gens", "asks", "g", "a"))
    c.emit.line(f"def {fn}({var}):")
    c.emit.depth += 1
    c.block(body.children, inner)
    c.emit.line("if False: yield")
    c.emit.depth -= 1
    c.emit.line(f"{gens} = []; {asks} = []")
    c.emit.line(f"for {var} in {pool}:")
    if cond:
        c.emit.line(f"    if not ({cond}): continue")
    c.emit.line(f"    {g} = {fn}({var})")
    c.emit.line("    try:")
    c.emit.line(f"        {asks}.append(next({g})); {gens}.append({g})")
    c.emit.line("    except StopIteration: pass")
    c.emit.line(f"if {gens}:")
    c.emit.line(f"    {a} = yield (-1, {asks})")
    c.emit.line(f"    for {g}, {a} in zip({gens}, {a}):")
    c.emit.line("        try:")
    c.emit.line("            while True:")
    c.emit.line(f"                {a} = yield {g}.send({a})")
    c.emit.line("        except StopIteration: pass")


@statement("for_cards")
def _for_cards(c: Compiler, s: Tree, scope: Scope) -> None:
    name, cards, body = s.children
    pool = c.expect(cards, scope, "cards").code
    inner = Scope(scope)
    var = inner.define(str(name), "v_" + str(name), "card")
    c.emit.line(f"for {var} in list({pool}):")
    c.emit.depth += 1
    c.block(body.children, inner)
    c.emit.depth -= 1


@statement("visit")
def _visit(c: Compiler, s: Tree, scope: Scope) -> None:
    name, zone, body = s.children
    zi = c.expect(zone, scope, "zone").code
    inner = Scope(scope)
    var = inner.define(str(name), "v_" + str(name), "card")
    seen, zv = c.emit.fresh("seen"), c.emit.fresh("z")
    # Each member once, always the first not yet visited in the zone's *current* order.
    c.emit.line(f"{seen} = set(); {zv} = Z[{zi}]")
    c.emit.line("while True:")
    c.emit.line(f"    {var} = next((x for x in {zv} if x not in {seen}), -1)")
    c.emit.line(f"    if {var} < 0: break")
    c.emit.line(f"    {seen}.add({var})")
    c.emit.depth += 1
    c.block(body.children, inner)
    c.emit.depth -= 1


@statement("repeat")
def _repeat(c: Compiler, s: Tree, scope: Scope) -> None:
    count, body = s.children
    c.emit.line(f"for _ in range({c.expect(count, scope, 'num').code}):")
    c.suite(body, scope)


@statement("while_stmt")
def _while(c: Compiler, s: Tree, scope: Scope) -> None:
    cond, *rest = s.children
    body = rest[-1]
    bound = rest[0] if len(rest) == 2 else None
    counter = c.emit.fresh("w")
    limit = c.expect(bound, scope, "num").code if bound is not None else str(WHILE_BOUND)
    c.emit.line(f"for {counter} in range({limit}):")
    c.emit.line(f"    if not ({c.condition(cond, scope)}): break")
    c.suite(body, scope)
    if bound is None:
        where = str(c.pos(s))
        c.emit.line(f"else: check_loop({WHILE_BOUND}, {where!r})")
