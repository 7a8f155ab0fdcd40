"""Stage 4, the functions of an expression (`ExprResolver`, the resolver of expressions whole): aggregates over
cards or players (`count`, `sum`, `highest`, `groups`, `firsts`, ...), the numbers' functions, the game's own
functions, and texts with `{…}` parts (a question, a `say`); the rest of an expression is resolved by the class it
extends (expressions.py)."""

from __future__ import annotations

from lark import Token

from ..diagnostics import AuthoringError, Pos, did_you_mean
from . import nodes as n
from .expressions import (
    AGGREGATES,
    Abort,
    Scope,
    _draws,
    _Expressions,
    _retyped,
    plain_string,
    type_word,
)
from .parser import parse

_VALUE_FUNCTIONS = ("seat", "abs", "ring_distance", "firsts")  # built-ins of plain values, not of a set's members
_ELEMENT = {"players": "player", "groups": "cards", "cards": "card"}  # a pool's type: the type of each member
_GROUP_KEYS = ("num", "str", "bool", "card", "player")  # what cards may be grouped by (values a dict keys on)


class ExprResolver(_Expressions):
    """Names and types resolved in an expression tree, its typed nodes built (see expressions.py and this module)."""

    # ---- functions: aggregates over cards or players, then the game's own functions
    def x_func(self, t, s):
        tok, *args = t.children
        args = [a for a in args if a is not None]
        name = str(tok)
        if (name in self.functions or name in _VALUE_FUNCTIONS) and any(a.data == "named_pool" for a in args):
            pool = next(a for a in args if a.data == "named_pool")
            self.fail(self.pos(pool), f"`{name}` takes values, not `{pool.children[0]} in …`",
                      "`NAME in …` names each card or player of a set for count, sum, any, max, min, highest, "
                      "lowest and list only")
        if name in self.functions:
            return self.game_function(tok, args, s)
        if name not in AGGREGATES:
            self.fail(self.pos(tok), f"unknown function `{name}`",
                      did_you_mean(name, list(AGGREGATES) + list(self.functions)))
        if name == "groups":
            return self.grouping(tok, args, s)
        if name == "firsts":
            self.arity(tok, args, 1)
            return n.Firsts(self.expect(args[0], s, "groups"))
        return self.number_function(tok, name, args, s) or self.aggregate(tok, name, args, s)

    def grouping(self, tok: Token, args: list, s: Scope) -> n.Expr:
        """`groups(CARDS, VALUE)` (or `groups(c in CARDS [where …], c.VALUE)`): the cards split by a value of each,
        in one pass."""
        if len(args) != 2:
            self.fail(self.pos(tok), "`groups` takes cards and the value that groups them: groups(my hand, it.rank)")
        if args[0].data == "named_pool":
            pool, elem, var, inner = self.named_pool(args[0], s)
        else:
            pool, elem = self.pool(args[0], s)
            var, inner = self.bind_it(s, elem)
        if elem != "card":
            self.fail(self.pos(args[0]), f"`groups` splits cards, but this is {type_word(pool.type)}")
        key = self.expr(args[1], inner)
        if key.type not in _GROUP_KEYS:
            self.fail(self.pos(args[1]), f"cards are grouped by a number, a text, yes/no, a card or a player, "
                                         f"not by {type_word(key.type)}")
        return n.Groups(pool, var, key)

    def number_function(self, tok: Token, name: str, args: list, s: Scope) -> n.Expr | None:
        """`seat(p)`, `abs(x)`, `ring_distance(a, b, n)`; None for any other name."""
        if name == "seat":
            self.arity(tok, args, 1)
            return _retyped(self.expect(args[0], s, "player"), "num")
        if name == "abs":
            self.arity(tok, args, 1)
            return n.Helper("abs", [self.expect(args[0], s, "num")], "num")
        if name == "ring_distance":
            self.arity(tok, args, 3)
            return n.Helper("ring_distance", [self.expect(x, s, "num") for x in args], "num")
        return None

    def aggregate(self, tok: Token, name: str, args: list, s: Scope) -> n.Expr:
        """`count`, `sum`, `any`, `max`, `min`, `highest`, `lowest`, `list` over a set of cards or players (named,
        `c in POOL [where …]`, or bound to `it`), optionally of a value; `max(a, b)`, `min(a, b)` of numbers."""
        if not 1 <= len(args) <= 2:
            self.fail(self.pos(tok), f"`{name}` takes a set of cards or players and optionally a value of `it`")
        if args[0].data == "named_pool":  # `count(c in my hand where c.value > 3)`, `sum(c in my pile, c.value)`
            pool, elem, var, inner = self.named_pool(args[0], s)
            if len(args) == 1:
                return self.aggregate_plain(tok, name, pool)
        else:
            first = self.expr(args[0], s)
            if name in ("max", "min") and len(args) == 2 and first.type in ("num", "bool"):
                both = [self.coerce(first, "num", args[0]), self.expect(args[1], s, "num")]
                return n.Helper(name, both, "num")
            pool, elem = self.set_of(first, args[0])
            if len(args) == 1:
                return self.aggregate_plain(tok, name, pool)
            var, inner = self.bind_it(s, elem)
        return self.aggregate_of(tok, name, pool, elem, var, self.expr(args[1], inner), args[1])

    def set_of(self, value: n.Expr, tree) -> tuple[n.Expr, str]:
        """An aggregate's set written as a value (`my hand`, `opponents`, `groups(…)`), and what it holds: `card`,
        `player`, or `cards` (each a group)."""
        if value.type in ("players", "player"):
            return self.coerce(value, "players", tree), "player"
        if value.type == "groups":
            return value, "cards"
        return self.coerce(value, "cards", tree), "card"

    def aggregate_of(self, tok: Token, name: str, pool: n.Expr, elem: str, var: n.Var, value: n.Expr, tree
                     ) -> n.Aggregate:
        """The aggregate `name` of `value` (an expression of `var`, each of `pool`, written at `tree`)."""
        if name in ("count", "any"):
            return n.Aggregate(name, pool, var, self.truth(value), "num" if name == "count" else "bool")
        if elem == "cards" and name in ("highest", "lowest"):
            self.fail(self.pos(tok), f"`{name}` is not offered over groups",
                      "filter the groups instead: groups(my hand, it.rank) where count(it) == 4")
        if name in ("max", "min"):  # one of the values, given back
            value = self.coerce(value, "num", tree)
        elif name in ("sum", "highest", "lowest"):
            value = self.reckoned(value, tree)
        typ = {"highest": elem, "lowest": elem, "list": n.list_of(value.type)}.get(name, "num")
        return n.Aggregate(name, pool, var, value, typ)

    def named_pool(self, tree, s: Scope) -> tuple[n.Expr, str, n.Var, Scope]:
        """`c in POOL [where …]`: the pool, its element type, the variable that names each, its scope."""
        word, base, *cond = tree.children
        if cond and cond[0] is not None:
            pool = self.filtered(base, cond[0], s, word)
            elem = _ELEMENT[pool.type]
        else:
            pool, elem = self.pool(base, s)
        var, inner = self.bind_it(s, elem, word)  # the name is checked even where nothing uses it
        return pool, elem, var, inner

    def aggregate_plain(self, tok: Token, name: str, pool: n.Expr) -> n.Expr:
        if name == "count":
            return n.Length(pool)
        if name == "any":
            return n.Compare(">", n.Length(pool), n.Const(0, "num"))
        if name == "list":
            return pool
        self.fail(self.pos(tok), f"`{name}` needs a value to compare: write {name}(cards, it.value)")

    def arity(self, tok: Token, args: list, count: int) -> None:
        if len(args) != count:
            self.fail(self.pos(tok), f"`{tok}` takes {count} value(s), got {len(args)}")

    def game_function(self, tok: Token, args: list, s: Scope) -> n.Expr:
        fn = self.functions[str(tok)]
        self.arity(tok, args, len(fn.params))
        values = [self.expect(a, s, ty) for a, ty in zip(args, fn.param_types, strict=False)]
        return n.FunctionCall(fn.pyname, self.me(s), values, fn.result_type, chance=_draws(fn))

    # ---- text with {expressions}
    def question(self, tok: Token, s: Scope) -> str | n.Text:
        """A choice's quoted question: its text, or the sentence to work out when it is asked."""
        text = self.interpolate(tok, s)
        if all(isinstance(p, n.Const) for p in text.parts):
            return "".join(p.value for p in text.parts if isinstance(p, n.Const))
        return text

    def as_text(self, value: n.Expr) -> n.Format:
        """A value written in a sentence (a zone as its cards, by name)."""
        if value.type == "zone":
            value = n.ZoneCards(value, at=value.at)
        if n.innermost_type(value.type) == "groups":
            self.fail(value.at or self.at.shifted(1, 1), "a text cannot show groups of cards",
                      "show how many (`count(…)`) or the first card of each (`firsts(…)`)")
        if value.type in ("list:num", "list:str"):  # values written as they are kept (runtime.fmt writes the
            value = _retyped(value, "list")        # others as each is said alone: `yes`, a card's name, P0)
        return n.Format(value, at=value.at)

    def interpolate(self, tok: Token, s: Scope) -> n.Text:
        """A `say` sentence: each {…} is an expression, {{ and }} are braces."""
        raw = str(tok)
        text = plain_string(tok)
        parts: list[n.Expr] = []
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
                parts.append(n.Const(literal, "str"))
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
                value = self.expr(tree.children[0], s)
                if "rng" in value.reads():
                    # A text is shown (a prompt even in what its player is asked): it must not change the match.
                    self.fail(value.at or at, "a text cannot roll or pick at random",
                              "roll first, then show it: `let r = roll d6`, then `{r}`")
                parts.append(self.as_text(value))
            finally:
                self.at = saved
            i = end + 1
        if literal:
            parts.append(n.Const(literal, "str"))
        return n.Text(parts, text)
