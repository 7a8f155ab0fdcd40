"""A draw at the point where the last was drawn (`_moved`): the kept world moved on by proposals, a swap of two cards
one shuffle dealt down paths the seat did not see, or the other seats' answers since a point drawn anew, each kept
where the seat cannot tell the world it gives apart either."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress, filterfalse, islice, repeat
from operator import gt, is_not, ne
from typing import Any

from ..runtime import RuleError
from .assign import _swapped
from .base import _KIND, _Misfit
from .exchange import _exchanged_kept
from .kept import _Belief
from .trace import _by_role, _redraws, _Trace


def _moved(match, seat: int, tr: _Trace, rng: random.Random, want: Sequence[str], want_view: str, belief: _Belief,
           moves: int):
    """The kept world after `moves` proposals (see `determinize`)."""
    faces = match.layout.face_ids
    free = _free_by_shuffle(tr, faces, belief.card)
    shuffles = list(free)
    # answers of other seats, drawn anew by a proposal (looked through in C)
    others = any(map(ne, map(_KIND, match.history), repeat(seat)))
    for _ in range(moves):
        if others and (not shuffles or rng.random() < 0.5):
            # the other seats' answers since the last shuffle, or since one of the seat's own answers after it (each
            # as likely: a block of them, played from the copy kept there), drawn anew (their secret picks, where
            # nothing the seat saw tells them): the kept world's answers are not held for good. Where none of them
            # is drawn anew, the world played again is the kept one: not played
            first = belief.snaps[-1].d if belief.snaps else 0
            marks = [mark for mark in belief.marks if mark.d > first]
            k = rng.randrange(len(marks) + 1) if marks else 0
            start = marks[k - 1].d if k else first
            if not _redraws(tr, belief.tracer.decisions, seat, start):
                continue
            orders = _orders_ahead(belief, start, rng)
            if orders and _moves_nowhere(belief.found, orders):  # the world played again would be the kept one
                continue
            replay = belief.replay(match, seat, tr, belief.card, rng, want, want_view)
            if orders:  # (what the kept world found holds of the copy played from, and of the world while it is that)
                replay.orders, replay.known, replay.found, replay.whole = orders, belief.found, dict(belief.found), \
                    belief.whole
            try:
                world = replay.play(0, replay.marked(marks[k - 1]) if k else replay.resume(len(tr.deals)))
            except (_Misfit, RuleError):
                continue
            if replay.fits(world):
                belief.keep(replay, world, belief.events)
            continue
        if not shuffles:
            break
        o = rng.choice(shuffles)
        x, y = rng.sample(free[o], 2)
        if faces[x] != faces[y]:
            _swap_proposed(match, seat, tr, rng, want, want_view, belief, o, x, y)
    return belief.world


def _orders_ahead(belief: _Belief, first: int, rng: random.Random) -> dict[int, list[int]]:
    """For the kept world played again from answer `first` on, its answers drawn anew drawn again: the order each
    tries its options in, drawn now (`_Replay.redraw` takes them, each as random as one drawn then), where the kept
    world's answers drawn anew from `first` on are noted (`_Belief.found`: where no chance follows an answer);
    else {}."""
    found, whole = belief.found, belief.whole
    if whole is None or first < whole or not found:
        return {}
    orders: dict[int, list[int]] = {}
    for d in sorted(found):
        if d >= first:
            order = list(range(found[d][0]))
            rng.shuffle(order)
            orders[d] = order
    return orders


def _moves_nowhere(found: dict[int, tuple[int, int, frozenset[int]]], orders: dict[int, list[int]]) -> bool:
    """Whether the kept world played again, its answers drawn anew in `orders` (`_orders_ahead`), comes out as it is
    (a proposal that moves nowhere, then not played): where in each order the first option not known to fail is the
    one the answer took before. On the same world an option that failed fails again (no chance follows an answer),
    so each answer takes again the option it took, and the world after it is the kept one as it stood."""
    return all(next(filterfalse(found[d][2].__contains__, order)) == found[d][1] for d, order in orders.items())


def _free_by_shuffle(tr: _Trace, faces: list[Any], card: list[int]) -> dict[int, list[int]]:
    """Shuffle -> the cards of the drawing `card` it dealt down paths the seat never sees after (where those
    are of more than one face: a swap among them is a proposal), the latest shuffle first."""
    n = len(card)
    # each card of the drawing -> the last path the seat sees that carries it (found in C: no bytecode per path)
    seen = list(compress(range(n), map(is_not, islice(tr.need, n), repeat(None))))
    last = dict(zip(map(card.__getitem__, seen), seen, strict=True))
    free: dict[int, list[int]] = {}
    for o in sorted(tr.mix_deal, reverse=True):  # (the shuffles' mixes)
        outgoing = tr.mixes[o][2]
        first = outgoing[0]
        lasts = map(last.get, map(card.__getitem__, outgoing), repeat(-1))
        kept = list(compress(outgoing, map(gt, repeat(first), lasts)))  # not seen since the shuffle
        if len({faces[card[t]] for t in kept}) > 1:
            free[o] = [card[t] for t in _by_role(tr, kept)]
    return free


def _swap_proposed(match, seat: int, tr: _Trace, rng: random.Random, want: Sequence[str], want_view: str,
                   belief: _Belief, o: int, x: int, y: int) -> None:
    """The kept world with cards `x` and `y` swapped from shuffle `o` on, kept if the seat cannot tell it
    from the match: its answers given again, else the others' secret ones drawn anew (see `_moved`)."""
    swapped = _swapped(tr, match.layout.face_ids, belief.card, o, x, y)
    if swapped is None:
        return
    deal = tr.mix_deal[o]
    if _exchanged_kept(match, seat, tr, rng, want, want_view, belief, deal, (x, y), swapped):
        return
    for again in (True, False):
        replay = belief.replay(match, seat, tr, swapped, rng, want, want_view)
        try:
            start = replay.resume(deal)
            world = replay.play(0, replay.again(start, belief.world, [(deal, x, y)]) if again else start)
        except (_Misfit, RuleError):
            continue
        if replay.fits(world):
            belief.keep(replay, world, belief.events)
            return
