"""`mc:N`: flat Monte Carlo. Each legal action is tried in N/k drawn worlds (k actions, at least one
each), the worlds played on to their end (or to the `horizon`: the end of the deal or round under way) by
uniform random play; the action with the best mean wins."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..run.rollout import Horizon
from .base import Bot, Budget, Clock, Payoff, Worlds, check_horizon, play_out

if TYPE_CHECKING:
    from ..run.seat import Seat


class FlatMonteCarlo(Bot):
    """Flat Monte Carlo over determinized worlds (`mc:N`, `mc:0.5s`)."""

    kind = "mc"

    def __init__(self, seed: int = 0, budget: Budget | None = None, worlds: int | None = None,
                 payoff: str | None = None, horizon: str = "match") -> None:
        super().__init__(seed, budget or Budget(iterations=100))
        self.worlds, self.payoff = worlds, payoff
        self.horizon = check_horizon(horizon)
        if horizon != "match":
            self.kind = f"{self.kind}-{horizon}"

    def decide(self, handle: Seat, n: int) -> int:
        if n == 1:
            return 0
        self.stats.searched += 1
        assert self.budget is not None
        clock = Clock(self.budget)
        if self.budget.iterations is not None:  # N/k each, at least one: the action at i % n
            clock.limit = max(self.budget.iterations, n)
        pool = Worlds(handle, self, self.worlds)
        me = handle.seat
        place = handle.to_act().index(me)  # where the seat answers among those asked: alike in every world
        totals, counts = [0.0] * n, [0] * n
        payoff: Payoff | None = None
        horizon: Horizon | None = None
        i = 0
        while clock.more(i):
            action = i % n
            world = pool.next(i)
            i += 1
            if world is None:
                break
            if payoff is None:
                payoff = Payoff.of(me, self.payoff, world.game)
                horizon = Horizon.at(world, self.horizon)
            value = play_out(world, self, payoff, action, place, horizon=horizon)
            self.stats.iterations += 1
            if value is not None:
                totals[action] += value
                counts[action] += 1
        if payoff is None or not any(counts):
            self.stats.fallback += 1
            return self.rng.pick(n)
        means = [totals[a] / counts[a] if counts[a] else -float("inf") for a in range(n)]
        return max(range(n), key=lambda a: (means[a], -a))
