"""Stage 6, what compiled game code calls to keep a match within its limits (steps, loops, numbers, options: each
a `RuleError` naming the rule's place) and to read lists of cards and numbers."""

from __future__ import annotations

import operator
from typing import Any

from ..lang.asks import K_BOOL, K_CARD, K_NUMBER, K_PLAYER, K_TEXT  # noqa: F401  (the kinds of an ask)
from ..limits import MAX_CALL_DEPTH, MAX_CHECK_STEPS, MAX_LOOP, MAX_NUMBER, MAX_OPTIONS
from ..load.model import HIDDEN, OWNER, PUBLIC  # noqa: F401  (HIDDEN: for readers of a state)
from .state import ChecksTooLong, RuleError, State

_ASKED = operator.itemgetter(0)  # the seat an ask is put to


def one_ask_each(asks: list, where: str) -> None:
    """A simultaneous choice asks each player once (a content bug otherwise: nobody could answer twice)."""
    if len(asks) > 1 and len(set(map(_ASKED, asks))) != len(asks):
        raise RuleError(f"{where}: a simultaneous choice asks one player twice; "
                        "each player of the loop must make their own choice")


def check_loop(count: int, where: str) -> None:
    """Stop a `while` that has run away (a content bug): the bound keeps every match finite."""
    raise RuleError(f"{where}: `while` ran {count} times without its condition turning false; "
                    "add `at most N times` if that is intended")


def too_many_rounds(count: int, where: str) -> None:
    """Refuse a `repeat` of more rounds than MAX_LOOP (the same bound as a `while`)."""
    raise RuleError(f"{where}: `repeat {count} times` is more than {MAX_LOOP:,} rounds")


def out_of_steps(st: State, where: str = "") -> None:
    """Stop a match whose rules have run past its step limit (nested loops or aggregates of a hostile game),
    or whose invariants and checks have run past theirs. Without `where`, the error is placed at the
    rule that was running."""
    at = f"{where}: " if where else ""
    if st.checking:
        raise ChecksTooLong(f"{at}the game's invariants and checks ran more than {MAX_CHECK_STEPS:,} steps in this "
                        "match (elements their aggregates ran over)")
    raise RuleError(f"{at}the match ran more than {st.steps_max:,} steps (loop rounds, calls, cards moved, "
                    "elements aggregated, rounds and turns); if the game really needs that many, raise the limit "
                    "with --max-steps")


def charge(st: State, items: list, where: str) -> list:
    """`items`, charged as steps (one an element): what an aggregate or a `where` is about to run over."""
    st.steps -= len(items)
    if st.steps < 0:
        out_of_steps(st, where)
    return items


def checked(st: State, holds: Any, me: int) -> Any:
    """`holds(st, me)`, an invariant or check, worked out on the match's budget for them (so checking a
    match never changes how far its rules may run)."""
    steps, st.steps, st.checking = st.steps, st.checks_left, True
    try:
        return holds(st, me)
    finally:
        st.checks_left, st.steps, st.checking = st.steps, steps, False


def enter(st: State, where: str) -> None:
    """Before a procedure calls itself (or an ability resolves one): one more step, one level deeper."""
    st.steps -= 1
    if st.steps < 0:
        out_of_steps(st, where)
    st.depth += 1
    if st.depth > MAX_CALL_DEPTH:
        raise RuleError(f"{where}: calls nested more than {MAX_CALL_DEPTH} deep "
                        "(a procedure that keeps calling itself, or an ability that resolves abilities?)")


def too_big(value: int, where: str) -> None:
    """Stop a number from growing past what a match keeps (every number then prints, and fits a log)."""
    digits = len(str(abs(value))) if abs(value) < 10**100 else "over 100"
    at = f"{where}: " if where else ""
    raise RuleError(f"{at}a whole number of {digits} digits, past the limit of {MAX_NUMBER:,} (2**63 - 1) "
                    "either way that a counter, a name or a score may keep")


def need(value: int, what: str, where: str) -> int:
    """`value` (a player or a card), unless it is none: then the rules asked for something impossible."""
    if value < 0:
        raise RuleError(f"{where}: {what} is none here, where one is needed")
    return value


def ask_condition(row: list, st: State, me: int, c: int) -> bool:
    """A card's answer to a declared condition (`row`: the condition's function for each kind of card)."""
    return row[st.layout.card_def[c]](st, me, c)


def numbers(low: int, high: int, where: str) -> list[int]:
    """The options of `a number from low to high`: at least one (a number has no "none", so nothing to
    choose is a content bug) and at most MAX_OPTIONS."""
    if not -MAX_NUMBER <= low <= high <= MAX_NUMBER:
        if high < low:
            raise RuleError(f"{where}: `a number from {low} to {high}`: there is no number to choose")
        too_big(low if abs(low) > MAX_NUMBER else high, where)
    if high - low >= MAX_OPTIONS:
        raise RuleError(f"{where}: `a number from {low} to {high}` offers {high - low + 1:,} options, "
                        f"more than the {MAX_OPTIONS:,} a choice may have")
    return list(range(low, high + 1))


# ---- helpers of the generated code (moved here from the pipeline module) ------------------------------


def top(cards: list[int]) -> int:
    """The first card of a list, or -1."""
    return cards[0] if cards else -1


def last(cards: list[int]) -> int:
    """The last card of a list, or -1."""
    return cards[-1] if cards else -1


def first_with(cards: list[int], values: list[Any], value: Any) -> int:
    """The first of `cards` whose property (`values`, by card) equals `value`, or -1."""
    for c in cards:
        if values[c] == value:
            return c
    return -1


def first_n(cards: list[int], n: int) -> list[int]:
    """The first n cards (all if fewer, none if n < 1)."""
    return cards[: max(0, n)]


def last_n(cards: list[int], n: int) -> list[int]:
    """The last n cards (all if fewer, none if n < 1)."""
    return cards[len(cards) - n:] if 0 < n <= len(cards) else (list(cards) if n > 0 else [])


def floordiv(a: int, b: int) -> int:
    """Whole-number division, rounding down; dividing by zero is a content bug."""
    if b == 0:
        raise RuleError("division by zero")
    return a // b


def mod(a: int, b: int) -> int:
    """The remainder of a whole-number division; by zero it is a content bug."""
    if b == 0:
        raise RuleError("remainder of a division by zero")
    return a % b


def ring_distance(a: int, b: int, size: int) -> int:
    """Steps between two positions on a ring of `size`, the shorter way round."""
    if size < 1:
        raise RuleError(f"ring_distance needs at least 1 place, not {size}")
    d = (a - b) % size
    return min(d, size - d)


def choose_cards(who: int, pool: list[int], n: int, up_to: bool, question: int | tuple, where: str = ""):
    """Ask for cards one at a time (actions stay small ints); `up_to` adds a "done" option (-1).
    Asked n times whatever the pool holds (once it is empty, with "none" alone), unless the player says
    "done": how often a player is asked must not tell the others how many cards could be chosen. So n is
    bounded like a choice's options (MAX_OPTIONS)."""
    if n > MAX_OPTIONS:
        raise RuleError(f"{where}: choosing {n:,} cards asks {n:,} questions, more than the {MAX_OPTIONS:,} "
                        "a choice of several cards may ask")
    chosen: list[int] = []
    for _ in range(n):
        options = [-1, *pool] if up_to else (list(pool) or [-1])
        c = yield (who, options, K_CARD, question)
        if c < 0:
            if up_to:
                break
            continue
        chosen.append(c)
        pool.remove(c)
    return chosen


def always(answer: bool):
    """The condition of a card that does not state it: always the declared default."""
    return lambda st, me, this: answer
