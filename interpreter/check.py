"""Property checks of a game: `meeple check` (Hypothesis plays the matches) and `meeple sim --check`.

Hypothesis draws every decision and every chance outcome of a match (`Match(chance=…)`), so a failing
match shrinks to few decisions and a simple deal. At every decision the game's `invariants:` must hold
for every seat and every card must lie in exactly one zone; the game's `checks:` must hold at the end of
every turn, round or of the match, as each says; no rule may fail; the match must end within a
decision cap; and a finished match must give the same log again when re-run from its seed, decisions and
chance outcomes. A failure is written as a log that `meeple replay` re-runs: its header carries the chance
outcomes, and a property that failed mid-match ends the log with an `error` line naming it (`check`), which
replay checks again at the same point.

More end-of-match properties go in `END_CHECKS`. `meeple check` then runs the leak check
(`interpreter.leaks`) on random matches: it replaces hidden answers and deals, which Hypothesis's own
matches cannot do.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .logfile import short_line
from .run.failures import RULE_FAILURES, rule_error
from .run.flow import ROUND, TURN
from .run.match import ChanceMismatch, Match, random_bot, replay
from .run.runtime import ChecksTooLong, RuleError, State, checked

MAX_DECISIONS = 20_000
"""A match that has not ended after this many decisions fails the check "the match ends"."""
DRAWN = 2_000
"""How many answers of one match Hypothesis gives itself; the rest come from a generator seeded by one
more answer of Hypothesis's. Hypothesis gives up on an example past 8 KiB of choices (2–3 bytes each
here); a longer match is still played to its end (and to the decision cap), and its first DRAWN answers
still shrink."""

# The properties, by the name an `error` line of a failure log gives in its `check` field.
RULES = "rules"
CARDS = "cards"
ENDS = "ends"
REPLAYS = "replays"
INVARIANT = "invariant:"  # + the invariant's name
CHECK = "check:"  # + the name of a check declared under `checks:`

# When a declared check is checked (its `at:`), and in words
DECISION, END, ROUND_END, TURN_END = "decision", "end", "round_end", "turn_end"
WHEN = {END: "at the end of the match", ROUND_END: "at the end of every round", TURN_END: "at the end of every turn"}
ENDED = {TURN: TURN_END, ROUND: ROUND_END}  # the part of the flow that ended → the checks it calls

Broken = tuple[str, str]
"""A property that failed: (its check name, what went wrong)."""


class CheckFailed(Exception):
    """A property failed in a simulated match (`sim --check`): which, what, the seed and the decisions made."""

    def __init__(self, check: str, message: str, seed: int, decisions: int) -> None:
        super().__init__(f"{message} (seed {seed}, after {decisions} decisions)")
        self.check, self.message, self.seed, self.decisions = check, message, seed, decisions

    def __reduce__(self):  # crosses from sim's worker processes
        return CheckFailed, (self.check, self.message, self.seed, self.decisions)


class Stopped(Exception):
    """A declared check failed at the end of a turn or round: raised inside the flow, it stops the match
    there (`broken`: which and what; None when a replay stops where its log says one failed)."""

    def __init__(self, broken: Broken | None) -> None:
        super().__init__(broken[1] if broken else "stopped where the log's check failed")
        self.broken = broken


class NotDeterministic(Exception):
    """The same draws made a match fail once and not again: the engine or the rules are not deterministic."""


def describe(check: str, game: Any = None, lang: str = "en") -> str:
    """The property a check name stands for, in words (in `lang`)."""
    from .i18n import Words

    w = Words(lang)
    if check.startswith(INVARIANT):
        return w("property.invariant", name=check[len(INVARIANT):])
    if check.startswith(CHECK):
        name = check[len(CHECK):]
        declared = game.checks.get(name) if game is not None else None
        if declared is None:
            return w("property.check", name=name)
        whom = w("property.each_player") if declared.each_player else ""
        return w("property.check_when", name=name, when=w(f"property.{declared.at}"), whom=whom)
    return w(f"property.{check}") if f"property.{check}" in w.table else check


# ---- the properties of one point of a match --------------------------------------------------------


def _where(game: Any, fn: Callable) -> str:
    """`game.yaml:172:25`: where a compiled expression was written, relative to the game's folder."""
    anchor = game.anchor_at(fn.__code__.co_firstlineno) if hasattr(game, "anchor_at") else None
    if anchor is None:
        return "game.yaml"
    path = os.path.relpath(anchor.file, game.model.root)
    return f"{anchor.file if path.startswith('..') else path}:{anchor.line}:{anchor.col}"


def invariant_problem(game: Any, st: State, name: str) -> str | None:
    """What is wrong with invariant `name` now (the players it fails for), or None if it holds."""
    holds = game.invariants[name]
    try:
        failing = [p for p in range(st.n) if not checked(st, holds, p)]
    except ChecksTooLong:
        raise  # a limit: the match stops there, like a rule failing
    except RULE_FAILURES as err:
        what = str(rule_error(game, err, 0, st.decisions)).rsplit(" (seed ", 1)[0]  # the match says when
        return f"invariant `{name}` ({_where(game, holds)}) cannot be worked out: {what}"
    if not failing:
        return None
    seats = ", ".join(st.layout.player_name(p) for p in failing)
    return f"invariant `{name}` ({_where(game, holds)}) is false for {seats}"


def check_problem(game: Any, st: State, name: str) -> str | None:
    """What is wrong with declared check `name` now (the players it fails for), or None if it holds."""
    declared = game.checks[name]
    holds = declared.holds
    at = {ROUND_END: f"at the end of round {st.round}", TURN_END: f"at the end of turn {st.turn}"}.get(
        declared.at, WHEN[END])
    try:
        failing = [p for p in range(st.n) if not checked(st, holds, p)] if declared.each_player else \
            ([] if checked(st, holds, -1) else None)
    except ChecksTooLong:
        raise
    except RULE_FAILURES as err:
        what = str(rule_error(game, err, 0, st.decisions)).rsplit(" (seed ", 1)[0]
        return f"check `{name}` ({_where(game, holds)}) cannot be worked out {at}: {what}"
    if failing is None:
        return f"check `{name}` ({_where(game, holds)}) is false {at}"
    if not failing:
        return None
    seats = ", ".join(st.layout.player_name(p) for p in failing)
    return f"check `{name}` ({_where(game, holds)}) is false {at} for {seats}"


def broken_checks(game: Any, st: State, at: str) -> Broken | None:
    """The first declared check of `at` (end, round_end, turn_end) that fails now."""
    for name, declared in game.checks.items():
        if declared.at == at:
            problem = check_problem(game, st, name)
            if problem is not None:
                return CHECK + name, problem
    return None


def stop_at_failed_checks(game: Any):
    """The `ended` hook of a checked match (see `Match`): the turn and round checks, raising Stopped
    at the first that fails; None if the game declares none."""
    if not any(c.at in (ROUND_END, TURN_END) for c in game.checks.values()):
        return None

    def ended(st: State, part: int) -> None:
        broken = broken_checks(game, st, ENDED[part])
        if broken is not None:
            raise Stopped(broken)

    return ended


def stop_where_logged(game: Any, log: list[dict[str, Any]]):
    """The `ended` hook that stops a replay where its log says a turn or round check failed: at the
    same end of turn or round, with the log as long as it was there. None if the log needs none."""
    for i, line in enumerate(log):
        check = line.get("check") if line.get("type") == "error" else None
        declared = game.checks.get(check[len(CHECK):]) if isinstance(check, str) and check.startswith(CHECK) else None
        if declared is not None and declared.at in (ROUND_END, TURN_END):
            part = TURN if declared.at == TURN_END else ROUND

            def ended(st: State, ending: int, at: int = i, part: int = part) -> None:
                if ending == part and st.log is not None and len(st.log) == at:
                    raise Stopped(None)

            return ended
    return None


def begin(game: Any, players: int, seed: int, **options: Any) -> tuple[Match, Broken | None]:
    """A new match (`Match(game, players, seed, **options)`), returned even if a rule fails (its
    `failure` set) or a check stops it (the check returned too) before its first decision."""
    m = Match.__new__(Match)
    try:
        m.__init__(game, players, seed, **options)  # type: ignore[misc]
    except RuleError:
        assert m.failure is not None
    except Stopped as stop:
        return m, stop.broken
    return m, None


def card_problem(st: State) -> str | None:
    """What is wrong with where the cards lie (a card in no zone, in two, or not where `zone_of` says)."""
    zone_of = st.zone_of
    every = [c for cards in st.zones for c in cards]
    if len(every) == len(zone_of) == len(set(every)) and \
            all(zone_of[c] == zi for zi, cards in enumerate(st.zones) for c in cards):
        return None  # the quick test, at every decision; what is wrong is worked out below
    t = st.layout
    seen = [0] * len(zone_of)
    for zi, cards in enumerate(st.zones):
        for c in cards:
            if not 0 <= c < len(zone_of):
                return f"{t.zone_names[zi]} holds {c!r}, which is no card"
            seen[c] += 1
            if zone_of[c] != zi:
                return (f"{t.card_ids[c]} lies in {t.zone_names[zi]}, but the match has it in "
                        f"{t.zone_names[zone_of[c]]}")
    for c, times in enumerate(seen):
        if times != 1:
            where = [t.zone_names[zi] for zi, cards in enumerate(st.zones) if c in cards]
            return f"{t.card_ids[c]} lies in no zone" if not where else \
                f"{t.card_ids[c]} lies {times} times in {', '.join(where)}"
    return None


def broken_now(game: Any, st: State) -> Broken | None:
    """The first property that fails at this point of a match: a declared invariant, or the cards."""
    for name in game.invariants:
        problem = invariant_problem(game, st, name)
        if problem is not None:
            return INVARIANT + name, problem
    problem = card_problem(st)
    return (CARDS, problem) if problem is not None else None


def recheck(m: Match, check: str) -> str | None:
    """Check property `check` again where a replayed match stands: what is wrong, or None if it holds."""
    if check.startswith(INVARIANT):
        name = check[len(INVARIANT):]
        return invariant_problem(m.game, m.st, name) if name in m.game.invariants else \
            f"the game has no invariant `{name}`"
    if check.startswith(CHECK):
        name = check[len(CHECK):]
        return check_problem(m.game, m.st, name) if name in m.game.checks else f"the game has no check `{name}`"
    if check == CARDS:
        return card_problem(m.st)
    if check == ENDS:
        return None if m.over else _not_ended(m)
    return f"`{check}` is not a property that a replay can check"


def _not_ended(m: Match) -> str:
    st = m.st
    at = f"round {st.round}" + (f", turn {st.turn}" if st.turn else "")
    return f"the match has not ended after {len(m.history)} decisions ({at})"


def watch_sim(game: Any, st: State, seed: int, decisions: int, at: str = DECISION) -> None:
    """The check `sim --check` runs before every decision of every match, at the end of every turn and
    round (`at`), and at its end: raises CheckFailed."""
    broken = broken_now(game, st) if at in (DECISION, END) else None
    if broken is None and at != DECISION:
        broken = broken_checks(game, st, at)
    if broken is not None:
        raise CheckFailed(*broken, seed, decisions)


# ---- playing a checked match -----------------------------------------------------------------------


@dataclass
class Played:
    """A match played to its end or to the first property that failed."""

    match: Match
    chance: list[int] | None  # the chance outcomes, in order, when they came from a function
    broken: Broken | None = None


def play(game: Any, players: int, seed: int, decide: Callable[[int], int], *,
         chance: Callable[[int], int] | None = None, log: bool = False, checks: bool = True,
         cap: int = MAX_DECISIONS, stop_after: int | None = None) -> Played:
    """Play a match whose decisions come from `decide(n)` (an option in 0..n-1) and, if given, whose
    chance outcomes come from `chance(n)` (recorded in order); else chance comes from `seed`.

    With `checks`, the invariants and the cards are checked before every decision and at the end, the
    declared checks at the end of each turn, round and of the match, and the match stops at the first
    failure, a rule failing, or `cap` decisions (each a `broken` property); without, a rule failing
    raises RuleError. `stop_after` stops the match early (and is not a failure)."""
    answer, outcomes = _recording(chance)
    m, stopped = begin(game, players, seed, log=log, chance=answer,
                       ended=stop_at_failed_checks(game) if checks else None)
    played = Played(m, outcomes, stopped)
    try:
        if stopped is not None:
            return played
        if m.failure is not None:
            raise m.failure
        played.broken = _play_on(game, m, decide, checks, cap, stop_after)
    except Stopped as stop:
        played.broken = stop.broken
    except RuleError as err:
        if not checks:
            raise
        played.broken = RULES, str(err)
    return played


def _recording(chance: Callable[[int], int] | None) -> tuple[Callable[[int], int] | None, list[int] | None]:
    """`chance` with each outcome it gives kept, in order, in the list returned with it (None, None: no
    chance function)."""
    if chance is None:
        return None, None
    outcomes: list[int] = []
    ask, keep = chance, outcomes.append

    def answer(n: int) -> int:  # a closure, not an object: a match's snapshots copy it as it is
        k = ask(n)
        keep(k)
        return k

    return answer, outcomes


def _play_on(game: Any, m: Match, decide: Callable[[int], int], checks: bool, cap: int,
             stop_after: int | None) -> Broken | None:
    """Play the match on to its end, `stop_after` decisions or the first property that fails (with
    `checks`), or to `cap` decisions (a failure); the property that failed, if one did."""
    while True:
        if checks:
            broken = broken_now(game, m.st)
            if broken is None and m.over:
                broken = broken_checks(game, m.st, END)
            if broken is not None:
                return broken
        if m.over or (stop_after is not None and len(m.history) >= stop_after):
            return None
        if len(m.history) >= cap:
            return ENDS, _not_ended(m)
        for seat in m.to_act():
            m.apply(seat, decide(len(m.legal_actions(seat))))


def replays(game: Any, played: Played) -> Broken | None:
    """Re-run a finished logged match from its seed, decisions and chance outcomes: the same log?"""
    m = played.match
    try:
        again = replay(game, m.players, m.seed, m.history, log=True, chance=played.chance)
    except (ChanceMismatch, ValueError, RuleError) as err:
        return REPLAYS, f"re-running the match fails: {err}"
    if played.chance is not None and again.st.chance_used != len(played.chance):
        return REPLAYS, f"re-running the match uses {again.st.chance_used} of its {len(played.chance)} chance outcomes"
    first, second = m.log or [], again.log or []
    for i, (a, b) in enumerate(zip(first, second, strict=False)):
        if a != b:
            return REPLAYS, f"log line {i + 1} differs: first {short_line(a, 200)}, then {short_line(b, 200)}"
    if len(first) != len(second):
        return REPLAYS, f"the log had {len(first)} lines the first time, {len(second)} the second"
    return None


END_CHECKS: list[Callable[[Any, Played], Broken | None]] = [replays]
"""The properties of a finished match (each returns the failure or None), run after every example."""


def failure_log(played: Played) -> list[dict[str, Any]]:
    """The log of a failed match that `meeple replay` re-runs: the chance outcomes in the header, and
    an `error` line naming the property where one failed mid-match (a failed rule writes its own)."""
    m = played.match
    log = [dict(line) for line in m.log or []]
    if played.chance is not None:
        log[0]["chance"] = list(played.chance)
    if played.broken is not None and played.broken[0] not in (RULES, REPLAYS):
        check, message = played.broken
        log.append({"type": "error", "message": message, "decisions": len(m.history), "check": check})
    return log


# ---- Hypothesis ------------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _options(n: int):
    from hypothesis import strategies as st

    return st.integers(0, n - 1)


def hypothesis_answers(take: Callable[[Any], int], drawn: int = DRAWN) -> Callable[[int], int]:
    """`answer(n)`: an int in 0..n-1 drawn by Hypothesis's `take` (a `data.draw` or a composite's draw),
    so that a failure shrinks towards option 0 and short matches; after `drawn` answers, a generator
    seeded by one more draw answers (a match must stay within what Hypothesis can draw for one example)."""
    count = 0
    rest: random.Random | None = None

    def answer(n: int) -> int:
        nonlocal count, rest
        if n <= 1:
            return 0
        if rest is not None:
            return rest._randbelow(n)  # type: ignore[attr-defined]
        if count < drawn:
            count += 1
            return take(_options(n))
        rest = random.Random(take(_options(2**32)))
        return rest._randbelow(n)  # type: ignore[attr-defined]

    return answer


class _Found(Exception):
    """Raised inside a Hypothesis example to fail it; carries the failure."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


@dataclass
class Failure:
    """The shrunk match of a failed check."""

    check: str
    message: str
    played: Played

    @property
    def log(self) -> list[dict[str, Any]]:
        """The log that `meeple replay` re-runs."""
        return failure_log(self.played)


@dataclass
class Run:
    """What checking one player count found."""

    players: int
    examples: int = 0
    decisions: int = 0
    seconds: float = 0.0
    failure: Failure | None = None


def check_players(game: Any, players: int, examples: int = 100, seed: int = 0,
                  cap: int = MAX_DECISIONS) -> Run:
    """Play `examples` Hypothesis-drawn matches of `game` with `players` seats, checking every property;
    on a failure, shrink it and return it in the Run. Deterministic for a given `seed`."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as seeded
    from hypothesis import strategies as st
    from hypothesis.errors import Flaky

    game.check_players(players)
    run = Run(players)

    @st.composite
    def matches(take) -> Played:
        answer = hypothesis_answers(take)
        return play(game, players, seed, answer, chance=answer, log=True, cap=cap)

    @seeded(seed)
    @settings(max_examples=examples, database=None, deadline=None, derandomize=False,
              phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck),
              report_multiple_bugs=False, verbosity=Verbosity.quiet, print_blob=False)
    @given(matches())
    def one_match(played: Played) -> None:
        if run.failure is None:  # the matches Hypothesis plays while it shrinks a failure are not counted
            run.examples += 1
            run.decisions += len(played.match.history)
        broken = played.broken
        for end_check in END_CHECKS if broken is None else ():
            broken = end_check(game, played)
            if broken is not None:
                break
        if broken is not None:
            played.broken = broken
            run.failure = Failure(*broken, played)
            raise _Found(run.failure)

    started = time.perf_counter()
    try:
        with _storage_in_cache():
            one_match()
    except _Found as found:
        run.failure = found.failure  # the last match Hypothesis played: the shrunk one
    except Flaky as err:
        raise NotDeterministic(f"{game.name}, {players} players: the same choices failed once and then not: "
                               f"the rules or the engine are not deterministic ({err})") from None
    run.seconds = time.perf_counter() - started
    return run


def cache_folder() -> Path:
    """Where `meeple check` lets Hypothesis keep its files: the user's cache folder (XDG_CACHE_HOME, else
    ~/.cache), never the working folder."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "meeple" / "hypothesis"


@contextmanager
def _storage_in_cache() -> Iterator[None]:
    """Hypothesis's storage in `cache_folder()` for the run (it keeps no examples: `database=None`; but it
    caches the constants of the code it tests, in `.hypothesis/` of the working folder by default).
    HYPOTHESIS_STORAGE_DIRECTORY, if set, is obeyed; a cache folder that cannot be made is swapped for a
    temporary one."""
    from hypothesis.configuration import set_hypothesis_home_dir, storage_directory

    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        yield
        return
    try:
        before: Any = storage_directory(intent_to_write=False).home_directory
    except TypeError:  # an older Hypothesis, whose storage_directory() is the folder itself
        before = storage_directory()
    with ExitStack() as stack:
        folder = cache_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="meeple-hypothesis-")))
        set_hypothesis_home_dir(folder)
        try:
            yield
        finally:
            set_hypothesis_home_dir(before)


def check_game(game: Any, players: int | None = None, examples: int = 100, seed: int = 0,
               cap: int = MAX_DECISIONS, each: Callable[[Run], None] | None = None) -> list[Run]:
    """Check `game` at one player count, or at each it allows (stopping at the first failure);
    `each(run)` is called as each count is done."""
    counts = game.player_counts(players)
    runs = []
    for n in counts:
        run = check_players(game, n, examples, seed, cap)
        runs.append(run)
        if each is not None:
            each(run)
        if run.failure is not None:
            break
    return runs


# ---- sim --check: the match a seed plays, with its log ---------------------------------------------


def sim_match(game: Any, players: int, seed: int) -> Played:
    """The random-bot match `sim` plays for `seed`, through the step API with its log, checked at
    every decision (to write the log of a failure `sim --check` found)."""
    return play(game, players, seed, random_bot(seed).pick, log=True)
