"""Step 3, what a mend ranks its swaps by (`_Told`): per answer a world passed, the faces the seat's lines since
the answer before name and the cards of the zones the seat does not see into (`note`, `named_at`); which swaps those
bear on first (`ranked`); and what a mend that let a world give an answer learned of a zone's cards (`learned`)."""

from __future__ import annotations

import json
from typing import Any

from ..information import MOVE
from .answers import _Answers
from .words import _face_words, _risked, _undone


class _Told(_Answers):
    """What the seat was told along a world, and the swaps of a mend ranked by it."""

    def note(self, d: int, k: int, upto: int, inside: list[set[int]]) -> None:
        """The world passed answer `d`, the seat's lines from the k-th up to `upto` matched: kept, with the cards
        the zones the seat does not see into held just before it."""
        self.told[d] = (k, upto, inside)
        self.named.pop(d, None)

    def named_at(self, d: int) -> frozenset:
        """The faces the seat's lines of answer `d` name (see `note`)."""
        named = self.named.get(d)
        if named is None:
            k, upto, _ = self.told[d]
            named = self.named[d] = frozenset().union(*(self.faces_named(j) for j in range(k, upto)))
        return named

    def faces_named(self, j: int) -> frozenset:
        """The faces the seat's j-th observation names (by id, or by a word of their text properties, as
        `_named_in`), kept with the trace: a line once observed stays as it was."""
        named = self.tr.named.get(j)
        if named is None:
            if self.words is None:
                self.words = _face_words(self.match.layout)
            pattern, faces = self.words
            named = self.tr.named[j] = frozenset().union(*(faces[w] for w in pattern.findall(self.want[j])))
        return named

    def ranked(self, moves: list[tuple[tuple[int, int, int], ...]], prev, d: int, reached: int
               ) -> list[tuple[tuple[int, int, int], ...]]:
        """`moves` (trades of cards, each (shuffle, x, y)), those likely to mend answer `d` without undoing another
        first. Last come a trade that mended this answer before (the world came back to it: a trade back and forth
        that each time fits from the copy's base but not played from the start), then (where no option of another
        player fits: `step_kept`) one that trades a card a step on the way of this answer's mends traded (it would
        undo the step: Go Fish, a hand that must ask for Sixes given one by a step, which the next mend trades away
        again to give the hand it asks a second one), then those that undo more counts an earlier mend set (see
        `learned`). Where no option of another player's fits its question (`unanswered`), first the trades that
        change, in a zone the answer is about, how many cards it holds of a face the seat's lines named at this
        answer up to where the world parted (`reached`): a hand must hold the rank it asked for; the others after
        them, in the order they came; and among the first, those that change fewer counts the rules may have read
        at the other answers the world passed: how many cards of a face the seat's lines named there a zone of
        another player held (Go Fish: a hand asked for a rank that held none). Else (a card's place in a pile, not
        a count, may be what parted the world: Crazy Eights' draws until a card fits; or a card answered whose kind
        the rules tell later) the order the moves came in, between equals."""
        if not self.unanswered:
            key = self.weigher(prev, d, reached)
            return moves if key is None else sorted(moves, key=key)
        relevant = self.bearing(prev, d, reached)
        first = [i for i, move in enumerate(moves) if relevant(move)]
        if not first:
            return moves
        key = self.weigher(prev, d, reached)
        assert key is not None
        chosen = set(first)
        return [moves[i] for _, i in sorted((key(moves[i]), i) for i in first)] + \
            [move for i, move in enumerate(moves) if i not in chosen]

    def bearing(self, prev, d: int, reached: int):
        """Whether a move at answer `d` changes, in a zone the answer is about, how many cards it holds of a face the
        seat's lines named at the answer up to where the world parted (`reached`; see `ranked`)."""
        faces, zones = self.faces, prev.st.zones
        now = {c: zi for zi in self.touched(d, reached) for c in zones[zi]}  # (a card lies in one zone at a time)
        told_now = self.told_at(prev, reached)

        def relevant(move: tuple[tuple[int, int, int], ...]) -> bool:
            return any((faces[x] in told_now or faces[y] in told_now) and now.get(x, -1) != now.get(y, -1)
                       for _, x, y in move)

        return relevant

    def weigher(self, prev, d: int, reached: int):
        """`ranked`'s key of a move at answer `d`: (whether it trades back a pair that mended this answer before,
        whether it trades a card a step on the way of this answer's mends traded (`stepped`), the counts pinned at
        the answers since its first shuffle it undoes, the counts the rules may have read there it changes). The
        last is worked out only where no option of another player fit its question (`unanswered`; else 0). None
        where the key is the same for every move (no count pinned, no pair mended this answer before, no step taken,
        and the counts changed not worked out)."""
        faces, told = self.faces, self.told
        counted = self.unanswered  # (else only the trades back and the counts undone are worked out)
        passed = sorted(e for e in told if e != d) if counted else []
        by_face, where = self.named_passed(passed)
        again = self.mends.get(d, ())
        stepped = self.stepped
        # the counts pinned at the other answers the world passed, by face: (the answer, the zone kept, the count
        # pinned, how many cards of the face the zone holds now: the same for every move weighed)
        pins: dict[Any, list[tuple[int, set[int], int, int]]] = {}
        for e, pinned in self.pins.items():
            if e != d and e in told:
                for h, f, k in pinned:
                    z = told[e][2][h]
                    pins.setdefault(f, []).append((e, z, k, sum(faces[c] == f for c in z)))
        if not counted and not pins and not again and not stepped:
            return None
        # the cards of the zones whose counts were pinned (a trade of none of them undoes none)
        pinned_in = {c for kept in pins.values() for _, z, _, _ in kept for c in z}

        since: dict[int, int] = {}  # mix -> the first answer given after it

        def key(move: tuple[tuple[int, int, int], ...]) -> tuple[bool, bool, int, int]:
            """(trades back, undoes a step, counts undone, counts changed)"""
            risk = undone = 0
            for o, x, y in move:
                fx, fy = faces[x], faces[y]
                first = since[o] if o in since else since.setdefault(o, self.since(o))
                if x in where or y in where:  # (else neither card lay in a zone kept: no count there changes)
                    risk += _risked(by_face, passed, where, first, x, y, fx, fy)
                if x in pinned_in or y in pinned_in:
                    undone += _undone(faces, pins, first, x, y)
            return bool(again) and any(frozenset((x, y)) in again for _, x, y in move), \
                bool(stepped) and any(x in stepped or y in stepped for _, x, y in move), undone, risk

        return key

    def named_passed(self, passed: list[int]) -> tuple[dict[Any, list[int]], dict[int, list[int]]]:
        """Of the answers `passed` (kept, see `note`): face -> the places in `passed` of those whose lines named it;
        card -> per answer, the zone of `hidden` that held it, or -1."""
        by_face: dict[Any, list[int]] = {}
        where: dict[int, list[int]] = {}
        nowhere = [-1] * len(passed)
        for i, e in enumerate(passed):
            named, inside = self.named_at(e), self.told[e][2]
            for f in named:
                by_face.setdefault(f, []).append(i)
            for h, z in enumerate(inside):
                for c in z:
                    w = where.get(c)
                    if w is None:
                        w = where[c] = nowhere[:]  # (not a list made for every card at every answer, then dropped)
                    w[i] = h
        return by_face, where

    def learned(self, d: int, prev, reached: int, before, after, move: tuple[tuple[int, int, int], ...]) -> None:
        """A mend let the world give answer `d` (`before`: the world mended, before the answer; `after`: after
        it): kept as the world passed it (see `note`), and the counts it changed of a face the seat's lines
        named there, in a zone of another player, pinned (see `ranked`)."""
        inside = [set(before.st.zones[zi]) for zi in self.hidden]
        self.note(d, prev._verified, after._verified, inside)
        told, faces = self.told_at(prev, reached), self.faces
        pinned = self.pins.setdefault(d, [])
        self.mends.setdefault(d, set()).update(frozenset((x, y)) for _, x, y in move)
        for _, x, y in move:
            for h, z in enumerate(inside):
                if (x in z) != (y in z):
                    pinned.extend((h, f, sum(faces[c] == f for c in z)) for f in {faces[x], faces[y]} & told)

    def told_at(self, prev, reached: int) -> frozenset:
        """The faces the seat's lines name from the answer `prev` is before up to where the world parted. (A copy
        rebuilt from its kept base, a mend's step on the way, holds as matched only the lines up to that base: the
        answer's lines start where the world before it had matched them, `lines_at`.)"""
        if not len(self.want):
            return frozenset()
        last = min(reached, len(self.want) - 1)
        first = min(max(prev._verified, self.lines_at), last)
        return frozenset().union(*(self.faces_named(j) for j in range(first, last + 1)))

    def moved_told(self, *move: tuple[int, int, int]) -> None:
        """The cards of the zones kept per answer (`told`) traded as the drawing now trades them."""
        for o, x, y in move:
            first = self.since(o)
            for e, (_, _, inside) in self.told.items():
                if e >= first:
                    for z in inside:
                        if (x in z) != (y in z):
                            z.symmetric_difference_update((x, y))

    def mark(self, o: int) -> None:
        """The drawing changed from mix `o` on."""
        deal = self.deal_of(o)
        self.changed = deal if self.changed is None else min(self.changed, deal)

    def deal_of(self, o: int) -> int:
        """The shuffle a world whose drawing changed at mix `o` is played again from (see `resume`): a shuffle's
        own; for a choice, the last shuffle dealt before the answer that made it (-1: none), as a copy kept
        before the answer that dealt it comes before the choice (one kept after the choice keeps it as it was)."""
        tr = self.tr
        if o in tr.mix_deal:
            return tr.mix_deal[o]
        return sum(1 for k in tr.deal_at if k <= tr.mix_answer[o]) - 1

    def since(self, o: int) -> int:
        """The first answer given after mix `o`."""
        tr = self.tr
        return tr.deal_at[tr.mix_deal[o]] if o in tr.mix_deal else tr.mix_answer[o] + 1

    def touched(self, d: int, reached: int) -> set[int]:
        """The zones answer `d` is about: those the real answer's events moved cards from or to, those of
        the asked player, and those of the players whose counters the observation where the world
        parted (`reached`) shows changed (a counter may tell of a hand)."""
        zones: set[int] = set()
        m, tr = self.match, self.tr
        t = m.layout
        end = tr.marks[d + 1] if d + 1 < len(tr.marks) else tr.end
        for e in m._watch.events[tr.marks[d]:end]:
            if e[0] == MOVE:
                zones.update((e[2], e[4]))
        players = {m.history[d][0]}
        want = self.want
        if 0 <= reached < len(want) and '"event":"table"' in want[reached]:
            now = json.loads(want[reached])["counters"]
            then: dict[str, Any] = next(
                (json.loads(x)["counters"] for x in reversed(want[:reached]) if '"event":"table"' in x), {})
            for name, values in now.items():
                if isinstance(values, list):
                    before = then.get(name, [None] * len(values))
                    players.update(p for p, v in enumerate(values) if p >= len(before) or v != before[p])
        zones.update(zi for zi in range(len(t.zone_owner)) if t.zone_owner[zi] in players)
        return zones

