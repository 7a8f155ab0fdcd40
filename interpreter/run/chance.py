"""Explicit chance: a match that stops at each chance event and is told its outcome (OpenSpiel's chance
node). Opt-in (`game.new_match(..., explicit_chance=True)`); the seeded generator stays the default.

A chance event has n uniform outcomes 0..n-1: a die, a random pick, and each Fisher–Yates draw of a
shuffle, one at a time (shuffling k cards is k-1 events of k, k-1, …, 2 outcomes). The outcomes are
exactly what `State.below` and `shuffle` take from the seeded generator, so a match told the outcomes its
seed would draw is the match that seed plays.

How it stops: the match's chance is an `Outcomes` reader of the outcomes given so far; asked for one more,
it raises `ChanceNeeded`, which ends the step half way. The match then stands as it was before that step
(a copy kept for it), marked with the pending event; `apply_chance` adds the outcome and runs the step
again on a fresh copy of that match, to the next question or the next chance event.

`determinize(m, seat, rng)` draws a world a seat cannot tell from such a match, with explicit chance too:
the belief stage's drawing, checked against the outcomes the match was told (see `determinize`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import belief, information
from .belief.assign import _assign_some
from .belief.base import _Misfit
from .belief.kept import _belief
from .belief.replay import _Replay
from .belief.world_chance import _Source, _WorldChance


class ChanceNeeded(Exception):
    """The match asked for a chance outcome not given yet (never a rule failure: see `Outcomes`); `then`:
    the numbers of outcomes of the events known to follow it at once (the rest of a shuffle's draws)."""

    def __init__(self, n: int, then: tuple[int, ...] = ()) -> None:
        super().__init__(f"a chance event of {n} outcomes")
        self.n = n
        self.then = then


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

    def shuffled(self, cards: list[int]) -> list[int]:
        """`cards` shuffled by the next k-1 outcomes, as `runtime.shuffle` draws them one by one (at i = k-1
        … 1, swap card i with card j); if some are not given yet, ChanceNeeded for the first missing draw,
        telling the draws after it (so a shuffle is not run again for each of its draws)."""
        k, i = len(cards), self.used
        have = len(self.given) - i
        if have < k - 1:
            raise ChanceNeeded(k - have, tuple(range(k - have - 1, 1, -1)))
        order = list(cards)
        given = self.given
        for place in range(k - 1, 0, -1):
            j = given[i]
            i += 1
            order[place], order[j] = order[j], order[place]
        self.used = i
        return order

    def __deepcopy__(self, memo: dict) -> Outcomes:
        return Outcomes(self.given, self.used)


@dataclass(frozen=True, slots=True)
class Explicit:
    """What a match with explicit chance keeps: every outcome given so far (in the order drawn) and, at a
    pending event, its number of outcomes, the match before the step that reached it (None: the set-up)
    and that step, and the numbers of outcomes of the events known to follow it (`then`: the rest of a
    shuffle, told without running the step again); `start` builds the match anew from its set-up, given
    outcomes. `live` marks a step being run (its `apply` is the plain one)."""

    given: tuple[int, ...]
    start: Callable[[tuple[int, ...]], Any]
    n: int = 0
    before: Any = None
    step: tuple[int, int] | None = None
    live: bool = False
    then: tuple[int, ...] = ()

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
        m._explicit = Explicit(given, start, need.n, then=need.then)
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
        _pending(m, before, Explicit(ex.given, ex.start, need.n, before, (seat, action), then=need.then))
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
    if ex.then:  # the next draw of the same shuffle: nothing runs between the two
        m._explicit = Explicit(given, ex.start, ex.then[0], ex.before, ex.step, then=ex.then[1:])
        return None
    if ex.before is None:
        now = started(ex.start, given)
    else:  # the step again, on a fresh copy of the match before it; `m` already shows that match
        now = ex.before.clone()
        now._explicit = Explicit(given, ex.start, live=True)
        assert ex.step is not None
        try:
            now.apply(*ex.step)
        except ChanceNeeded as need:
            m._explicit = Explicit(given, ex.start, need.n, ex.before, ex.step, then=need.then)
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


class _Told:
    """The outcomes a match was told, in order: the chance a world of it is played against (as `belief`
    plays a world against its real match's generator), then, past them, outcomes drawn from a generator
    of the world's own. An outcome that does not fit the world's event means the world parts from it."""

    __slots__ = ("given", "rest", "used")

    def __init__(self, given: tuple[int, ...], rest: random.Random) -> None:
        self.given, self.rest, self.used = given, rest, 0

    def _randbelow(self, n: int) -> int:
        i = self.used
        self.used = i + 1
        if i >= len(self.given):
            return self.rest._randbelow(n)  # type: ignore[attr-defined]
        k = self.given[i]
        if k >= n:
            raise _Misfit("chance where the real match had other chance")
        return k

    def getstate(self) -> tuple:
        return self.used, self.rest.getstate()


class _Spelled:
    """A world's chance (`belief`'s `_WorldChance`) written down as the outcomes explicit chance takes: an
    outcome as it is, a shuffle dealt in a given order as the Fisher–Yates draws that deal it (see
    `runtime.shuffle`: at i = k-1 … 1, the place j of the card that goes to i, swapped there)."""

    __slots__ = ("given", "inner")

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.given: list[int] = []

    def _randbelow(self, n: int) -> int:
        k = self.inner._randbelow(n)
        self.given.append(k)
        return k

    __call__ = _randbelow  # a chance function too (Match takes either)

    def shuffled(self, cards: list[int]) -> list[int]:
        order = self.inner.shuffled(cards)
        now = list(cards)
        place = {c: i for i, c in enumerate(now)}
        for i in range(len(now) - 1, 0, -1):
            j = place[order[i]]
            self.given.append(j)
            now[i], now[j] = now[j], now[i]
            place[now[i]], place[now[j]] = i, j
        return order

    def __deepcopy__(self, memo: dict) -> _Spelled:
        other = _Spelled(self.inner.__deepcopy__(memo))
        other.given = self.given[:]
        return other


def determinize(m: Any, seat: int, rng: random.Random, tries: int = belief.DEFAULT_TRIES,
                repairs: int = belief.DEFAULT_REPAIRS) -> Any:
    """A match with explicit chance that `seat` cannot tell from `m` (a match with explicit chance at a
    question): a world drawn as `belief.determinize` draws one for a seeded match (its shuffles dealt
    anew, the other seats' secret answers drawn anew, mended where it parts from what the seat observed),
    its other chance the outcomes `m` was told, then told again as explicit outcomes (the Fisher–Yates
    draws of each order dealt) with the world's own decisions. Each draw starts afresh. Raises ValueError
    at a chance event, `NoConsistentWorld` if `tries` drawings all fail."""
    ex = m._explicit
    if ex is None:
        raise ValueError("this draws worlds of a match with explicit chance (see `Match.determinize` otherwise)")
    if ex.n:
        raise ValueError("a world is drawn of a match with explicit chance at a question, not at a chance event")
    if m.__class__ is not belief.match_class(m):
        m.st  # noqa: B018  (a copy not yet rebuilt is rebuilt first)
    kept = _belief(m, seat)
    tr = kept.tracer.advance(m)
    decisions = kept.tracer.decisions
    if len(decisions) != len(m.history):
        raise belief.NoConsistentWorld("the match's record of answers is incomplete")
    want, want_view = information.observed(m, seat), information.view_json(m, seat)
    budget, problems = [belief.DEFAULT_PROBES], dict[str, int]()
    for _ in range(tries):
        source = _Source(_Told(ex.given, random.Random(rng.getrandbits(64))))  # type: ignore[arg-type]
        try:
            replay = _Replay(m, seat, tr, _assign_some(tr, m.layout.face_ids, rng), rng, want,
                                    want_view, decisions, budget, source=source)
            world = replay.play(repairs)
            if not replay.fits(world):
                raise _Misfit("the seat would see something else now")
        except _Misfit as misfit:
            problems[str(misfit)] = problems.get(str(misfit), 0) + 1
            continue
        return _told_again(m, world, _WorldChance(replay.plan, replay.source))
    why = "; ".join(f"{text} ({k}×)" for text, k in sorted(problems.items(), key=lambda kv: -kv[1]))
    raise belief.NoConsistentWorld(f"no world P{seat} cannot tell from this match was found in {tries} drawings: {why}")


def _told_again(m: Any, world: Any, chance: Any) -> Any:
    """`world` (played on `chance`, from its start) as a match with explicit chance: played once more to
    write its chance down as outcomes, then built from those outcomes and its decisions."""
    spelled = belief.match_class(m)(m.game, m.players, m.seed, chance=_Spelled(chance), arrange=m._arrange,
                    after_setup=m._after_setup)
    for who, action in world.history:
        spelled.apply(who, action)
    given = tuple(spelled.st.rng.given)
    start = m._explicit.start
    told = start(given)
    for who, action in world.history:
        problem = told.apply(who, action)
        assert problem is None, f"a drawn world does not replay with explicit chance: {problem.reason}"
    told._explicit = Explicit(given, start)
    return told
