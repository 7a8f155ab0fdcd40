"""What a match keeps per seat between draws (`_Belief`): the walk of its events, its last world, that world's chance
and its copies; and a copy of the match starting from the same beliefs (`carry`)."""

from __future__ import annotations

import random
import weakref
from collections.abc import Sequence
from typing import Any

from .replay import _Replay
from .replay_state import _Snap
from .trace import _Trace, _Tracer
from .world_chance import _Source, _source_after


class _Belief:
    """What a match keeps for one seat between draws: the walk of its events (`tracer`), and its last
    world: the drawing (`card`, made over the first `mixes` mixes), how many of the match's events it
    fits, the world, its chance as drawn (`source`), and copies of it before each answer that dealt a
    shuffle (`snaps`). A copy of the match starts from the same belief (`carry`): `holders`, the matches that
    keep it; one of several takes a copy of its own before it draws (`_belief`). Only the walk changes in
    place: every other field is replaced whole, never changed, so a copy shares them."""

    __slots__ = ("card", "events", "found", "holders", "marks", "mixes", "needs", "open", "opened", "reals", "snaps",
                 "source", "stream", "tracer", "whole", "world")

    def __init__(self, tracer: _Tracer) -> None:
        self.holders: weakref.WeakSet = weakref.WeakSet()
        self.tracer = tracer
        self.card: list[int] = []
        self.events, self.mixes = 0, 0
        self.needs = 0  # the trace's `needed` paths the world was drawn knowing
        self.world: Any = None
        self.source: _Source | None = None
        self.stream: tuple | None = None  # the real generator's state where the world's chance stopped
        self.reals: list[tuple[int, int]] = []  # the outcomes it gave there (`_Source.reals`)
        self.snaps: list[_Snap] = []
        self.marks: list[_Snap] = []  # copies of it before the seat's own answers since the last shuffle
        self.open: int | None = None  # the first answer to a question still open when the world was kept
        self.opened: _Snap | None = None  # a copy of the world before that answer
        # what the world's answers drawn anew found, noted for each from answer `whole` on (`_Replay.found`)
        self.found: dict[int, tuple[int, int, frozenset[int]]] = {}
        self.whole: int | None = None

    def copy(self) -> _Belief:
        """A copy for one match to draw with on its own: the walk copied, the rest shared (see the class)."""
        other = _Belief.__new__(_Belief)
        for name in _Belief.__slots__:
            setattr(other, name, getattr(self, name))
        other.tracer, other.holders = self.tracer.copy(), weakref.WeakSet()
        return other

    def replay(self, match, seat: int, tr: _Trace, card: list[int], rng: random.Random, want: Sequence[str],
               want_view: str, budget: list[int] | None = None) -> _Replay:
        """A replay along `card` that goes on from the last world: its chance as drawn, its copies."""
        assert self.source is not None and self.stream is not None, "a world was kept"
        return _Replay(match, seat, tr, card, rng, want, want_view, self.tracer.decisions, budget,
                       source=_source_after(self.source, self.stream, self.reals), snaps=self.snaps,
                       opened=self.opened, marks=self.marks)

    def keep(self, replay: _Replay, world, events: int) -> None:
        self.card, self.world, self.source, self.snaps = replay.card, world, replay.source, replay.snaps
        self.opened, self.marks = replay.opened, replay.marks
        self.found, self.whole = replay.found, replay.whole
        self.events, self.mixes, self.stream, self.reals = events, len(replay.tr.mixes), replay.stream_state, \
            replay.reals
        self.needs = len(replay.tr.needed)


def _beliefs(match) -> dict[int, _Belief]:
    """The match's beliefs by seat (kept with its record of events, which only grows)."""
    kept = match.__dict__.get("_kept")
    if kept is None or kept[0] is not match._watch:
        kept = (match._watch, {})
        match._kept = kept
    return kept[1]


def _belief(match, seat: int) -> _Belief:
    """The match's belief for `seat` (kept with its record of events, which only grows), made on first use; one
    another match keeps too (a copy of this one, or the match this one is a copy of) copied first for this one."""
    beliefs = _beliefs(match)
    belief = beliefs.get(seat)
    if belief is None:
        belief = beliefs[seat] = _Belief(_Tracer(match, seat))
    else:
        holders = belief.holders
        if match in holders:
            if len(holders) == 1:
                return belief
            holders.discard(match)
            belief = beliefs[seat] = belief.copy()
    belief.holders.add(match)
    return belief


def carry(match, other) -> None:
    """`other`, a copy of `match` just made (`Match.clone`), starts from the beliefs `match` keeps for its seats
    (a first draw on the copy then costs what a draw on `match` would: no walk of its events again, no world
    played from the start); each is copied for whichever of the two draws with it first (`_belief`)."""
    kept = match.__dict__.get("_kept")
    if kept is None or kept[0] is not match._watch:
        other.__dict__.pop("_kept", None)
        return
    other._kept = (other._watch, dict(kept[1]))
    for belief in kept[1].values():
        belief.holders.add(other)
