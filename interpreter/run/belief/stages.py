"""The stages of a draw (`determinize`): the kept world moved on (`moves`) or carried on (`_carried`), drawn again from
its last shuffles (`_redealt`), drawn afresh (`_drawn`: quick, thorough, patient and targeted drawings), and last the
match walked from its start (`_walked`); and a world's whole history played again from its drawing (`replayed`)."""

from __future__ import annotations

import random
import weakref
from collections.abc import Sequence
from contextlib import suppress
from typing import Any

from ..information import view_json
from ..runtime import RuleError
from .assign import _assign_some, _glimpses_kept, _mended
from .base import DEFAULT_MOVES, DEFAULT_PROBES, DEFAULT_REPAIRS, DEFAULT_TRIES, NoConsistentWorld, _Misfit, match_class
from .kept import _Belief, _belief, _beliefs
from .moves import _moved
from .replay import _Replay
from .replay_state import _Observed
from .trace import _Trace
from .world_chance import _chance_of, _Plan, _rechanced, _Source, _WorldChance

REDEALT_SHUFFLES = 2  # where a world cannot be carried on, the last shuffles it is drawn again from (`_redealt`)
# where the quick and the thorough drawings all failed (their mends sharing a budget, the first drawings may
# leave the others none): drawings mended the quick way, each with probes // PATIENT_SHARE of its own
PATIENT_TRIES = 12
PATIENT_SHARE = 3
# where those failed too: drawings mended the quick way, each with a budget of its own, that first swap the
# card an answer named where the seat did not see which (`_Replay.own_card_first`)
TARGETED_TRIES = 24
# the probes a carried world mended the thorough way may take, where the quick mends found none (`_carried`)
CARRIED_THOROUGH = DEFAULT_PROBES // 3
THOROUGH_TRIES = 10  # drawings mended the thorough way (`_Replay.repair_thorough`) once the quick ones found none
# past the quick drawings, every FURTHEST_EVERY-th drawing of a stage (the 2nd, the 4th...; 0: none) starts from the
# cards of the drawing that got furthest so far, as its mends left them (`_drawn`)
FURTHEST_EVERY = 2
# where every drawing from the start failed: the match rebuilt and walked, a world drawn every WALK_EVERY answers and
# carried on to the next (0: one per player; `_walked`)
WALK_EVERY = 0


def determinize(match, seat: int, rng: random.Random, tries: int = DEFAULT_TRIES, repairs: int = DEFAULT_REPAIRS,
                moves: int = DEFAULT_MOVES, probes: int = DEFAULT_PROBES, fresh: bool = False):
    """A world the seat cannot tell from `match`, drawn at random (see the module); `NoConsistentWorld`
    if `tries` drawings, each mended up to `repairs` times (`probes` swaps tried in all), all fail.

    The match keeps the seat's last world. Asked again at the same point, determinize moves from it:
    `moves` proposals, each a swap of two cards one shuffle dealt down paths the seat did not see, kept
    when the world it gives is one the seat cannot tell apart either (a Markov chain whose worlds, in the
    long run, are each as likely), played again from the last copy kept before that shuffle (its answers
    given again as they were; if that world parts, with the other seats' secret answers drawn anew); asked
    after the match moved on, it carries the last world on: the cards the seat has seen since traded in
    (from their shuffle on), the new shuffles and choices drawn, the answers since given again. With `fresh`,
    the world is drawn afresh, independent of the last one (at several times the cost), and kept in its place."""
    if match.__class__ is not match_class(match):
        match.st  # noqa: B018  (a copy not yet rebuilt is rebuilt first)
    if match.__dict__.get("_drawn") or match._rng.__class__ is not random.Random:
        raise NoConsistentWorld("determinize draws worlds of a match whose chance comes from its seed, "
                                "not of a drawn world or a match given its chance outcomes")
    tracer = _belief(match, seat).tracer
    tracer.advance(match)
    if len(tracer.decisions) != len(match.history):
        raise NoConsistentWorld("the match's record of answers is incomplete")
    budget = (tries, repairs, moves, probes)
    try:
        world = _found(match, seat, rng, budget, fresh)
    except NoConsistentWorld as failed:
        world = _walked(match, seat, rng, budget, failed)
    drawn = _chance_of(world)  # the world's chance: its drawing and outcomes, shared by its copies
    drawn.source.timeline = drawn.swaps
    world = world.clone()
    world.log = None
    world.__dict__.pop("_verified", None)
    world.__dict__.pop("_chance", None)
    world._drawn = (drawn.plan, drawn.source, len(world.history))
    world.seed = rng.getrandbits(31)  # not the real match's: its seed would tell all its chance
    chance = random.Random(rng.getrandbits(64))
    # its chance from here on: taken up when the copy is rebuilt, after the answers since its base (a quiet
    # rollout, which rebuilds its own flow from the base, never pays for rebuilding this one)
    world._reseed = (len(world._sent), chance.getstate())
    if "st" in world.__dict__:  # a finished world is rebuilt at once
        world.st.rng = world._rng = chance
    return world


def _found(match, seat: int, rng: random.Random, budget: tuple[int, int, int, int], fresh: bool):
    """A world for `seat` at the match's point, kept as its last (see `determinize`): moved on from the last world
    where the match has not moved since, else carried on from it, else drawn again from its last shuffles, else
    drawn afresh from the start; `NoConsistentWorld` where the last finds none."""
    tries, repairs, moves, probes = budget
    belief = _belief(match, seat)
    tr = belief.tracer.advance(match)
    want, want_view = _Observed(match, seat), view_json(match, seat)
    events = len(match._watch.events)
    world = None
    kept = None if fresh else belief.world
    if kept is not None and belief.events == events:
        world = _moved(match, seat, tr, rng, want, want_view, belief, moves)
    elif kept is not None:
        world = _carried(match, seat, tr, rng, want, want_view, belief, events, repairs, [probes])
        if world is None:
            world = _redealt(match, seat, tr, rng, want, want_view, belief, events, repairs, [probes])
    if world is None:
        world = _drawn(match, seat, tr, rng, want, want_view, belief, events, tries, repairs, probes)
    belief.open = len(match.history) - len(match._answers) if match._answers else None
    return world


def _walked(match, seat: int, rng: random.Random, budget: tuple[int, int, int, int], failed: NoConsistentWorld):
    """The last way to a world, where the drawings from the start found none (`failed`): the match rebuilt from its
    seed, answer by answer, the seat drawing a world every `WALK_EVERY` answers (every round of answers: one per
    player, where 0) and carrying it on to the next. Each draw then mends a world that fits what the seat observed
    up to one point with what it observed since, a short span, where a drawing from the start meets everything at
    once; a point where even that finds none is passed by, the last world carried further. The world found at the
    match's point is kept as the match's own (the copy's belief, taken over)."""
    copy = match_class(match)(match.game, match.players, match.seed, arrange=match._arrange,
                              after_setup=match._after_setup)
    every = WALK_EVERY or match.players
    for i, (who, action) in enumerate(match.history):
        if i and i % every == 0:
            with suppress(NoConsistentWorld):
                _found(copy, seat, rng, budget, False)
        if copy.apply(who, action) is not None:
            break
    if copy._watch.events != match._watch.events:  # set up by hand after it began: not to be rebuilt
        raise failed
    try:
        world = _found(copy, seat, rng, budget, False)
    except NoConsistentWorld as err:
        raise NoConsistentWorld(f"{failed}; carried along the match from its start: {err}") from None
    belief = _belief(copy, seat)
    belief.holders = weakref.WeakSet((match,))
    old = _beliefs(match).get(seat)
    if old is not None:
        old.holders.discard(match)
    _beliefs(match)[seat] = belief
    return world


def _drawn(match, seat: int, tr: _Trace, rng: random.Random, want: Sequence[str], want_view: str, belief: _Belief,
           events: int, tries: int, repairs: int, probes: int):
    """A world drawn afresh and played from the start (see `determinize`), in stages: `tries` drawings mended the
    quick way, sharing `probes`; then (where those found none) drawings mended the quick way with a share of
    their own (`PATIENT_TRIES`), then those that first swap an answer's unseen card (`TARGETED_TRIES`), then
    drawings mended the thorough way, sharing `probes` again (`THOROUGH_TRIES`). Past the first stage, every
    other drawing starts from the cards of the drawing that got furthest so far, as its mends left them
    (`FURTHEST_EVERY`): a restart of the mends' search from the best place it reached, not from nothing."""
    faces = match.layout.face_ids
    problems: dict[str, int] = {}
    furthest: tuple[int, list[int]] | None = None  # (the observation it parted at, its cards)
    shared = [probes]
    stages = ((tries, False, False), (PATIENT_TRIES, False, False), (TARGETED_TRIES, False, True),
              (THOROUGH_TRIES, True, False))
    drawings = 0
    for n, (count, thorough, targeted) in enumerate(stages):
        if thorough:
            shared = [probes]
        for k in range(count):
            drawings += 1
            budget = shared if n == 0 or thorough else [probes // PATIENT_SHARE]
            start = furthest[1] if furthest is not None and n > 0 and FURTHEST_EVERY and \
                (k + 1) % FURTHEST_EVERY == 0 else None
            replay = None
            try:
                card = start[:] if start is not None else _assign_some(tr, faces, rng)
                replay = _Replay(match, seat, tr, card, rng, want, want_view, belief.tracer.decisions, budget)
                replay.thorough, replay.targeted = thorough, targeted
                world = replay.play(repairs)
                if not replay.fits(world):
                    raise _Misfit("the seat would see something else now")
            except _Misfit as misfit:
                problems[str(misfit)] = problems.get(str(misfit), 0) + 1
                if replay is not None and (furthest is None or misfit.reached > furthest[0]):
                    furthest = (misfit.reached, replay.card[:])
                continue
            belief.keep(replay, world, events)
            return world
    why = "; ".join(f"{text} ({k}×)" for text, k in sorted(problems.items(), key=lambda kv: -kv[1]))
    raise NoConsistentWorld(f"no world P{seat} cannot tell from this match was found in {drawings} "
                            f"drawings: {why}")


def _carried(match, seat: int, tr: _Trace, rng: random.Random, want: Sequence[str], want_view: str, belief: _Belief,
             events: int, repairs: int, budget: list[int]):
    """The last world carried on to where the match is now, or None (see `determinize`). Where the seat
    has since seen a card the last drawing put elsewhere, the cards are traded from their shuffle on and
    the world's answers given again from its last copy before that shuffle (then, if that world parts
    from what the seat observed, played again answer by answer, mended as a new world is); a card traded
    in a hand a player chose from unseen plays the world again from a copy before that choice."""
    faces = match.layout.face_ids
    traded = _traded_since(tr, faces, belief, rng)
    if traded is None:
        return None
    card, swaps, changed, redo = traded
    try:
        card = _assign_some(tr, faces, rng, 5, card, belief.mixes)
    except _Misfit:
        return None
    # (True: the old answers given again as traded; False: played on, mended the quick way; None: mended the
    # thorough way, on a share of the probes left, where the quick mends found none: see `_drawn`)
    for attempt in ((True, False, None) if swaps and redo == belief.open else (False, None)):
        share = [min(budget[0], CARRIED_THOROUGH)] if attempt is None else budget
        given = share[0]
        replay = belief.replay(match, seat, tr, card, rng, want, want_view, share)
        replay.thorough = attempt is None
        start = replay.resume(changed) if changed is not None else \
            (_rechanced(belief.world, replay.plan, replay.source), len(belief.world.history))
        if not attempt and redo is not None and (start is None or start[1] > redo):
            # a question was open when the world was kept: the others' answers to it were drawn knowing
            # nothing of what closing it showed; they are drawn again, from a copy before it (so is a
            # choice a trade changed)
            start = replay.before(redo, changed)
        try:
            if attempt:
                start = replay.again(start, belief.world, swaps)
            world = replay.play(0 if attempt else repairs, start)
        except (_Misfit, RuleError):
            continue
        finally:
            if share is not budget:  # (the probes it took, taken from the draw's)
                budget[0] -= given - share[0]
        if replay.fits(world):
            belief.keep(replay, world, events)
            return world
    return None


def _traded_since(tr: _Trace, faces: list[Any], belief: _Belief, rng: random.Random
                  ) -> tuple[list[int], list[tuple[int, int, int]], int | None, int | None] | None:
    """The last drawing with each card the seat has since seen where it put another traded in (`_mended`):
    (the drawing, the shuffles' trades as (deal, x, y), the first deal they change, the first answer to give
    anew: a choice a trade changed, or the question open when the world was kept); None where one cannot."""
    card, changed = belief.card, None
    redo = belief.open
    swaps: list[tuple[int, int, int]] = []
    kept = len(card)
    since = [s for s in tr.needed[belief.needs:] if s < kept]  # the paths whose face the seat saw since
    while True:
        # those the drawing puts another face on: each mended in turn, trading in a card that another of
        # them carries where none left free does (the seat saw two cards in the other order, or a card where
        # the drawing put one it saw elsewhere since); each trade mends one, so the walk ends
        wrong = [s for s in since if faces[card[s]] != tr.need[s]]
        if not wrong:
            break
        loose = frozenset(wrong)
        for s in wrong:
            x = card[s]
            mend = _mended(tr, faces, card, s, rng, loose - {s})
            if mend is not None:
                break
        else:
            return None
        card, o, y = mend
        if o in tr.mix_answer:  # another choice from the hand: that answer and those after given anew
            redo = tr.mix_answer[o] if redo is None else min(redo, tr.mix_answer[o])
            continue
        deal = tr.mix_deal[o]
        swaps.append((deal, x, y))
        changed = deal if changed is None else min(changed, deal)
    if tr.glimpses and not _glimpses_kept(tr, faces, card):
        return None  # a look since at a hand the last drawing put other faces in: drawn anew
    return card, swaps, changed, redo


def _redealt(match, seat: int, tr: _Trace, rng: random.Random, want: Sequence[str], want_view: str, belief: _Belief,
             events: int, repairs: int, budget: list[int], shuffles: int = REDEALT_SHUFFLES, tries: int = 2):
    """Where the last world cannot be carried on: the world as it was before one of its last `shuffles`
    shuffles (the latest first), the cards of that shuffle and of every mix since drawn anew (as `_drawn`
    draws them, given the paths before it) and the answers since played again from the copy kept before
    it, mended as a new world is; None if none fits. A block of the drawing drawn again given the rest:
    what the seat saw before the shuffle stays explained as it was, and a late draw costs one deal's
    play, not the whole match's."""
    faces = match.layout.face_ids
    kept = len(belief.card)
    redeal = [o for o in range(min(belief.mixes, len(tr.mixes)) - 1, 0, -1)
              if tr.mixes[o][0] < 0 and tr.mixes[o][2][0] <= kept][:shuffles]
    for o in redeal:
        deal = tr.mix_deal[o]
        for _ in range(tries):
            try:
                card = _assign_some(tr, faces, rng, 5, belief.card[:tr.mixes[o][2][0]], o)
                replay = belief.replay(match, seat, tr, card, rng, want, want_view, budget)
                start = replay.before(belief.open, deal) if belief.open is not None else replay.resume(deal)
                world = replay.play(repairs, start)
            except (_Misfit, RuleError):
                continue
            if replay.fits(world):
                belief.keep(replay, world, events)
                return world
    return None


def shuffles_drawn(orders: list[tuple[int, ...]], upto: int) -> tuple:
    """A world's drawing (`world._drawn`, what `replayed` plays it along) where its only chance so far was
    shuffles: the order each dealt, in turn, and the answers it was drawn up to."""
    deals: list[list[int]] = []
    card: list[int] = []
    source = _Source(None)
    for order in orders:
        deals.append(list(range(len(card), len(card) + len(order))))
        card.extend(order)
        source.events.append((len(order), -1))
    return _Plan(deals, card), source, upto


def replayed(world):
    """A world drawn by `determinize` played again from its own start, as far as it was drawn: its
    shuffles dealing the orders drawn, its other chance and its answers as they were (a test that its
    history is a legal one)."""
    plan, source, upto = world._drawn
    again = match_class(world)(world.game, world.players, world.seed, chance=_WorldChance(plan, source),
                  arrange=world._arrange, after_setup=world._after_setup)
    for seat, action in world.history[:upto]:
        problem = again.apply(seat, action)
        if problem is not None:
            raise AssertionError(f"a drawn world does not replay: {problem.reason}")
    return again
