"""The typed intermediate form: what name/type resolution hands to simplification and code generation.

Nodes are data (as jinja2's nodes.py): every node carries its DSL type and the place in the YAML it came from
(`at`), and answers the questions code generation asks of it (is it a literal, a local, which parts of the
state it reads), so that no decision is ever made by looking at emitted text. They know nothing of how they
are resolved (resolve.py, expressions.py) nor written (compiler.py, write_expressions.py). Statement nodes live
in `statements.py` and `blocks.py`, one class per statement.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..diagnostics import Pos

# Parts of a match's state an expression may read. A value reading none of MUTABLE is the same
# whenever it is computed within one statement (it only depends on locals and constants).
MUTABLE = frozenset({"zones", "gc", "pc", "face", "known", "zone_of", "round", "turn", "first", "active", "rng",
                     "call", "deal", "out"})


@dataclass(eq=False, frozen=True)
class Var:
    """A name bound in a DSL text: `me`, `this`, a parameter, a `let`, a loop variable or `it`.

    Its Python name is chosen by the code writer (the same body inlined twice gets fresh names)."""

    name: str
    kind: str  # me | this | param | let | loop | it
    type: str


class Writes(Protocol):
    """What a node asks of the code writer that writes it (compiler.CodeGenerator is one)."""

    def expr(self, node: Expr) -> str: ...


@dataclass(eq=False)
class Node:
    """A typed node: made and completed by the resolver, then frozen (`freeze`); a later stage that wants another
    node makes a new one (`dataclasses.replace`)."""

    at: Pos | None = field(default=None, kw_only=True)
    frozen: ClassVar[bool] = False  # set on each node by `freeze`

    def __setattr__(self, name: str, value: Any) -> None:
        if self.frozen:
            raise AttributeError(f"a {type(self).__name__} is frozen once resolved: make a new node, not `.{name} =`")
        object.__setattr__(self, name, value)


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

    def emit(self, w: Writes) -> str:
        """Its Python code, written by `w` (what a statement class that writes itself calls for its parts)."""
        return w.expr(self)

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


# ---- leaves -----------------------------------------------------------------------------------------


@dataclass(eq=False)
class Const(Expr):
    """A literal: number, text, yes/no, or none (-1)."""

    value: Any
    type: str

    @property
    def cheap(self) -> bool:
        return True

    @property
    def maybe_none(self) -> bool:
        return self.value == -1 and self.type in _ONE


_ONE = ("card", "player", "none")  # the types of one card or one player


def list_of(each: str) -> str:
    """The type of a list of values of type `each` (`list:card`): a list's type says what it holds, so that it is
    written as its values are (a card by its name), and two lists of different things are told apart."""
    return "list:" + each


def innermost_type(typ: str) -> str:
    """What a list type holds, lists looked into (`list:list:card`: `card`); any other type as it is."""
    while typ.startswith("list:"):
        typ = typ[len("list:"):]
    return typ


@dataclass(eq=False)
class Ref(Expr):
    """The value of a local name (me, this, a parameter, a let, a loop variable, it)."""

    var: Var
    type: str

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

    def reads(self) -> frozenset[str]:
        return frozenset({self.field})


@dataclass(eq=False)
class PlayerCount(Expr):
    """How many players are still in (`players` where a number is wanted)."""

    type: ClassVar[str] = "num"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})


# The seat tables (`st.orders`, `st.others`, `st.after`, `st.before`) leave out the players knocked out;
# they are built once per set of knocked-out seats (model.Setup.seats), so reading them costs an index.


@dataclass(eq=False)
class AllPlayers(Expr):
    """Every player still in, in turn order from the first player."""

    type: ClassVar[str] = "players"
    READS: ClassVar[frozenset[str]] = frozenset({"first", "out"})


@dataclass(eq=False)
class Opponents(Expr):
    """Every other player still in, in turn order from the one after `who`."""

    who: Expr
    type: ClassVar[str] = "players"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})


@dataclass(eq=False)
class SeatsFrom(Expr):
    """Every player still in, in turn order, starting with `who` (or the next one still in)."""

    who: Expr
    type: ClassVar[str] = "players"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})


@dataclass(eq=False)
class Neighbour(Expr):
    """The next (`step` 1) or previous (-1) player still in around the table from `who`."""

    who: Expr
    step: int
    type: ClassVar[str] = "player"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})


@dataclass(eq=False)
class IsOut(Expr):
    """`P is out`: the player is knocked out (of the deal or the match); none is not out."""

    who: Expr
    type: ClassVar[str] = "bool"
    READS: ClassVar[frozenset[str]] = frozenset({"out"})


@dataclass(eq=False)
class GameCounter(Expr):
    index: int
    type: str
    READS: ClassVar[frozenset[str]] = frozenset({"gc"})

    @property
    def maybe_none(self) -> bool:
        return self.type == "player"


@dataclass(eq=False)
class PlayerCounter(Expr):
    index: int
    who: Expr
    type: str
    READS: ClassVar[frozenset[str]] = frozenset({"pc"})

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

    @property
    def cheap(self) -> bool:
        return self.who.cheap


@dataclass(eq=False)
class Retyped(Expr):
    """A value seen as another type: yes/no as a number, a seat as a number, `any` as what is wanted."""

    value: Expr
    type: str

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


@dataclass(eq=False)
class Filter(Expr):
    """`cards where …` / `players where …`: the members for which `test` holds (`it` is `var`)."""

    base: Expr
    var: Var
    test: Expr
    type: str
    FRESH: ClassVar[bool] = True


def iterates(value: Expr, calls: Callable[[Expr], bool] | None = None) -> bool:
    """Whether working out `value` runs over a list or calls what may (`calls(call)`: whether the game
    function or the cards' condition it calls does; without it, any may)."""
    if isinstance(value, Aggregate | Filter | OwnedCards | Groups | Firsts):
        return True
    if isinstance(value, FunctionCall | CardCondition) and (calls is None or calls(value)):
        return True
    return any(iterates(c, calls) for c in value.children())


def nests(value: Expr) -> bool:
    """Whether working out `value` runs over a list for each element of another (always charged)."""
    each = value.value if isinstance(value, Aggregate) else value.test if isinstance(value, Filter) \
        else value.key if isinstance(value, Groups) else None
    if each is not None and iterates(each):
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
        if isinstance(node, Filter | Aggregate | Groups):
            pool = node.base if isinstance(node, Filter) else node.pool
            if isinstance(pool, ZoneCards) and pool.zone.cheap:
                found.append((pool, node.at))
            elif not (isinstance(node, Aggregate | Groups) and isinstance(pool, Filter)):  # (that filter is counted)
                return None
    return found


def needs_some(value: Expr) -> bool:
    """Does working out `value` need a card or a player that may be none (`c.value` of a name that may be none,
    `hand of p`…): a rule failure where it is none."""
    for name in ("card", "who"):
        needed = getattr(value, name, None)
        if isinstance(needed, Expr) and needed.maybe_none:
            return True
    return any(needs_some(c) for c in value.children())


def nonempty_test(test: Compare) -> tuple[Filter, bool] | None:
    """(the filter, whether the test is that it is empty) of `count(CARDS where COND) > 0`, `== 0`, `!= 0`,
    `>= 1`, `< 1` (what `any(CARDS where COND)` is): a test that may stop at the first member found, when
    testing a member cannot fail (so stopping early changes nothing but the work); else None."""
    left, right = test.left, test.right
    if not (isinstance(left, Length) and isinstance(left.items, Filter) and isinstance(right, Const)):
        return None
    empty = {(">", 0): False, ("!=", 0): False, (">=", 1): False, ("==", 0): True, ("<", 1): True,
             ("<=", 0): True}.get((test.op, right.value))
    f = left.items
    if empty is None or f.test.risky or needs_some(f.test):
        return None
    return f, empty


def _walk(value: Expr) -> list[Expr]:
    return [value, *(d for c in value.children() for d in _walk(c))]


def bounded(pool: Expr) -> bool:
    """A list of cards no longer than the game has cards (each card at most once)."""
    return isinstance(pool, ZoneCards | OwnedCards | Single) or \
        (isinstance(pool, Filter | Copy) and bounded(pool.base if isinstance(pool, Filter) else pool.items))


def _mentions(value: Expr, var: Var) -> bool:
    return (isinstance(value, Ref) and value.var is var) or any(_mentions(c, var) for c in value.children())


def property_equals(f: Filter) -> tuple[int, Expr] | None:
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
class Groups(Expr):
    """`groups(CARDS, VALUE)`: the cards split by their value of `key` (`it` is `var`), a list a value, in the
    order of each value's first card, the cards of a group in the pool's order; made in one pass."""

    pool: Expr
    var: Var
    key: Expr
    type: ClassVar[str] = "groups"
    FRESH: ClassVar[bool] = True


@dataclass(eq=False)
class Firsts(Expr):
    """`firsts(GROUPS)`: the first card of each group, in the groups' order."""

    groups: Expr
    type: ClassVar[str] = "cards"
    FRESH: ClassVar[bool] = True


@dataclass(eq=False)
class FirstCard(Expr):
    """The first card of a list, or none."""

    cards: Expr
    type: ClassVar[str] = "card"

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


@dataclass(eq=False)
class Copy(Expr):
    """A fresh list of the members of `items` (`all …`)."""

    items: Expr
    type: str
    FRESH: ClassVar[bool] = True


@dataclass(eq=False)
class Single(Expr):
    """A list of one card or one player."""

    item: Expr
    type: str
    FRESH: ClassVar[bool] = True


@dataclass(eq=False)
class Concat(Expr):
    left: Expr
    right: Expr
    type: ClassVar[str] = "cards"
    FRESH: ClassVar[bool] = True


@dataclass(eq=False)
class Length(Expr):
    items: Expr
    type: ClassVar[str] = "num"


@dataclass(eq=False)
class OwnedCards(Expr):
    """`hand of opponents`: the cards of one zone of each of several players, in player order."""

    zone: PlayerZone  # its `who` is `var`
    var: Var
    players: Expr
    type: ClassVar[str] = "cards"
    FRESH: ClassVar[bool] = True
    READS: ClassVar[frozenset[str]] = frozenset({"zones"})


@dataclass(eq=False)
class OwnedCounters(Expr):
    """`bonus of players`: one player counter's value for each of several players (a list of the counter's type)."""

    index: int
    players: Expr
    type: str
    READS: ClassVar[frozenset[str]] = frozenset({"pc"})


# ---- card facts -----------------------------------------------------------------------------------------


@dataclass(eq=False)
class CardProp(Expr):
    """A printed property of a card (of no card: the property's default)."""

    index: int
    card: Expr
    type: str


@dataclass(eq=False)
class FaceUp(Expr):
    card: Expr
    type: ClassVar[str] = "bool"
    READS: ClassVar[frozenset[str]] = frozenset({"face"})


@dataclass(eq=False)
class Holder(Expr):
    """The player whose zone holds the card now (none for a shared zone)."""

    card: Expr
    type: ClassVar[str] = "player"
    READS: ClassVar[frozenset[str]] = frozenset({"zone_of"})

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


# ---- arithmetic and logic ------------------------------------------------------------------------------


@dataclass(eq=False)
class Neg(Expr):
    value: Expr
    type: ClassVar[str] = "num"


@dataclass(eq=False)
class Arith(Expr):
    """`+`, `-` or `*` of two numbers (division and remainder are Helpers: they check for zero)."""

    op: str
    left: Expr
    right: Expr
    type: ClassVar[str] = "num"


@dataclass(eq=False)
class Compare(Expr):
    op: str
    left: Expr
    right: Expr
    type: ClassVar[str] = "bool"


@dataclass(eq=False)
class IsSome(Expr):
    """A card or player that is not none (`negate`: that is none)."""

    value: Expr
    negate: bool = False
    type: ClassVar[str] = "bool"


@dataclass(eq=False)
class Logic(Expr):
    op: str  # and | or
    left: Expr
    right: Expr
    type: ClassVar[str] = "bool"


@dataclass(eq=False)
class Cond(Expr):
    """`then if test else other` (only the branch taken is worked out)."""

    test: Expr
    then: Expr
    other: Expr
    type: str

    @property
    def maybe_none(self) -> bool:
        return self.then.maybe_none or self.other.maybe_none


@dataclass(eq=False)
class Not(Expr):
    value: Expr
    type: ClassVar[str] = "bool"


# ---- aggregates and calls ------------------------------------------------------------------------------


@dataclass(eq=False)
class Aggregate(Expr):
    """count/any/sum/max/min/highest/lowest/list over a pool, with `it` bound to `var` in `value`."""

    kind: str
    pool: Expr
    var: Var
    value: Expr
    type: str

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

    @property
    def maybe_none(self) -> bool:
        return self.type in _ONE


@dataclass(eq=False)
class Format(Expr):
    """A value rendered as text for a sentence of the log."""

    value: Expr
    type: ClassVar[str] = "str"


@dataclass(eq=False)
class Text(Expr):
    """A sentence with `{…}` parts: the parts joined (`written`: the sentence as the text wrote it)."""

    parts: list[Expr]
    written: str = ""
    type: ClassVar[str] = "str"

    def children(self) -> list[Expr]:
        return list(self.parts)


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


def freeze(value: Any) -> None:
    """Freeze every node in `value` (a node, or a list, tuple or dataclass holding nodes), nested ones too."""
    if isinstance(value, Node):
        if value.frozen:
            return
        object.__setattr__(value, "frozen", True)
    if isinstance(value, list | tuple):
        for v in value:
            freeze(v)
    elif is_dataclass(value) and not isinstance(value, type | Var):
        for name in _field_names(value.__class__):
            freeze(getattr(value, name))


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    """The names of a dataclass's fields (`dataclasses.fields` works them out afresh at each call)."""
    return tuple(f.name for f in fields(cls))


def walk(body: list[Stmt]):
    """Every statement of a body, nested ones included."""
    for s in body:
        yield s
        for block in s.blocks():
            yield from walk(block)
