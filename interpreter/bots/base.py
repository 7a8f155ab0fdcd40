"""What every bot shares: a name with a budget, a generator of its own, worlds drawn from a seat handle.

A bot is given a seat handle (`Match.seat(s)`) and nothing else: its view, information state, labels,
legal actions and `determinize`. A search bot searches in worlds it draws through the handle with its
own generator, never in the true match, so two matches the seat cannot tell apart get the same
decisions from a bot seeded alike.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..run.belief import NoConsistentWorld
from ..run.match import RandomBot
from ..run.rollout import HORIZONS, Horizon, rollout
from ..run.runtime import RuleError
from ..run.seat import Seat

if TYPE_CHECKING:
    from ..game import Game
    from ..run.match import Match


NEVER = 1 << 62  # an iteration no search reaches


class BotNameError(ValueError):
    """A bot name that names no bot (`KIND[:BUDGET]`): the message says which names there are."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search bot thinks per decision: `iterations`, or `seconds` of wall time."""

    iterations: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)


def parse_budget(kind: str, text: str) -> Budget:
    """`200` (iterations) or `0.5s` (seconds) as a Budget."""
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not (0 < seconds <= 3600) or math.isnan(seconds):
                raise ValueError(text)
            return Budget(seconds=seconds)
        if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 10_000_000:
            raise ValueError(text)
        return Budget(iterations=int(text))
    except ValueError:
        raise BotNameError(f"`{kind}:{text}`: a budget is a number of iterations (1 to 10,000,000, e.g. "
                           f"`{kind}:200`) or of seconds (`{kind}:0.5s`)") from None


@dataclass(slots=True)
class Stats:
    """What a bot did, summed over its decisions (for reports and tests)."""

    decisions: int = 0  # decisions it was asked for
    searched: int = 0  # of which it searched (more than one legal action)
    iterations: int = 0  # rollouts or tree iterations run
    worlds: int = 0  # worlds drawn
    no_world: int = 0  # draws that found no world the seat cannot tell from the match (skipped)
    failed: int = 0  # iterations skipped because the rules failed in a drawn world
    fallback: int = 0  # decisions taken uniformly at random: no world at all could be drawn
    seconds: float = 0.0  # time spent choosing
    drawing: float = 0.0  # of which drawing worlds (`determinize`)


class Bot:
    """A bot: `choose(handle)` returns one of `handle.legal_actions()`. Subclasses set `kind` and write `decide`."""

    kind = ""

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        self.rng = RandomBot(seed)
        self.budget = budget
        self.stats = Stats()

    @property
    def name(self) -> str:
        """The name that makes this bot again (`ismcts:200`)."""
        return self.kind if self.budget is None else f"{self.kind}:{self.budget}"

    def choose(self, handle: Seat) -> int:
        """The action this bot takes for the handle's seat (whose question must be pending)."""
        if not isinstance(handle, Seat):  # a match itself would let a bot read what its seat may not
            raise TypeError(f"a bot chooses from a seat handle (`match.seat(s)`), not from {type(handle).__name__}")
        actions = handle.legal_actions()
        if not actions:
            raise ValueError(f"seat {handle.seat} has nothing to decide now")
        started = time.perf_counter()
        self.stats.decisions += 1
        try:
            return self.decide(handle, len(actions))
        finally:
            self.stats.seconds += time.perf_counter() - started

    def decide(self, handle: Seat, n: int) -> int:
        """An action in 0..n-1 for the handle's seat."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<bot {self.name}>"


class RandomChoice(Bot):
    """`random`: a uniform pick among the legal actions (`pick`: its own generator's, or the match's random bots'
    where a `Lineup` seats it)."""

    kind = "random"

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        super().__init__(seed, budget)
        self.pick: Callable[[int], int] = self.rng.pick

    def decide(self, handle: Seat, n: int) -> int:
        return self.pick(n)


class FirstChoice(Bot):
    """`first`: always the first legal action (deterministic; for tests)."""

    kind = "first"

    def decide(self, handle: Seat, n: int) -> int:
        return 0


@dataclass(slots=True)
class Worlds:
    """The worlds one decision searches in: drawn through the handle with the bot's generator, a new one
    while fewer than `ceil(sqrt(i + 1))` (at most `cap`) were drawn before iteration i, else one of those
    drawn (a world is left as it was by a quiet play-out; an iteration that steps in it takes a copy).
    Draws that find none are counted and skipped."""

    handle: Seat
    bot: Bot
    cap: int | None
    drawn: list[Match] = field(default_factory=list)
    tries: int = 0
    until: int = 0  # no draw is asked for before iteration `until` (as many worlds as wanted, or tries, until then)

    def next(self, i: int) -> Match | None:
        """A world for iteration i (None: no world could be drawn at all)."""
        if i < self.until:
            return self.drawn[self.bot.rng.pick(len(self.drawn))]
        want = math.isqrt(i) + 1  # ceil(sqrt(i + 1)): the same up to iteration want², then one more
        until = want * want
        if self.cap is not None and want >= self.cap:
            want, until = self.cap, NEVER
        stats = self.bot.stats
        # a draw that finds none is skipped; at most one more try than worlds wanted, so a seat whose
        # worlds are hard to find spends its budget on a few of them rather than on failing draws
        while len(self.drawn) < want and self.tries < want + 1:
            self.tries += 1
            started = time.perf_counter()
            try:
                world = self.handle.determinize(self.bot.rng)
            except NoConsistentWorld:
                stats.no_world += 1
                if self.drawn:
                    break
                continue
            finally:
                stats.drawing += time.perf_counter() - started
            stats.worlds += 1
            self.drawn.append(world)
            return world
        else:  # none more to draw before iteration `until` (a draw that found none may be tried again)
            if self.drawn:
                self.until = until
        if not self.drawn:
            return None
        return self.drawn[self.bot.rng.pick(len(self.drawn))]


class Payoff:
    """A finished match's value to one seat, in [0, 1]: `win` (1 a sole win, 1/k a win shared by k, 0 a
    loss) or `score` (the seat's score less the best other score, in the game's direction, scaled by the
    smallest and largest margins seen in this search)."""

    def __init__(self, seat: int, mode: str, lowest_wins: bool) -> None:
        if mode not in ("win", "score"):
            raise ValueError(f"payoff is `win` or `score`, not {mode!r}")
        self.seat, self.by_score, self.sign = seat, mode == "score", -1 if lowest_wins else 1
        self.low, self.high = math.inf, -math.inf

    @staticmethod
    def of(seat: int, mode: str | None, game: Game) -> Payoff:
        """The payoff of `mode`, or (None) the one the game asks for (`result.payoff`, else `win`)."""
        return Payoff(seat, mode or game.payoff, game.lowest_wins)

    def raw(self, scores: list[int], winners: list[int]) -> float:
        """The unscaled value of an outcome (a win share, or a margin)."""
        me = self.seat
        if not self.by_score:
            return 1.0 / len(winners) if me in winners else 0.0
        others = [s for p, s in enumerate(scores) if p != me]
        best = (max(others) if self.sign > 0 else min(others)) if others else 0  # the best in the game's direction
        margin = float(self.sign * (scores[me] - best))
        if margin < self.low:
            self.low = margin
        if margin > self.high:
            self.high = margin
        return margin

    def scaled(self, mean: float) -> float:
        """A mean of raw values in [0, 1]."""
        if not self.by_score:
            return mean
        span = self.high - self.low
        return (mean - self.low) / span if span > 0 else 0.5


def play_out(world: Match, bot: Bot, payoff: Payoff, action: int | None = None, place: int = 0,
             spend: bool = False, horizon: Horizon | None = None) -> float | None:
    """The raw payoff of `world` played on to its end by uniform random play with the bot's generator, the
    world itself left as it was (None if the rules fail in that world: the iteration is skipped and
    counted). With `action`, the pending question's seat at `place` among those still to answer it (in
    the order asked) answers `action` first: the quiet path, without rebuilding the world for the step API.
    `spend`: the world is a copy made for this iteration, played on in place and used up (`rollout`).
    `horizon`: the play-out stops there, scored by the game's result as it stands."""
    try:
        end = rollout(world, bot.rng, spend, horizon, None if action is None else (place, action))
    except RuleError:
        bot.stats.failed += 1
        return None
    return payoff.raw(end.scores, end.winners)


def step(world: Match, seat: int, action: int, bot: Bot) -> bool:
    """Answer `seat`'s question in a drawn world; False (counted) if the rules fail there."""
    try:
        if world.apply(seat, action) is None:
            return True
    except RuleError:
        pass
    bot.stats.failed += 1  # a world asks what the match asks; a rule failing there is skipped
    return False


def check_horizon(horizon: str) -> str:
    """A search bot's `horizon` knob, checked: `match` (play-outs to the end), `deal` or `round`."""
    if horizon not in HORIZONS:
        raise ValueError(f"horizon is one of {', '.join(HORIZONS)}, not {horizon!r}")
    return horizon


class Clock:
    """The budget of one decision: iterations counted, or a deadline."""

    def __init__(self, budget: Budget) -> None:
        self.limit = budget.iterations
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds

    def more(self, done: int) -> bool:
        """True while iteration `done` (0-based) may still run (a time budget runs at least one)."""
        if self.deadline is not None:
            return done == 0 or time.perf_counter() < self.deadline
        assert self.limit is not None
        return done < self.limit
