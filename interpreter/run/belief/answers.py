"""Step 3, each answer given again (`_Answers`): the seat's own as it gave it, a card by the card its path carries, and
another seat's secret answer drawn anew uniformly among the options after which the seat observes the same
(`redraw`)."""

from __future__ import annotations

import json
from typing import Any

from ..information import MOVE
from ..runtime import K_CARD, RuleError
from .base import _Checked, _Misfit, _Parted, _Unanswered
from .replay_state import _REDRAWN_CHANCE, _labelled, _lines_from, _ReplayState


class _Answers(_ReplayState):
    """A replay's answers given again, one by one: the seat's own as it gave them, another seat's secret one drawn
    anew among the options after which the seat observes the same (`redraw`)."""

    def step(self, world, d: int, redo: bool = True):
        """`world` after answer `d`, given again; `_Misfit` if the seat would observe something else. Where the
        answer's chance is drawn now and an outcome of it anew (a random card, player or place: see `_Source`),
        a world that parts is played again from before the answer with the outcomes drawn anew, up to
        `_REDRAWN_CHANCE` times: the seat's observations keep the outcomes it saw, the others are drawn by their
        real probabilities among those that fit. (`redo` False: a mend's probe, given once as drawn.)"""
        return self.chanced(world, d, self.answered, redo=redo)

    def chanced(self, world, d: int, give: Any, check: bool = False, redo: bool = True):
        """`give(world, d)`: `world` after answer `d` (see `step`), played again with its chance drawn anew where
        it parts from what the seat observed and an outcome of it may be drawn anew (`check`: compared here,
        where `give` does not compare); `_Misfit` where none fits."""
        source, tr = self.source, self.tr
        if not tr.picked and not tr.rolls:  # the real match's chance was its shuffles': nothing to follow
            return give(world, d)
        mark = world.st.rng.pos  # the answer's chance is drawn now (nothing recorded past it): it may be drawn again
        fresh = redo and mark == len(source.events) and source.rng is not None and d in tr.unseen and \
            (d in tr.drawn or d in tr.maybe)
        backup = world.backup() if fresh else None
        if fresh:
            source.attempt(mark)
        for k in range(_REDRAWN_CHANCE):
            if k and backup is not None:
                source.rewind(mark)
                world = backup.clone()
            chance = world.st.rng
            chance.begin(d)
            chance.watch = world._watch
            k0, anew, placed = len(world._watch.events), source.anew, len(source.anews)
            try:
                got = give(world, d)
                if source.anew != anew:
                    self.learned_seen(got, placed)  # (for the worlds to come: this one fits as drawn)
                    self.aligned(got, d, k0)
                    if check and self.reached(got) >= 0:
                        raise _Misfit("the seat would see something else")
                return got
            except _Misfit:
                if backup is None or d not in tr.drawn or k + 1 == _REDRAWN_CHANCE:
                    raise
                self.learned_seen(world, placed)
            finally:
                del source.anews[placed:]
        raise AssertionError("unreachable")

    def learned_seen(self, world, placed: int) -> bool:
        """Whether an outcome drawn anew in `world` since the `placed`-th (`_Source.anews`) drew a card the seat then
        saw move (the next card the world moved after it): if so, that outcome is the real one from now on, in
        every world of the match (`_Source.kept`), as the seat saw it."""
        events, bit, kept = world._watch.events, self.bit, self.source.kept
        learned = False
        for d, j, q in self.source.anews[placed:]:
            move = next((e for e in events[q:] if e[0] == MOVE), None)
            if move is not None and (move[7] | move[8]) & bit and (d, j) not in kept:
                kept.add((d, j))
                learned = True
        return learned

    def aligned(self, world, d: int, k0: int) -> None:
        """After answer `d`, whose chance was drawn anew: each card the world moved where the seat did not see it
        (its events from the `k0`-th on) set against the path of the card the real match moved there, in turn.
        Where the world moved another card (a random pick drawn anew), the two go each other's way from here on
        (`_WorldChance.swap`); `_Misfit` where a path the seat sees after that move would then carry another face,
        or the world moved cards unseen where the real match did not."""
        tr, bit, faces, plan = self.tr, self.bit, self.faces, self.plan
        chance = world.st.rng
        hid = tr.hid.get(d, [])
        moved: list[int] = [e[1] for e in world._watch.events[k0:] if e[0] == MOVE and not (e[7] | e[8]) & bit]
        if len(moved) != len(hid):
            raise _Misfit("cards moved unseen where the real match moved others")
        swap: dict[int, int] = dict(chance.swap)
        for (i, s), y in zip(hid, moved, strict=True):
            x = swap.get(plan.card[s], plan.card[s])
            if x == y:
                continue
            back: dict[int, int] = {v: k for k, v in swap.items()}
            by, bx = back.get(y, y), back.get(x, x)  # the drawing's cards that go the ways of y and x
            if self.seen_since(i, bx, faces[y]) or self.seen_since(i, by, faces[x]):
                raise _Misfit("a card drawn at random the seat sees later is another")
            swap[bx], swap[by] = y, x
        chance.swap = {k: v for k, v in swap.items() if k != v}
        chance.swaps = (*chance.swaps, (chance.pos, chance.swap))

    def seen_since(self, i: int, c: int, face: Any) -> bool:
        """Whether the seat sees, after the match's `i`-th event, a path the drawing puts card `c` on, with a face
        other than `face`."""
        tr, card = self.tr, self.plan.card
        return any(card[t] == c and tr.sighted.get(t, -1) > i and tr.need[t] not in (None, face)
                   for t in range(len(card)))

    def answered(self, world, d: int):
        """`world` after answer `d`, given again (see `step`)."""
        who = self.match.history[d][0]
        e, pick, tr = self.decisions[d], self.tr.picks[d], self.tr
        reached = self.reached(world)
        if reached >= 0:  # asked something else, or told something else on the way
            raise _Misfit("the seat would see something else", reached)
        ask = world._ask_of(who)
        if ask is None:
            raise _Misfit(f"P{who} is not asked here", world._verified)
        options = ask[1]
        if ask[2] == K_CARD and pick >= 0 and (who == self.seat or tr.sighted.get(pick, -1) >= tr.marks[d]
                                               or pick in tr.chosen or d in tr.left):
            # the card its path carries: one the seat saw at or after the answer (so it knows which was
            # chosen), or one that left a hand unseen, one of those of its back there, as the drawing has it
            # (the only one, where the seat tells it by its back). A card whose face the seat knew only before
            # (a hand it knew all of) is no sign of which was chosen: that answer is drawn anew below
            c = world.st.rng.card(self.plan.card[pick])  # (`card`, read where it is needed)
            action = options.index(c) if c in options else -1
        elif who != self.seat and (e[2] or pick >= 0):
            # another seat's secret answer, or its pick of a card the seat did not see that stays where it
            # is: any option after which the seat observes the same, drawn uniformly
            self.redrew = True
            return self.redraw(world, who, d)
        else:
            action = _labelled(world, ask, e[3])
        if action < 0:  # (the options to trade away, where they are cards: a choice of a player or a place is not)
            raise _Misfit("the answer given is not an option here", world._verified,
                          (who, options) if ask[2] == K_CARD else None)
        k0, lines0 = len(world._watch.events), world._verified
        world.apply(who, action)
        reached = self.reached(world)
        if reached >= 0:
            misfit = _Misfit("the seat would see something else", reached, self.asked_instead(world, reached), True)
            misfit.moved_last = self.last_move(world, reached, k0, lines0)
            raise misfit
        return world

    def last_move(self, world, reached: int, k0: int, lines0: int) -> int:
        """The card of the last move `world` made giving an answer before the observation where it parted from what
        the seat observed (its `reached`-th; the answer's events from the `k0`-th on, its lines from the `lines0`-th,
        a line a move): a card drawn that let a player stop drawing where the real one drew on. -1 where the seat saw
        no move of the answer first."""
        lines = _lines_from(world._seen[self.seat], lines0)[:reached - lines0]
        seen = sum('"event":"move"' in line for line in lines)
        moves = [e[1] for e in world._watch.events[k0:] if e[0] == MOVE]
        return moves[seen - 1] if 0 < seen <= len(moves) else -1

    def asked_instead(self, world, reached: int) -> tuple[int, list[Any]] | None:
        """Where `world` parted from what the seat observed (its `reached`-th observation) by asking a player
        to choose a card, that player and its options: the cards that let it choose where in the real match
        it could not (as a playable card in a hand that had none). Else None."""
        line = next(iter(_lines_from(world._seen[self.seat], reached)), "")
        if '"type":"ask"' not in line:
            return None
        q = json.loads(line).get("who")
        ask = world._ask_of(q) if q.__class__ is int else None
        return (q, ask[1]) if ask is not None and ask[2] == K_CARD else None

    def redraw(self, world, who: int, d: int):
        """`world` after `who` answered (answer `d`) with an option drawn uniformly among those after which the seat
        observes what it did (up to the next question); `_Misfit` if none does. The options are tried in a random
        order (one drawn ahead for the answer, `orders`, where there is one), the first that fits taken. Where no
        chance follows an answer, an option is the same on the same world: one the kept world found to fail there
        is not tried again while this world is that one as it stood (`known`), and what this answer found is noted
        (`found`, see `_orders_ahead`)."""
        actions, n, known, failed = self.options_to_try(world, who, d)
        self.options = n
        furthest = 0
        # a copy rebuilt from its kept base holds its chance as it stood there (its outcomes read back since): the
        # answer being given, its outcomes so far and the cards traded are set back as they stood before the first
        # option, and what an option that failed drew is dropped (the next one draws its own)
        chance = world.st.rng
        now, mark = (chance.at, chance.rolled, chance.picked, chance.swap, chance.swaps), chance.pos
        source = self.source
        drawn, anew, placed = mark == len(source.events), source.anew, len(source.anews)
        if drawn:
            source.attempt(mark)
        # an option stops at the seat's first line that differs where its flow would draw no chance on (see `_Checked`)
        stop = not world.game.chance_after_answers
        for k, action in enumerate(actions):
            backup = world.clone() if k + 1 < len(actions) else None
            chance = world.st.rng
            chance.at, chance.rolled, chance.picked, chance.swap, chance.swaps = now
            watch = chance.watch = world._watch
            plain = self.watched(world, watch) if stop else watch.events
            try:
                try:
                    world.apply(who, action)
                finally:  # (the world, kept or not, records on as any world does)
                    if watch.events is not plain:
                        watch.events = list(watch.events)
                reached = self.reached(world)
                if reached < 0:
                    if stop:
                        self.noted(d, (n, action, failed.union(actions[:k])), known)
                    return world
                furthest = max(furthest, reached)
            except _Parted as parted:  # (as `reached` would have told once the flow went on to its next question)
                furthest = max(furthest, parted.reached)
            except RuleError:
                pass
            if backup is None:
                break
            if drawn:
                source.rewind(mark)
                del source.anews[placed:]
                source.anew = anew
            world = backup
        raise _Unanswered("no answer of another player fits what the seat saw", furthest)

    def options_to_try(self, world, who: int, d: int
                       ) -> tuple[list[int], int, tuple[int, int, frozenset[int]] | None, frozenset[int]]:
        """The options of `who`'s answer `d` to try, in order (see `redraw`), how many it has, what the kept world found
        of it while this world is that one as it stood (or None), and the options that found to fail (not tried)."""
        actions = world.legal_actions(who)
        n = len(actions)
        order = self.orders.pop(d, None) if self.orders else None
        if order is not None and len(order) == n:
            actions = order
        else:
            self.rng.shuffle(actions)
        known = self.known.get(d) if self.known is not None else None
        failed = known[2] if known is not None and known[0] == n else frozenset()
        if failed:
            actions = [a for a in actions if a not in failed]
        return actions, n, known, failed

    def noted(self, d: int, found: tuple[int, int, frozenset[int]], known: tuple[int, int, frozenset[int]] | None
              ) -> None:
        """What answer `d`, drawn anew, found (its options, the one taken, those known to fail), where no chance follows
        it; the world after it is the kept one as it stood no more where the kept world's took another."""
        self.found[d] = found
        if known is None or found[1] != known[1]:
            self.known = None

    def watched(self, world, watch) -> list:
        """`world`'s record as it stands, its events from now on checked as they are recorded (`_Checked`), where the
        seat's observations so far are rendered and known to match; the record before, to go back to."""
        plain, cache = watch.events, world._seen[self.seat]
        if cache.events != len(plain) or cache.count != world._verified:
            return plain
        if watch.owners[0] > 1:  # (as its first event would)
            watch.own()
            plain = watch.events
        watch.events = _Checked(plain, world, self.seat, self.want, cache.count, cache.last)
        return plain
