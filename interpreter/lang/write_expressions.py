"""Stage 5, values: the Python code of each kind of expression node, one `visit_<Node>` a class (as jinja2's
CodeGenerator has one a node), on the code writer's craft (writer.py). The statements' visitors subclass it
(compiler.py)."""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Pos
from ..limits import UNCHARGED
from . import nodes as n
from .statements import FixedOptions, GuardedOptions, NumberRange, Options
from .writer import Writer

# An aggregate's code by its kind: of a property of each card (a C loop over the property's column)…
_OF_PROPERTY = {"sum": "sum({mapped})", "any": "any({mapped})", "max": "max({mapped}, default=0)",
                "min": "min({mapped}, default=0)", "highest": "max({pool}, key={prop}, default=-1)",
                "lowest": "min({pool}, key={prop}, default=-1)", "list": "list({mapped})"}
# …and of any value of `it`.
_OF_VALUE = {"count": "sum(1 for {v} in {pool} if {value})", "any": "any({value} for {v} in {pool})",
             "sum": "sum({value} for {v} in {pool})", "max": "max(({value} for {v} in {pool}), default=0)",
             "min": "min(({value} for {v} in {pool}), default=0)",
             "highest": "max({pool}, key=lambda {v}: {value}, default=-1)",
             "lowest": "min({pool}, key=lambda {v}: {value}, default=-1)", "list": "[{value} for {v} in {pool}]"}


@dataclass(eq=False)
class Worked(n.Expr):
    """A value already worked out into a local of the generated code (a part of a sentence of the log)."""

    name: str
    type: str


class ExpressionWriter(Writer):
    """Writes the value of each kind of expression node as Python code."""

    def charged(self, pool: n.Expr, code: str, each: n.Expr, at: Pos | None) -> str:
        """The code of `pool` (`code`) as an aggregate or `where` runs over it, working out `each` for every
        element: charged as steps, one an element, where `each` runs over something itself or calls what may
        (nested work multiplies); else only where the list may hold more than UNCHARGED (the cards of a
        game of more cards, a list made longer), and then only when it does (a short one costs little)."""
        if n.iterates(each, self.call_iterates):
            return self.charge(code, at)
        if self.free or not self.may_be_long(pool, n.bounded(pool)):
            return code
        if pool.cheap or (isinstance(pool, n.ZoneCards) and pool.zone.cheap):
            return f"({code} if len({code}) <= {UNCHARGED} else {self.charge(code, at)})"
        return self.charge(code, at)

    def visit_Const(self, node: n.Const) -> str:
        return repr(node.value)

    def visit_Ref(self, node: n.Ref) -> str:
        return self.ref(node.var)

    def visit_StateField(self, node: n.StateField) -> str:
        return f"st.{node.field}"

    def visit_PlayerCount(self, node: n.PlayerCount) -> str:  # every player where none can be knocked out
        return "st.n" if n.KNOCKS_OUT not in self.plan.effects else "len(st.orders[0])"

    def visit_AllPlayers(self, node: n.AllPlayers) -> str:
        return "st.orders[st.first]"

    def visit_Opponents(self, node: n.Opponents) -> str:
        return f"st.others[{self.some(node.who, 'the player')}]"

    def visit_SeatsFrom(self, node: n.SeatsFrom) -> str:
        return f"st.orders[{self.some(node.who, 'the player to start from')}]"

    def visit_Neighbour(self, node: n.Neighbour) -> str:
        return f"st.{'after' if node.step > 0 else 'before'}[{self.some(node.who, 'the player to count from')}]"

    def visit_IsOut(self, node: n.IsOut) -> str:
        return f"is_out(st, {self.expr(node.who)})"

    def visit_GameCounter(self, node: n.GameCounter) -> str:
        return f"{self.alias('G')}[{self.constant('counter', node.index)}]"

    def visit_PlayerCounter(self, node: n.PlayerCounter) -> str:
        who = self.some(node.who, 'the player of this counter')
        return f"{self.alias('PC')}[{self.constant('player_counter', node.index)}][{who}]"

    def visit_GameZone(self, node: n.GameZone) -> str:
        return self.constant("zone", node.index)

    def visit_PlayerZone(self, node: n.PlayerZone) -> str:
        who = self.some(node.who, f'the player of `{node.name} of …`')
        return f"({who} * {self.constant('stride', node.stride)} + {self.constant('zone', node.base)})"

    def visit_Retyped(self, node: n.Retyped) -> str:
        return self.expr(node.value)

    def visit_ZoneCards(self, node: n.ZoneCards) -> str:
        return f"{self.alias('Z')}[{self.expr(node.zone)}]"

    def lazy(self, node: n.Filter) -> str:
        """The generator inside a filter's brackets (to stop at the first match)."""
        v = self.ref(node.var)
        base = self.expr(node.base)
        if not isinstance(node.base, n.OwnedCards):  # (charged as it is made)
            base = self.charged(node.base, base, node.test, node.at)
        return f"{v} for {v} in {base} if {self.expr(node.test)}"

    def visit_Filter(self, node: n.Filter) -> str:
        if node.base.type == "players" and _counter_of(node.test, node.var):  # (nothing to charge: a counter)
            return self.kept(node.var, self.expr(node.base), node.test)
        return f"[{self.lazy(node)}]"

    def kept(self, var: n.Var, pool: str, test: n.Expr) -> str:
        """The seats of `pool` for which `test` holds (`var` being each): where the test is a counter of each
        player, kept by C (`list(filter(column, seats))`), else a comprehension."""
        if isinstance(test, n.PlayerCounter) and _counter_of(test, var):
            column = f"{self.alias('PC')}[{self.constant('player_counter', test.index)}]"
            return f"list(filter({column}.__getitem__, {pool}))"
        v = self.ref(var)
        return f"[{v} for {v} in {pool} if {self.expr(test)}]"

    def visit_Groups(self, node: n.Groups) -> str:
        # one pass: each card is appended to its value's list, and a list joins the result when it is made
        v, seen, g = self.ref(node.var), self.fresh("d"), self.fresh("g")
        pool = self.charged(node.pool, self.expr(node.pool), node.key, node.at)
        key = self.expr(node.key)
        return (f"[{g} for {seen} in ({{}},) for {v} in {pool} for {g} in ({seen}.setdefault({key}, []),)"
                f" if not {g}.append({v}) and len({g}) == 1]")

    def visit_Firsts(self, node: n.Firsts) -> str:
        column = self.key_column(node.groups)
        if column is not None and isinstance(node.groups, n.Groups):
            # one card of each value of a property: the values and the first card of each found in C, a Python
            # step only for each value
            grouped = node.groups
            cs, ks, first, k = (self.fresh(x) for x in ("cs", "ks", "first", "k"))
            pool = self.charged(grouped.pool, self.expr(grouped.pool), grouped.key, grouped.at)
            return (f"[{first}[{k}] for {cs} in ({pool},) for {ks} in (list(map({column}, {cs})),) "
                    f"for {first} in (dict(zip(reversed({ks}), reversed({cs}))),) for {k} in dict.fromkeys({ks})]")
        g = self.fresh("g")
        return f"[{g}[0] for {g} in {self.expr(node.groups)}]"

    def key_column(self, groups: n.Expr) -> str | None:
        """`P[PROP_x].__getitem__` where cards are grouped by their property x, else None."""
        if not isinstance(groups, n.Groups):
            return None
        key = groups.key
        if isinstance(key, n.CardProp) and isinstance(key.card, n.Ref) and key.card.var is groups.var:
            return f"{self.prop_column(key.index)}.__getitem__"
        return None

    def prop_column(self, index: int) -> str:
        """A card property's column (the value of each card by its number), as the generated code names it."""
        return f"{self.alias('P')}[{self.constant('prop', index)}]"

    def zone_search(self, f: n.Filter) -> tuple[str, str, str, str] | None:
        """A filter of a cheaply named zone's cards by a property's value, written: the zone, its cards as the
        filter charges them, the property's column and the value; None for any other filter."""
        found = n.property_equals(f)
        if found is None or not isinstance(f.base, n.ZoneCards) or not f.base.zone.cheap:
            return None
        index, value = found
        z = self.expr(f.base)
        return z, self.charged(f.base, z, f.test, f.at), self.prop_column(index), self.expr(value)

    def visit_FirstCard(self, node: n.FirstCard) -> str:
        cards = node.cards
        if isinstance(cards, n.Filter):
            search = self.zone_search(cards)
            if search is not None:
                # `the first card of a zone where it.p == value`: the value worked out once (a zone with
                # cards works it out at least once anyway), the search a plain loop
                z, pool, column, value = search
                return f"(first_with({pool}, {column}, {value}) if {z} else -1)"
            return f"next(({self.lazy(cards)}), -1)"
        if isinstance(cards, n.ZoneCards) and cards.zone.cheap:  # (an empty zone's first card is none: -1)
            return f"({self.expr(cards)} or (-1,))[0]"
        return f"top({self.expr(cards)})"

    def expr_or(self, node: n.Expr, fallback: str) -> str | None:
        return self.or_FirstCard(node, fallback) if isinstance(node, n.FirstCard) else None

    def or_FirstCard(self, node: n.FirstCard, fallback: str) -> str | None:
        cards = node.cards
        if isinstance(cards, n.ZoneCards) and cards.zone.cheap:  # (`fallback` raises where the zone is empty)
            return f"({self.expr(cards)} or ({fallback},))[0]"
        return None

    def visit_Helper(self, node: n.Helper) -> str:
        args = [self.expr(a) for a in node.args]
        return f"{node.name}({', '.join(['st', *args] if node.with_state else args)})"

    def visit_Copy(self, node: n.Copy) -> str:
        return f"[*{self.expr(node.items)}]"  # (a list display: no call of `list`)

    def visit_Single(self, node: n.Single) -> str:
        return f"[{self.expr(node.item)}]"

    def visit_Concat(self, node: n.Concat) -> str:
        cards = f"[*{self.expr(node.left)}, *{self.expr(node.right)}]"  # (may grow past the game's cards: charged)
        return self.charge(cards, node.at) if self.may_be_long(node, False) else cards

    def visit_Length(self, node: n.Length) -> str:
        items = node.items
        if isinstance(items, n.Groups):  # how many groups: how many values
            pool = self.charged(items.pool, self.expr(items.pool), items.key, items.at)
            column = self.key_column(items)
            if column is not None:
                return f"len(set(map({column}, {pool})))"
            v = self.ref(items.var)
            return f"len({{{self.expr(items.key)} for {v} in {pool}}})"
        found = n.property_equals(items) if isinstance(items, n.Filter) else None
        if found is not None and isinstance(items, n.Filter) and isinstance(items.base, n.ZoneCards):
            # how many cards of a zone have a property's value: counted in C (the value worked out once, where
            # the zone has cards, as the filter works it out at least once then)
            index, value = found
            column = f"{self.prop_column(index)}.__getitem__"
            z = self.expr(items.base)
            if items.base.zone.cheap:
                pool = self.charged(items.base, z, items.test, items.at)
                return f"(list(map({column}, {pool})).count({self.expr(value)}) if {z} else 0)"
            cs = self.fresh("cs")  # a zone named at a cost (`hand of p`): named once
            pool = self.charged(items.base, cs, items.test, items.at)
            return f"[list(map({column}, {pool})).count({self.expr(value)}) if {cs} else 0 for {cs} in ({z},)][0]"
        return f"len({self.expr(node.items)})"

    def visit_OwnedCards(self, node: n.OwnedCards) -> str:
        q, c = self.ref(node.var), self.fresh("c")
        cards = f"[{c} for {q} in {self.expr(node.players)} for {c} in {self.alias('Z')}[{self.expr(node.zone)}]]"
        return self.charge(cards, node.at) if self.may_be_long(node, True) else cards

    def visit_OwnedCounters(self, node: n.OwnedCounters) -> str:
        q = self.fresh("q")
        column = f"{self.alias('PC')}[{self.constant('player_counter', node.index)}]"
        return f"[{column}[{q}] for {q} in {self.expr(node.players)}]"

    def visit_CardProp(self, node: n.CardProp) -> str:
        return f"{self.prop_column(node.index)}[{self.some(node.card, 'the card of this property')}]"

    def visit_FaceUp(self, node: n.FaceUp) -> str:
        return f"st.face[{self.some(node.card, 'the card')}]"

    def visit_Holder(self, node: n.Holder) -> str:
        return f"st.layout.zone_owner[st.zone_of[{self.some(node.card, 'the card')}]]"

    def visit_CardCondition(self, node: n.CardCondition) -> str:
        c = self.expr(node.card)
        if node.card.maybe_none:  # worked out once, then asked
            condition = self.constant("condition", node.index)
            me = self.expr(node.me)
            return f"ask_condition(CONDITIONS[{condition}], st, {me}, {self.some(node.card, 'the card')})"
        table = f"CONDITIONS[{self.constant('condition', node.index)}][{self.alias('CD')}[{c}]]"
        return f"{table}(st, {self.expr(node.me)}, {c})"

    def visit_Neg(self, node: n.Neg) -> str:
        return f"(-{self.expr(node.value)})"

    def visit_Arith(self, node: n.Arith) -> str:
        return f"({self.expr(node.left)} {node.op} {self.expr(node.right)})"

    def visit_Compare(self, node: n.Compare) -> str:
        found = n.nonempty_test(node)
        if found is not None:
            return self.any_of(*found)
        return f"({self.expr(node.left)} {node.op} {self.expr(node.right)})"

    def any_of(self, f: n.Filter, empty: bool) -> str:
        """Whether a filter has a member (`empty`: has none), stopping at the first found: a search by a
        property's value runs in C (`value in map(column, cards)`, the value worked out once, where the
        zone has cards, as a filter works it out at least once then)."""
        search = self.zone_search(f)
        if search is not None:
            z, pool, column, value = search
            mapped = f"map({column}.__getitem__, {pool})"
            if empty:
                return f"({value} not in {mapped} if {z} else True)"
            return f"({value} in {mapped} if {z} else False)"
        v = self.ref(f.var)
        base = self.expr(f.base)
        if not isinstance(f.base, n.OwnedCards):  # (charged as it is made)
            base = self.charged(f.base, base, f.test, f.at)
        return f"({'not ' if empty else ''}any({self.expr(f.test)} for {v} in {base}))"

    def visit_IsSome(self, node: n.IsSome) -> str:
        return f"({self.expr(node.value)} {'<' if node.negate else '>='} 0)"

    def visit_Logic(self, node: n.Logic) -> str:
        return f"({self.expr(node.left)} {node.op} {self.expr(node.right)})"

    def visit_Cond(self, node: n.Cond) -> str:
        return f"({self.expr(node.then)} if {self.expr(node.test)} else {self.expr(node.other)})"

    def visit_Not(self, node: n.Not) -> str:
        return f"(not {self.expr(node.value)})"

    def visit_Aggregate(self, node: n.Aggregate) -> str:
        v, pool, value = self.ref(node.var), self.expr(node.pool), self.expr(node.value)
        if n.iterates(node.value, self.call_iterates) or not isinstance(node.pool, n.Filter | n.OwnedCards):
            # (a filter or the cards of several players charge as they are made)
            pool = self.charged(node.pool, pool, node.value, node.at)
        each = node.value
        if isinstance(each, n.CardProp) and isinstance(each.card, n.Ref) and each.card.var is node.var \
                and node.kind in _OF_PROPERTY:
            # a property of each card (`sum(table, it.value)`): looked up by a C loop, no Python per card
            prop = f"{self.prop_column(each.index)}.__getitem__"
            return _OF_PROPERTY[node.kind].format(mapped=f"map({prop}, {pool})", pool=pool, prop=prop)
        return _OF_VALUE.get(node.kind, _OF_VALUE["list"]).format(v=v, pool=pool, value=value)

    def visit_FunctionCall(self, node: n.FunctionCall) -> str:
        return f"{node.pyname}(st, {', '.join(self.expr(a) for a in node.children())})"

    def visit_Format(self, node: n.Format) -> str:
        return f"fmt(st, {node.value.type!r}, {self.expr(node.value)})"

    def visit_Text(self, node: n.Text) -> str:
        if all(isinstance(p, n.Const) for p in node.parts):  # a fixed sentence: written as one literal
            return repr("".join(str(p.value) for p in node.parts if isinstance(p, n.Const)))
        if len(node.parts) == 1:  # one value written out: already a text
            return self.expr(node.parts[0])
        return "''.join((" + ", ".join(self.expr(p) for p in node.parts) + ",))"

    def visit_Stmt(self, node: n.Stmt) -> None:
        raise NotImplementedError

    def visit_Options(self, node: Options) -> str:
        items = self.expr(node.items)
        if node.decline:
            return f"[-1, *{items}]"
        return f"({items} or [-1])" if node.items.FRESH else f"([*{items}] or [-1])"

    def visit_FixedOptions(self, node: FixedOptions) -> str:
        return repr(tuple(node.values))  # (a constant of the code: no list made at each ask)

    def visit_GuardedOptions(self, node: GuardedOptions) -> str:
        offered = " + ".join(f"([{o!r}] if {self.expr(t)} else [])" if t is not None else f"[{o!r}]"
                             for o, t in node.options)
        return f"({offered} or [-1])"

    def visit_NumberRange(self, node: NumberRange) -> str:  # the options, refused past MAX_OPTIONS
        return f"numbers({self.expr(node.low)}, {self.expr(node.high)}, {self.place(node.at)})"

    def visit_Worked(self, node: Worked) -> str:
        return node.name


def _counter_of(test: n.Expr, var: n.Var) -> bool:
    """Is the test a number counter of the player `var` (yes unless 0)?"""
    return isinstance(test, n.PlayerCounter) and isinstance(test.who, n.Ref) and test.who.var is var \
        and test.type in ("num", "bool")
