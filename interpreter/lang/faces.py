"""Whole-program fact: which phases may read a card's face — what makes a match go one way or another
depending on which card lies where, beyond places, counts and which way up the cards lie.

A determinization can skip playing a world again when, so far, no rule looked at which card is which among
cards some seat cannot see (see `interpreter.run.free_worlds`): the match, with those cards given to each
other's places, is then a match of its own that goes the same way. This is the analysis it stands on,
made once when the game is compiled: a phase *may read a face* when it, or a procedure or game function
it reaches, holds

- a card's property (`c.suit`, and every test, filter, sort key or sum built on one),
- a card's declared condition, or resolves a card's ability (each card has its own version),
- a card, or a list of cards, put into words (`say "{c}"`, a question naming a card);
- or draws chance other than a shuffle (a roll, a random card or player, a random place): an outcome such a
  world would have to draw again (which card a random pick took is itself hidden).

Which zone the card lies in is not looked at: a property of a public card counts too (over-counting
keeps a determinization sound; it only plays the world again where it need not). The flow's `until`
conditions are looked at the same way (`UNTIL`).

`reading_zones` narrows this down to zones: the zones whose cards those phases may reach at all (a card a rule
reads the face of comes out of a zone the rule names), leaving out the zones they name only to take cards by
place (`move the top card of deck to table`, `shuffle deck`, `count(deck)`): a card that never lay in one of
those zones had its face read by no rule (see `interpreter.run.belief`, which exchanges two such cards in a
world without playing it again). `reading_props` narrows it down to properties: what those phases read of a card
lying in each zone (two cards alike in it are the same to every rule there)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import TypeGuard

from . import nodes as n
from .compiled import ANY_ZONE
from .program import Program, Routine
from .statements import Flip, Move, Show, Shuffle

RANDOM_PLACE = -2  # `Move.place`: at a random position of the zone

UNTIL = ("rounds_until", "deals_until")  # the flow's conditions, worked out as it goes (routines' pynames)


def reading_faces(program: Program) -> frozenset[str]:
    """The pynames of the phases (`phase_NAME`) and flow conditions (`UNTIL`) that may read a card's face (or draw
    chance other than a shuffle), directly or through the procedures and game functions they reach (a fixpoint
    over those calls)."""
    routine_reads = _reaching(program, _chance_or_ability, _reads_face)
    named = [*(r for r in program.phases.values()), *(r for r in program.extras if r.pyname in UNTIL)]
    return frozenset(r.pyname for r in named if routine_reads(r))


def drawing_chance(program: Program) -> frozenset[str]:
    """The names of the phases, and the pynames of the flow conditions (`UNTIL`), that may draw chance: shuffle, roll,
    pick a random card or player, put a card at a random place, or resolve a card's ability or condition (their
    versions are the cards', and may draw), directly or through the procedures and game functions they reach. Where
    none that can run after an answer may, the rest of an answer's flow draws nothing: a world being drawn may stop an
    option that parted at its first differing line (`run/belief/answers.py`, `Game.chance_after_answers`)."""
    routine_draws = _reaching(program, lambda s: isinstance(s, Shuffle) or _chance_or_ability(s), _draws_chance)
    return frozenset([*(name for name, r in program.phases.items() if routine_draws(r)),
                      *(r.pyname for r in program.extras if r.pyname in UNTIL and routine_draws(r))])


def _chance_or_ability(s: n.Stmt) -> bool:
    """A statement that resolves a card's ability (which version runs is the card's) or puts a card at a random place
    (chance)."""
    return bool(s.abilities()) or (isinstance(s, Move) and s.place == RANDOM_PLACE)


def _reads_face(e: n.Expr) -> bool:
    """An expression that reads a card's face: a property, a condition, cards put into words, or chance other than a
    shuffle."""
    return isinstance(e, n.CardProp | n.CardCondition) or (isinstance(e, n.Helper) and e.chance) or _writes_cards(e)


def _draws_chance(e: object) -> bool:
    """An expression that may draw chance (a card's condition counts: each card has its own)."""
    return isinstance(e, n.CardCondition) or (isinstance(e, n.Helper | n.FunctionCall) and e.chance)


def _reaching(program: Program, statement: Callable[[n.Stmt], object], expression: Callable[[n.Expr], object]
              ) -> Callable[[Routine], bool]:
    """Whether a routine holds a statement or an expression the two tests hold of, itself or through the procedures
    and game functions it reaches (a fixpoint over those calls, each routine looked at once)."""
    functions = {r.pyname: r for r in program.functions.values()}
    found: dict[int, bool] = {}  # routine id → whether it holds one (False while being looked at)

    def routine_holds(r: Routine) -> bool:
        if id(r) not in found:
            found[id(r)] = False  # a routine reaching itself adds nothing new on the way round
            found[id(r)] = _holds(r, functions, program.procedures, routine_holds, statement, expression)
        return found[id(r)]

    return routine_holds


def _holds(r: Routine, functions: dict[str, Routine], procedures: dict[str, Routine], routine_holds,
           statement: Callable[[n.Stmt], object], expression: Callable[[n.Expr], object]) -> bool:
    """Whether routine `r` itself, or one it calls, holds what the tests look for (see `_reaching`)."""
    calls: list[Routine] = []
    parts: list[object] = []
    if r.value is not None:
        parts.append(r.value)
    for s in n.walk(r.body or []):
        if statement(s):
            return True
        calls += [procedures[p] for p in s.procedures() if p in procedures]
        parts += [getattr(s, f.name) for f in fields(s)]
    for part in parts:
        if _expression_holds(part, functions, calls, expression):
            return True
    return any(routine_holds(c) for c in calls)


def _expression_holds(value: object, functions: dict[str, Routine], calls: list[Routine],
                      expression: Callable[[n.Expr], object]) -> bool:
    """Whether an expression (or a statement's part holding some: a choice, a list, a pair) holds one the test holds
    of; the game functions it calls are added to `calls`."""
    if isinstance(value, n.Stmt | n.Var):
        return False  # a nested statement is walked on its own
    if isinstance(value, n.Expr):
        if expression(value):
            return True
        if isinstance(value, n.FunctionCall) and value.pyname in functions:
            calls.append(functions[value.pyname])
    if isinstance(value, list | tuple):
        return any(_expression_holds(v, functions, calls, expression) for v in value)
    if is_dataclass(value) and not isinstance(value, type):  # every part, lists of parts too
        return any(_expression_holds(getattr(value, f.name), functions, calls, expression)
                   for f in fields(value) if f.name != "at")
    return False


def _writes_cards(value: object) -> TypeGuard[n.Format]:
    """Whether `value` puts cards into words (by name: a card, cards, a zone, or a list holding some)."""
    return isinstance(value, n.Format) and n.innermost_type(value.value.type) in ("card", "cards", "zone")


# a statement's parts that take a zone's cards by place only (a zone named there is not reached by a face read)
_BY_PLACE: dict[type, tuple[str, ...]] = {Move: ("cards", "source", "zone"), Shuffle: ("zone",), Flip: ("cards",),
                                          Show: ("cards",)}


class _AnyZone(Exception):
    """A zone named by a value (a zone variable, a card named by its id): any zone may be reached."""


def reading_zones(program: Program) -> frozenset[str] | None:
    """The names of the zones (a player zone's own name, for every player) whose cards the phases and flow
    conditions that may read a face (`reading_faces`), or what they run (procedures, game functions, every card's
    version of an ability they resolve, the cards' conditions), name other than to take cards by place; None where
    one of them may reach any zone (a zone or card held in a variable of its own type, a card named by its id)."""
    reach = _reached(program)
    return None if reach is None else frozenset(reach.names)


def _reached(program: Program, each: Callable[[Routine], None] | None = None) -> _Reach | None:
    """The zones named by the phases and flow conditions that may read a face and by what they run (see
    `reading_zones`), each routine walked once (and given to `each`); None where one of them may reach any zone."""
    readers = reading_faces(program)
    reach = _Reach(program)
    todo = [r for r in (*program.phases.values(), *program.extras) if r.pyname in readers]
    done: set[int] = set()
    try:
        while todo:
            r = todo.pop()
            if id(r) not in done:
                done.add(id(r))
                todo += reach.routine(r)
                if each is not None:
                    each(r)
    except _AnyZone:
        return None
    return reach


class _Reach:
    """The zones named so far (`names`) by the routines walked, and what each runs (see `reading_zones`)."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.functions = {r.pyname: r for r in program.functions.values()}
        self.names: set[str] = set()
        self.calls: list[Routine] = []

    def routine(self, r: Routine) -> list[Routine]:
        """Add the zones routine `r` names other than by place; returns the routines it runs."""
        self.calls = []
        program = self.program
        if r.value is not None:
            self.named(r.value)
        for s in n.walk(r.body or []):
            self.calls += [program.procedures[p] for p in s.procedures() if p in program.procedures]
            self.calls += [v for a in s.abilities() for v in program.abilities.get(a, ())]
            by_place = _BY_PLACE.get(type(s), ())
            if isinstance(s, Move) and s.place == RANDOM_PLACE:
                by_place = ("cards", "source")  # a card put at a random place: the zone's order is chance's
            for f in fields(s):
                part = getattr(s, f.name)
                zone = _by_place(part) if f.name in by_place else None
                self.named(part if zone is None else zone.who if isinstance(zone, n.PlayerZone) else None)
        return self.calls

    def named(self, value: object) -> None:
        """Add the zones an expression (or a statement's part holding some) names, but those it only takes cards
        of by place, counts or tests for a card (`count(Z)`, `Z` is not empty); note the game functions and card
        conditions it calls."""
        if isinstance(value, n.Stmt | n.Var) or value is None:
            return  # a nested statement is walked on its own
        if isinstance(value, n.GameZone | n.PlayerZone):
            self.names.add(value.name)
            self.named(value.who if isinstance(value, n.PlayerZone) else None)
            return
        if isinstance(value, n.Expr):
            self.expression(value)
        if isinstance(value, list | tuple):
            for v in value:
                self.named(v)
        elif is_dataclass(value) and not isinstance(value, type) and \
                not (isinstance(value, n.Length | n.IsSome) and _counted(value) is not None):
            for f in fields(value):
                if f.name != "at":
                    self.named(getattr(value, f.name))

    def expression(self, value: n.Expr) -> None:
        """What an expression itself tells (`_AnyZone` where it may reach any zone): the calls it makes, and for a
        count or test of a zone's cards, the player whose zone it is."""
        if getattr(value, "type", None) == "zone" or \
                (isinstance(value, n.Const) and value.type in ("card", "cards") and value.value not in (-1, None, [])):
            raise _AnyZone
        if isinstance(value, n.FunctionCall) and value.pyname in self.functions:
            self.calls.append(self.functions[value.pyname])
        elif isinstance(value, n.CardCondition):
            self.calls += self.program.conditions
        counted = _counted(value)
        if isinstance(counted, n.PlayerZone):
            self.named(counted.who)


def _counted(value: n.Expr) -> n.GameZone | n.PlayerZone | None:
    """The zone whose cards `value` only counts or tests for one (`count(Z)`, `the top card of Z` is some)."""
    if isinstance(value, n.Length):
        return _by_place(value.items)
    return _by_place(value.value) if isinstance(value, n.IsSome) else None


def _by_place(value: object) -> n.GameZone | n.PlayerZone | None:
    """The zone whose cards `value` takes by place only (`Z`, `all Z`, `the top card of Z`), else None."""
    while isinstance(value, n.FirstCard | n.Copy | n.ZoneCards):
        value = value.cards if isinstance(value, n.FirstCard) else \
            value.items if isinstance(value, n.Copy) else value.zone
    return value if isinstance(value, n.GameZone | n.PlayerZone) else None


ANY = ANY_ZONE  # `reading_props`: what a rule reads of a card wherever it lies (a card held in a variable)


def reading_props(program: Program) -> dict[str, tuple[tuple[int, frozenset | None], ...] | None]:
    """What the rules that may read a face (`reading_faces`, and what they run, as `reading_zones` walks them) read of
    a card lying in each zone they name: zone name (`ANY`: wherever it lies) -> the properties read there, each as
    (its index, the values it is only compared with for equality, `it.id == "2-clubs"`, or None: its value), or None
    where more may be read (its every property: a card put into words, its condition or ability, chance). Two cards
    alike in what is read of them in a zone are the same to every rule while they lie there (see `interpreter.run.
    belief`, which exchanges two such cards in a world without playing it again)."""
    props = _Props()
    return {ANY: None} if _reached(program, props.routine) is None else props.read()


class _Props:
    """The properties read per zone so far (see `reading_props`)."""

    def __init__(self) -> None:
        self.values: dict[str, dict[int, frozenset | None]] = {}
        self.whole: set[str] = set()  # the zones where a card's every property may be read

    def read(self) -> dict[str, tuple[tuple[int, frozenset | None], ...] | None]:
        zones = sorted({*self.values, *self.whole})  # (in one order in every process: the compiled game is cached)
        return {z: None if z in self.whole or ANY in self.whole else tuple(sorted(self.values.get(z, {}).items()))
                for z in zones}

    def routine(self, r: Routine) -> None:
        if r.value is not None:
            self.visit(r.value, {})
        for s in n.walk(r.body or []):
            if _chance_or_ability(s):
                self.whole.add(ANY)
            for f in fields(s):
                self.visit(getattr(s, f.name), {})

    def note(self, prop: n.CardProp, values: frozenset | None, bound: dict) -> None:
        for z in _zones(prop.card, bound) or (ANY,):
            read = self.values.setdefault(z, {})
            was = read.get(prop.index, frozenset())
            read[prop.index] = None if values is None or was is None else was | values

    def visit(self, value: object, bound: dict) -> None:
        """Note what an expression (or a statement's part holding some) reads of a card (`bound`: the zones the cards a
        name stands for lie in, `it` of a filter over a zone's cards)."""
        if isinstance(value, n.Stmt | n.Var) or value is None:
            return
        if isinstance(value, list | tuple):
            for v in value:
                self.visit(v, bound)
            return
        if not is_dataclass(value) or isinstance(value, type) or self.expression(value, bound):
            return
        for f in fields(value):
            if f.name not in ("at", "var"):
                self.visit(getattr(value, f.name), bound)

    def expression(self, value: object, bound: dict) -> bool:
        """Note what `value` itself reads of a card; whether its parts are all looked at already."""
        if isinstance(value, n.CardProp):
            self.note(value, None, bound)
        elif isinstance(value, n.Compare) and value.op in ("==", "!="):
            for prop, other in ((value.left, value.right), (value.right, value.left)):
                if isinstance(prop, n.CardProp) and isinstance(other, n.Const) and other.type in ("str", "num"):
                    self.note(prop, frozenset({other.value}), bound)
                    self.visit(prop.card, bound)
                    return True
        elif _draws_chance(value):  # (a card's condition or chance: what it reads is the card's, or hidden)
            self.whole.add(ANY)
        elif _writes_cards(value):
            self.whole.update(_zones(value.value, bound) or (ANY,))
        elif isinstance(value, n.Filter | n.Aggregate | n.Groups):
            pool = value.base if isinstance(value, n.Filter) else value.pool
            self.visit(pool, bound)
            self.visit(value.test if isinstance(value, n.Filter) else value.value if isinstance(value, n.Aggregate)
                       else value.key, {**bound, value.var: _zones(pool, bound)})
            return True
        return False


def _zones(value: object, bound: dict) -> frozenset[str] | None:
    """The zones the cards of `value` lie in, where it tells (a zone's cards, filtered, copied, their first), else
    None."""
    if isinstance(value, n.GameZone | n.PlayerZone):
        return frozenset({value.name})
    if isinstance(value, n.ZoneCards):
        return _zones(value.zone, bound)
    if isinstance(value, n.OwnedCards):
        return _zones(value.zone, bound)
    if isinstance(value, n.Filter):
        return _zones(value.base, bound)
    if isinstance(value, n.Copy | n.FirstCard):
        return _zones(value.items if isinstance(value, n.Copy) else value.cards, bound)
    if isinstance(value, n.Concat):
        left, right = _zones(value.left, bound), _zones(value.right, bound)
        return None if left is None or right is None else left | right
    if isinstance(value, n.Ref):
        return bound.get(value.var)
    return None

