"""The typed intermediate form's base (see the package): a bound name (`Var`), a node with its DSL type and YAML
place (`Node`, `Expr`), a statement (`Stmt`) and what running one can do to a match (`EFFECTS`), and the walks
and freezing every stage uses."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ...diagnostics import Pos

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
