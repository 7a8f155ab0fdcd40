"""Whole-program facts: the order of functions, what each routine can do to a match (the effects its
statements declare, through the procedures it runs and the abilities it resolves), which routines ask a
player (and so are generators), and which procedures are recursive (and so are called, not inlined)."""

from __future__ import annotations

from dataclasses import dataclass, field

from lark import Token

from ..diagnostics import Diagnostic
from . import nodes as n
from .program import Program, Routine


def function_order(program: Program) -> list[Routine]:
    """The game's functions ordered so that each comes after those it uses (their result types are
    then known when it is resolved); a function that depends on itself is reported."""
    functions = program.functions
    uses = {name: {str(t) for t in r.tree.scan_values(lambda v: isinstance(v, Token))} & set(functions)
            if r.tree is not None else set() for name, r in functions.items()}
    done: list[str] = []
    state: dict[str, int] = {}  # 1 being visited, 2 placed
    cycle: list[Routine] = []

    def visit(name: str) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            cycle.append(functions[name])
            return
        state[name] = 1
        for used in sorted(uses[name]):
            visit(used)
        state[name] = 2
        done.append(name)

    for name in functions:
        visit(name)
    if cycle:
        program.errors.append(Diagnostic(cycle[0].at.shifted(1, 1), f"function `{cycle[0].label}` depends on itself",
                                         "a function's value may not need its own value"))
    return [functions[name] for name in done]


@dataclass
class Plan:
    """What analysis found: what each routine can do to a match, the routines that ask, and the
    procedures that reach themselves."""

    asking: set[Routine] = field(default_factory=set)
    asking_abilities: set[str] = field(default_factory=set)
    recursive: set[str] = field(default_factory=set)  # procedure names
    # routine → what running it can do to a match (some of nodes.EFFECTS): its statements' own effects
    # and those of the procedures it runs and the abilities it resolves (every card's version of one)
    does: dict[Routine, frozenset[str]] = field(default_factory=dict)
    effects: frozenset[str] = frozenset()  # what any statement of the game can do to a match


_NONE: frozenset[str] = frozenset()


def _own_uses(body: list[n.Stmt]) -> tuple[frozenset[str], set[str], set[str]]:
    """What a body does by itself (the effects its statements declare), which procedures it runs, which
    abilities it resolves."""
    effects: set[str] = set()
    procs: set[str] = set()
    abilities: set[str] = set()
    for s in n.walk(body):
        effects |= s.does()
        procs.update(s.procedures())
        abilities.update(s.abilities())
    return frozenset(effects), procs, abilities


def analyse(program: Program) -> Plan:
    """What each routine does (a fixpoint over calls and resolves), which ask, which procedures are
    recursive."""
    plan = Plan()
    routines = [r for r in program.actions() if r.body is not None]
    usage = {r: _own_uses(r.body or []) for r in routines}
    does, by_ability = _effects(program, routines, usage)
    plan.does = {r: frozenset(effects) for r, effects in does.items()}
    plan.effects = frozenset(e for effects in usage.values() for e in effects[0])
    plan.asking = {r for r in routines if n.ASKS in does[r]}
    # (a card's version of an asking ability that asks nothing is no generator: a `resolve` tells them apart by
    # what the call gives, a generator or None)
    plan.asking_abilities = {ability for ability, effects in by_ability.items() if n.ASKS in effects}
    calls = {name: usage[r][1] if r in usage else set() for name, r in program.procedures.items()}
    plan.recursive = {start for start in program.procedures if _reaches(start, calls)}
    return plan


def _effects(program: Program, routines: list[Routine], usage: dict) -> tuple[dict[Routine, set[str]],
                                                                                 dict[str, set[str]]]:
    """What each routine and each ability (every card's version) can do: its own statements' effects and those
    of the procedures it runs and the abilities it resolves, to a fixpoint."""
    procedures = program.procedures
    does = {r: set(usage[r][0]) for r in routines}
    by_ability: dict[str, set[str]] = {ability: set() for ability in program.abilities}
    changed = True
    while changed:
        changed = False
        for r in routines:
            _, procs, abilities = usage[r]
            reached = [*(does.get(procedures[p], _NONE) for p in procs), *(by_ability.get(a, _NONE) for a in abilities)]
            for got in reached:
                if not does[r].issuperset(got):
                    does[r] |= got
                    changed = True
        for ability, versions in program.abilities.items():
            for v in versions:
                if not by_ability[ability].issuperset(does.get(v, _NONE)):
                    by_ability[ability] |= does[v]
                    changed = True
    return does, by_ability


def _reaches(start: str, calls: dict[str, set[str]]) -> bool:
    """Does procedure `start` run itself, directly or through others?"""
    stack, seen = list(calls[start]), set()
    while stack:
        name = stack.pop()
        if name == start:
            return True
        if name not in seen:
            seen.add(name)
            stack += calls[name]
    return False
