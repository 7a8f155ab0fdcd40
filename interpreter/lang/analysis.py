"""Whole-program facts the code writer needs: the order of functions, which routines ask a player
(and so are generators), and which procedures are recursive (and so are called, not inlined)."""

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
    """What analysis found: the routines that ask, and the procedures that reach themselves."""

    asking: set[Routine] = field(default_factory=set)
    asking_abilities: set[str] = field(default_factory=set)
    recursive: set[str] = field(default_factory=set)  # procedure names


def _own_uses(body: list[n.Stmt]) -> tuple[bool, set[str], set[str]]:
    """Does a body ask by itself (a statement that declares it asks), which procedures does it run,
    which abilities does it resolve?"""
    asks, procs, abilities = False, set(), set()
    for s in n.walk(body):
        asks = asks or s.asks
        procs.update(s.procedures())
        abilities.update(s.abilities())
    return asks, procs, abilities


def analyse(program: Program) -> Plan:
    """Which routines ask (a fixpoint over calls and resolves) and which procedures are recursive."""
    plan = Plan()
    routines = [r for r in program.actions() if r.body is not None]
    usage = {r: _own_uses(r.body or []) for r in routines}
    procedures = program.procedures
    changed = True
    while changed:
        changed = False
        for r in routines:
            asks, procs, abilities = usage[r]
            if r in plan.asking:
                continue
            if asks or any(procedures[p] in plan.asking for p in procs) or abilities & plan.asking_abilities:
                plan.asking.add(r)
                changed = True
        for ability, versions in program.abilities.items():
            if ability not in plan.asking_abilities and any(v in plan.asking for v in versions):
                plan.asking_abilities.add(ability)
                plan.asking.update(versions)  # a `resolve` must treat every card's version alike
                changed = True
    calls = {name: usage[r][1] if r in usage else set() for name, r in procedures.items()}
    for start in procedures:
        stack, seen = list(calls[start]), set()
        while stack:
            name = stack.pop()
            if name == start:
                plan.recursive.add(start)
                break
            if name not in seen:
                seen.add(name)
                stack += calls[name]
    return plan
