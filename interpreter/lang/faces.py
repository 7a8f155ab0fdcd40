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
conditions are looked at the same way (`UNTIL`)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass

from . import nodes as n
from .program import Program, Routine
from .statements import Move

RANDOM_PLACE = -2  # `Move.place`: at a random position of the zone

UNTIL = ("rounds_until", "deals_until")  # the flow's conditions, worked out as it goes (routines' pynames)


def reading_faces(program: Program) -> frozenset[str]:
    """The pynames of the phases (`phase_NAME`) and flow conditions (`UNTIL`) that may read a card's face (or draw
    chance other than a shuffle), directly or through the procedures and game functions they reach (a fixpoint
    over those calls)."""
    functions = {r.pyname: r for r in program.functions.values()}
    reads: dict[int, bool] = {}  # routine id → whether it may read a face (False while being looked at)

    def routine_reads(r: Routine) -> bool:
        if id(r) not in reads:
            reads[id(r)] = False  # a routine reaching itself adds nothing new on the way round
            reads[id(r)] = _reads(r, functions, program.procedures, routine_reads)
        return reads[id(r)]

    named = [*(r for r in program.phases.values()), *(r for r in program.extras if r.pyname in UNTIL)]
    return frozenset(r.pyname for r in named if routine_reads(r))


def _reads(r: Routine, functions: dict[str, Routine], procedures: dict[str, Routine], routine_reads) -> bool:
    """Whether routine `r` itself, or one it calls, may read a card's face."""
    calls: list[Routine] = []
    parts: list[object] = []
    if r.value is not None:
        parts.append(r.value)
    for s in n.walk(r.body or []):
        if s.abilities() or (isinstance(s, Move) and s.place == RANDOM_PLACE):
            return True  # which version of an ability runs is the card's; a random place is chance
        calls += [procedures[p] for p in s.procedures() if p in procedures]
        parts += [getattr(s, f.name) for f in fields(s)]
    for part in parts:
        if _face_read(part, functions, calls):
            return True
    return any(routine_reads(c) for c in calls)


def _face_read(value: object, functions: dict[str, Routine], calls: list[Routine]) -> bool:
    """Whether an expression (or a statement's part holding some: a choice, a list, a pair) reads a face;
    the game functions it calls are added to `calls`."""
    if isinstance(value, n.Stmt | n.Var):
        return False  # a nested statement is walked on its own
    if isinstance(value, n.Expr):
        if isinstance(value, n.CardProp | n.CardCondition) or (isinstance(value, n.Helper) and value.chance):
            return True
        if isinstance(value, n.Format) and value.value.type in ("card", "cards"):
            return True
        if isinstance(value, n.FunctionCall) and value.pyname in functions:
            calls.append(functions[value.pyname])
    if isinstance(value, list | tuple):
        return any(_face_read(v, functions, calls) for v in value)
    if is_dataclass(value) and not isinstance(value, type):  # every part, lists of parts too
        return any(_face_read(getattr(value, f.name), functions, calls) for f in fields(value) if f.name != "at")
    return False
