"""The typed intermediate form: what name/type resolution hands to simplification and code generation.

Every node carries its DSL type and the place in the YAML it came from (`at`). Expression nodes say how
they are written in Python (`emit`, given the code writer) and answer the questions code generation
asks of them (is it a literal, a local, which parts of the state it reads), so that no decision is
ever made by looking at emitted text. Statement nodes live in `statements.py`, one class per statement.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

from ..diagnostics import Pos
from ..limits import UNCHARGED

if TYPE_CHECKING:
    from lark import Tree

    from .compiler import Writer
    from .expressions import Scope
    from .resolve import Resolver

# Parts of a match's state an expression may read. A value reading none of MUTABLE is the same
# whenever it is computed within one statement (it only depends on locals and constants).
MUTABLE = frozenset({"zones", "gc", "pc", "face", "known", "zone_of", "round", "turn", "first", "active", "rng",
                     "call", "deal", "out"})


@dataclass(eq=False)
class Var:
    """A name bound in a DSL text: `me`, `this`, a parameter, a `let`, a loop variable or `it`.

    Its Python name is chosen by the code writer (the same body inlined twice gets fresh names)."""

    name: str
    kind: str  # me | this | param | let | loop | it
    type: str


@dataclass(eq=False)
class Node:
    at: Pos | None = field(default=None, kw_only=True)


@dataclass(eq=False)
class Expr(Node):
    """An expression: a value of a DSL type."""

    READS: ClassVar[frozenset[str]] = frozenset()
    FRESH: ClassVar[bool] = False  # a list made for this use (no copy needed before moving its cards)

    if TYPE_CHECKING:
        # Its DSL type: a field of some kinds, a class constant of others (declared here for the checker
        # only: a property at run time would become the default of the dataclass fields).
        @property
        def type(self) -> str: ...

    def emit(self, w: Writer) -> str:
        raise NotImplementedError

    def children(self) -> list[Expr]:
        return [getattr(self, f.name) for f in fields(self) if isinstance(getattr(self, f.name), Expr)]

    def reads(self) -> frozenset[str]:
        """The state parts this value depends on (`call`: a game function, which may read anything)."""
        out = self.READS
        for c in self.children():
            out = out | c.reads()
        return out

    @property
    def steady(self) -> bool:
        """Computed twice within a statement it gives the same value (no state read, no chance)."""
        return not self.reads() & MUTABLE

    @property
    def cheap(self) -> bool:
        """Cheap and steady enough to write twice instead of binding it to a name."""
        return False

    @property
    def risky(self) -> bool:
        """Working it out may fail (a division, a game function) or draw chance."""
        return bool(self.reads() & {"call", "rng"}) or any(c.risky for c in self.children())

    @property
    def maybe_none(self) -> bool:
        """A card or player that may be none (where one is needed, the code writer checks it)."""
        return False

    def emit_or(self, w: Writer, fallback: str) -> str | None:
        """Code of this card or player with `fallback` (code that raises) where it would be none, if it
        has a form that tests for none anyway (else None: the writer checks the value it gives)."""
        return None


# ---- leaves -----------------------------------------------------------------------------------------


@dataclass(eq=False)
class Const(Expr):
    """A literal: number, text, yes/no, or none (-1)."""

    value: Any
    type: str

    def emit(self, w: Writer) -> str:
        return repr(self.value)

    @property
    def cheap(self) -> bool:
        return True

    @property
    def maybe_none(self) -> bool:
        return self.value == -1 and self.type in _ONE


_ONE = ("card", "player", "none")  # the types of one card or one player


@dataclass(eq=False)
class Ref(Expr):
    """The value of a local name (me, this, a parameter, a let, a loop variable, it)."""

    var: Var
    type: str

    def emit(self, w: Writer) -> str:
        return w.ref(self.var)

    @property
    def cheap(self) -> bool:
        return True

    @property
    def maybe_none(self) -> bool:  # me, this, loop variables and `it` never are
        return self.var.kind in ("let", "param") and self.type in _ONE


@dataclass(eq=False)
class StateField(Expr):
    """`round`, `turn`, `deal`, `first player`, `active player`: one field of the match state."""

    field: str  # round | turn | deal | first | active
    type: str

    def emit(self, w: Writer) -> str:
        return f"st.{self.field}"

    def reads(self) -> frozenset[str]:
        return frozenset({self.field})


@dataclass(eq=False)
class PlayerCount(Expr):
    """How many players are still in (`players` where a number is wanted)."""

    type: ClassVar[str] = "num"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})

    def emit(self, w: Writer) -> str:
        return "len(st.orders[0])"


# The seat tables (`st.orders`, `st.others`, `st.after`, `st.before`) leave out the players knocked out;
# they are built once per set of knocked-out seats (model.Setup.seats), so reading them costs an index.


@dataclass(eq=False)
class AllPlayers(Expr):
    """Every player still in, in turn order from the first player."""

    type: ClassVar[str] = "players"
    READS: ClassVar[frozenset[str]] = frozenset({"first", "out"})

    def emit(self, w: Writer) -> str:
        return "st.orders[st.first]"


@dataclass(eq=False)
class Opponents(Expr):
    """Every other player still in, in turn order from the one after `who`."""

    who: Expr
    type: ClassVar[str] = "players"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})

    def emit(self, w: Writer) -> str:
        return f"st.others[{w.some(self.who, 'the player')}]"


@dataclass(eq=False)
class SeatsFrom(Expr):
    """Every player still in, in turn order, starting with `who` (or the next one still in)."""

    who: Expr
    type: ClassVar[str] = "players"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})

    def emit(self, w: Writer) -> str:
        return f"st.orders[{w.some(self.who, 'the player to start from')}]"


@dataclass(eq=False)
class Neighbour(Expr):
    """The next (`step` 1) or previous (-1) player still in around the table from `who`."""

    who: Expr
    step: int
    type: ClassVar[str] = "player"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})

    def emit(self, w: Writer) -> str:
        return f"st.{'after' if self.step > 0 else 'before'}[{w.some(self.who, 'the player to count from')}]"


@dataclass(eq=False)
class IsOut(Expr):
    """`P is out`: the player is knocked out (of the deal or the match); none is not out."""

    who: Expr
    type: ClassVar[str] = "bool"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})

    def emit(self, w: Writer) -> str:
        return f"is_out(st, {self.who.emit(w)})"


@dataclass(eq=False)
class GameCounter(Expr):
    index: int
    type: str
    READS: ClassVar[frozenset[str]] = frozenset({"gc"})

    def emit(self, w: Writer) -> str:
        return f"{w.alias('G')}[{w.constant('counter', self.index)}]"

    @property
    def maybe_none(self) -> bool:
        return self.type == "player"


@dataclass(eq=False)
class PlayerCounter(Expr):
    index: int
    who: Expr
    type: str
    READS: ClassVar[frozenset[str]] = frozenset({"pc"})

    def emit(self, w: Writer) -> str:
        who = w.some(self.who, 'the player of this counter')
        return f"{w.alias('PC')}[{w.constant('player_counter', self.index)}][{who}]"

    @property
    def maybe_none(self) -> bool:
        return self.type == "player"


@dataclass(eq=False)
class GameZone(Expr):
    """A shared zone: its instance number is a constant."""

    index: int
    name: str
    type: ClassVar[str] = "zone"

    @property
    def zone(self) -> str:
        return self.name

    @property
    def owner(self) -> Expr | None:
        return None

    def emit(self, w: Writer) -> str:
        return w.constant("zone", self.index)

    @property
    def cheap(self) -> bool:
        return True


@dataclass(eq=False)
class PlayerZone(Expr):
    """A zone of one player: instance `base + who * stride`."""

    name: str
    base: int
    stride: int
    who: Expr
    type: ClassVar[str] = "zone"

    @property
    def zone(self) -> str:
        return self.name

    @property
    def owner(self) -> Expr:
        return self.who

    def emit(self, w: Writer) -> str:
        who = w.some(self.who, f'the player of `{self.name} of …`')
        return f"({who} * {w.constant('stride', self.stride)} + {w.constant('zone', self.base)})"

    @property
    def cheap(self) -> bool:
        return self.who.cheap


@dataclass(eq=False)
class Retyped(Expr):
    """A value seen as another type: yes/no as a number, a seat as a number, `any` as what is wanted."""

    value: Expr
    type: str

    def emit(self, w: Writer) -> str:
        return self.value.emit(w)

    @property
    def cheap(self) -> bool:
        return self.value.cheap

    @property
    def maybe_none(self) -> bool:
        return self.type in _ONE and self.value.maybe_none


# ---- cards and lists ------------------------------------------------------------------------------------


@dataclass(eq=False)
class ZoneCards(Expr):
    """The cards of a zone (the zone's own list: copy it before moving its cards)."""

    zone: Expr
    type: ClassVar[str] = "cards"
    READS: ClassVar[frozenset[str]] = frozenset({"zones"})

    def emit(self, w: Writer) -> str:
        return f"{w.alias('Z')}[{self.zone.emit(w)}]"


@dataclass(eq=False)
class Filter(Expr):
    """`cards where …` / `players where …`: the members for which `test` holds (`it` is `var`)."""

    base: Expr
    var: Var
    test: Expr
    type: str
    FRESH: ClassVar[bool] = True

    def lazy(self, w: Writer) -> str:
        """The generator inside the brackets (to stop at the first match)."""
        v = w.ref(self.var)
        base = self.base.emit(w)
        if not isinstance(self.base, OwnedCards):  # (charged as it is made)
            base = charged(w, self.base, base, self.test, self.at)
        return f"{v} for {v} in {base} if {self.test.emit(w)}"

    def emit(self, w: Writer) -> str:
        return f"[{self.lazy(w)}]"


def charged(w: Writer, pool: Expr, code: str, each: Expr, at: Pos | None) -> str:
    """The code of `pool` (`code`) as an aggregate or `where` runs over it, working out `each` for every
    element: charged as steps, one an element, where `each` runs over something itself or calls what may
    (nested work multiplies); else only where the list may hold more than UNCHARGED (the cards of a
    game of more cards, a list made longer), and then only when it does (a short one costs little)."""
    if iterates(each, w.call_iterates):
        return w.charge(code, at)
    if w.free or not w.may_be_long(pool, _bounded(pool)):
        return code
    if pool.cheap or (isinstance(pool, ZoneCards) and pool.zone.cheap):
        return f"({code} if len({code}) <= {UNCHARGED} else {w.charge(code, at)})"
    return w.charge(code, at)


def iterates(value: Expr, calls: Callable[[Expr], bool] | None = None) -> bool:
    """Whether working out `value` runs over a list or calls what may (`calls(call)`: whether the game
    function or the cards' condition it calls does; without it, any may)."""
    if isinstance(value, Aggregate | Filter | OwnedCards):
        return True
    if isinstance(value, FunctionCall | CardCondition) and (calls is None or calls(value)):
        return True
    return any(iterates(c, calls) for c in value.children())


def nests(value: Expr) -> bool:
    """Whether working out `value` runs over a list for each element of another (always charged)."""
    if (isinstance(value, Aggregate) and iterates(value.value)) or (isinstance(value, Filter) and iterates(value.test)):
        return True
    return any(nests(c) for c in value.children())


def zones_run_over(value: Expr) -> list[tuple[ZoneCards, Pos | None]] | None:
    """The zones the aggregates and `where`s of `value` run over (or `value` itself, a zone's cards written
    out), with their places, if each is named cheaply (`my hand`, not `hand of players`) and nothing is
    called; else None."""
    found: list[tuple[ZoneCards, Pos | None]] = []
    if isinstance(value, ZoneCards) and value.zone.cheap:
        found.append((value, value.at))
    for node in _walk(value):
        if isinstance(node, FunctionCall | CardCondition | OwnedCards):
            return None
        if isinstance(node, Filter | Aggregate):
            pool = node.base if isinstance(node, Filter) else node.pool
            if isinstance(pool, ZoneCards) and pool.zone.cheap:
                found.append((pool, node.at))
            elif not (isinstance(node, Aggregate) and isinstance(pool, Filter)):  # (that filter is counted)
                return None
    return found


def _walk(value: Expr) -> list[Expr]:
    return [value, *(d for c in value.children() for d in _walk(c))]


def _bounded(pool: Expr) -> bool:
    """A list of cards no longer than the game has cards (each card at most once)."""
    return isinstance(pool, ZoneCards | OwnedCards | Single) or \
        (isinstance(pool, Filter | Copy) and _bounded(pool.base if isinstance(pool, Filter) else pool.items))


def _mentions(value: Expr, var: Var) -> bool:
    return (isinstance(value, Ref) and value.var is var) or any(_mentions(c, var) for c in value.children())


def _property_equals(f: Filter) -> tuple[int, Expr] | None:
    """(property index, value) of a filter `where it.p == value` (either way round) whose value does not
    depend on the card tested and is the same however often it is worked out; else None."""
    test = f.test
    if not isinstance(test, Compare) or test.op != "==":
        return None
    for prop, value in ((test.left, test.right), (test.right, test.left)):
        if isinstance(prop, CardProp) and isinstance(prop.card, Ref) and prop.card.var is f.var \
                and not _mentions(value, f.var) and not value.risky:
            return prop.index, value
    return None


@dataclass(eq=False)
class FirstCard(Expr):
    """The first card of a list, or none."""

    cards: Expr
    type: ClassVar[str] = "card"

    def emit(self, w: Writer) -> str:
        cards = self.cards
        if isinstance(cards, Filter):
            found = _property_equals(cards)
            if found is not None and isinstance(cards.base, ZoneCards) and cards.base.zone.cheap:
                # `the first card of a zone where it.p == value`: the value worked out once (a zone with
                # cards works it out at least once anyway), the search a plain loop
                index, value = found
                z = cards.base.emit(w)
                pool = charged(w, cards.base, z, cards.test, cards.at)
                column = f"{w.alias('P')}[{w.constant('prop', index)}]"
                return f"(first_with({pool}, {column}, {value.emit(w)}) if {z} else -1)"
            return f"next(({cards.lazy(w)}), -1)"
        if isinstance(cards, ZoneCards) and cards.zone.cheap:
            z = cards.emit(w)
            return f"({z}[0] if {z} else -1)"
        return f"top({cards.emit(w)})"

    def emit_or(self, w: Writer, fallback: str) -> str | None:
        cards = self.cards
        if isinstance(cards, ZoneCards) and cards.zone.cheap:
            z = cards.emit(w)
            return f"({z}[0] if {z} else {fallback})"
        return None

    @property
    def maybe_none(self) -> bool:
        return True

# Runtime helpers that can fail on some values (a RuleError) or draw chance.
RISKY_HELPERS = frozenset({"floordiv", "mod", "ring_distance", "roll", "random_card", "random_player"})


@dataclass(eq=False)
class Helper(Expr):
    """A call of one of the runtime's helpers: `name(args…)` (`with_state`: `name(st, args…)`)."""

    name: str
    args: list[Expr]
    type: str
    with_state: bool = False
    chance: bool = False

    def children(self) -> list[Expr]:
        return list(self.args)

    def reads(self) -> frozenset[str]:
        out = frozenset({"rng"}) if self.chance else frozenset()
        for a in self.args:
            out = out | a.reads()
        return out

    @property
    def risky(self) -> bool:
        return self.name in RISKY_HELPERS or super().risky

    @property
    def maybe_none(self) -> bool:
        return self.type in _ONE

    def emit(self, w: Writer) -> str:
        args = [a.emit(w) for a in self.args]
        return f"{self.name}({', '.join(['st', *args] if self.with_state else args)})"


@dataclass(eq=False)
class Copy(Expr):
    """A fresh list of the members of `items` (`all …`)."""

    items: Expr
    type: str
    FRESH: ClassVar[bool] = True

    def emit(self, w: Writer) -> str:
        return f"list({self.items.emit(w)})"


@dataclass(eq=False)
class Single(Expr):
    """A list of one card or one player."""

    item: Expr
    type: str
    FRESH: ClassVar[bool] = True

    def emit(self, w: Writer) -> str:
        return f"[{self.item.emit(w)}]"


@dataclass(eq=False)
class Concat(Expr):
    left: Expr
    right: Expr
    type: ClassVar[str] = "cards"
    FRESH: ClassVar[bool] = True

    def emit(self, w: Writer) -> str:
        cards = f"[*{self.left.emit(w)}, *{self.right.emit(w)}]"  # (may grow past the game's cards: charged)
        return w.charge(cards, self.at) if w.may_be_long(self, False) else cards


@dataclass(eq=False)
class Length(Expr):
    items: Expr
    type: ClassVar[str] = "num"

    def emit(self, w: Writer) -> str:
        return f"len({self.items.emit(w)})"


@dataclass(eq=False)
class OwnedCards(Expr):
    """`hand of opponents`: the cards of one zone of each of several players, in player order."""

    zone: PlayerZone  # its `who` is `var`
    var: Var
    players: Expr
    type: ClassVar[str] = "cards"
    FRESH: ClassVar[bool] = True
    READS: ClassVar[frozenset[str]] = frozenset({"zones"})

    def emit(self, w: Writer) -> str:
        q, c = w.ref(self.var), w.fresh("c")
        cards = f"[{c} for {q} in {self.players.emit(w)} for {c} in {w.alias('Z')}[{self.zone.emit(w)}]]"
        return w.charge(cards, self.at) if w.may_be_long(self, True) else cards


@dataclass(eq=False)
class OwnedCounters(Expr):
    """`bonus of players`: one player counter's value for each of several players."""

    index: int
    players: Expr
    type: ClassVar[str] = "list"
    READS: ClassVar[frozenset[str]] = frozenset({"pc"})

    def emit(self, w: Writer) -> str:
        q = w.fresh("q")
        return f"[{w.alias('PC')}[{w.constant('player_counter', self.index)}][{q}] for {q} in {self.players.emit(w)}]"


# ---- card facts -----------------------------------------------------------------------------------------


@dataclass(eq=False)
class CardProp(Expr):
    """A printed property of a card (of no card: the property's default)."""

    index: int
    card: Expr
    type: str

    def emit(self, w: Writer) -> str:
        return f"{w.alias('P')}[{w.constant('prop', self.index)}][{w.some(self.card, 'the card of this property')}]"


@dataclass(eq=False)
class FaceUp(Expr):
    card: Expr
    type: ClassVar[str] = "bool"
    READS: ClassVar[frozenset[str]] = frozenset({"face"})

    def emit(self, w: Writer) -> str:
        return f"st.face[{w.some(self.card, 'the card')}]"


@dataclass(eq=False)
class Holder(Expr):
    """The player whose zone holds the card now (none for a shared zone)."""

    card: Expr
    type: ClassVar[str] = "player"
    READS: ClassVar[frozenset[str]] = frozenset({"zone_of"})

    def emit(self, w: Writer) -> str:
        return f"st.layout.zone_owner[st.zone_of[{w.some(self.card, 'the card')}]]"

    @property
    def maybe_none(self) -> bool:  # the holder of a card on the table
        return True


@dataclass(eq=False)
class CardCondition(Expr):
    """A card's answer to a declared condition (its own text, or the default)."""

    index: int
    card: Expr
    me: Expr
    type: ClassVar[str] = "bool"
    READS: ClassVar[frozenset[str]] = frozenset({"call"})

    def emit(self, w: Writer) -> str:
        c = self.card.emit(w)
        if self.card.maybe_none:  # worked out once, then asked
            condition = w.constant("condition", self.index)
            return f"ask_condition(CONDITIONS[{condition}], st, {self.me.emit(w)}, {w.some(self.card, 'the card')})"
        return f"CONDITIONS[{w.constant('condition', self.index)}][{w.alias('CD')}[{c}]](st, {self.me.emit(w)}, {c})"


# ---- arithmetic and logic ------------------------------------------------------------------------------


@dataclass(eq=False)
class Neg(Expr):
    value: Expr
    type: ClassVar[str] = "num"

    def emit(self, w: Writer) -> str:
        return f"(-{self.value.emit(w)})"


@dataclass(eq=False)
class Arith(Expr):
    """`+`, `-` or `*` of two numbers (division and remainder are Helpers: they check for zero)."""

    op: str
    left: Expr
    right: Expr
    type: ClassVar[str] = "num"

    def emit(self, w: Writer) -> str:
        return f"({self.left.emit(w)} {self.op} {self.right.emit(w)})"


@dataclass(eq=False)
class Compare(Expr):
    op: str
    left: Expr
    right: Expr
    type: ClassVar[str] = "bool"

    def emit(self, w: Writer) -> str:
        return f"({self.left.emit(w)} {self.op} {self.right.emit(w)})"


@dataclass(eq=False)
class IsSome(Expr):
    """A card or player that is not none (`negate`: that is none)."""

    value: Expr
    negate: bool = False
    type: ClassVar[str] = "bool"

    def emit(self, w: Writer) -> str:
        return f"({self.value.emit(w)} {'<' if self.negate else '>='} 0)"


@dataclass(eq=False)
class Logic(Expr):
    op: str  # and | or
    left: Expr
    right: Expr
    type: ClassVar[str] = "bool"

    def emit(self, w: Writer) -> str:
        return f"({self.left.emit(w)} {self.op} {self.right.emit(w)})"


@dataclass(eq=False)
class Cond(Expr):
    """`then if test else other` (only the branch taken is worked out)."""

    test: Expr
    then: Expr
    other: Expr
    type: str

    def emit(self, w: Writer) -> str:
        return f"({self.then.emit(w)} if {self.test.emit(w)} else {self.other.emit(w)})"

    @property
    def maybe_none(self) -> bool:
        return self.then.maybe_none or self.other.maybe_none


@dataclass(eq=False)
class Not(Expr):
    value: Expr
    type: ClassVar[str] = "bool"

    def emit(self, w: Writer) -> str:
        return f"(not {self.value.emit(w)})"


# ---- aggregates and calls ------------------------------------------------------------------------------


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
class Aggregate(Expr):
    """count/any/sum/max/min/highest/lowest/list over a pool, with `it` bound to `var` in `value`."""

    kind: str
    pool: Expr
    var: Var
    value: Expr
    type: str

    def emit(self, w: Writer) -> str:
        v, pool, value = w.ref(self.var), self.pool.emit(w), self.value.emit(w)
        if iterates(self.value, w.call_iterates) or not isinstance(self.pool, Filter | OwnedCards):
            # (a filter or the cards of several players charge as they are made)
            pool = charged(w, self.pool, pool, self.value, self.at)
        if isinstance(self.value, CardProp) and isinstance(self.value.card, Ref) and self.value.card.var is self.var \
                and self.kind in _OF_PROPERTY:
            # a property of each card (`sum(table, it.value)`): looked up by a C loop, no Python per card
            prop = f"{w.alias('P')}[{w.constant('prop', self.value.index)}].__getitem__"
            return _OF_PROPERTY[self.kind].format(mapped=f"map({prop}, {pool})", pool=pool, prop=prop)
        return _OF_VALUE.get(self.kind, _OF_VALUE["list"]).format(v=v, pool=pool, value=value)

    @property
    def maybe_none(self) -> bool:
        return self.type in _ONE


@dataclass(eq=False)
class FunctionCall(Expr):
    """A game function's value for a player (`chance`: working it out rolls or picks at random)."""

    pyname: str
    me: Expr
    args: list[Expr]
    type: str
    chance: bool = False
    READS: ClassVar[frozenset[str]] = frozenset({"call"})

    def children(self) -> list[Expr]:
        return [self.me, *self.args]

    def reads(self) -> frozenset[str]:
        return super().reads() | {"rng"} if self.chance else super().reads()

    def emit(self, w: Writer) -> str:
        return f"{self.pyname}(st, {', '.join(a.emit(w) for a in self.children())})"

    @property
    def maybe_none(self) -> bool:
        return self.type in _ONE


@dataclass(eq=False)
class Format(Expr):
    """A value rendered as text for a sentence of the log."""

    value: Expr
    type: ClassVar[str] = "str"

    def emit(self, w: Writer) -> str:
        return f"fmt(st, {self.value.type!r}, {self.value.emit(w)})"


@dataclass(eq=False)
class Text(Expr):
    """A sentence with `{…}` parts: the parts joined (`written`: the sentence as the text wrote it)."""

    parts: list[Expr]
    written: str = ""
    type: ClassVar[str] = "str"

    def children(self) -> list[Expr]:
        return list(self.parts)

    def emit(self, w: Writer) -> str:
        if not self.parts:
            return "''"
        return "''.join((" + ", ".join(p.emit(w) for p in self.parts) + ",))"


# What running a statement can do to a match, by itself (what the procedures it runs and the abilities it
# resolves do is added by lang/analysis.py). Each statement class declares its own in `effects`.
ASKS = "asks"  # asks a player something (the routine holding it is then a generator)
MOVES = "moves"  # takes cards from one place to another (a zone, or another place in the same zone)
REORDERS = "reorders"  # changes the order of a zone's cards in place
FLIPS = "flips"  # turns cards face up or face down where they lie
SHOWS = "shows"  # lets a player see cards
SAYS = "says"  # writes a sentence to the log
COUNTS = "counts"  # changes a counter (or the first player)
ENDS = "ends"  # ends the game or the deal
KNOCKS_OUT = "knocks_out"  # takes a player out of the match or the deal
EFFECTS = frozenset({ASKS, MOVES, REORDERS, FLIPS, SHOWS, SAYS, COUNTS, ENDS, KNOCKS_OUT})


@dataclass(eq=False)
class Stmt(Node):
    """A statement; its class is registered in statements.STATEMENTS under its grammar rule.

    `effects`: what running it can do to a match by itself (some of EFFECTS), declared by each statement
    class; `does()` gives them for one statement where they depend on its parts. `asks`: whether it can
    ask a player something."""

    effects: ClassVar[frozenset[str]] = frozenset()

    def does(self) -> frozenset[str]:
        """What running this statement can do to a match by itself (nested statements, procedures and
        abilities aside): its class's `effects`, unless the class says otherwise."""
        return self.effects

    @property
    def asks(self) -> bool:
        return ASKS in self.does()

    @classmethod
    def resolve(cls, r: Resolver, s: Tree, scope: Scope) -> Stmt:
        """The statement that the grammar rule `s` writes (each registered class defines it)."""
        raise NotImplementedError

    def blocks(self) -> list[list[Stmt]]:
        """The statement lists nested in this one (bodies, branches)."""
        return []

    def procedures(self) -> list[str]:
        """Names of the game procedures it runs (directly)."""
        return []

    def abilities(self) -> list[str]:
        """Names of the card abilities it resolves (directly)."""
        return []

    def sets(self) -> list[Var]:
        """The variables it sets (directly)."""
        return []

    def emit(self, w: Writer) -> None:
        raise NotImplementedError


def walk(body: list[Stmt]):
    """Every statement of a body, nested ones included."""
    for s in body:
        yield s
        for block in s.blocks():
            yield from walk(block)
