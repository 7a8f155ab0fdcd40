"""`ismcts:N`: single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012;
OpenSpiel's `ismcts.py` is the reference).

One tree per decision, its nodes keyed by the searching seat's information state: two worlds the seat
cannot tell apart at a point share the node. (The key is the information state less what every world of
the search shares, the observations up to the decision searched: `information_since`, equal exactly when
the whole strings are, at the cost of what is new since rather than of the match so far; it ends with the
view less its zones, which follow from the observations: see `information_since` and docs/bots.md.) Each
iteration takes a drawn world (a new determinization, or one drawn before: see `Worlds`) and walks down the tree
choosing the seat's actions by UCB1, where an action's exploration term counts the visits in which it was
available (availability counts: an action legal in only some worlds is not starved), the other seats
playing uniformly at random and chance drawn by the world's own generator. An action tried fewer than
`expand` times is played out from its node at once, on the quiet path (OpenSpiel expands at the first
visit; waiting a few visits saves stepping into the world through the step API, which costs more than a
whole play-out); past that, a search's copy of the world is stepped into (`Match.search_copy`: it records
what information states read, not what a determinization would), the first information set not in the
tree is added and the copy played on in place from there at random (not rebuilt for the play-out). The
payoff (scaled to [0, 1]) is added along the path, and the most visited action at the root is played.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..run.information import information_since, observation_count
from ..run.rollout import Horizon
from .base import Bot, Budget, Clock, Payoff, Worlds, check_horizon, play_out, step

if TYPE_CHECKING:
    from ..run.match import Match
    from ..run.seat import Seat

TIE = 1e-9


class Node:
    """One information set of the searching seat: per action, visits, summed raw rewards, availability."""

    __slots__ = ("available", "totals", "visits")

    def __init__(self, n: int) -> None:
        self.visits = [0] * n
        self.totals = [0.0] * n
        self.available = [0] * n

    def widen(self, n: int) -> None:
        """Room for n actions (a node reached with more legal actions than it was made with)."""
        more = n - len(self.visits)
        if more > 0:
            self.visits += [0] * more
            self.totals += [0.0] * more
            self.available += [0] * more


class InformationSetMCTS(Bot):
    """Single-observer ISMCTS over determinized worlds (`ismcts:N`, `ismcts:0.5s`); `c` is the UCB
    exploration constant for payoffs in [0, 1]; an action is played out quietly from its node until it
    was tried `expand` times, and only then is the world stepped into past it (a node added below).
    `horizon`: `match` (play-outs to the end), or `deal`/`round` (each stops at the end of the deal or
    round under way at the decision, scored by the game's result there: `ismcts-deal:N`, `ismcts-round:N`)."""

    kind = "ismcts"

    def __init__(self, seed: int = 0, budget: Budget | None = None, worlds: int | None = None,
                 payoff: str | None = None, c: float = 0.7, expand: int = 5, horizon: str = "match") -> None:
        super().__init__(seed, budget or Budget(iterations=200))
        self.worlds, self.payoff, self.c, self.expand = worlds, payoff, c, max(expand, 1)
        self.horizon = check_horizon(horizon)
        if horizon != "match":
            self.kind = f"{self.kind}-{horizon}"
        self.nodes = 0  # nodes made in the last search

    def decide(self, handle: Seat, n: int) -> int:
        if n == 1:
            return 0
        self.stats.searched += 1
        assert self.budget is not None
        clock = Clock(self.budget)
        pool = Worlds(handle, self, self.worlds)
        me = handle.seat
        place = handle.to_act().index(me)
        root = Node(n)
        tree: dict[str, Node] = {}
        payoff: Payoff | None = None
        horizon: Horizon | None = None  # where play-outs stop: the deal or round under way here (alike in every world)
        seen = -1  # how many observation lines the seat has here (alike in every world drawn)
        checked = 0  # the worlds drawn checked for it
        i = 0
        while clock.more(i):
            world = pool.next(i)
            i += 1
            if world is None:
                break
            if payoff is None:
                payoff = Payoff.of(me, self.payoff, world.game)
                horizon = Horizon.at(world, self.horizon)
                seen = observation_count(world, me)
                tree[information_since(world, me, seen, zones=False)] = root
            if len(pool.drawn) > checked:  # a world drawn for this iteration (one drawn before is as it was)
                checked = len(pool.drawn)
                assert observation_count(world, me) == seen, "a world the seat can tell from the match"
            self._iterate(world, me, place, root, tree, payoff, seen, horizon)
            self.stats.iterations += 1
        self.nodes = len(tree)
        if payoff is None or not any(root.visits):
            self.stats.fallback += 1
            return self.rng.pick(n)
        return max(range(n), key=lambda a: (root.visits[a], root.totals[a] / root.visits[a] if root.visits[a] else 0,
                                            -a))

    def _iterate(self, world: Match, me: int, place: int, root: Node, tree: dict[str, Node], payoff: Payoff,
                 seen: int, horizon: Horizon | None) -> None:
        """One iteration: select down the tree in `world`, add a node, play out, back the payoff up. An
        action tried fewer than `expand` times is played out from its node quietly (no node below it yet).
        Past the `horizon` the walk stops and the world is scored as it stands."""
        n = len(root.visits)
        action = self._select(root, n, payoff)
        if root.visits[action] < self.expand:
            return self._back_up(play_out(world, self, payoff, action, place, horizon=horizon), [(root, action)])
        world = world.search_copy()  # stepped in through the step API, for the seat's information states
        path = [(root, action)]
        if not step(world, me, action, self):
            return None
        pick = self.rng.pick
        while not (world.over or (horizon is not None and horizon.passed(world))):
            acting = world.to_act()
            for seat in acting:
                n = len(world.legal_actions(seat))
                if seat != me:  # the others play uniformly at random (their secret answers unknown to us)
                    if not step(world, seat, pick(n), self):
                        return None
                    continue
                key = information_since(world, me, seen, zones=False)  # the seat's next information set
                node = tree.get(key)
                if node is None:  # a new node: added, and the world played out from here
                    tree[key] = Node(n)
                    return self._back_up(play_out(world, self, payoff, spend=True, horizon=horizon), path)
                action = self._select(node, n, payoff)
                path.append((node, action))
                if node.visits[action] < self.expand:
                    place = world.to_act().index(me)
                    return self._back_up(play_out(world, self, payoff, action, place, spend=True, horizon=horizon),
                                         path)
                if not step(world, me, action, self):
                    return None
                break  # who acts next is asked again
        return self._back_up(play_out(world, self, payoff, spend=True, horizon=horizon), path)

    @staticmethod
    def _back_up(value: float | None, path: list[tuple[Node, int]]) -> None:
        if value is None:
            return
        for node, action in path:
            node.visits[action] += 1
            node.totals[action] += value

    def _select(self, node: Node, n: int, payoff: Payoff) -> int:
        """UCB1 with availability counts; an action never tried first (at random among them)."""
        visits, available = node.visits, node.available
        if len(visits) == n:
            node.available = available = [k + 1 for k in available]
        else:
            node.widen(n)
            visits, available = node.visits, node.available
            for a in range(n):
                available[a] += 1
        if 0 in visits and (untried := [a for a in range(n) if not visits[a]]):
            return untried[self.rng.pick(len(untried))]
        totals, c, log, sqrt = node.totals, self.c, math.log, math.sqrt
        if not payoff.by_score:  # a win share: scaled as it is
            values = [totals[a] / visits[a] + c * sqrt(log(available[a]) / visits[a]) for a in range(n)]
        elif payoff.high > payoff.low:  # a margin: Payoff.scaled written out (the same arithmetic)
            low, span = payoff.low, payoff.high - payoff.low
            values = [(totals[a] / visits[a] - low) / span + c * sqrt(log(available[a]) / visits[a]) for a in range(n)]
        else:
            values = [0.5 + c * sqrt(log(available[a]) / visits[a]) for a in range(n)]
        best = max(values)
        ties = [a for a in range(n) if values[a] > best - TIE]
        return ties[self.rng.pick(len(ties))] if len(ties) > 1 else ties[0]
