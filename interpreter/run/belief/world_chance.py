"""A world's chance (step 3 of the package): the drawing its shuffles deal (`_Plan`), the outcomes it reads back or
draws anew by their real probabilities (`_Source`), and the generator a world's state holds (`_WorldChance`), which
reads both."""

from __future__ import annotations

import random
from typing import Any

from .base import _Misfit


class _Plan:
    """The drawing a world is played along: the paths each shuffle deals (in order) and the card on each
    path. Changed in place while a world is mended, so that copies of it deal the drawing as it is now."""

    __slots__ = ("card", "deals")

    def __init__(self, deals: list[list[int]], card: list[int]) -> None:
        self.deals, self.card = deals, card


class _Source:
    """A world's chance outcomes as drawn so far, shared by the world and its copies: (n, outcome), an
    outcome -1 for a shuffle of n cards. While the world is played again, the next ones are drawn as they
    come (`_WorldChance._next`), a copy of the real match's generator kept in step with it (`stream`: it
    tells where the world's chance parts from the real match's); that copy is dropped once the world is
    drawn, so a world never holds what could tell the real match's chance to come.

    Which outcomes the seat saw is told by the language: a roll is heard by the whole table, so a roll
    comes out as the real one did (`rolls`: per answer, the real rolls after it, as (sides, result)); so does
    every outcome after an answer whose moves the seat all saw (the card a random pick took, where it went).
    Every other outcome (a random card, player or place after an answer that moved a card the seat did not
    see move: `unseen`) is drawn anew from `rng`, by its real probabilities, never taken from the real match;
    where the seat did see it, the world that parts is played again with other outcomes (see
    `_Replay.step`), so that the seat's observations pick the outcomes that fit.
    `drawn`: the answers (-1: the set-up) after which an outcome was drawn anew."""

    __slots__ = ("anew", "anews", "drawn", "events", "kept", "reals", "rng", "rolls", "run_at", "run_saved", "save_at",
                 "saved", "stream", "timeline", "unseen")

    def __init__(self, stream: random.Random | None) -> None:
        self.events: list[tuple[int, int]] = []
        self.reals: list[tuple[int, int]] = []  # the real generator's outcomes, by place (kept: see `_Replay.chanced`)
        self.stream = stream
        self.rng: random.Random | None = None
        self.rolls: dict[int, list[tuple[int, int]]] = {}
        self.drawn: set[int] = set()
        self.unseen: set[int] = set()  # the answers after which the rules moved a card the seat did not see move
        self.anew = 0  # the outcomes drawn anew so far
        # a drawn world's trades of cards (`_WorldChance.swaps`), for it to be played again from its start
        self.timeline: tuple[tuple[int, dict[int, int]], ...] = ()
        self.anews: list[tuple[int, int, int]] = []  # each: (answer, its k-th outcome, where the world's record stood)
        # (answer, k): its k-th outcome drew a card the seat saw move (the real outcome is kept: `_Replay.chanced`)
        self.kept: set[tuple[int, int]] = set()
        # an attempt that may be rewound draws its outcomes from the `save_at`-th on; where the real generator's copy
        # stood there, taken when the attempt first draws from it (see `rewind`)
        self.save_at: int | None = None
        self.saved: tuple | None = None
        # the same for a run of other seats' answers drawn anew, which may be drawn again whole (`_Replay.ran`)
        self.run_at: int | None = None
        self.run_saved: tuple | None = None

    def attempt(self, mark: int) -> None:
        """An attempt (an option of another seat's answer, or chance drawn again) draws its outcomes from the `mark`-th
        on, and may be rewound to there (`rewind`)."""
        self.save_at, self.saved = mark, None

    def release(self) -> None:
        """The world is drawn: it keeps neither the copy of the real generator nor any state of it (the belief keeps
        where it stands), nor the generator of the outcomes drawn anew."""
        self.stream = self.rng = self.saved = self.save_at = self.run_saved = self.run_at = None

    def run_from(self, mark: int | None) -> None:
        """A run of answers drawn anew may start here, its outcomes drawn from the `mark`-th on (None: read back from an
        earlier drawing, none drawn): where the real generator's copy stood there is taken when the run first draws
        from it, as for an attempt (`attempt`)."""
        self.run_at, self.run_saved = mark, None

    def rewind_run(self, mark: int) -> None:
        """The outcomes a run drew from the `mark`-th on dropped, the real generator's copy set back where it stood
        (see `rewind`): the run is drawn again, with outcomes of its own, not those of the draw that failed (read back,
        they are another chance than the new answers' where these draw otherwise, and every world after parts)."""
        self.run_saved = self._set_back(mark, self.run_at, self.run_saved)

    def rewind(self, mark: int) -> None:
        """The outcomes drawn from the `mark`-th on dropped (an attempt that failed: another is drawn from there), and
        with them what the real generator's copy gave for them, that copy set back where it stood (`attempt`): so that
        the real outcomes a later attempt reads follow its own chance, not that of one dropped (which may have drawn
        more or fewer outcomes, and so put the copy out of step with the real match for every world after it)."""
        self.saved = self._set_back(mark, self.save_at, self.saved)

    def _set_back(self, mark: int, at: int | None, saved: tuple | None) -> tuple | None:
        """The outcomes from the `mark`-th on dropped; where the real generator's copy was `saved` at the `at`-th, that
        copy set back and its outcomes since dropped too: None (the state is used up), else `saved` as it was."""
        del self.events[mark:]
        if saved is None or at != mark or self.stream is None:
            return saved
        del self.reals[mark:]
        self.stream.setstate(saved)
        return None


class _WorldChance:
    """A world's chance: its shuffles deal the drawing's orders, in turn; every other outcome is the real
    match's as the seat saw it (see `_Source`). A value: a copy goes on from the same point."""

    __slots__ = ("at", "picked", "plan", "pos", "rolled", "source", "swap", "swaps", "used", "watch")

    def __init__(self, plan: _Plan, source: _Source) -> None:
        self.plan, self.source, self.pos, self.used = plan, source, 0, 0
        self.at, self.rolled = -1, 0  # the answer being given (-1: the set-up), and the rolls it made so far
        self.picked = 0  # and its other outcomes so far
        self.watch: Any = None  # the world's record of events, where its outcomes drawn anew are placed
        # the cards this world traded for those the drawing puts on a path (card -> card; see `_Replay.aligned`):
        # a random pick drawn anew that took another card than the real one, each goes the other's way since
        self.swap: dict[int, int] = {}
        # each trade as it came: (the outcomes drawn before it, `swap` from then on), so that the world played again
        # from its start (`replayed`) deals as it did
        self.swaps: tuple[tuple[int, dict[int, int]], ...] = ()

    def begin(self, d: int) -> None:
        """Answer `d` is given next: its chance follows the real match's after that answer."""
        self.at, self.rolled, self.picked = d, 0, 0

    def card(self, c: int) -> int:
        """The card of this world that goes the way the drawing sends card `c`."""
        return self.swap.get(c, c) if self.swap else c

    def _next(self, n: int, shuffle: bool) -> int:
        source, i = self.source, self.pos
        if i < len(source.events):
            m, outcome = source.events[i]
            if m != n or (outcome < 0) != shuffle:
                raise _Misfit("chance where the real match had other chance")
        else:
            stream = source.stream
            if stream is None:
                raise _Misfit("chance past what was drawn")
            reals = source.reals
            real: int | None
            if source.save_at == i == len(reals) and source.saved is None:  # (where an attempt may be rewound to)
                source.saved = stream.getstate()
            if source.run_at == i == len(reals) and source.run_saved is None:  # (and a run)
                source.run_saved = stream.getstate()
            if i < len(reals):  # drawn before, then drawn again: the real generator went past it already
                # (a world whose chance went another way than the real match's has no real outcome here)
                real = reals[i][1] if reals[i][0] == n and (reals[i][1] < 0) == shuffle else None
            else:
                if shuffle:  # the real shuffle's draws, one per card but the last
                    for k in range(n - 1, 0, -1):
                        stream._randbelow(k + 1)  # type: ignore[attr-defined]
                drew = -1 if shuffle else stream._randbelow(n)  # type: ignore[attr-defined]
                reals.append((n, drew))
                real = drew
            outcome = -1 if shuffle else self._drawn(n, real)
            source.events.append((n, outcome))
        self.pos = i + 1
        return outcome

    def _drawn(self, n: int, real: int | None) -> int:
        """An outcome of n not read back (`real`: the real match's, where the world is in step with it): the real
        roll the table heard, where the answer's next roll is one of n sides; the real outcome where the seat saw
        every card the rules moved after the answer, or where the card such an outcome drew anew moved in the
        seat's sight (`_Source.kept`); else drawn anew by its real probabilities (a random card, player or place:
        see `_Source`)."""
        source = self.source
        rolls = source.rolls.get(self.at, ())
        if self.rolled < len(rolls) and rolls[self.rolled][0] == n:
            self.rolled += 1
            return rolls[self.rolled - 1][1] - 1
        j = self.picked
        self.picked += 1
        if real is not None and (self.at not in source.unseen or (self.at, j) in source.kept):
            return real
        if source.rng is None:
            raise _Misfit("chance past what was drawn")
        source.drawn.add(self.at)
        source.anew += 1
        if self.watch is not None:  # where in the world's record it was drawn (see `_Replay.learned_seen`)
            source.anews.append((self.at, j, len(self.watch.events)))
        return source.rng.randrange(n)

    def _randbelow(self, n: int) -> int:
        return self._next(n, False)

    __call__ = _randbelow  # a chance function, as `Match` takes one

    def shuffled(self, cards: list[int]) -> list[int]:
        """The order this world's next shuffle deals."""
        self._next(len(cards), True)
        plan = self.plan
        if self.used >= len(plan.deals):
            raise _Misfit("a shuffle the real match did not have")
        order = [plan.card[s] for s in plan.deals[self.used]]
        timeline = self.source.timeline
        while timeline and self.swaps != timeline and timeline[len(self.swaps)][0] < self.pos:
            self.swaps = timeline[:len(self.swaps) + 1]  # (a world played again from its start: see `swaps`)
            self.swap = self.swaps[-1][1]
        if self.swap:
            order = [self.swap.get(c, c) for c in order]
        self.used += 1
        if sorted(order) != sorted(cards):
            raise _Misfit("a shuffle of other cards")
        return order

    def __deepcopy__(self, memo: dict) -> _WorldChance:
        other = _WorldChance(self.plan, self.source)
        other.pos, other.used, other.at, other.rolled, other.picked = self.pos, self.used, self.at, self.rolled, \
            self.picked
        other.swap, other.swaps = self.swap, self.swaps  # (replaced, never changed in place)
        return other


def _rechanced(world, plan: _Plan, source: _Source):
    """A copy of `world` (at a question) whose chance deals the drawing `plan` from its kept base on."""
    other = world.clone()
    cur, frozen = other._base
    old = frozen[-1][1]
    chance = _WorldChance(plan, source)
    chance.pos, chance.used = old.pos, old.used
    chance.swap, chance.swaps = old.swap, old.swaps  # the trades the copy's world made by then go on with it
    other._base = (cur, (*frozen[:-1], ("object", chance)))
    return other


def _source_after(source: _Source, state: tuple, reals: list[tuple[int, int]]) -> _Source:
    """A world's chance as drawn so far (`source`), able to go on: a copy of the real match's generator
    at the same point (`state`, kept by the match's belief), for a world played on from one drawn before."""
    stream = random.Random.__new__(random.Random)  # its state set at once, not seeded from the system first
    stream.setstate(state)
    other = _Source(stream)
    other.events, other.reals = source.events[:], reals[:]
    return other


def _chance_of(world) -> _WorldChance:
    """A world's chance as it stands: that of a world exchanged (`_exchanged_kept`), or of a copy of it, not rebuilt
    yet and on the same base, without rebuilding it; else its running state's."""
    entry = world.__dict__.get("_chance")
    if entry is not None and entry[0] is world._base and "st" not in world.__dict__:
        return entry[1]
    return world.st.rng
