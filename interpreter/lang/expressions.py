"""Stage 4, expressions: resolve names and types in an expression tree and build its typed nodes.

Types: num, bool, str, card, cards, zone, player, players, list:EACH (a list of values of type EACH: `list:card`),
none, any. A zone stands for its cards where cards are wanted and for its top card where one card is wanted; a
player list stands for its size where a number is wanted. The functions (aggregates, the game's own, texts with
`{…}` parts) are resolved in calls.py, whose `ExprResolver` extends the class here.
"""

from __future__ import annotations

import re
from typing import Any, NoReturn

from lark import Token, Tree

from ..diagnostics import Diagnostic, Pos, did_you_mean
from ..load.model import GameModel
from . import nodes as n

TYPE_WORDS = {
    "num": "a number", "bool": "yes/no", "str": "a text", "card": "a card", "cards": "cards",
    "zone": "a zone", "player": "a player", "players": "players", "list": "a list", "none": "none",
    "any": "a value", "groups": "groups of cards",
}
_PLURAL = {"num": "numbers", "bool": "yes/no", "str": "texts", "card": "cards", "cards": "lists of cards",
           "zone": "zones", "player": "players", "players": "lists of players", "none": "nones", "any": "values",
           "groups": "groups of cards"}
BUILTIN_TYPES = {"id": "str", "name": "str", "kind": "str", "owner": "player"}
AGGREGATES = ("seat", "count", "sum", "max", "min", "highest", "lowest", "list", "any", "abs", "ring_distance",
              "groups", "firsts")
_FIELDS = {"round": ("round", "num"), "turn": ("turn", "num"), "first_player": ("first", "player"),
           "active_player": ("active", "player")}


class Abort(Exception):
    """Stop resolving the current statement after an error has been recorded."""


class Scope:
    """Local names (DSL name → Var), nested by block."""

    def __init__(self, parent: Scope | None) -> None:
        self.parent = parent
        self.vars: dict[str, n.Var] = {}

    def define(self, var: n.Var) -> n.Var:
        self.vars[var.name] = var
        return var

    def root(self) -> Scope:
        """The text's outermost scope: `let` names live there, as Python locals do."""
        s = self
        while s.parent is not None:
            s = s.parent
        return s

    def lookup(self, name: str) -> n.Var | None:
        s: Scope | None = self
        while s is not None:
            if name in s.vars:
                return s.vars[name]
            s = s.parent
        return None

    def outer_it(self) -> n.Var | None:
        """An `it` around the innermost one, if any (then `it` alone cannot say which it means)."""
        s: Scope | None = self
        while s is not None and "it" not in s.vars:
            s = s.parent
        return None if s is None or s.parent is None else s.parent.lookup("it")

    def names(self) -> list[str]:
        out: list[str] = []
        s: Scope | None = self
        while s is not None:
            out += list(s.vars)
            s = s.parent
        return out


def type_word(typ: str) -> str:
    """A type as an author reads it: `a number`, `a list of cards`."""
    return TYPE_WORDS[typ] if not typ.startswith("list:") else "a list of " + _plural(typ[len("list:"):])


def _plural(typ: str) -> str:
    return _PLURAL.get(typ, "values") if not typ.startswith("list:") else "lists of " + _plural(typ[len("list:"):])


def prop_type(value: Any) -> str:
    """The DSL type of a card property, from its default value."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "num"
    if isinstance(value, list):
        return "list"
    return "str"


def plain_string(tok: Token) -> str:
    """The text of a quoted string: `\\"` and `\\\\` are its only escapes."""
    return re.sub(r"\\(.)", r"\1", str(tok)[1:-1])


def token(node: Tree | Token) -> Token:
    """A child that the grammar makes a token (a quoted text), as one."""
    assert isinstance(node, Token), node
    return node


def ref(var: n.Var) -> n.Ref:
    return n.Ref(var, var.type)


class _Expressions:
    """Expression half of the resolver, but for its functions (`calls.ExprResolver` extends it with those; the
    statement half, resolve.Resolver, subclasses that)."""

    def __init__(self, model: GameModel, functions: dict, rounds: int) -> None:
        self.model = model
        self.functions = functions  # name → Routine (its result type is known once it is resolved)
        self.rounds = rounds
        self.errors: list[Diagnostic] = []
        self.at: Any = Pos("<dsl>", 1, 1)  # where the text being resolved starts
        self.props = model.prop_index
        self.prop_types = {**BUILTIN_TYPES, **{k: prop_type(v) for k, v in model.prop_defaults.items()}}
        g, k = len(model.game_zones), len(model.player_zones)
        self.player_zone = {name: (g + i, k) for name, i in model.player_zones.items()}  # (base, stride)
        self.conditions = list(model.conditions)

    # ---- helpers used by both halves
    def pos(self, node) -> Pos:
        if isinstance(node, Token):
            return self.at.shifted(node.line or 1, node.column or 1)
        meta = node.meta
        return self.at.shifted(1, 1) if meta.empty else self.at.shifted(meta.line, meta.column)

    def fail(self, pos: Pos, message: str, hint: str | None = None) -> NoReturn:
        """Record an authoring error and abandon the statement being resolved."""
        self.errors.append(Diagnostic(pos, message, hint))
        raise Abort

    def expect(self, tree, scope: Scope, typ: str) -> n.Expr:
        return self.coerce(self.expr(tree, scope), typ, tree)

    def coerce(self, v: n.Expr, typ: str, tree) -> n.Expr:
        """Convert `v` to type `typ` where the language allows it, else report the mismatch."""
        have = v.type
        if have == typ or typ == "any":
            return v
        at = v.at
        if have == "any":
            return _retyped(v, typ)
        if (have, typ) == ("bool", "num"):  # kept or given back as it is: 1 or 0 (`reckoned` for arithmetic)
            return n.Cond(v, n.Const(1, "num", at=at), n.Const(0, "num", at=at), "num", at=at)
        if (have, typ) == ("num", "bool"):  # kept as a yes/no: yes unless 0
            return n.Compare("!=", v, n.Const(0, "num", at=at), at=at)
        if (have, typ) == ("zone", "cards"):
            return n.ZoneCards(v, at=at)
        if (have, typ) == ("zone", "card"):
            return n.FirstCard(n.ZoneCards(v, at=at), at=at)
        if (have, typ) in (("card", "cards"), ("player", "players")):
            return n.Single(v, typ, at=at)
        if (have, typ) == ("players", "num"):
            return n.PlayerCount(at=at) if isinstance(v, n.AllPlayers) else n.Length(v, at=at)
        if (have, typ) in (("none", "card"), ("none", "player")):
            return n.Const(-1, typ, at=at)
        self.fail(self.pos(tree), f"expected {type_word(typ)} here, but this is {type_word(have)}",
                  _LIST_HINT if have.startswith("list") and typ in ("cards", "players") else None)

    def reckoned(self, v: n.Expr, tree) -> n.Expr:
        """`v` as a number that arithmetic (or a sum, or an order) reckons with: a yes/no only relabelled, Python's
        `True` and `False` reckoning as 1 and 0. Where a number is kept or given back as it is (a counter, an
        argument, a result, `max`, a conditional's branch), `coerce` makes a yes/no 1 or 0: a sentence would
        write it `True` otherwise."""
        return _retyped(v, "num") if v.type == "bool" else self.coerce(v, "num", tree)

    def condition(self, tree, scope: Scope) -> n.Expr:
        return self.truth(self.expr(tree, scope))

    def truth(self, v: n.Expr) -> n.Expr:
        """A value as yes/no: a card or player is yes unless none, a zone unless empty."""
        if v.type in ("card", "player"):
            return n.IsSome(v, at=v.at)
        if v.type == "zone":
            return n.ZoneCards(v, at=v.at)
        return v

    def yes_no(self, v: n.Expr) -> n.Expr:
        """A value given back as yes/no (a card's condition, an invariant, a check) made yes or no itself: a number
        yes unless 0, a text or a list unless empty (what the caller reckons with is then 1 or 0, not the number or
        the list, which arithmetic could not add)."""
        v = self.truth(v)
        if v.type == "num":
            return self.coerce(v, "bool", None)
        if v.type in ("str", "cards", "players", "groups") or v.type.startswith("list"):
            return n.Compare(">", n.Length(v, at=v.at), n.Const(0, "num", at=v.at), at=v.at)
        return v

    def me(self, scope: Scope) -> n.Ref:
        """`me` here (a procedure run for another player has its own)."""
        me = scope.lookup("me")
        assert me is not None  # the outermost scope of every text defines it
        return ref(me)

    def player_kind(self, kind: Tree, scope: Scope) -> n.Expr:
        """Seats of `each player` (from the first player) / `each opponent` (from the next after me)."""
        return n.AllPlayers() if kind.data == "kind_player" else n.Opponents(self.me(scope))

    # ---- expressions
    def expr(self, tree, scope: Scope) -> n.Expr:
        if isinstance(tree, Token):
            raise AssertionError(f"bare token {tree!r}")
        fn = getattr(self, "x_" + tree.data, None)
        assert fn is not None, f"no resolver for expression {tree.data}"
        node = fn(tree, scope)
        if node.at is None:
            node.at = self.pos(tree)
        return node

    def x_number(self, t, s):
        return n.Const(int(t.children[0]), "num")

    def x_string(self, t, s):
        return n.Const(plain_string(t.children[0]), "str")

    def x_true(self, t, s):
        return n.Const(True, "bool")

    def x_false(self, t, s):
        return n.Const(False, "bool")

    def x_none(self, t, s):
        return n.Const(-1, "none")

    def x_me(self, t, s):
        return self.me(s)

    def x_this(self, t, s):
        found = s.lookup("this")
        if found is None:
            self.fail(self.pos(t), "`this` is only defined inside a card's ability")
        return ref(found)

    def x_it(self, t, s):
        found = s.lookup("it")
        if found is None:
            self.fail(self.pos(t), "`it` is only defined inside `where` and aggregates like sum(cards, it.value)")
        if s.outer_it() is not None:
            # Two `it`s in scope: the inner one wins, which is seldom what the author meant.
            self.fail(self.pos(t), f"`it` here means the inner {found.type}, of the innermost `where` or aggregate, "
                                   "not the outer one",
                      "name them: `count(c in … where …)`, `sum(c in …, c.value)`, `(c in … where …)`")
        return ref(found)

    def x_players(self, t, s):
        return n.AllPlayers()

    def x_opponents(self, t, s):
        return n.Opponents(self.me(s))

    def x_round(self, t, s):
        return n.StateField(*_FIELDS["round"])

    def x_turn(self, t, s):
        return n.StateField(*_FIELDS["turn"])

    def x_first_player(self, t, s):
        return n.StateField(*_FIELDS["first_player"])

    def x_active_player(self, t, s):
        return n.StateField(*_FIELDS["active_player"])

    def x_rounds_left(self, t, s):
        return n.Arith("-", n.Const(self.rounds, "num"), n.StateField("round", "num"))

    def x_is_out(self, t, s):
        who, word = t.children
        if str(word) != "out":
            self.fail(self.pos(word), f"expected `is out` here, not `is {word}`", "compare values with `==`")
        return n.IsOut(self.expect(who, s, "player"))

    def x_next_player(self, t, s):
        return n.Neighbour(self.expect(t.children[0], s, "player"), 1)

    def x_previous_player(self, t, s):
        return n.Neighbour(self.expect(t.children[0], s, "player"), -1)

    def x_roll(self, t, s):
        return n.Helper("roll", [n.Const(int(str(t.children[0])[1:]), "num")], "num", with_state=True, chance=True)

    def x_roll_expr(self, t, s):
        return n.Helper("roll", [self.expect(t.children[0], s, "num")], "num", with_state=True, chance=True)

    def x_name(self, t, s):
        tok = t.children[0]
        name = str(tok)
        local = s.lookup(name)
        if local is not None:
            return ref(local)
        m = self.model
        counter = m.counters.get(name)
        if counter is not None and not counter.per_player:
            return n.GameCounter(counter.index, counter.type)
        if name in m.game_zones:
            return n.GameZone(m.game_zones[name], name)
        if name in self.functions and not self.functions[name].params:
            fn = self.functions[name]
            return n.FunctionCall(fn.pyname, self.me(s), [], fn.result_type, chance=_draws(fn))
        if name in m.player_zones or counter is not None:
            self.fail(self.pos(tok), f"`{name}` belongs to each player", f"write `my {name}` or `{name} of p`")
        if name in self.props:
            self.fail(self.pos(tok), f"`{name}` is a card property", f"write `c.{name}` or `{name} of c`")
        if name == "deal":  # the deal's number: a word of the flow, not reserved (a game's own names take it)
            return n.StateField("deal", "num")
        known = s.names() + list(m.counters) + list(m.game_zones) + list(m.player_zones) + list(self.functions)
        self.fail(self.pos(tok), f"unknown name `{name}`", did_you_mean(name, known))

    def x_my(self, t, s):
        return self.owned(t.children[0], self.me(s))

    def owned(self, tok: Token, who: n.Expr) -> n.Expr:
        """`X of player`: the player's zone or counter."""
        name = str(tok)
        m = self.model
        if name in m.player_zones:
            base, stride = self.player_zone[name]
            return n.PlayerZone(name, base, stride, who)
        counter = m.counters.get(name)
        if counter is not None and counter.per_player:
            return n.PlayerCounter(counter.index, who, counter.type)
        mine = list(m.player_zones) + [k for k, v in m.counters.items() if v.per_player]
        self.fail(self.pos(tok), f"`{name}` is not a zone or counter of each player", did_you_mean(name, mine))

    def owned_by_all(self, tok: Token, players: n.Expr) -> n.Expr:
        """`hold of opponents`: the cards of that zone of each player, in player order."""
        name = str(tok)
        if name in self.model.player_zones:
            var = n.Var("it", "it", "player")
            base, stride = self.player_zone[name]
            return n.OwnedCards(n.PlayerZone(name, base, stride, ref(var)), var, players)
        counter = self.model.counters.get(name)
        if counter is not None and counter.per_player:
            return n.OwnedCounters(counter.index, players, n.list_of(counter.type))
        self.fail(self.pos(tok), f"`{name}` is not a zone or counter of each player")

    def card_prop(self, tok: Token, card: n.Expr, s: Scope) -> n.Expr:
        name = str(tok)
        if name == "face_up":
            return n.FaceUp(card)
        if name == "holder":
            return n.Holder(card)
        if name in self.model.conditions:
            return n.CardCondition(self.conditions.index(name), card, self.me(s))
        if name not in self.props:
            self.fail(self.pos(tok), f"unknown card property `{name}`", did_you_mean(name, self.props))
        return n.CardProp(self.props[name], card, self.prop_types[name])

    def x_of(self, t, s):
        tok, base = t.children
        v = self.expr(base, s)
        if v.type == "player":
            return self.owned(tok, v)
        if v.type == "players":
            return self.owned_by_all(tok, v)
        if v.type == "none":  # else read as a card: `hand of none` would be an unknown card property `hand`
            self.fail(self.pos(base), f"`{tok} of none`: none is no player and no card",
                      "a zone, counter or property of … needs a player or a card")
        if v.type in ("card", "zone"):
            return self.card_prop(tok, self.coerce(v, "card", base), s)
        if v.type == "any":
            return self.card_prop(tok, v, s)
        self.fail(self.pos(base), f"`{tok} of …` needs a player or a card, but this is {type_word(v.type)}")

    def x_prop(self, t, s):
        base, tok = t.children
        return self.x_of(Tree("of", [tok, base], t.meta), s)

    def x_filter(self, t, s):
        base, cond = t.children
        return self.filtered(base, cond, s, None)

    def x_named_filter(self, t, s):
        name, base, cond = t.children
        return self.filtered(base, cond, s, name)

    def filtered(self, base, cond, s: Scope, name: Token | None) -> n.Expr:
        """`CARDS where COND` (`it` being each), or `(c in CARDS where COND)`."""
        v, elem = self.pool(base, s)
        var, inner = self.bind_it(s, elem, name)
        return n.Filter(v, var, self.condition(cond, inner), v.type, at=self.pos(base))

    def pool(self, tree, s: Scope) -> tuple[n.Expr, str]:
        """What an aggregate or `where` runs over: cards or players, and which of the two."""
        v = self.expr(tree, s)
        if v.type in ("players", "player"):
            return self.coerce(v, "players", tree), "player"
        if v.type == "groups":
            return v, "cards"
        return self.coerce(v, "cards", tree), "card"

    def bind_it(self, s: Scope, elem: str, name: Token | None = None) -> tuple[n.Var, Scope]:
        """A scope in which each member of a pool is `it`, or the name the author gave it."""
        inner = Scope(s)
        if name is None:
            return inner.define(n.Var("it", "it", elem)), inner
        word = str(name)
        m = self.model
        if s.lookup(word) is not None or word in m.counters or word in m.game_zones or word in m.player_zones \
                or word in self.functions:
            self.fail(self.pos(name), f"`{word}` already names something here",
                      f"pick another name for each {elem}")
        # kind "it": written exactly as `it` is (a comprehension variable)
        return inner.define(n.Var(word, "it", elem)), inner

    def x_all_cards(self, t, s):
        v = self.expr(t.children[0], s)
        if v.type == "players":
            return v
        return n.Copy(self.coerce(v, "cards", t.children[0]), "cards")

    def x_pick(self, t, s):
        end, base = t.children
        v = self.expect(base, s, "cards")
        if end.data == "end_top":
            return n.FirstCard(v)
        return n.Helper("last", [v], "card")

    def x_pick_n(self, t, s):
        end, count, base = t.children
        num = self.expect(count, s, "num")
        v = self.expect(base, s, "cards")
        return n.Helper("first_n" if end.data == "end_top" else "last_n", [v, num], "cards")

    def x_pick_random(self, t, s):
        return n.Helper("random_card", [self.expect(t.children[0], s, "cards")], "card", with_state=True,
                        chance=True)

    def x_pick_random_player(self, t, s):
        pool = t.children[0] if t.children else None
        players = n.AllPlayers() if pool is None else self.expect(pool, s, "players")
        return n.Helper("random_player", [players], "player", with_state=True, chance=True)

    def x_neg(self, t, s):
        return n.Neg(self.reckoned(self.expr(t.children[1], s), t.children[1]))

    def x_binop(self, t, s):
        a, op, b = t.children
        left, right = self.expr(a, s), self.expr(b, s)
        if str(op) == "+" and left.type in ("cards", "zone") and right.type in ("cards", "zone", "card"):
            # `my chain + resolving`: the cards of both, in that order
            return n.Concat(self.coerce(left, "cards", a), self.coerce(right, "cards", b))
        x, y = self.reckoned(left, a), self.reckoned(right, b)
        if str(op) == "/":
            return n.Helper("floordiv", [x, y], "num")
        if str(op) == "%":
            return n.Helper("mod", [x, y], "num")
        return n.Arith(str(op), x, y)

    def x_compare(self, t, s):
        a, op, b = t.children
        x, y = self.expr(a, s), self.expr(b, s)
        if {x.type, y.type} in ({"players", "num"}, {"bool", "num"}, {"bool"}):
            # (a yes/no compared as the 1 or 0 it stands for: `round or 0` is yes, and equal to `true`, in any round)
            x, y = self.coerce(x, "num", a), self.coerce(y, "num", b)
        if x.type == "none" or y.type == "none":
            other = y if x.type == "none" else x
            if other.type not in ("card", "player", "any"):
                self.fail(self.pos(t), f"only a card or a player can be none, not {type_word(other.type)}")
            if str(op) not in ("==", "!="):
                self.fail(self.pos(op), "compare with none using == or !=")
            return n.IsSome(other, negate=str(op) == "==")
        if "str" in (x.type, y.type) and str(op) not in ("==", "!="):
            self.fail(self.pos(op), "texts compare only with == or !=")
        if {x.type, y.type} <= {"num", "bool"} or x.type == y.type or "any" in (x.type, y.type):
            return n.Compare(str(op), x, y)
        self.fail(self.pos(t), f"cannot compare {type_word(x.type)} with {type_word(y.type)}")

    def x_cond(self, t, s):
        """`A if COND else B`: both branches of one type (none goes with a card or a player)."""
        a, cond, b = t.children
        test = self.condition(cond, s)
        x, y = self.expr(a, s), self.expr(b, s)
        typ = _common_type(x.type, y.type)
        if typ is None:
            self.fail(self.pos(t), f"the two values of `… if … else …` differ: {type_word(x.type)} and "
                                   f"{type_word(y.type)}", "give both branches the same type")
        return n.Cond(test, self.coerce(x, typ, a), self.coerce(y, typ, b), typ)

    def x_and_(self, t, s):
        return n.Logic("and", self.operand(t.children[0], s), self.operand(t.children[1], s))

    def x_or_(self, t, s):
        return n.Logic("or", self.operand(t.children[0], s), self.operand(t.children[1], s))

    def operand(self, tree, scope: Scope) -> n.Expr:
        """A side of `and`/`or` as a yes/no itself: Python's `and`/`or` give back a side as it is, so a number or a
        list there would make the yes/no that number (`false or round`: 2, not 1) or that list."""
        v = self.condition(tree, scope)
        return v if v.type == "bool" else self.yes_no(v)

    def x_not_(self, t, s):
        return n.Not(self.condition(t.children[0], s))


_LIST_HINT = ("a list made by `list(…)` (or `NAME of PLAYERS`) is a value to say, compare or keep; where cards or "
              "players are wanted, name them (`deck where …`)")


def _draws(fn) -> bool:
    """Does a game function draw chance (its value is resolved before its callers')?"""
    return fn.value is not None and "rng" in fn.value.reads()


def _common_type(a: str, b: str) -> str | None:
    """The type both branches of a conditional can take, or None."""
    if a == b or "any" in (a, b):
        return b if a == "any" else a
    pair = {a, b}
    for wide in ("card", "player"):
        if pair == {"none", wide}:
            return wide
    if pair == {"num", "bool"}:  # a yes/no stands for a number
        return "num"
    if pair == {"zone", "cards"}:
        return "cards"
    if pair == {"card", "cards"} or pair == {"player", "players"}:
        return "cards" if "cards" in pair else "players"
    return None


def _retyped(v: n.Expr, typ: str) -> n.Expr:
    """The same value seen as another type (bool as num, `any` as what is wanted)."""
    return n.Retyped(v, typ, at=v.at)
