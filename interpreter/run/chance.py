"""Explicit chance: a match that stops at each chance event and is told its outcome (OpenSpiel's chance
node). Opt-in (`game.new_match(..., explicit_chance=True)`); the seeded generator stays the default.

A chance event has n uniform outcomes 0..n-1: a die, a random pick, and each Fisher–Yates draw of a
shuffle, one at a time (shuffling k cards is k-1 events of k, k-1, …, 2 outcomes). The outcomes are
exactly what `State.below` and `shuffle` take from the seeded generator, so a match told the outcomes its
seed would draw is the match that seed plays.

How it stops: the match's chance is an `Outcomes` reader of the outcomes given so far; asked for one more,
it raises `ChanceNeeded`, which ends the step half way. The match then stands as it was before that step
(a copy kept for it), marked with the pending event; `apply_chance` adds the outcome and runs the step
again on a fresh copy of that match, to the next question or the next chance event."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import information


class ChanceNeeded(Exception):
    """The match asked for a chance outcome not given yet (never a rule failure: see `Outcomes`)."""

    def __init__(self, n: int) -> None:
        super().__init__(f"a chance event of {n} outcomes")
        self.n = n


class Outcomes:
    """A match's chance answered from the outcomes given, in order; one more raises ChanceNeeded.
    Copies share the outcome tuple (it is never changed: a new outcome makes a new tuple)."""

    __slots__ = ("given", "used")

    def __init__(self, given: tuple[int, ...], used: int = 0) -> None:
        self.given = given
        self.used = used

    def _randbelow(self, n: int) -> int:
        i = self.used
        if i >= len(self.given):
            raise ChanceNeeded(n)
        self.used = i + 1
        return self.given[i]

    __call__ = _randbelow  # a chance function too (Match takes either)

    def __deepcopy__(self, memo: dict) -> Outcomes:
        return Outcomes(self.given, self.used)


@dataclass(frozen=True, slots=True)
class Explicit:
    """What a match with explicit chance keeps: every outcome given so far (in the order drawn) and, at a
    pending event, its number of outcomes, the match before the step that reached it (None: the set-up)
    and that step; `start` builds the match anew from its set-up, given outcomes. `live` marks a step
    being run (its `apply` is the plain one)."""

    given: tuple[int, ...]
    start: Callable[[tuple[int, ...]], Any]
    n: int = 0
    before: Any = None
    step: tuple[int, int] | None = None
    live: bool = False

    def reader(self, used: int) -> Outcomes:
        """The chance of a state thawed where `used` outcomes had been drawn."""
        return Outcomes(self.given, used)


def started(start: Callable[[tuple[int, ...]], Any], given: tuple[int, ...] = ()) -> Any:
    """A match built by `start(given)` (a Match reading its chance from `Outcomes(given)`), stopped at its
    first question, or pending at a chance event of its set-up."""
    try:
        m = start(given)
    except ChanceNeeded as need:
        m = start.blank()  # type: ignore[attr-defined]
        m._explicit = Explicit(given, start, need.n)
        return m
    m._explicit = Explicit(given, start)
    return m


def step(m: Any, seat: int, action: int) -> Any:
    """`m.apply(seat, action)` in a match with explicit chance: played through, or left pending at the
    first chance event without an outcome (the match as it was before, nobody to act)."""
    ex = m._explicit
    before = m.clone()
    m._explicit = Explicit(ex.given, ex.start, live=True)
    try:
        problem = m.apply(seat, action)
    except ChanceNeeded as need:
        _pending(m, before, Explicit(ex.given, ex.start, need.n, before, (seat, action)))
        return None
    finally:
        if m._explicit.live:
            m._explicit = ex
    return problem


def _pending(m: Any, before: Any, ex: Explicit) -> None:
    """Make `m` the match `before` a step, pending at a chance event (`ex`)."""
    shown = before.clone()
    shown._explicit = ex
    shown.st  # noqa: B018  (rebuilt now, so that its question is not rebuilt over the pending mark)
    m.__dict__.clear()
    m.__dict__.update(shown.__dict__)
    m.__class__ = shown.__class__
    m.history = [*m.history, ex.step]
    m._pending = None


def outcomes(m: Any) -> list[tuple[int, float]]:
    """The pending chance event's outcomes with their probabilities (uniform), or [] if none is pending."""
    ex = m._explicit
    if ex is None or not ex.n:
        return []
    return [(k, 1.0 / ex.n) for k in range(ex.n)]


def apply(m: Any, outcome: int) -> str | None:
    """Give the pending chance event its outcome and run the match on to its next question or chance
    event. Returns why not (no event pending, an outcome out of range), else None."""
    ex = m._explicit
    if ex is None:
        return "the match draws its chance from its seed: start it with explicit_chance=True"
    if not ex.n:
        return "no chance event is pending"
    if not (isinstance(outcome, int) and 0 <= outcome < ex.n):
        return f"chance outcome {outcome!r} is not one of 0..{ex.n - 1}"
    given = (*ex.given, outcome)
    if ex.before is None:
        now = started(ex.start, given)
    else:  # the step again, on a fresh copy of the match before it; `m` already shows that match
        now = ex.before.clone()
        now._explicit = Explicit(given, ex.start, live=True)
        assert ex.step is not None
        try:
            now.apply(*ex.step)
        except ChanceNeeded as need:
            m._explicit = Explicit(given, ex.start, need.n, ex.before, ex.step)
            return None
        now._explicit = Explicit(given, ex.start)
    m.__dict__.clear()
    m.__dict__.update(now.__dict__)
    m.__class__ = now.__class__
    return None


def retold(m: Any, start: Callable[[tuple[int, ...]], Any], given: tuple[int, ...],
           history: list[tuple[int, int]]) -> None:
    """Make `m` the match with explicit chance that these outcomes and decisions make, played again from
    its set-up: at each point a chance event takes the next outcome, a question the next decision."""
    now = started(start)
    outcomes, decisions = iter(given), iter(history)
    while True:
        if now._explicit.n:
            k = next(outcomes, None)
            if k is None:
                break
            problem = apply(now, k)
        else:
            step_ = next(decisions, None)
            if step_ is None:
                break
            problem = now.apply(*step_)
        if problem is not None:
            raise ValueError(f"a saved match with explicit chance does not replay: {problem}")
    m.__dict__.clear()
    m.__dict__.update(now.__dict__)
    m.__class__ = now.__class__


def copied(m: Any) -> Any:
    """A copy of a match pending at a chance event (it changes only by `apply`, which replaces it whole)."""
    other = m.__class__.__new__(m.__class__)
    other.__dict__.update(m.__dict__)
    other.history = list(m.history)
    if "_watch" in m.__dict__:
        other._watch = m._watch.copy()
        other._seen = [information.fork_cache(cache) for cache in m._seen]
    return other
