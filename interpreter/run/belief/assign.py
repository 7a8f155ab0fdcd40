"""Step 2, a card down every path (`_assign`): back from the last mix, the faces each mix's paths need later; forward,
the cards each mix hands out. And the mends of a drawing (`_swapped`, `_mended`, `_traded`): two cards the seat cannot
tell apart traded from their mix on."""

from __future__ import annotations

import random
from itertools import compress, islice, repeat
from operator import eq
from typing import Any

from .base import _Misfit
from .trace import _after_choice, _by_role, _choosable, _Trace

# a drawing's choices taken again where a mix before them found no card that fits (`_passed_down`)
_BACKTRACKS = 40


class _Can(dict):
    """The faces each path could carry (a superset: enough to keep the backward pass from asking a path
    for a face that cannot reach it); a path no mix drawn here made carries its need, if any."""

    def __init__(self, need: list[Any]) -> None:
        super().__init__()
        self.need = need

    def __missing__(self, s: int) -> frozenset:
        n = self.need[s]
        can = frozenset((n,)) if n is not None else frozenset()
        self[s] = can
        return can


def _possible(tr: _Trace, need: list[Any], first: int) -> _Can:
    """`_Can` going forward through the mixes from `first` on. A path of a look at several cards of a hand
    carries one of the faces shown."""
    can = _Can(need)
    shown: dict[int, frozenset] = {}
    for paths, faces in tr.glimpses:
        for s in paths:
            shown[s] = shown.get(s, frozenset(faces)) & frozenset(faces)
    for s, f in shown.items():
        can[s] = can[s] & f if need[s] is not None else f
    for kind, incoming, outgoing in tr.mixes[first:]:
        here = _possible_out(need, can, kind, incoming, outgoing)
        for t, h in zip(outgoing, here, strict=True):
            can[t] = h & can[t] if need[t] is not None or t in shown else h
    return can


def _possible_out(need: list[Any], can: _Can, kind: int, incoming: list[int], outgoing: list[int]) -> list[frozenset]:
    """The faces each outgoing path of a mix could carry. A shuffle's: any its incoming paths could bring; a
    free one, those its free incoming paths could bring and the faces its paths known to carry one bring more
    of than its outgoing paths known to need one take. A choice's: the i-th path brings the card of the i-th
    or a neighbour, or the chosen one, for each card that could have been the chosen one (one that leaves
    every known need of the paths out met)."""
    if kind < 0:
        spare: dict[Any, int] = {}
        free = []
        for s in incoming:
            if need[s] is None:
                free.append(can[s])
            else:
                spare[need[s]] = spare.get(need[s], 0) + 1
        for t in outgoing:
            if need[t] is not None and need[t] in spare:
                spare[need[t]] -= 1
        every = frozenset().union(*free, spare)
        left = frozenset().union(*free, (f for f, k in spare.items() if k > 0))
        return [every if need[t] is not None else left for t in outgoing]
    js = _choosable(lambda t, s: need[t] is None or need[t] in can[s], kind, incoming, outgoing)
    if not js:
        return [frozenset()] * len(outgoing)
    return _brought(kind, js, [can[s] for s in incoming])


def _brought(k: int, js: list[int], came: list[frozenset]) -> list[frozenset]:
    """Per outgoing path of a choice, the union over the cards at `js` (in order) that could have left of what
    `_after_choice` sends down it (`came`: what each incoming path could bring), each path's union made once rather
    than once per card. Outgoing path i keeps incoming i's card where a card after it left (below k) or one before
    it (above k); it takes its neighbour towards k's where one at or below it left (below k) or one at or above it
    (above k); and path k takes the card that left."""
    lo, hi = js[0], js[-1]
    here: list[frozenset] = []
    for i in range(len(came)):
        if i < k:
            h = came[i] if hi > i else frozenset()
            here.append(h | came[i + 1] if lo <= i else h)
        elif i > k:
            h = came[i] if lo < i else frozenset()
            here.append(h | came[i - 1] if hi >= i else h)
        else:
            here.append(frozenset().union(*[came[j] for j in js]))
    return here


def _assign(tr: _Trace, faces: list[Any], rng: random.Random, card0: list[int] | None = None,
            first: int = 0) -> list[int]:
    """The card each path carries in a world drawn at random (see the module's step 2). With `card0`, a
    drawing of the paths of the first `first` mixes: those keep their cards, the mixes since are drawn."""
    need = tr.need[:] if card0 is None else [*map(faces.__getitem__, card0), *tr.need[len(card0):]]
    can = _possible(tr, need, first)
    chosen = _passed_down(tr, need, can, first, rng)
    mixes = tr.mixes[first:]
    card = list(range(len(faces))) if card0 is None else card0[:]  # the first paths are the cards themselves
    card.extend([-1] * (len(tr.need) - len(card)))
    for kind, incoming, outgoing in mixes:
        if kind >= 0:
            for t, s in zip(outgoing, _after_choice(kind, chosen.pop(), incoming), strict=True):
                card[t] = card[s]
        else:
            _dealt(card, need, faces, _by_role(tr, incoming), _by_role(tr, outgoing), rng)
    return card


def _passed_down(tr: _Trace, need: list[Any], can: _Can, first: int, rng: random.Random) -> list[int]:
    """Step 2 backward (see `_assign`), from the last mix down to mix `first`: the needs passed back, and per
    choice, from the last, the place of the card that left in the world. A choice takes a card drawn uniformly
    among those that fit; where a mix further down then finds none that fits (two choices from one hand ask the
    cards it kept for faces no one card could bring to both: `_Can` sees each path alone), the last choice with
    other cards that fit takes another of them, up to `_BACKTRACKS` times in all, before the drawing is given up.
    Each look at several cards of a hand is placed by the last mix that made one of its paths: once the pass
    has come down to that mix (the mixes after it have asked its paths for the faces they need later), before
    that mix is asked for them."""
    looks = sorted(tr.glimpses, key=lambda look: max(tr.origin[s] for s in look[0]))
    left = len(looks)  # the looks not placed yet: looks[:left]
    chosen: list[int] = []
    stack: list[tuple[int, list[Any], int, int, list[int]]] = []  # each choice that could take other cards:
    # (its mix, the needs before it, the looks and choices then, those cards)
    backtracks, o, take = _BACKTRACKS, len(tr.mixes) - 1, -1
    while o >= first:
        try:
            if take < 0 and left:
                left = _looks_placed(tr, looks, left, o, need, rng, can)
            kind, incoming, outgoing = tr.mixes[o]
            if kind < 0:
                _passed_back(need, can, _by_role(tr, incoming), _by_role(tr, outgoing), rng)
            else:
                take, fits, before = _chosen_back(need, can, kind, incoming, outgoing, take, rng)
                if fits:
                    stack.append((o, before, left, len(chosen), fits))
                chosen.append(take)
            o, take = o - 1, -1
        except _Misfit:
            if backtracks <= 0 or not stack:
                raise
            backtracks -= 1
            o, left, take = _backtracked(stack, need, chosen, rng)
    while left:
        left -= 1
        _looked_at(tr, *looks[left], need, rng, can)
    return chosen


def _looks_placed(tr: _Trace, looks: list[tuple[list[int], list[Any]]], left: int, o: int, need: list[Any],
                  rng: random.Random, can: _Can) -> int:
    """The looks of `looks[:left]` (by the last mix that made one of their paths) made at mix `o` or after,
    placed from the last (see `_looked_at`): how many are left."""
    while left and max(tr.origin[s] for s in looks[left - 1][0]) >= o:
        left -= 1
        _looked_at(tr, *looks[left], need, rng, can)
    return left


def _chosen_back(need: list[Any], can: _Can, kind: int, incoming: list[int], outgoing: list[int], take: int,
                 rng: random.Random) -> tuple[int, list[int], list[Any]]:
    """A choice's needs passed back, from its outgoing paths to its incoming ones (a path that needs a face already
    keeps it), the card at `take` the one that left; where `take` is -1, that card drawn uniformly among those that
    fit (`_fits`; `_Misfit` if none does). The card taken, the others that fit (none if `take` was given), and the
    needs as they were before (where any other fits: for `_passed_down` to come back to)."""
    fits: list[int] = []
    if take < 0:
        fits = _fits(need, can, kind, incoming, outgoing)
        if not fits:
            raise _Misfit("no card of that hand could have been the one chosen")
        take = fits.pop(rng.randrange(len(fits)))
    before = need[:] if fits else need
    for t, s in zip(outgoing, _after_choice(kind, take, incoming), strict=True):
        if need[s] is None:
            need[s] = need[t]
    return take, fits, before


def _backtracked(stack: list[tuple[int, list[Any], int, int, list[int]]], need: list[Any], chosen: list[int],
                 rng: random.Random) -> tuple[int, int, int]:
    """The pass taken back to the last choice that could take another card (`_passed_down`'s `stack`): the needs,
    and the choices made since, as they were before it; that choice's mix, the looks not placed then, and the
    other card it takes, drawn uniformly among those left (the choice dropped from `stack` once none is)."""
    o, before, left, k, fits = stack[-1]
    need[:] = before
    del chosen[k:]
    take = fits.pop(rng.randrange(len(fits)))
    if not fits:
        stack.pop()
    return o, left, take


def _looked_at(tr: _Trace, paths: list[int], shown: list[Any], need: list[Any], rng: random.Random, can: _Can
               ) -> None:
    """The faces `shown` by a look at several cards of a hand put on its `paths` in an order drawn at random:
    the paths that need a face already (the seat saw it since, or the mixes after the look asked the path for
    it: the hand's order kept through a later choice from it) keep it, the faces left go to the others, each
    to a path that could bring it (`can`: a random matching). An order drawn blind to what the mixes after
    the look ask of each path mostly leaves a later choice from that hand with no card that fits, and one
    blind to what could reach each path a choice before the look."""
    left = sorted(shown)  # (the order shown and the paths' order in the hand: the real one's, see `_by_role`)
    free = []
    for s in _by_role(tr, paths):
        f = need[s]
        if f is None:
            free.append(s)
        elif f in left:
            left.remove(f)
        else:
            raise _Misfit("a card where the seat saw other faces")
    rng.shuffle(left)
    rng.shuffle(free)
    for s, f in _match(left, free, can).items():
        need[s] = f


def _glimpses_kept(tr: _Trace, faces: list[Any], card: list[int]) -> bool:
    """Whether the drawing `card` puts on the paths of every look at several cards of a hand the faces shown
    (in any order); a look at paths the drawing does not reach yet is left to `_assign`."""
    for paths, shown in tr.glimpses:
        if max(paths) < len(card) and sorted(faces[card[s]] for s in paths) != sorted(shown):
            return False
    return True


def _passed_back(need: list[Any], can: _Can, incoming: list[int], outgoing: list[int], rng: random.Random) -> None:
    """Step 2 backward at a shuffle: the faces its paths need that its incoming paths do not bring already
    are asked of free incoming paths that could bring them (chosen at random)."""
    wanted: dict[Any, int] = {}
    for s in outgoing:
        if need[s] is not None:
            wanted[need[s]] = wanted.get(need[s], 0) + 1
    for s in incoming:
        f = need[s]
        if f is not None and wanted.get(f):
            wanted[f] -= 1
    free = [s for s in incoming if need[s] is None]
    rng.shuffle(free)
    wants = [f for f, k in wanted.items() for _ in range(k)]
    for s, f in _match(wants, free, can).items():
        need[s] = f


def _dealt(card: list[int], need: list[Any], faces: list[Any], incoming: list[int], outgoing: list[int],
           rng: random.Random) -> None:
    """Step 2 forward at a shuffle: its cards handed out, the needed faces where they are needed (a card of
    the face at random), the rest uniformly at random."""
    pool: dict[Any, list[int]] = {}
    for s in incoming:
        pool.setdefault(faces[card[s]], []).append(card[s])
    rest = []
    for s in outgoing:
        f = need[s]
        if f is None:
            rest.append(s)
            continue
        cards = pool.get(f)
        if not cards:
            raise _Misfit("no card of a needed face reached its shuffle")
        card[s] = cards.pop(rng.randrange(len(cards)))
    left = [c for cards in pool.values() for c in cards]
    rng.shuffle(left)
    for s, c in zip(rest, left, strict=True):
        card[s] = c


def _assign_some(tr: _Trace, faces: list[Any], rng: random.Random, tries: int = 50, card0: list[int] | None = None,
                 first: int = 0) -> list[int]:
    """`_assign`, drawn again where its random choices leave a face nowhere to go (cheap: no play)."""
    for _ in range(tries - 1):
        try:
            return _assign(tr, faces, rng, card0, first)
        except _Misfit:
            continue
    return _assign(tr, faces, rng, card0, first)


def _match(wants: list[Any], paths: list[int], can: _Can) -> dict[int, Any]:
    """A path for each face wanted, among `paths` that could carry it (a bipartite matching, found by
    augmenting paths; `paths` in a random order make it a random one)."""
    owner: dict[int, int] = {}  # path -> index into wants

    def place(i: int, seen: set[int]) -> bool:
        for s in paths:
            if s not in seen and wants[i] in can[s]:
                seen.add(s)
                if s not in owner or place(owner[s], seen):
                    owner[s] = i
                    return True
        return False

    for i in range(len(wants)):
        if not place(i, set()):
            raise _Misfit("the seat saw more cards of a face than could have come there")
    return {s: wants[i] for s, i in owner.items()}


def _fits(need: list[Any], can: _Can, k: int, incoming: list[int], outgoing: list[int]) -> list[int]:
    """Which cards of the hand a player's choice could have taken (indices into `incoming`): those that fit
    what the paths need later (see `_passed_down`, which draws one uniformly)."""
    def ok(t: int, s: int) -> bool:
        return need[t] is None or (need[t] == need[s] if need[s] is not None else need[t] in can[s])

    return _choosable(ok, k, incoming, outgoing)


def _swapped(tr: _Trace, faces: list[Any], card: list[int], origin: int, x: int, y: int,
             loose: frozenset[int] = frozenset()) -> list[int] | None:
    """The drawing `card` with cards `x` and `y` traded on every path from shuffle `origin` on; None if a
    path the seat sees would then carry another face (but those of `loose`, which carry another already and
    are mended in turn: see `_traded_since`)."""
    first = tr.mixes[origin][2][0]
    card, need = card[:], tr.need
    paths = range(first, len(card))
    # the paths from there on that carry x, and those that carry y (found in C: no bytecode per path)
    xs = list(compress(paths, map(eq, islice(card, first, None), repeat(x))))
    ys = list(compress(paths, map(eq, islice(card, first, None), repeat(y))))
    for on, other in ((xs, y), (ys, x)):
        for s in on:
            if need[s] is not None and need[s] != faces[other] and s not in loose:
                return None
    for s in xs:
        card[s] = y
    for s in ys:
        card[s] = x
    if tr.glimpses and not _glimpses_kept(tr, faces, card):
        return None
    return card


def _mended(tr: _Trace, faces: list[Any], card: list[int], s: int, rng: random.Random,
            loose: frozenset[int] = frozenset()) -> tuple[list[int], int, int] | None:
    """A drawing in which path `s`, whose card's face the seat has since seen to be another, carries a
    card of that face: its card traded with one of that face that the same shuffle dealt down a path the
    seat did not see, or failing that, with one of that face that stayed in the hand a player chose it
    from unseen (the player chose that one). A path of `loose` (one that carries another face than the seat
    has since seen on it, mended in turn) counts as one the seat did not see. (The drawing, the mix, the card
    traded in), or None."""
    x, face = card[s], tr.need[s]
    choices: list[int] = []
    for o in range(min(tr.origin[s], len(tr.mixes) - 1), -1, -1):
        kind, _, outgoing = tr.mixes[o]
        if x not in map(card.__getitem__, outgoing):  # (looked through in C)
            continue
        if kind >= 0:
            choices.append(o)
            continue
        mend = _traded(tr, faces, card, o, x, face, rng, loose)
        if mend is not None or not choices:
            return mend
        break
    for o in choices:
        mend = _traded(tr, faces, card, o, x, face, rng, loose)
        if mend is not None:
            return mend
    return None


def _traded(tr: _Trace, faces: list[Any], card: list[int], o: int, x: int, face: Any, rng: random.Random,
            loose: frozenset[int] = frozenset()) -> tuple[list[int], int, int] | None:
    """`card` with `x` traded, from mix `o` on, for a card of `face` the mix sent down a path the seat did
    not see (or one of `loose`: see `_mended`): (the drawing, `o`, that card), or None."""
    ys = [card[t] for t in _by_role(tr, tr.mixes[o][2])
          if (tr.need[t] is None or t in loose) and faces[card[t]] == face]
    rng.shuffle(ys)
    for y in ys:
        swapped = _swapped(tr, faces, card, o, x, y, loose)
        if swapped is not None:
            return swapped, o, y
    return None
