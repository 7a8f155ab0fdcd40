"""Step 1, where the seat loses track (`_Trace`, `_Tracer`): every card's life cut into paths at the mixes, what the
seat saw of each path, and the order a world's random choices go to a mix's paths (`_role`, `_by_role`), which hangs
on what the seat saw, not on which real card went where."""

from __future__ import annotations

from itertools import islice, repeat
from typing import Any

from ..events import TABLE
from ..information import ASK, DECIDE, FLIP, MOVE, ROLL, SHOW, SHUFFLE, back_key, card_index
from ..runtime import K_CARD, OWNER, PUBLIC


class _Trace:
    """Step 1's result for one seat (see the module), grown as the match goes on (see `_Tracer`)."""

    __slots__ = ("alive", "arranged", "chosen", "deal_at", "dealing", "deals", "drawn", "end", "glimpses",
                 "grouped", "hid", "kept", "last", "left", "marks", "maybe", "mix_answer", "mix_deal", "mixes",
                 "named", "need", "needed", "origin", "picked", "picks", "rolls", "sighted", "unseen", "zone")

    def __init__(self) -> None:
        self.origin: list[int] = []  # the mix each path comes out of (-1: the set-up)
        self.need: list[Any] = []  # the face a path must carry (None: free)
        self.needed: list[int] = []  # the paths made free whose face the seat saw since, in the order it did
        self.sighted: dict[int, int] = {}  # path -> the last event at which the seat saw its card (not the set-up)
        # a look at several cards of another player's hand: (the paths, the faces shown), the faces on those paths
        # in some order (the seat saw which faces lie there, not which card lies where); `grouped`: their paths
        self.glimpses: list[tuple[list[int], list[Any]]] = []
        self.grouped: set[int] = set()
        # (kind, incoming, outgoing paths): kind -1 a shuffle, else a choice from a hand (in order), kind
        # the place of the card that left
        self.mixes: list[tuple[int, list[int], list[int]]] = []
        self.deals: list[list[int]] = []  # per shuffle (of two cards or more): the paths in the order dealt
        self.mix_deal: dict[int, int] = {}  # a shuffle's mix -> its index in `deals`
        self.mix_answer: dict[int, int] = {}  # a choice's mix -> the answer that chose the card
        self.picks: list[int] = []  # per answer: the path of the card answered (-1: not a card)
        self.alive: list[list[int]] = []  # per answer: each card's path as it was asked
        self.zone: list[list[int]] = []  # per answer: each card's zone as it was asked
        self.chosen: set[int] = set()  # paths of cards a player chose to send out of a hand unseen
        self.left: set[int] = set()  # answers naming a card of another's that then left its hand or moved unseen
        self.marks: list[int] = []  # per answer: where its events start in the match's record
        self.dealing: set[int] = set()  # the answers after which the match shuffled (before the next one)
        self.deal_at: list[int] = []  # per shuffle in `deals`: the answers given before it
        self.named: dict[int, frozenset] = {}  # the seat's observation j -> the faces it names (see `_faces_named`)
        self.rolls: dict[int, list[tuple[int, int]]] = {}  # answer (-1: the set-up) -> the rolls after it (`_Source`)
        self.drawn: set[int] = set()  # the answers after which a world drew an outcome anew (see `_Replay.step`)
        # the answers after which the real match may have drawn such an outcome (its chance used past its shuffles'
        # and rolls'), and how many it drew so far
        self.maybe: set[int] = set()
        self.picked = 0
        self.unseen: set[int] = set()  # the answers (-1: the set-up) after which a card moved the seat did not see
        self.hid: dict[int, list[tuple[int, int]]] = {}  # answer -> those moves, as (event, the card's path)
        self.kept: set[tuple[int, int]] = set()  # outcomes a world learned the seat saw (see `_Source.kept`)
        self.end = 0  # the match's events walked
        # path -> the event at which its card last moved (on that path): what tells paths apart in the seat's eyes
        # (where each card went last), not which card the real match sent down them (see `_by_role`)
        self.last: dict[int, int] = {}
        self.arranged: list[tuple[int, int]] = []  # the set-up's moves (before any answer): (card, its path)

    def copy(self) -> _Trace:
        """An independent copy: every container the walk or a world grows copied (a mix's, a deal's or an answer's
        own lists are made whole and never changed after)."""
        other = _Trace.__new__(_Trace)
        for name in _Trace.__slots__:  # (every slot: one added later is copied too)
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list | dict | set) else value)
        other.hid = {d: moves[:] for d, moves in self.hid.items()}  # (the lists of the last answer grow)
        other.rolls = {d: rolls[:] for d, rolls in self.rolls.items()}
        return other

    def path(self, need: Any) -> int:
        """A new path, needing `need` (a face, or None)."""
        self.need.append(need)
        self.origin.append(len(self.mixes))
        return len(self.need) - 1


class _Tracer:
    """Step 1 for one seat, kept with the match: the walk over its events goes on from where it stopped.

    Every card's life is cut into paths where `seat` loses track of it (see the module). A need, once
    known, holds for good: what the seat saw of a path is a fact of the match."""

    def __init__(self, match, seat: int) -> None:
        t = match.layout
        self.t, self.seat, self.bit = t, seat, 1 << seat
        faces = self.faces = t.face_ids
        self.backs = [back_key(t, c) for c in range(len(faces))]
        self.ids = card_index(t)
        tr = self.tr = _Trace()
        self.seg = [tr.path(faces[c]) for c in range(len(faces))]  # the set-up is every match's
        tr.origin = [-1] * len(self.seg)
        self.zones = [list(z) for z in t.start_zones]
        self.zone_of = list(t.start_zone_of)
        self.face = list(t.start_face)
        # card -> (answer, who answered) naming it: linked to the card's path as asked, or, if the card
        # moves before the rules touch the answering player's zones otherwise and within the same turn, to its
        # path after that move
        self.waiting: dict[int, list[tuple[int, int]]] = {}
        self.turn: tuple = (-1, -1)  # the round and turn of the last table event walked
        # the look at another player's hand being walked: (its zone, its last event, the cards shown so far)
        self.look: tuple[int, int, list[int]] | None = None
        self.decisions: list[tuple] = []  # the match's answers, as recorded
        self.chanced = 0  # the chance outcomes the match's shuffles and rolls walked so far drew
        self.seen_at = -1  # the match's events walked when the cards it sees now were last looked at (`advance`)
        # per zone: whether a rule that may read a card's face may reach the cards lying there (`Game.face_zones`)
        names = match.game.face_zones
        self.reach = [names is None or name.partition("@")[0] in names for name in t.zone_names]

    def copy(self) -> _Tracer:
        """An independent copy, to walk on apart (the layout's tables shared)."""
        other = _Tracer.__new__(_Tracer)
        other.__dict__.update(self.__dict__)
        other.tr = self.tr.copy()
        other.seg, other.zone_of, other.face, other.decisions = self.seg[:], self.zone_of[:], self.face[:], \
            self.decisions[:]
        other.zones = [z[:] for z in self.zones]
        other.waiting = {c: named[:] for c, named in self.waiting.items()}
        return other

    def advance(self, match) -> _Trace:
        """The trace of the match as it is now (the events since the last call walked)."""
        tr = self.tr
        last = len(tr.picks) - 1
        self.walk(match._watch.events)
        # the outcomes of neither a shuffle nor a roll (a random card, player, place)
        picked = match.st.chance_used - self.chanced
        if picked > tr.picked:
            tr.picked = picked
            tr.maybe.update(range(last, len(tr.picks)))
        saw, end = self.saw, tr.end
        if end != self.seen_at:  # (else nothing happened since: the same cards are seen, at the same point)
            self.seen_at = end
            for c in self.seen_now(match.st):
                saw(c, end)
        return tr

    def walk(self, events: list[tuple]) -> None:
        """The events from the last walked on, each told to the step of its kind (a look at a hand ends at the
        first event that shows no more of it)."""
        walk = {MOVE: self.moved, SHUFFLE: self.shuffled, FLIP: self.flipped, SHOW: self.shown, ASK: self.asked,
                DECIDE: self.decided, TABLE: self.tabled, ROLL: self.rolled}
        start = self.tr.end
        for i, e in enumerate(islice(events, start, None), start):
            kind = e[0]
            if kind != SHOW and self.look is not None:
                self.looked()
            step = walk.get(kind)
            if step is not None:
                step(i, e)
        if self.look is not None:
            self.looked()
        self.tr.end = len(events)

    def seen_now(self, st) -> list[int]:
        """The cards the seat sees now (`seen_by`, for this seat only), by their paths (`_by_role`), not by the
        cards' ids: the order they join `needed` in."""
        tr, t, seat, bit = self.tr, self.t, self.seat, self.bit
        known, face, zone_of, vis, owner = st.known, st.face, st.zone_of, t.zone_vis, t.zone_owner
        grouped, seg = tr.grouped, self.seg
        now: list[int] = []
        for c in range(len(self.faces)):
            if known[c] & bit:
                if seg[c] not in grouped or vis[zone_of[c]] != OWNER or owner[zone_of[c]] == seat:
                    now.append(c)  # (a card of a look at a hand, still there: which one is not known)
            elif face[c]:
                zi = zone_of[c]
                if vis[zi] == PUBLIC or (vis[zi] == OWNER and owner[zi] == seat):
                    now.append(c)
        if len(now) > 1:
            role = _role(tr)
            now.sort(key=lambda c: role(seg[c]))
        return now

    # ---- what each event tells the seat
    def moved(self, i: int, e: tuple) -> None:
        _, c, src, at, dst, to, up, before, after = e
        tr, waiting, seg = self.tr, self.waiting, self.seg
        s = seg[c]
        if (before | after) & self.bit:  # (`saw`, written out: this runs at every move)
            if tr.need[s] is None:
                tr.needed.append(s)
                tr.need[s] = self.faces[c]
            tr.sighted[s] = i
        else:
            d = len(tr.picks) - 1
            tr.unseen.add(d)
            tr.hid.setdefault(d, []).append((i, s))
        if waiting and c in waiting:
            self.named_moved(c, src, at, before, after)
            s = seg[c]
        tr.last[s] = i
        if not tr.picks:
            tr.arranged.append((c, s))
        zones = self.zones
        del zones[src][at]
        zones[dst].insert(to if to >= 0 else ~to, c)
        self.zone_of[c] = dst
        self.face[c] = up
        if waiting:
            if c in waiting:
                self.link(c)
            else:  # another card: the rules went on past the answers naming cards of these zones
                self.release(src)
                self.release(dst)

    def named_moved(self, c: int, src: int, at: int, before: int, after: int) -> None:
        """A card an answer named moved from zone `src`, where it lay at `at` (`before`, `after`: who could see it
        there, and where it went)."""
        t, tr, bit, waiting = self.t, self.tr, self.bit, self.waiting
        if t.zone_vis[src] == OWNER and t.zone_owner[src] != self.seat and not after & bit:
            mixes = len(tr.mixes)
            self.chose(self.zones[src], at)  # which card of that hand the player chose, the seat did not see
            if len(tr.mixes) > mixes:
                tr.mix_answer[mixes] = min(d for d, _ in waiting[c])
            tr.left.update(d for d, _ in waiting[c])
        elif not (before | after) & bit:
            # an answer's card that moves out of the seat's sight (a card taken from a hidden pile into a hand):
            # a world takes the card its drawing puts on that path, as it does for a card that leaves a hand
            # unseen; another card drawn there would leave the cards the drawing sends on elsewhere
            tr.left.update(d for d, _ in waiting[c])

    def tabled(self, i: int, e: tuple) -> None:
        """The counters or the turn changed: once another turn or round begins, the answers naming cards that
        have not moved lapse. A card named at a turn that moves at a later one moves by what the rules do then
        (Go Fish: the cards of the rank another player asks for at its turn), not as the naming player's choice
        of which card left its hand."""
        now = e[1][:2]
        if now != self.turn:
            self.turn = now
            self.waiting.clear()

    def shuffled(self, i: int, e: tuple) -> None:
        zi, order = e[1], e[2]
        tr = self.tr
        self.zones[zi] = list(order)
        first = len(tr.mixes)
        by_back: dict[tuple, list[int]] = {}  # the cards the seat does not see, each back apart
        t, backs = self.t, self.backs
        vis = t.zone_vis[zi]
        # (`sees`, for the zone at once: the cards face up in a zone the seat sees into are those it sees)
        face = self.face
        unseen = [c for c in order if not face[c]] if vis == PUBLIC or (
            vis == OWNER and t.zone_owner[zi] == self.seat) else order
        for c in unseen:
            by_back.setdefault(backs[c], []).append(c)
        # each back apart, in the order of their paths in (not of their backs' first places in the real order)
        for group in sorted(by_back.values(), key=lambda group: min(self.seg[c] for c in group)):
            if len(group) > 1:
                tr.mixes.append((-1, [self.seg[c] for c in group], self.renewed(group)))
        for o in range(first, len(tr.mixes)):
            tr.mix_deal[o] = len(tr.deals)
        if len(order) > 1:  # a shuffle of one card or none draws nothing
            self.chanced += len(order) - 1
            tr.deals.append([self.seg[c] for c in order])
            tr.deal_at.append(len(tr.picks))
            tr.dealing.add(len(tr.picks) - 1)

    def rolled(self, i: int, e: tuple) -> None:
        """A roll, heard by the whole table: a world rolls the same after the same answer (a die of one side
        draws nothing)."""
        if e[1] > 1:
            self.tr.rolls.setdefault(len(self.tr.picks) - 1, []).append((e[1], e[2]))
            self.chanced += 1

    def flipped(self, i: int, e: tuple) -> None:
        c, before, after = e[1], e[5], e[6]
        self.face[c] = e[4]
        if (before | after) & self.bit:
            self.saw(c, i)

    def shown(self, i: int, e: tuple) -> None:
        c, to, zi = e[1], e[2], e[3]
        t = self.t
        if to == self.seat and t.zone_vis[zi] == OWNER and t.zone_owner[zi] != to:
            look = self.look  # a card of another player's hand: the cards of one look are taken together
            if look is not None and (look[0] != zi or look[1] != i - 1):
                self.looked()
                look = None
            self.look = (zi, i, [*look[2], c] if look is not None else [c])
        elif to == self.seat or e[5] & self.bit:
            self.saw(c, i)

    def looked(self) -> None:
        """The look at another player's hand walked: a look at one card shows it where it lies, as any glimpse;
        a look at several shows the faces there, not which card lies where (docs/information.md)."""
        assert self.look is not None
        _, i, cards = self.look
        self.look = None
        if len(cards) == 1:
            self.saw(cards[0], i)
            return
        paths = [self.seg[c] for c in cards]
        self.tr.glimpses.append((paths, [self.faces[c] for c in cards]))
        self.tr.grouped.update(paths)

    def asked(self, i: int, e: tuple) -> None:
        if e[1] == self.seat and e[3] == K_CARD:
            for x in e[4]:
                if x.__class__ is str and x in self.ids:
                    self.saw(self.ids[x], i)

    def decided(self, i: int, e: tuple) -> None:
        _, who, _, answer, seen, zi, _ = e
        tr = self.tr
        self.decisions.append(e)
        tr.picks.append(self.seg[answer] if zi >= 0 else -1)
        tr.alive.append(self.seg[:])
        tr.zone.append(self.zone_of[:])
        tr.marks.append(i)
        if zi >= 0:
            if who == self.seat and seen & self.bit:
                self.saw(answer, i)
            self.waiting.setdefault(answer, []).append((len(tr.picks) - 1, who))

    # ---- the walk's steps
    def saw(self, c: int, at: int) -> None:
        tr = self.tr
        s = self.seg[c]
        if tr.need[s] is None:
            tr.needed.append(s)
            tr.need[s] = self.faces[c]
        tr.sighted[s] = at

    def renewed(self, cards: list[int]) -> list[int]:
        """A new free path for each of `cards`, in turn, coming out of the mix about to be made (`_Trace.path`, for
        several at once: no call per path)."""
        tr, k = self.tr, len(cards)
        paths = list(range(len(tr.need), len(tr.need) + k))
        tr.need.extend(repeat(None, k))
        tr.origin.extend(repeat(len(tr.mixes), k))
        seg = self.seg
        for c, s in zip(cards, paths, strict=True):
            seg[c] = s
        return paths

    def chose(self, hand: list[int], k: int) -> None:
        """Another player sent card `hand[k]` out of its hand unseen: any card of that hand with the same
        back could have gone (those with other backs the seat tells apart)."""
        backs, tr, seg = self.backs, self.tr, self.seg
        back = backs[hand[k]]
        alike = [c for c in hand if backs[c] == back]
        if len(alike) > 1:
            tr.mixes.append((alike.index(hand[k]), [seg[c] for c in alike], self.renewed(alike)))
            tr.chosen.add(seg[hand[k]])

    def link(self, c: int) -> None:
        for d, _ in self.waiting.pop(c, ()):
            self.tr.picks[d] = self.seg[c]

    def release(self, zi: int) -> None:
        """The rules touched zone `zi`: the cards its owner named and that stay put are linked as asked."""
        p, waiting = self.t.zone_owner[zi], self.waiting
        if p >= 0:
            for c in [c for c, named in waiting.items() if any(who == p for _, who in named)]:
                waiting[c] = [(d, who) for d, who in waiting[c] if who != p]
                if not waiting[c]:
                    del waiting[c]


def _after_choice(k: int, j: int, incoming: list[int]) -> list[int]:
    """The incoming path each outgoing path of a choice takes its card from: the card at `k` left in
    the real match, the one at `j` in the world; the one leaving takes the path of the one that left,
    the others keep their order (the i-th card staying in the world is the i-th staying in the real one)."""
    came = incoming[:j] + incoming[j + 1:]
    came.insert(k, incoming[j])
    return came


def _choosable(ok: Any, k: int, incoming: list[int], outgoing: list[int]) -> list[int]:
    """The places j of a hand whose card, leaving it (where the real match's card at `k` left), sends a card down
    every outgoing path that `ok(outgoing path, incoming path)` allows (see `_after_choice`), in order. Each pair is
    tested once, not once per j: outgoing path i takes incoming i outside the places from j to k, incoming j at k,
    and its neighbour (i + 1 where j < k, i - 1 where j > k) between them."""
    n = len(incoming)
    same = [ok(t, s) for t, s in zip(outgoing, incoming, strict=True)]
    # upto[i]: whether all of same[:i] hold; after[i]: whether all of same[i:] do
    upto, fine = [True] * (n + 1), True
    for i in range(n):
        fine = fine and same[i]
        upto[i + 1] = fine
    after, fine = [True] * (n + 1), True
    for i in range(n - 1, -1, -1):
        fine = fine and same[i]
        after[i] = fine
    out: list[int] = []
    t = outgoing[k]
    # j < k: outgoing i in [j, k) takes incoming i + 1; checked from k down, so each j adds one pair
    shifted = True
    below: list[int] = []
    for j in range(k - 1, -1, -1):
        shifted = shifted and ok(outgoing[j], incoming[j + 1])
        if not shifted:
            break
        if upto[j] and after[k + 1] and ok(t, incoming[j]):
            below.append(j)
    out.extend(reversed(below))
    if upto[n]:
        out.append(k)
    shifted = True
    for j in range(k + 1, n):  # j > k: outgoing i in (k, j] takes incoming i - 1
        shifted = shifted and ok(outgoing[j], incoming[j - 1])
        if not shifted:
            break
        if upto[k] and after[j + 1] and ok(t, incoming[j]):
            out.append(j)
    return out


def _role(tr: _Trace) -> Any:
    """The key of `_by_role`'s order of a path: the event at which its card last moved down it (-1: never), then the
    order the paths were made."""
    last = tr.last
    return lambda p: (last.get(p, -1), p)


def _by_role(tr: _Trace, paths: list[int]) -> list[int]:
    """`paths` (a shuffle's) in the order their cards last moved down them, those that never moved first in the order
    they were made (a shuffle makes its paths by the places it deals): the order the random choices of a drawing go
    to them. Not the order of the real match's cards (which card a shuffle dealt where, or a hidden pile's order
    after an unseen move), which would feed what the seat does not know into those choices: two matches it cannot
    tell apart, given one generator, draw one world."""
    return sorted(paths, key=_role(tr))


def _alive(tr: _Trace, alive: list[int]) -> list[tuple[int, int]]:
    """(card, its path) of each card as an answer was asked (`_Trace.alive`), in the order of `_by_role`: not by the
    real match's card ids, which would tell a mend's random choices which hidden card lies where."""
    role = _role(tr)
    return sorted(enumerate(alive), key=lambda rs: role(rs[1]))


def _redraws(tr: _Trace, decisions: list[tuple], seat: int, first: int) -> bool:
    """Whether a world played again from answer `first` on draws one of the answers since anew: another seat's
    secret answer, or its pick of a card the seat did not see at or after it that stays where it is (see
    `_Replay.answered`)."""
    return _last_redrawn(tr, decisions, seat, first) >= 0


def _last_redrawn(tr: _Trace, decisions: list[tuple], seat: int, first: int) -> int:
    """The last answer from `first` on that a world played again draws anew (see `_redraws`); -1: none."""
    sighted, marks, chosen, left, picks = tr.sighted, tr.marks, tr.chosen, tr.left, tr.picks
    for d in range(len(decisions) - 1, first - 1, -1):
        e = decisions[d]
        if e[1] == seat:
            continue
        pick = picks[d]
        if pick < 0:
            if e[2]:
                return d
        elif sighted.get(pick, -1) < marks[d] and pick not in chosen and d not in left:
            return d
    return -1
