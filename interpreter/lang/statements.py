"""The statements of the DSL: one class per grammar rule, registered in one table (`STATEMENTS`).

Each class is a typed node of the intermediate form, plain data: its fields are the statement's typed parts,
and it says what running it can do to a match by itself (`effects`, some of `nodes.EFFECTS`: asks, moves,
reorders…; lang/analysis.py collects them over the program: a statement that asks makes its routine a
generator) and what it holds (`blocks`, `procedures`, `abilities`, `sets`). It is made from its grammar rule by
`Resolver.stmt_<rule>` (resolve_statements.py, stage 4) and written as Python by `CodeGenerator.visit_<Class>`
(compiler.py, stage 5). The compound statements (if, loops) are in blocks.py. How to add one:
docs/architecture.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from . import nodes as n

STATEMENTS: dict[str, type[n.Stmt]] = {}


def statement(rule: str):
    """Register the node class of one grammar rule (one statement, one class)."""

    def register(cls: type[n.Stmt]) -> type[n.Stmt]:
        assert rule not in STATEMENTS, f"statement {rule} registered twice"
        STATEMENTS[rule] = cls
        return cls

    return register


# ---- names and counters --------------------------------------------------------------------------------


@statement("let")
@dataclass(eq=False)
class Let(n.Stmt):
    var: n.Var
    value: n.Expr

    def sets(self) -> list[n.Var]:
        return [self.var]


# ---- what a choice offers (always a list of its own: the ask keeps it) ------------------------------------


@dataclass(eq=False)
class Options(n.Expr):
    """The members of `items`; with -1 ("none") first when the choice may be declined, or alone when
    there is nothing to choose (the player is asked all the same)."""

    items: n.Expr
    decline: bool = False
    type: ClassVar[str] = "list"


@dataclass(eq=False)
class FixedOptions(n.Expr):
    """Options known when the game is compiled (yes/no, texts)."""

    values: list
    type: ClassVar[str] = "list"


@dataclass(eq=False)
class GuardedOptions(n.Expr):
    """Texts offered only when their `if` holds (a test of None: always); -1 ("none") alone when
    none holds."""

    options: list[tuple[str, n.Expr | None]]
    type: ClassVar[str] = "list"

    def children(self) -> list[n.Expr]:
        return [t for _, t in self.options if t is not None]


@dataclass(eq=False)
class NumberRange(n.Expr):
    """The numbers from `low` to `high`; an empty range is a content bug (a number has no "none")."""

    low: n.Expr
    high: n.Expr
    type: ClassVar[str] = "list"



@dataclass(eq=False, frozen=True)
class Choice:
    """The parts of one choice: who, the options, how to label them."""

    who: n.Expr
    options: n.Expr
    kind: int
    prompt: str | n.Text | None  # a Text: a question with `{…}` parts, worked out when it is asked
    type: str
    count: n.Expr | None = None  # several cards: how many (asked one at a time)
    up_to: bool = False  # several cards: fewer may be chosen


@statement("let_choice")
@dataclass(eq=False)
class LetChoice(n.Stmt):
    """`let x = P chooses …`: asks a player (one card at a time when several are chosen)."""

    var: n.Var
    choice: Choice
    effects = frozenset({n.ASKS})

    def sets(self) -> list[n.Var]:
        return [self.var]


@statement("set")
@dataclass(eq=False)
class Assign(n.Stmt):
    """`set T to V` (and, through its subclasses, `add`/`subtract`): a counter kept at its floor."""

    target: n.Expr  # a Ref, a counter or the first player
    value: n.Expr
    floor: int | None = None
    effects = frozenset({n.COUNTS})

    def sets(self) -> list[n.Var]:
        return [self.target.var] if isinstance(self.target, n.Ref) else []


@statement("add")
class Add(Assign):
    """`add V to T`: the counter changed in place."""


@statement("subtract")
class Subtract(Assign):
    """`subtract V from T`."""


# ---- cards -----------------------------------------------------------------------------------------------

@statement("move")
@dataclass(eq=False)
class Move(n.Stmt):
    """`move CARDS to [PLACE of] ZONE [face up|down]`."""

    cards: n.Expr | None  # None: moved straight from `source` (`all Z`, `the top N cards of Z`)
    zone: n.Expr
    place: int | n.Expr  # 0 top, -1 bottom, -2 random, or a 0-based position
    facing: int
    source: n.Expr | None = None
    count: n.Expr | None = None  # of `source`: how many (-1 all)
    limit: int | None = None  # the destination's limit (-1: none), when the zone is named
    face_up: bool = True  # the destination's facing, when the zone is named
    effects = frozenset({n.MOVES})


@statement("shuffle")
@dataclass(eq=False)
class Shuffle(n.Stmt):
    zone: n.Expr
    effects = frozenset({n.REORDERS})


@statement("flip")
@dataclass(eq=False)
class Flip(n.Stmt):
    """`flip CARDS face up|down` (and `reveal CARDS`): turn cards where they lie."""

    cards: n.Expr
    up: bool
    effects = frozenset({n.FLIPS})


@statement("reveal")
class Reveal(Flip):
    """`reveal CARDS`: flipped face up."""


@statement("show")
@dataclass(eq=False)
class Show(n.Stmt):
    cards: n.Expr
    who: n.Expr
    effects = frozenset({n.SHOWS})


# ---- the log and the flow ---------------------------------------------------------------------------------


@statement("say")
@dataclass(eq=False)
class Say(n.Stmt):
    text: n.Text
    effects = frozenset({n.SAYS})


@statement("nothing")
@dataclass(eq=False)
class Nothing(n.Stmt):
    """`nothing`: a statement that does nothing."""


@statement("stop")
@dataclass(eq=False)
class Stop(n.Stmt):
    """`stop`: ends the innermost loop of its text."""


@statement("end_game")
@dataclass(eq=False)
class EndGame(n.Stmt):
    winners: n.Expr | None  # a player or players; None: rank by score
    effects = frozenset({n.ENDS})


@statement("end_deal")
@dataclass(eq=False)
class EndDeal(n.Stmt):
    """`end the deal`: the current deal's rounds end now; the flow goes on with `after_deal`."""

    effects = frozenset({n.ENDS})


@statement("knock_out")
@dataclass(eq=False)
class KnockOut(n.Stmt):
    """`knock out P [for the deal]`: P takes no more turns and leaves every list of players, for the
    rest of the match (or of the deal); when one player is left in, the deal ends."""

    who: n.Expr
    for_deal: bool
    effects = frozenset({n.KNOCKS_OUT})


@statement("call")
@dataclass(eq=False)
class Call(n.Stmt):
    """`VERB args`, `P VERBs args`, `each player VERBs args`: run a game procedure."""

    proc: str
    args: list[n.Expr]
    who: n.Expr  # the player it runs for; with `each`, the pool of players
    each: bool = False

    def procedures(self) -> list[str]:
        return [self.proc]


@statement("resolve")
@dataclass(eq=False)
class Resolve(n.Stmt):
    """`resolve ABILITY of CARD`: run that card's version of the ability (nothing if it has none)."""

    ability: str
    index: int
    card: n.Expr
    me: n.Expr

    def abilities(self) -> list[str]:
        return [self.ability]
