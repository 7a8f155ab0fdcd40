"""Step 3, the mends of a world that parts from what the seat observed (`_Mends`): the quick ones (`repair`: two cards
the seat cannot tell apart, dealt by one shuffle, swapped from that shuffle on, tried on a copy from its kept base,
first in the zones the failing answer touched) and the thorough ones (`repair_thorough`: swaps ranked by what the
seat was told, checked from their shuffle on)."""

from __future__ import annotations

from collections.abc import Container, Iterable
from typing import Any

from ..runtime import RuleError
from .assign import _swapped
from .base import _Misfit, match_class
from .replay_state import _BLOCKED, _CHECKS, _PROBES
from .told import _Told
from .trace import _alive, _by_role
from .words import _by_face, _named_in


class _Mends(_Told):
    """A replay's mends, where a world parts from what the seat observed: the quick ones (`repair`: two cards the
    seat cannot tell apart swapped from their shuffle on) and the thorough ones (`repair_thorough`)."""

    def repair(self, prev, d: int, reached: int, blocked: tuple[int, list[Any]] | None = None
               ) -> tuple[bool, Any, int] | None:
        """Look for two cards the seat cannot tell apart (dealt by one shuffle: one on a free path now,
        first in a zone that answer `d` touches, the other down a free path of that shuffle) whose swap,
        from that shuffle on, lets `prev` (the world just before answer `d`) give the answer as the seat
        saw it; try each on a copy of `prev` relabeled from its kept base. The first that fits goes into
        the drawing: (True, the mended world after the answer, -1). If none fits, the one that takes the
        seat's observations furthest (as far as `reached`, where the answer failed, at least) does, to
        mend on from: (False, that world before the answer, how far it reached). None if no swap does. First, where
        the world asked a player to choose a card where the real match did not (`blocked`: the player, its options),
        those options all traded away at once (`blocked_first`): a hand that held a card to play where the real one
        had none holds several as often as one, and no single swap of one of them gets the world any further. (Not
        where the answer was none of the options: a hand that must hold a card it asked for, as in Go Fish, needs
        that card brought in, not the others sent away.)"""
        if prev._base is None:
            return None
        best: tuple[int, Any, Any, int, tuple] = (reached, None, None, -1, ())
        swaps: list[tuple[tuple[int, int, int], ...]] = [(pair,) for pair in self.pairs(prev, d, reached)[:_PROBES]]
        if blocked is not None:
            swaps[:0] = self.blocked_first(prev, d, blocked)
        for move, swapped, _, before, after, misfit in self.probed(prev, d, swaps):
            o = min(o for o, _, _ in move)
            if misfit is not None:
                if misfit.reached > best[0] or (misfit.reached == best[0] and best[1] is None):
                    best = (misfit.reached, swapped, before, o, move)  # as far or further: a step on the way
                continue
            self.card = swapped
            self.mark(o)
            self.moved_told(*move)
            self.learned(d, prev, reached, before, after, move)
            return True, after, -1
        if best[1] is None:
            return None
        self.card = best[1]
        self.mark(best[3])
        self.moved_told(*best[4])
        self.step_kept(c for _, x, y in best[4] for c in (x, y))
        return False, best[2], best[0]

    def blocked_first(self, prev, d: int, blocked: tuple[int, list[Any]]) -> list[tuple[tuple[int, int, int], ...]]:
        """The trades `repair` tries first where the world asked a player to choose among cards where the real
        match did not (`blocked`: the player, its options): those options traded all at once for cards of their
        shuffles out of the player's zones (`blocked_moves`)."""
        tr = self.tr
        alive = tr.alive[d]
        dealt = self.dealt_by(alive)
        ours = {self.card[s] for _, s in _alive(tr, alive) if tr.need[s] is None and self.card[s] in dealt}
        free = {o: self.dealt_free(o) for o in {dealt[x] for x in ours}}
        moves: list[tuple[tuple[int, int, int], ...]] = []
        self.blocked_moves(prev, blocked, ours, dealt, free, moves)
        return moves

    def step_kept(self, cards: Iterable[int]) -> None:
        """A step on the way (a mend that took the world further, not past the answer) of the answer being mended traded
        `cards`: a move that trades one of them again comes after those that do not, while that answer is mended (see
        `ranked`). Only where no option of another player fits its question (`unanswered`: a count a hand must hold);
        elsewhere (Crazy Eights, where a card's place in a pile parts the world) the steps kept found fewer worlds
        (`benchmarks/hard_points.py`: no world in 10 of 40 fresh draws at its point, against 5)."""
        if self.unanswered:
            self.stepped.update(cards)

    def pairs(self, prev, d: int, reached: int) -> list[tuple[int, int, int]]:
        """The swaps `repair` tries, in order, each (shuffle, x, y): a card on a free path at answer `d` and
        one of another face the same shuffle dealt down a free path (each card of a face the seat's lines of
        the answer named); first the cards of the zones the answer touched, then the others (a counter may tell
        of any hand), in the order `ranked` puts them. Where an option fits, first those that bring in a face the line
        where the world parted names, then (in a targeted drawing) those of the answer's own unseen card, then those of
        the card the world moved last before it parted (`moved_last`): Crazy Eights, a player draws until a card fits,
        and the world's player stopped at a card that fits where the real one drew on."""
        told = self.told_at(prev, reached) if self.unanswered else frozenset()
        near, far = self.alive_pairs(d, reached, told)
        for o in self.dealt_in(d):  # a shuffle the answer itself dealt: its cards on free paths traded among them
            free = self.dealt_free(o)
            by_face = _by_face(self.faces, free)
            for x in free:
                near.extend(self.traded_for(o, x, by_face, told))
        self.rng.shuffle(near)
        self.rng.shuffle(far)
        pairs = near + far
        last = self.moved_last
        if last >= 0 and not self.unanswered:
            pairs.sort(key=lambda pair: pair[1] != last)
        if self.targeted:
            pairs = self.own_card_first(d, pairs)
        if not self.unanswered:  # first the cards of the faces the line where the world parted names (`_named_in`)
            named = _named_in(self.match.layout, self.want[reached] if 0 <= reached < len(self.want) else "")
            pairs.sort(key=lambda pair: pair[2] not in named)
        return [move[0] for move in self.ranked([(pair,) for pair in pairs], prev, d, reached)]

    def alive_pairs(self, d: int, reached: int, told: frozenset
                    ) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
        """`pairs`' swaps of each card on a free path at answer `d` (in `_alive`'s order), those of the cards in the
        zones the answer touched apart from the others: first the trades that make a player choose another card
        from a hand where it chose this one since (`chosen_instead`; not where the answer's own card goes first),
        then its swaps with the cards of other faces its last shuffle dealt down free paths (`traded_for`)."""
        tr, card = self.tr, self.card
        alive, zone = tr.alive[d], tr.zone[d]
        touched = self.touched(d, reached)
        near: list[tuple[int, int, int]] = []
        far: list[tuple[int, int, int]] = []
        dealt, chose = self.dealt_by(alive), self.chosen_by(alive)
        free: dict[int, dict[Any, list[int]]] = {}  # shuffle -> `dealt_free` by face (once a call: a hand's cards
        # mostly came by one)
        for r, s in _alive(tr, alive):
            if tr.need[s] is not None:
                continue
            x = card[s]
            o = dealt.get(x, -1)
            into = near if zone[r] in touched else far
            if chose.get(x, -1) > o and not self.targeted:
                into.extend(self.chosen_instead(chose[x], x))
            if o >= 0:
                if o not in free:
                    free[o] = _by_face(self.faces, self.dealt_free(o))
                into.extend(self.traded_for(o, x, free[o], told))
        return near, far

    def dealt_free(self, o: int) -> list[int]:
        """The cards shuffle `o` dealt down free paths, in the order of `_by_role`."""
        tr, card = self.tr, self.card
        return [card[t] for t in _by_role(tr, tr.mixes[o][2]) if tr.need[t] is None]

    def traded_for(self, o: int, x: int, free: dict[Any, list[int]], told: frozenset) -> list[tuple[int, int, int]]:
        """The swaps (o, x, y) of card `x` with one card of each other face of `free` (the cards shuffle `o` dealt
        down free paths, by face: `_by_face`), drawn at random, or with each of a face the seat's lines named (`told`,
        where no option of another player fit its question)."""
        rng, every, fx = self.rng, self.unanswered, self.faces[x]
        return [(o, x, y) for f, ys in free.items() if f != fx
                for y in (ys if every and f in told else (rng.choice(ys),))]

    def own_card_first(self, d: int, pairs: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """`pairs` with the swaps of the card answer `d` named first, where the seat never saw which card it was
        (a player's unseen choice: what the rules do next may tell its kind, as a question asked only of one
        kind of card, or what it does where it lies, as a face-down card that acts at its owner's turn). Else
        the one swap that explains the answer is one among hundreds."""
        tr = self.tr
        pick = tr.picks[d]
        if pick < 0 or tr.need[pick] is not None:
            return pairs
        x = self.card[pick]
        return sorted(pairs, key=lambda pair: pair[1] != x)

    def dealt_in(self, d: int) -> list[int]:
        """The shuffles (as mixes) dealt while answer `d`'s rules ran (a discard pile turned into a new stock in the
        middle of a player's draws): what the world parts on there may hang on their order, which no card on a
        path at the answer reaches."""
        tr = self.tr
        return [o for o, deal in tr.mix_deal.items() if tr.deal_at[deal] == d + 1 and tr.mixes[o][0] < 0]

    def chosen_by(self, alive: list[int]) -> dict[int, int]:
        """Card -> the last choice from a hand it was in (one of `mixes`), by the time each card is on its path of
        `alive`."""
        tr, card = self.tr, self.card
        last = max(alive)
        chose: dict[int, int] = {}
        for o, (kind, _, outgoing) in enumerate(tr.mixes):
            if kind >= 0 and outgoing[0] <= last:
                for t in outgoing:
                    chose[card[t]] = o
        return chose

    def chosen_instead(self, o: int, x: int) -> list[tuple[int, int, int]]:
        """The trades at choice `o` that make the player choose another card of the hand where it chose `x`, or
        `x` where it chose another (one card of each other face, down a path the seat did not see): what the
        rules do with the card chosen (a crate that makes its owner lose a card at every turn's end) may tell
        its kind, where no shuffle's trade can (the card was seen in the hand before)."""
        tr, card, faces = self.tr, self.card, self.faces
        kind, _, outgoing = tr.mixes[o]
        taken = outgoing[kind]
        if card[taken] == x:
            others = [t for t in outgoing if t != taken and tr.need[t] is None]
        else:
            others = [taken] if tr.need[taken] is None else []
        by_face: dict[Any, list[int]] = {}
        for t in _by_role(tr, others):  # (not the real hand's order: see `_by_role`)
            if faces[card[t]] != faces[x]:
                by_face.setdefault(faces[card[t]], []).append(card[t])
        return [(o, x, self.rng.choice(ys)) for ys in by_face.values()]

    def dealt_by(self, alive: list[int]) -> dict[int, int]:
        """Card -> the last shuffle that dealt it, by the time each card is on its path of `alive`."""
        tr, card = self.tr, self.card
        dealt: dict[int, int] = {}
        for o, (kind, _, outgoing) in enumerate(tr.mixes):
            if kind < 0 and outgoing[0] <= max(alive):
                for t in outgoing:
                    dealt[card[t]] = o
        return dealt

    def repair_thorough(self, prev, d: int, reached: int, blocked: tuple[int, list[Any]] | None = None
                        ) -> tuple[bool, Any, int] | None:
        """Look for a trade of cards the seat cannot tell apart (two cards dealt by one shuffle, one on a free
        path now, the other down a free path of that shuffle) that, from that shuffle on, lets `prev` (the
        world just before answer `d`) give the answer as the seat saw it; try each on a copy of `prev`
        relabeled from its kept base. `blocked`: (a player, its card options in the world) where the answer
        was none of them, or where the world asked that player and the real match did not; those options
        (the cards that forbid the answer, as a card of the suit led forbids another, or that let the
        player choose where it had nothing to play) are first traded away all at once. The first trade that
        fits goes into the drawing: (True, the mended world after the answer, -1). If none fits, the one
        that takes the seat's observations furthest (as far as `reached`, where the answer failed, at
        least) does, to mend on from: (False, that world before the answer, how far it reached). None if
        no trade does."""
        if prev._base is None:
            return None
        moves = self.candidates(prev, d, reached, blocked)
        best: tuple[int, Any, Any, int, bool, list[int]] = (reached, None, None, -1, False, [])
        # a trade that fits here, its answers since unchecked: the drawing, the world, the shuffle, the cards
        unchecked: tuple[list[int], Any, int, list[int]] | None = None
        checks = _CHECKS
        for move, swapped, relabel, before, after, misfit in self.probed(prev, d, moves):
            o = min(o for o, _, _ in move)
            if misfit is not None:
                if misfit.reached > best[0] or (misfit.reached == best[0] and best[1] is None):
                    # as far or further: a step on the way
                    best = (misfit.reached, swapped, before, o, relabel, [c for _, x, y in move for c in (x, y)])
                continue
            if not relabel and self.changed is None:
                self.card = swapped
                self.traded.update(c for _, x, y in move for c in (x, y))
                self.moved_told(*move)
                self.learned(d, prev, reached, before, after, move)
                return True, after, -1
            # traded before the copy's base (now or by a mend on the way): the answers given between that
            # shuffle and the base have not seen the traded cards; given again first, they may part earlier
            # (then it is kept in case no trade passes, and the world played again is mended there)
            if unchecked is None:
                unchecked = (swapped, after, o, [c for _, x, y in move for c in (x, y)])
            if checks <= 0:
                break
            checks -= 1
            checked = self.checked(swapped, o, d, move)
            if checked is not None:
                return True, checked, -1
        return self.fallback(unchecked, best)

    def probed(self, prev, d: int, moves: list[tuple[tuple[int, int, int], ...]]):
        """The first `_PROBES` of `moves`, as long as the draw's budget of probes lasts, each made on the drawing
        and tried on a copy of `prev` (`tried`), but those that would show the seat another face or whose copy
        does not fit: (the move, the drawing with it, whether it reaches before the copy's kept base, the copy
        before answer `d`, the world after it or None, where it parted or None). A move made again (x traded for y
        and y for x are one trade) is not tried again: on the same copy it gives the same world, its answer and what
        the seat observes after it the same (but for chance drawn anew), so it would fail where it failed."""
        kept = self.card
        dealt_before = prev._base[1][-1][1].used  # the shuffles the copy's kept base had dealt
        made: set[frozenset] = set()
        for move in moves[:_PROBES]:
            if self.budget[0] <= 0:
                return
            trades = frozenset((o, frozenset((x, y))) for o, x, y in move)
            if trades in made:
                continue
            made.add(trades)
            self.budget[0] -= 1
            swapped, pi, relabel = self.moved_cards(move, kept, dealt_before)
            if swapped is None:
                continue
            tried = self.tried(prev, d, swapped, pi)
            if tried is not None:
                yield move, swapped, relabel, *tried

    def checked(self, swapped: list[int], o: int, d: int, move: tuple[tuple[int, int, int], ...]):
        """The world after answer `d` along the drawing `swapped` (the trades of `move`, the first at shuffle
        `o`), played again from before that shuffle (`verify`), the drawing kept; None where it parts."""
        kept, tr = self.card, self.tr
        self.card = swapped
        deal = tr.mix_deal[o] if self.changed is None else min(self.changed, tr.mix_deal[o])
        checked = self.verify(deal, d)
        self.card = kept
        if checked is None:
            return None
        self.card, self.changed = swapped, None
        self.traded.update(c for _, x, y in move for c in (x, y))
        self.moved_told(*move)
        return checked

    def moved_cards(self, move: tuple[tuple[int, int, int], ...], kept: list[int], dealt_before: int
                    ) -> tuple[list[int] | None, list[int], bool]:
        """The drawing `kept` with the trades of `move` made (None if a path the seat sees would then carry
        another face), the relabeling of the copy's kept base they make, and whether they reach before it."""
        tr, faces = self.tr, self.faces
        swapped: list[int] | None = kept
        pi = list(range(len(faces)))
        relabel = False
        for o, x, y in move:
            swapped = _swapped(tr, faces, swapped, o, x, y) if swapped is not None else None
            # a shuffle that came before the copy's base: relabeled there; so is another choice from a hand, so that
            # the answer that made it, given again after the base, names the other card
            if o not in tr.mix_deal or tr.mix_deal[o] < dealt_before:
                relabel = True
                i, j = pi.index(x), pi.index(y)
                pi[i], pi[j] = y, x
        return swapped, pi, relabel

    def fallback(self, unchecked: tuple[list[int], Any, int, list[int]] | None,
                 best: tuple[int, Any, Any, int, bool, list[int]]) -> tuple[bool, Any, int] | None:
        """Where no trade passed its checks: the first that fit here, its answers since unchecked; else the
        one that took the seat's observations furthest, to mend on from; else None (see `repair_thorough`)."""
        if unchecked is not None:
            self.card = unchecked[0]
            self.traded.update(unchecked[3])
            self.mark(unchecked[2])
            return True, unchecked[1], -1
        if best[1] is None:
            return None
        self.traded.update(best[5])
        self.step_kept(best[5])
        self.card = best[1]
        if best[4]:
            self.mark(best[3])
        return False, best[2], best[0]

    def candidates(self, prev, d: int, reached: int, blocked: tuple[int, list[Any]] | None
                   ) -> list[tuple[tuple[int, int, int], ...]]:
        """The trades `repair` tries, in order: each a tuple of (shuffle, x, y), x and y traded from that
        shuffle on."""
        tr, card, faces, rng = self.tr, self.card, self.faces, self.rng
        alive, zone = tr.alive[d], tr.zone[d]
        touched = self.touched(d, reached)
        # the cards of faces the seat was told of (of the answer, up to where the world parted), by how
        # close to that point they were named
        named: dict[int, int] = {}
        for k in range(reached, min(prev._verified, reached) - 1, -1) if reached < len(self.want) else ():
            for c in _named_in(self.match.layout, self.want[k]):
                named.setdefault(c, reached - k)
        who, owner = self.match.history[d][0], self.match.layout.zone_owner
        # then the cards of the zones of the player answering, of the players' zones the answer touched, of
        # the other zones it touched, and the others (a counter may tell of any hand)
        rank: dict[int, int] = {}
        later: dict[int, int] = {}  # a card further down its zone came there later: fewer answers since hang on it
        dealt = self.dealt_by(alive)
        pairs: list[tuple[int, int, int]] = []
        free: dict[int, list[int]] = {}  # shuffle -> the cards it dealt down free paths
        for r, s in _alive(tr, alive):
            x = card[s]
            o = dealt.get(x, -1)
            if o < 0 or tr.need[s] is not None:
                continue
            if o not in free:
                free[o] = self.dealt_free(o)
            by_face: dict[Any, list[int]] = {}  # the other cards that shuffle dealt down free paths, by face
            for y in free[o]:
                if faces[y] != faces[x]:
                    by_face.setdefault(faces[y], []).append(y)
            zi = zone[r]
            rank[x] = 0 if owner[zi] == who else 1 if zi in touched and owner[zi] >= 0 else 2 if zi in touched else 3
            later[x] = -prev.st.zones[zi].index(x) if x in prev.st.zones[zi] else 0
            # one card of each other face, every card of the faces the seat was told of
            pairs.extend((o, x, y) for ys in by_face.values() for y in (ys if ys[0] in named else (rng.choice(ys),)))
        rng.shuffle(pairs)
        # a card no player holds (still in a pile: no answer so far hung on it) is traded in first
        owned = {c for zi, z in enumerate(prev.st.zones) if owner[zi] >= 0 for c in z}
        traded = self.traded  # cards an earlier mend traded: trading them again would likely undo it
        turn: dict[tuple[int, int], int] = {}  # (how close y was named, x) -> pairs of x so far: x's in turn
        order = []
        for _o, x, y in pairs:
            n = named.get(y, len(self.want))
            k = turn[n, x] = turn.get((n, x), -1) + 1
            order.append((n, x in traded or y in traded, y in owned, rank[x], k, later[x]))
        # first the faces the seat was told of, closest first; then the cards of the answering player's zones
        moves: list[tuple[tuple[int, int, int], ...]] = self.ranked(
            [(pair,) for _, pair in sorted(zip(order, pairs, strict=True), key=lambda kp: kp[0])], prev, d, reached)
        if blocked is not None:
            self.blocked_moves(prev, blocked, rank, dealt, free, moves)
        return moves

    def blocked_moves(self, prev, blocked: tuple[int, list[Any]], rank: Container[int], dealt: dict[int, int],
                      free: dict[int, list[int]], moves: list[tuple[tuple[int, int, int], ...]]) -> None:
        """Put first in `moves`: the options the player had instead (`blocked`), each traded for a card of the
        same shuffle out of its zones, all at once (up to _BLOCKED such trades)."""
        owner, rng = self.match.layout.zone_owner, self.rng
        q, options = blocked
        mine = {c for zi, z in enumerate(prev.st.zones) if owner[zi] == q for c in z}
        xs = [x for x in options if x.__class__ is int and x in rank and x in mine]
        for _ in range(_BLOCKED if xs else 0):
            move, used = [], set(xs)
            for x in xs:
                o = dealt[x]
                ys = [y for y in free[o] if y not in used and y not in mine]
                if not ys:
                    break
                y = rng.choice(ys)
                used.add(y)
                move.append((o, x, y))
            else:
                moves.insert(0, tuple(move))

    def verify(self, deal: int, d: int):
        """The world played again along the drawing from the last copy kept before shuffle `deal`, up to and
        including answer `d`, with no mends; None where it parts from what the seat observed."""
        snaps, marks = self.snaps[:], self.marks[:]
        start = self.resume(deal)
        world, d0 = start if start is not None else (self.start(), 0)
        try:
            for k in range(d0, d + 1):
                prev = world.clone() if k in self.tr.dealing else None
                used = world.st.rng.used
                world = self.step(world, k, False)
                self.dealt(world, used, k, prev)
        except (_Misfit, RuleError):
            self.snaps, self.marks = snaps, marks
            return None
        return world

    def tried(self, prev, d: int, swapped: list[int], pi: list[int]) -> tuple[Any, Any, _Misfit | None] | None:
        """`prev` (the world before answer `d`) relabeled by `pi` from its kept base, the drawing `swapped` dealt
        by its shuffles after the base, and the answer given: (the copy before the answer, the world after it
        or None, where it parted from what the seat observed or None); None where the answers since the base
        no longer fit or the rules fail."""
        kept, self.card = self.card, swapped
        try:
            try:
                probe = match_class(prev).relabeled(prev, pi, self.seat, None)
            except _Misfit:
                return None
            if probe is None:
                return None
            probe._verified = min(prev._verified, probe._seen[self.seat].count)  # lines up to the base are kept
            before = probe.clone()
            try:
                return before, self.step(probe, d, False), None
            except _Misfit as misfit:
                return before, None, misfit
            except RuleError:
                return None
        finally:
            self.card = kept
