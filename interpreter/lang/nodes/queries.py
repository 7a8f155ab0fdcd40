"""What code generation and the analysis ask of a value of the typed intermediate form: whether it iterates or
nests, which zones it runs over, whether a test makes it non-empty, a property compared to a value."""

from __future__ import annotations

from collections.abc import Callable

from ...diagnostics import Pos
from .base import Expr, Var
from .cards import Copy, Filter, Firsts, Groups, Length, OwnedCards, Single, ZoneCards
from .leaves import Const, Ref
from .logic import Aggregate, CardCondition, CardProp, Compare, FunctionCall


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
