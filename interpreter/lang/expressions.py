"""Stage 4: expressions — name resolution, a small static type system, and Python code for each form.

Types: num, bool, str, card, cards, zone, player, players, list, none, any. A zone stands for its
cards where cards are wanted and for its top card where one card is wanted; a player list stands for
its size where a number is wanted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token, Tree

from ..diagnostics import AuthoringError, Diagnostic, Pos, did_you_mean
from ..load.model import GameModel

TYPE_WORDS = {
    "num": "a number", "bool": "yes/no", "str": "a text", "card": "a card", "cards": "cards",
    "zone": "a zone", "player": "a player", "players": "players", "list": "a list", "none": "none",
    "any": "a value",
}
BUILTIN_TYPES = {"id": "str", "name": "str", "kind": "str", "owner": "player"}
# Card facts that change during play: face up or down, and the player whose zone holds it.
DYNAMIC = {"face_up": "st.face[{c}]", "holder": "st.layout.zone_owner[st.zone_of[{c}]]"}
AGGREGATES = ("seat", "count", "sum", "max", "min", "highest", "lowest", "list", "any", "abs", "ring_distance")


_SIMPLE = re.compile(r"Z\[[\w +*()]*\]")


def first_of(cards: str) -> str:
    """Code for the first card of a list, or -1: inline when the list is a plain zone."""
    if _SIMPLE.fullmatch(cards):
        return f"({cards}[0] if {cards} else -1)"
    return f"top({cards})"


class Abort(Exception):
    """Stop compiling the current routine after an error has been recorded."""


@dataclass(slots=True)
class Typed:
    code: str
    type: str
    zone: str | None = None  # for a zone: which declared zone it is (known while compiling)
    owner: str | None = None  # for a zone of a player: the code of that player
    lazy: str | None = None  # for a filtered list: the generator inside its brackets (to stop early)


class Scope:
    """Local names (DSL name → Python name and type), nested by block."""

    def __init__(self, parent: Scope | None) -> None:
        self.parent = parent
        self.vars: dict[str, tuple[str, str]] = {}

    def define(self, name: str, py: str, typ: str) -> str:
        self.vars[name] = (py, typ)
        return py

    def root(self) -> Scope:
        """The routine's outermost scope: `let` names live there, as Python locals do."""
        s = self
        while s.parent is not None:
            s = s.parent
        return s

    def lookup(self, name: str) -> tuple[str, str] | None:
        s: Scope | None = self
        while s is not None:
            if name in s.vars:
                return s.vars[name]
            s = s.parent
        return None

    def names(self) -> list[str]:
        out: list[str] = []
        s: Scope | None = self
        while s is not None:
            out += list(s.vars)
            s = s.parent
        return out


def prop_type(value) -> str:
    """The DSL type of a card property, from its default value."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "num"
    if isinstance(value, list):
        return "list"
    return "str"


class ExprCompiler:
    """Expression half of the compiler (the statement half subclasses it)."""

    def __init__(self, model: GameModel, functions: dict) -> None:
        self.model = model
        self.functions = functions
        self.errors: list[Diagnostic] = []
        self.at = Pos("<dsl>", 1, 1)
        self.depth = 0
        self.rounds = 0
        self.props = model.prop_index
        self.prop_types = {**BUILTIN_TYPES, **{k: prop_type(v) for k, v in model.prop_defaults.items()}}
        g, k = len(model.game_zones), len(model.player_zones)
        self.zone_code = {name: f"{g} + {{p}} * {k} + {i}" for name, i in model.player_zones.items()}

    # ---- helpers used by both halves
    def pos(self, node) -> Pos:
        if isinstance(node, Token):
            return self.at.shifted(node.line or 1, node.column or 1)
        meta = node.meta
        return self.at.shifted(1, 1) if meta.empty else self.at.shifted(meta.line, meta.column)

    def fail(self, pos: Pos, message: str, hint: str | None = None):
        """Record an authoring error and abandon the routine being compiled."""
        self.errors.append(Diagnostic(pos, message, hint))
        raise Abort

    def expect(self, tree, scope: Scope, typ: str) -> Typed:
        return self.coerce(self.expr(tree, scope), typ, tree)

    def coerce(self, v: Typed, typ: str, tree) -> Typed:
        """Convert `v` to type `typ` where the language allows it, else report the mismatch."""
        have = v.type
        if have == typ or typ == "any":
            return v
        if have == "any":
            return Typed(v.code, typ)
        ok = {
            ("bool", "num"): v.code, ("num", "bool"): v.code,
            ("zone", "cards"): f"Z[{v.code}]",
            ("zone", "card"): first_of(f"Z[{v.code}]"),
            ("card", "cards"): f"[{v.code}]",
            ("player", "players"): f"[{v.code}]",
            ("players", "num"): "N" if v.code == "st.orders[st.first]" else f"len({v.code})",
            ("none", "card"): "-1", ("none", "player"): "-1",
        }.get((have, typ))
        if ok is None:
            self.fail(self.pos(tree), f"expected {TYPE_WORDS[typ]} here, but this is {TYPE_WORDS[have]}")
        return Typed(ok, typ)

    def condition(self, tree, scope: Scope) -> str:
        return self.truth(self.expr(tree, scope))

    def truth(self, v: Typed) -> str:
        """Python code that is true when a compiled value counts as yes."""
        if v.type in ("card", "player"):
            return f"({v.code} >= 0)"
        if v.type == "zone":
            return f"Z[{v.code}]"
        return v.code

    def plain_string(self, tok: Token) -> str:
        """The text of a quoted string: `\\"` and `\\\\` are its only escapes."""
        return re.sub(r"\\(.)", r"\1", str(tok)[1:-1])

    def me(self, scope: Scope) -> str:
        """The Python name of `me` here (a procedure inlined for another player has its own)."""
        return scope.lookup("me")[0]

    def player_kind(self, kind: Tree, scope: Scope) -> str:
        """Seats of `each player` (from the first player) / `each opponent` (from the next after me)."""
        return "st.orders[st.first]" if kind.data == "kind_player" else f"st.orders[{self.me(scope)}][1:]"

    # ---- expressions
    def expr(self, tree, scope: Scope) -> Typed:
        if isinstance(tree, Token):
            raise AssertionError(f"bare token {tree!r}")
        fn = getattr(self, "x_" + tree.data, None)
        assert fn is not None, f"no compiler for expression {tree.data}"
        return fn(tree, scope)

    def x_number(self, t, s):
        return Typed(str(int(t.children[0])), "num")

    def x_string(self, t, s):
        return Typed(repr(self.plain_string(t.children[0])), "str")

    def x_true(self, t, s):
        return Typed("True", "bool")

    def x_false(self, t, s):
        return Typed("False", "bool")

    def x_none(self, t, s):
        return Typed("-1", "none")

    def x_me(self, t, s):
        return Typed(self.me(s), "player")

    def x_this(self, t, s):
        found = s.lookup("this")
        if found is None:
            self.fail(self.pos(t), "`this` is only defined inside a card's ability")
        return Typed(*found)

    def x_it(self, t, s):
        found = s.lookup("it")
        if found is None:
            self.fail(self.pos(t), "`it` is only defined inside `where` and aggregates like sum(cards, it.value)")
        return Typed(*found)

    def x_players(self, t, s):
        return Typed("st.orders[st.first]", "players")

    def x_opponents(self, t, s):
        return Typed(f"st.orders[{self.me(s)}][1:]", "players")

    def x_round(self, t, s):
        return Typed("st.round", "num")

    def x_turn(self, t, s):
        return Typed("st.turn", "num")

    def x_rounds_left(self, t, s):
        return Typed(f"({self.rounds} - st.round)", "num")

    def x_first_player(self, t, s):
        return Typed("st.first", "player")

    def x_active_player(self, t, s):
        return Typed("st.active", "player")

    def x_next_player(self, t, s):
        return Typed(f"(({self.expect(t.children[0], s, 'player').code} + 1) % N)", "player")

    def x_previous_player(self, t, s):
        return Typed(f"(({self.expect(t.children[0], s, 'player').code} - 1) % N)", "player")

    def x_roll(self, t, s):
        return Typed(f"roll(st, {int(str(t.children[0])[1:])})", "num")

    def x_roll_expr(self, t, s):
        return Typed(f"roll(st, {self.expect(t.children[0], s, 'num').code})", "num")

    def x_name(self, t, s):
        tok = t.children[0]
        name = str(tok)
        local = s.lookup(name)
        if local is not None:
            return Typed(*local)
        m = self.model
        counter = m.counters.get(name)
        if counter is not None and not counter.per_player:
            return Typed(f"G[{counter.index}]", counter.type)
        if name in m.game_zones:
            return Typed(str(m.game_zones[name]), "zone", name)
        if name in self.functions and not self.functions[name].params:
            return Typed(f"{self.functions[name].pyname}(st, {self.me(s)})", self.functions[name].result_type)
        if name in m.player_zones or counter is not None:
            self.fail(self.pos(tok), f"`{name}` belongs to each player", f"write `my {name}` or `{name} of p`")
        if name in self.props:
            self.fail(self.pos(tok), f"`{name}` is a card property", f"write `c.{name}` or `{name} of c`")
        known = s.names() + list(m.counters) + list(m.game_zones) + list(m.player_zones) + list(self.functions)
        self.fail(self.pos(tok), f"unknown name `{name}`", did_you_mean(name, known))

    def x_my(self, t, s):
        return self.owned(t.children[0], Typed(self.me(s), "player"))

    def owned(self, tok: Token, who: Typed) -> Typed:
        """`X of player`: the player's zone or counter."""
        name = str(tok)
        m = self.model
        if name in m.player_zones:
            return Typed("(" + self.zone_code[name].format(p=who.code) + ")", "zone", name, who.code)
        counter = m.counters.get(name)
        if counter is not None and counter.per_player:
            return Typed(f"PC[{counter.index}][{who.code}]", counter.type)
        mine = list(m.player_zones) + [k for k, v in m.counters.items() if v.per_player]
        self.fail(self.pos(tok), f"`{name}` is not a zone or counter of each player", did_you_mean(name, mine))

    def owned_by_all(self, tok: Token, players: Typed) -> Typed:
        """`hold of opponents`: the cards of that zone of each player, in player order."""
        name = str(tok)
        if name in self.model.player_zones:
            self.depth += 1
            q, c = f"_q{self.depth}", f"_c{self.depth}"
            self.depth -= 1
            zone = self.zone_code[name].format(p=q)
            return Typed(f"[{c} for {q} in {players.code} for {c} in Z[{zone}]]", "cards")
        counter = self.model.counters.get(name)
        if counter is not None and counter.per_player:
            return Typed(f"[PC[{counter.index}][_q] for _q in {players.code}]", "list")  # no nesting inside
        self.fail(self.pos(tok), f"`{name}` is not a zone or counter of each player")

    def card_prop(self, tok: Token, card: Typed, s: Scope) -> Typed:
        name = str(tok)
        if name in DYNAMIC:
            return Typed(DYNAMIC[name].format(c=card.code), "player" if name == "holder" else "bool")
        if name in self.model.conditions:
            k = list(self.model.conditions).index(name)
            return Typed(f"CONDITIONS[{k}][CD[{card.code}]](st, {self.me(s)}, {card.code})", "bool")
        if name not in self.props:
            self.fail(self.pos(tok), f"unknown card property `{name}`", did_you_mean(name, self.props))
        return Typed(f"P[{self.props[name]}][{card.code}]", self.prop_types[name])

    def x_of(self, t, s):
        tok, base = t.children
        v = self.expr(base, s)
        if v.type == "player":
            return self.owned(tok, v)
        if v.type == "players":
            return self.owned_by_all(tok, v)
        if v.type in ("card", "zone", "none"):
            return self.card_prop(tok, self.coerce(v, "card", base), s)
        if v.type == "any":
            return self.card_prop(tok, v, s)
        self.fail(self.pos(base), f"`{tok} of …` needs a player or a card, but this is {TYPE_WORDS[v.type]}")

    def x_prop(self, t, s):
        base, tok = t.children
        return self.x_of(Tree("of", [tok, base], t.meta), s)

    def x_filter(self, t, s):
        base, cond = t.children
        v = self.expr(base, s)
        if v.type in ("players", "player"):
            v, elem = self.coerce(v, "players", base), "player"
        else:
            v, elem = self.coerce(v, "cards", base), "card"
        var, inner = self.bind_it(s, elem)
        test = self.condition(cond, inner)
        self.depth -= 1
        lazy = f"{var} for {var} in {v.code} if {test}"
        return Typed(f"[{lazy}]", v.type, lazy=lazy)

    def bind_it(self, s: Scope, elem: str) -> tuple[str, Scope]:
        self.depth += 1
        var = f"_i{self.depth}"
        inner = Scope(s)
        inner.define("it", var, elem)
        return var, inner

    def x_all_cards(self, t, s):
        v = self.expr(t.children[0], s)
        if v.type == "players":
            return v
        v = self.coerce(v, "cards", t.children[0])
        return Typed(f"list({v.code})", "cards")

    def x_pick(self, t, s):
        end, base = t.children
        v = self.expect(base, s, "cards")
        if end.data == "end_top":
            if v.lazy is not None:
                return Typed(f"next(({v.lazy}), -1)", "card")
            return Typed(first_of(v.code), "card")
        return Typed(f"last({v.code})", "card")

    def x_pick_n(self, t, s):
        end, count, base = t.children
        n = self.expect(count, s, "num").code
        v = self.expect(base, s, "cards").code
        return Typed(f"{'first_n' if end.data == 'end_top' else 'last_n'}({v}, {n})", "cards")

    def x_pick_random(self, t, s):
        return Typed(f"random_card(st, {self.expect(t.children[0], s, 'cards').code})", "card")

    def x_neg(self, t, s):
        return Typed(f"(-{self.expect(t.children[1], s, 'num').code})", "num")

    def x_binop(self, t, s):
        a, op, b = t.children
        left, right = self.expr(a, s), self.expr(b, s)
        if str(op) == "+" and left.type in ("cards", "zone") and right.type in ("cards", "zone", "card"):
            # `my chain + resolving`: the cards of both, in that order
            x, y = self.coerce(left, "cards", a).code, self.coerce(right, "cards", b).code
            return Typed(f"[*{x}, *{y}]", "cards")
        x, y = self.coerce(left, "num", a).code, self.coerce(right, "num", b).code
        py = {"/": "//"}.get(str(op), str(op))
        if py in ("//", "%"):
            return Typed(f"floordiv({x}, {y})" if py == "//" else f"mod({x}, {y})", "num")
        return Typed(f"({x} {py} {y})", "num")

    def x_compare(self, t, s):
        a, op, b = t.children
        x, y = self.expr(a, s), self.expr(b, s)
        if {x.type, y.type} == {"players", "num"}:
            x, y = self.coerce(x, "num", a), self.coerce(y, "num", b)
        if x.type == "none" or y.type == "none":
            other = y if x.type == "none" else x
            if other.type not in ("card", "player", "any"):
                self.fail(self.pos(t), f"only a card or a player can be none, not {TYPE_WORDS[other.type]}")
            if str(op) not in ("==", "!="):
                self.fail(self.pos(op), "compare with none using == or !=")
            return Typed(f"({other.code} {'<' if str(op) == '==' else '>='} 0)", "bool")
        if {x.type, y.type} <= {"num", "bool"} or x.type == y.type or "any" in (x.type, y.type):
            return Typed(f"({x.code} {op} {y.code})", "bool")
        self.fail(self.pos(t), f"cannot compare {TYPE_WORDS[x.type]} with {TYPE_WORDS[y.type]}")

    def x_and_(self, t, s):
        return Typed(f"({self.condition(t.children[0], s)} and {self.condition(t.children[1], s)})", "bool")

    def x_or_(self, t, s):
        return Typed(f"({self.condition(t.children[0], s)} or {self.condition(t.children[1], s)})", "bool")

    def x_not_(self, t, s):
        return Typed(f"(not {self.condition(t.children[0], s)})", "bool")

    # ---- functions: aggregates over cards or players, then the game's own functions
    def x_func(self, t, s):
        tok, *args = t.children
        args = [a for a in args if a is not None]
        name = str(tok)
        if name in self.functions:
            return self.game_function(tok, args, s)
        if name not in AGGREGATES:
            self.fail(self.pos(tok), f"unknown function `{name}`",
                      did_you_mean(name, list(AGGREGATES) + list(self.functions)))
        if name == "seat":
            self.arity(tok, args, 1)
            return Typed(self.expect(args[0], s, "player").code, "num")
        if name == "abs":
            self.arity(tok, args, 1)
            return Typed(f"abs({self.expect(args[0], s, 'num').code})", "num")
        if name == "ring_distance":
            self.arity(tok, args, 3)
            a, b, size = (self.expect(x, s, "num").code for x in args)
            return Typed(f"ring_distance({a}, {b}, {size})", "num")
        if not 1 <= len(args) <= 2:
            self.fail(self.pos(tok), f"`{name}` takes a set of cards or players and optionally a value of `it`")
        pool = self.expr(args[0], s)
        if name in ("max", "min") and len(args) == 2 and pool.type in ("num", "bool"):
            return Typed(f"{name}({pool.code}, {self.expect(args[1], s, 'num').code})", "num")
        if pool.type in ("players", "player"):
            pool, elem = self.coerce(pool, "players", args[0]), "player"
        else:
            pool, elem = self.coerce(pool, "cards", args[0]), "card"
        if len(args) == 1:
            return self.aggregate_plain(tok, name, pool)
        var, inner = self.bind_it(s, elem)
        value = self.expr(args[1], inner)
        self.depth -= 1
        if name in ("count", "any"):
            test = self.truth(value)
            if name == "count":
                return Typed(f"sum(1 for {var} in {pool.code} if {test})", "num")
            return Typed(f"any({test} for {var} in {pool.code})", "bool")
        if name in ("sum", "max", "min", "highest", "lowest"):
            value = self.coerce(value, "num", args[1])
        gen = f"{value.code} for {var} in {pool.code}"
        if name == "sum":
            return Typed(f"sum({gen})", "num")
        if name in ("max", "min"):
            return Typed(f"{name}(({gen}), default=0)", "num")
        if name in ("highest", "lowest"):
            fn = "max" if name == "highest" else "min"
            return Typed(f"{fn}({pool.code}, key=lambda {var}: {value.code}, default=-1)", elem)
        return Typed(f"[{gen}]", "list")

    def aggregate_plain(self, tok: Token, name: str, pool: Typed) -> Typed:
        if name == "count":
            return Typed(f"len({pool.code})", "num")
        if name == "any":
            return Typed(f"(len({pool.code}) > 0)", "bool")
        if name == "list":
            return pool
        self.fail(self.pos(tok), f"`{name}` needs a value to compare: write {name}(cards, it.value)")

    def arity(self, tok: Token, args: list, n: int) -> None:
        if len(args) != n:
            self.fail(self.pos(tok), f"`{tok}` takes {n} value(s), got {len(args)}")

    def game_function(self, tok: Token, args: list, s: Scope) -> Typed:
        fn = self.functions[str(tok)]
        self.arity(tok, args, len(fn.params))
        codes = "".join(", " + self.expect(a, s, ty).code for a, ty in zip(args, fn.param_types, strict=False))
        return Typed(f"{fn.pyname}(st, {self.me(s)}{codes})", fn.result_type)

    # ---- text with {expressions}
    def interpolate(self, tok: Token, s: Scope) -> str:
        """Python code building a `say` sentence; each {…} is an expression, {{ and }} are braces."""
        from .parser import parse

        raw = str(tok)
        text = self.plain_string(tok)
        parts: list[str] = []
        i, literal = 0, ""
        while i < len(text):
            ch = text[i]
            if ch in "{}" and text[i: i + 2] in ("{{", "}}"):
                literal += ch
                i += 2
                continue
            if ch == "}":
                self.fail(self.pos(tok), "unmatched `}` in text", "write `}}` for a brace")
            if ch != "{":
                literal += ch
                i += 1
                continue
            end = text.find("}", i)
            if end < 0:
                self.fail(self.pos(tok), "unclosed `{` in text", "write `{{` for a brace")
            if literal:
                parts.append(repr(literal))
                literal = ""
            start = self.pos(tok)
            offset = raw.find(text[i: end + 1])
            at = Pos(start.file, start.line, start.col + (max(offset, 0)) + 1)
            saved = self.at
            try:
                tree = parse(text[i + 1: end], at, {}, expression=True)
            except AuthoringError as err:
                self.errors.extend(err.diagnostics)
                raise Abort from None
            self.at = at
            try:
                v = self.expr(tree.children[0], s)
            finally:
                self.at = saved
            parts.append(f"fmt(st, {v.type!r}, {v.code})")
            i = end + 1
        if literal:
            parts.append(repr(literal))
        return "".join(["''.join((", ", ".join(parts), ",))"]) if parts else "''"
