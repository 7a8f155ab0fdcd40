"""Step 3, what a replay holds (`_ReplayState`): the match, the seat and its drawing, the copies of the world it kept
and where it plays from; whether a world observed what the seat did (`reached`, `fits`), line by line against the
seat's lines in the match (`_Observed`); and the budgets of its mends and redraws."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from itertools import compress, islice, repeat
from operator import eq
from typing import Any, NamedTuple

from ..information import DECIDE, _catch_up, view_json
from ..runtime import OWNER, PUBLIC
from .base import _KIND, DEFAULT_PROBES, _Misfit, match_class
from .trace import _last_redrawn, _Trace
from .world_chance import _Plan, _rechanced, _Source, _WorldChance


class _Snap(NamedTuple):
    """A copy of a world just before answer `d`, with `used` of the drawing's shuffles dealt by then."""

    used: int
    d: int
    world: Any


def _labelled(world, ask: tuple, label: str) -> int:
    """The option of `ask` whose omniscient label (as the record of answers has it) is `label`; -1 if none."""
    return next((i for i in range(len(ask[1])) if world.label(ask, i) == label), -1)


class _Observed(Sequence[str]):
    """A seat's rendered observations as a read-only list (`want[j]`, `want[a:b]`, `len(want)`), read in place
    from its cache (see `information.Seen`) as it is now: not copied into one list, which costs in proportion
    to the match's length where a draw late in a match reads only its last lines."""

    __slots__ = ("chunks", "lines", "n", "size")

    def __init__(self, match, seat: int) -> None:
        cache = match._seen[seat]
        _catch_up(match, seat, cache)
        # the cache's lists are appended to only past the lengths read here; its chunks are a tuple
        self.lines, self.n, self.chunks, self.size = cache.lines, cache.n, cache.chunks, cache.count

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, j: Any) -> Any:
        if j.__class__ is slice:
            a, b, step = j.indices(self.size)
            return self.window(a, b) if step == 1 else [self[i] for i in range(a, b, step)]
        if j < 0:
            j += self.size
        if not 0 <= j < self.size:
            raise IndexError(j)
        if j < self.n:
            return self.lines[j]
        for _, i, lines, _ in self.chunks:
            if j < i + len(lines):
                return lines[j - i]
        raise IndexError(j)

    def window(self, a: int, b: int) -> list[str]:
        """The lines from the a-th up to the b-th (b itself left out)."""
        b = min(b, self.size)
        if b <= self.n:
            return self.lines[a:b]
        out = self.lines[a:self.n] if a < self.n else []
        for _, i, lines, _ in self.chunks:
            if i < b and i + len(lines) > a:
                out.extend(lines[max(0, a - i):b - i])
        return out


def _window(want: Sequence[str], a: int, b: int) -> list[str]:
    """Lines a to b (b left out) of a seat's observations, however they are held."""
    return want.window(a, b) if want.__class__ is _Observed else list(want[a:b])


def _lines_from(cache, k: int) -> list[str]:
    """A seat's rendered observations from the k-th on (see `information.Seen`)."""
    out = cache.lines[k:cache.n] if k < cache.n else []
    chunks = cache.chunks
    j = len(chunks)
    while j and chunks[j - 1][1] > k:  # (the chunks from k on, found from the last: k is most often near it)
        j -= 1
    if j:
        _, i, lines, _ = chunks[j - 1]
        if i + len(lines) > k:
            out.extend(lines[k - i:])
    for chunk in chunks[j:]:
        out.extend(chunk[2])
    return out


def _answers_from(world, d: int) -> list[tuple]:
    """The answers recorded in `world` from its d-th on (each answer records one event): read from the end of
    its record, not the whole of it (the events looked through in C: no bytecode per event)."""
    events, left = world._watch.events, len(world.history) - d
    if left <= 0:
        return []
    out = list(islice(compress(reversed(events), map(eq, map(_KIND, reversed(events)), repeat(DECIDE))), left))
    out.reverse()
    return out


def _applied(world, who: int, action: int):
    """`world` after `who` answered `action`."""
    world.apply(who, action)
    return world


class _ReplayState:
    """What a replay holds (`_Replay`): the match, the seat and its drawing, the world's chance, the copies of the
    world it kept, and what its mends learned; where it plays from (a kept copy, or the start), and whether a world
    observed what the seat did."""

    options = 1  # how many options the last answer drawn anew had (`redraw`)
    run_mark: tuple[int, int, int] | None = None  # where the chance stood before the answer being given (`chance_mark`)

    def __init__(self, match, seat: int, tr: _Trace, card: list[int], rng: random.Random, want: Sequence[str],
                 want_view: str, decisions: list[tuple], budget: list[int] | None = None,
                 source: _Source | None = None, snaps: list[_Snap] | None = None, opened: _Snap | None = None,
                 marks: list[_Snap] | None = None) -> None:
        self.match, self.seat, self.bit, self.tr, self.rng = match, seat, 1 << seat, tr, rng
        self.want, self.want_view = want, want_view
        self.plan = _Plan(tr.deals[:], card)
        self.source = source if source is not None else _Source(random.Random(match.seed))
        # the outcomes drawn anew come from a generator of their own, derived from `rng` without drawing from it (so
        # that they leave the rest of the drawing as it was)
        self.source.rng = random.Random(hash(rng.getstate()[1])) if self.source.rng is None else self.source.rng
        self.source.rolls, self.source.drawn, self.source.unseen = tr.rolls, tr.drawn, tr.unseen
        self.source.kept = tr.kept
        self.snaps = snaps[:] if snaps is not None else []  # copies of the world before answers that dealt
        # copies of the world before the seat's own answers since the last shuffle (see `played`, `_moved`)
        self.dealt_last = max(tr.dealing, default=-1)  # the answer after which the match last shuffled
        self.marks = [mark for mark in marks if mark.d > self.dealt_last] if marks else []
        # the last answer since that shuffle a world played again from there draws anew: copies are kept before the
        # seat's answers ahead of it only (from one after it, nothing would be drawn anew)
        self.redrawn = _last_redrawn(tr, decisions, seat, self.dealt_last + 1)
        self.decisions = decisions
        self.faces = match.layout.face_ids
        self.budget = budget if budget is not None else [DEFAULT_PROBES]  # probes left to the whole draw
        self.changed: int | None = None  # the first shuffle whose cards a mend changed (and left unchecked)
        self.thorough = False  # mends as `repair_thorough` looks for them (see `_drawn`)
        self.targeted = False  # the quick mends, the answer's own unseen card swapped first (`own_card_first`)
        self.redrew = False  # the last answer given was another seat's, drawn anew (`redraw`)
        # where no chance follows an answer (`Game.chance_after_answers` False), what each answer drawn anew found on
        # the world this replay gives: answer -> (its options, the one taken, options known to fail there), noted for
        # every such answer from answer `whole` on (None: nowhere); what the kept world's found (`known`, while this
        # world is that one as it stood: see `redraw`), and orders of options drawn ahead (see `_orders_ahead`)
        self.found: dict[int, tuple[int, int, frozenset[int]]] = {}
        self.whole: int | None = None
        self.known: dict[int, tuple[int, int, frozenset[int]]] | None = None
        self.orders: dict[int, list[int]] = {}
        self.repairs = 0  # mends left to `play`
        self.traded: set[int] = set()  # the cards thorough mends have traded
        self.stream_state: tuple | None = None  # the real generator's state, once the world is drawn
        self.reals: list[tuple[int, int]] = []  # and the outcomes it gave (`_Source.reals`), kept by the belief
        # the first answer to a question still open in the match, and a copy of the world before it (so that
        # a world carried on past its closing draws the answers to it again from there: see `before`)
        self.open_at = len(match.history) - len(match._answers) if match._answers else None
        self.opened = opened
        # per answer the world passed (see `ranked`): the faces the seat's lines since the answer before name,
        # and the cards of each zone of another player the seat does not see into, just before the answer
        # (the faces are worked out only once a mend asks: `named_at`)
        self.told: dict[int, tuple[int, int, list[set[int]]]] = {}
        self.named: dict[int, frozenset] = {}
        # answer -> (a zone of `hidden`, a face, a count): a mend that let the world give the answer changed how
        # many cards of that face, named there, the zone held before it, to that count (see `learned`)
        self.pins: dict[int, list[tuple[int, Any, int]]] = {}
        self.mends: dict[int, set[frozenset[int]]] = {}  # answer -> the pairs of cards traded to mend it
        self.stepped: set[int] = set()  # the cards the steps on the way of the answer being mended traded (`step_kept`)
        self.unanswered = False  # the answer being mended is another player's that no option of it fits
        self.moved_last = -1  # the card the world moved last before the answer being mended parted (see `pairs`)
        self.lines_at = 0  # the seat's first line of the answer being mended (as the world before it matched)
        t = match.layout
        self.hidden = [zi for zi, p in enumerate(t.zone_owner)
                       if p >= 0 and t.zone_vis[zi] != PUBLIC and not (p == seat and t.zone_vis[zi] == OWNER)]
        self.words: tuple[re.Pattern, dict[str, frozenset]] | None = None  # what names a face (`_face_words`)

    def dealt(self, world, used: int, d: int, prev) -> None:
        """After answer `d`: if `world` shuffled in it (as the real match did), keep `prev`, the copy
        taken before it, to play again from; `_Misfit` if it shuffled where no copy was taken."""
        if world.st.rng.used != used:
            if prev is None:
                raise _Misfit("a shuffle the real match did not have")
            self.snaps.append(_Snap(used, d, prev))

    def opening(self, world, prev, used: int, d: int) -> None:
        """Before answer `d`: if it opens the question still open in the match, keep a copy of `world`."""
        if d == self.open_at:
            self.opened = _Snap(used, d, prev.clone() if prev is not None else world.backup())

    def before(self, d: int, deal: int | None) -> tuple | None:
        """Where to play again from to give answer `d` and those after anew, the drawing changed from shuffle
        `deal` on (None: not changed): the last copy kept before both, on this drawing's chance (None: the
        start)."""
        self.snaps = [snap for snap in self.snaps if snap.d <= d and (deal is None or snap.used <= deal)]
        opened = self.opened
        if opened is not None and opened.d <= d and (deal is None or opened.used <= deal) and \
                (not self.snaps or opened.d > self.snaps[-1].d):
            self.marks = [mark for mark in self.marks if mark.d <= opened.d]
            return _rechanced(opened.world, self.plan, self.source), opened.d
        return self.last()

    def resume(self, deal: int) -> tuple | None:
        """Where to play again from after the drawing changed from shuffle `deal` on: the last copy kept
        before the answer that dealt it, on this drawing's chance (None: the start)."""
        self.snaps = [snap for snap in self.snaps if snap.used <= deal]
        return self.last()

    def last(self) -> tuple | None:
        """The last copy kept, taken off the list (it is taken again when its answer is given again), on
        this drawing's chance; None: the start."""
        if not self.snaps:
            self.marks = []
            return None
        snap = self.snaps.pop()
        self.marks = [mark for mark in self.marks if mark.d <= snap.d]
        return _rechanced(snap.world, self.plan, self.source), snap.d

    def marked(self, mark: _Snap) -> tuple:
        """Where to play again from to give the answers since `mark` (a copy of the last world before one of the
        seat's answers) anew, the drawing unchanged: that copy, on this drawing's chance."""
        self.snaps = [snap for snap in self.snaps if snap.d <= mark.d]
        self.marks = [other for other in self.marks if other.d <= mark.d]
        return _rechanced(mark.world, self.plan, self.source), mark.d

    @property
    def card(self) -> list[int]:
        return self.plan.card

    @card.setter
    def card(self, card: list[int]) -> None:
        self.plan.card = card

    def start(self):
        """A new world at its start, its shuffles to deal the drawing's orders (set up again, its chance drawn
        anew, where an outcome of the set-up drawn anew parts from what the seat observed: see `step`)."""
        m, source = self.match, self.source
        tries = _REDRAWN_CHANCE if -1 in self.tr.unseen and (-1 in self.tr.drawn or -1 in self.tr.maybe) and \
            not source.events and \
            source.rng is not None else 1
        for k in range(tries):
            if k:
                del source.events[:]
            world = match_class(m)(m.game, m.players, m.seed, chance=_WorldChance(self.plan, source),
                                   arrange=self.arranged(), after_setup=m._after_setup)
            world._verified = 0
            if k + 1 == tries or self.reached(world) < 0:
                break
        return world

    def arranged(self) -> dict[str, list[str]] | None:
        """The real match's `arrange` (a set-up that puts named cards on top of zones) as this world makes it: each
        card named there moves the card the drawing puts on that card's path, not the card of that name (which
        would put the real match's unseen cards where they lay in it, in every world)."""
        arrange = self.match._arrange
        if not arrange:
            return arrange
        ids = self.match.layout.card_ids
        index = {cid: c for c, cid in enumerate(ids)}
        named = [index.get(cid, -1) for cards in arrange.values() for cid in reversed(cards)]
        moves, n = self.tr.arranged, len(named)
        at = next((k for k in range(len(moves) - n, -1, -1) if [c for c, _ in moves[k:k + n]] == named), None)
        if at is None:  # (the set-up's moves not walked: an arrangement the match refused)
            return arrange
        paths = iter([p for _, p in moves[at:at + n]])
        return {zone: [ids[self.card[next(paths)]] for _ in cards][::-1] for zone, cards in arrange.items()}

    def reached(self, world) -> int:
        """-1 if the seat observed the same in `world` so far, else how many observations matched first.
        (A world carries how many it is known to match, `_verified`: only the lines since are compared.)"""
        cache = world._seen[self.seat]
        _catch_up(world, self.seat, cache)
        k, want = world._verified, self.want
        if cache.count == k:
            return -1
        lines = _lines_from(cache, k)
        wanted = _window(want, k, k + len(lines))  # as many as the world has new (fewer where the seat saw fewer)
        if lines == wanted:  # (compared in C: the common case)
            world._verified = cache.count
            return -1
        for j, (line, told) in enumerate(zip(lines, wanted, strict=False), k):
            if line != told:
                return j
        if len(lines) > len(wanted):
            return k + len(wanted)
        world._verified = cache.count
        return -1

    def fits(self, world) -> bool:
        """The seat observed all it did, and sees now what it sees, in `world`: its information state is the
        same as in the real match."""
        return self.reached(world) == -1 and world._verified == len(self.want) and \
            view_json(world, self.seat) == self.want_view


_PROBES = 40  # swaps tried to mend one answer
_BLOCKED = 8  # trades of all the options a player had instead, tried first where its answer was none of them
_CHECKS = 10  # swaps that fit one answer, checked from their shuffle on (see `_Replay.repair_thorough`)
_REDRAWS = 8  # times a run of other seats' answers drawn anew is drawn again where what follows does not fit, at least
_REDRAWS_MOST = 64  # at most, for a run of secret answers with many ways to go together (`_Replay.ran`)
_REDRAWN_REACH = 3  # answers after such a run within which a misfit draws it again
_FLAT = 6  # mends in a row that take the world no further, before the drawing is given up
_REDRAWN_CHANCE = 24  # plays of an answer whose chance is drawn anew, before the world is taken to part there
