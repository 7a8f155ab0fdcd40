"""Step 3, the world played (`_Replay`): from the start, or from a copy of an earlier world, answer by answer along the
drawing, mended where it parts and played once more from the last copy before the first shuffle a mend changed, so
that its whole history is its own; a run of other seats' answers drawn anew is drawn again where what follows does
not fit (`_Run`)."""

from __future__ import annotations

from typing import Any

from ..runtime import RuleError
from .base import _Misfit, _Unanswered
from .mends import _Mends
from .replay_state import _FLAT, _REDRAWN_REACH, _REDRAWS, _REDRAWS_MOST, _answers_from, _applied, _labelled, _Snap


def _trades(swaps: list[tuple[int, int, int]], used: int) -> dict[int, int]:
    """Card -> the card it is traded for by the trades of `swaps` ((shuffle, x, y): x and y traded from that
    shuffle on) of the first `used` shuffles, in turn (a card none of them trades is left out)."""
    out = {}
    for c in {c for deal, x, y in swaps if deal < used for c in (x, y)}:
        value = c
        for deal, x, y in swaps:
            if deal < used:
                value = y if value == x else x if value == y else value
        out[c] = value
    return out


class _Run:
    """A run of other seats' answers drawn anew, one after another (see `_Replay.ran`): a copy of the world before its
    first answer (`before`), its first and last answers, how often it was drawn again (`tries`) and may be (`most`),
    how many ways its secret answers may go together (`ways`), and where the world's chance stood before it
    (`chance`: `_Replay.chance_mark`)."""

    __slots__ = ("before", "chance", "first", "last", "most", "tries", "ways")

    def __init__(self, before, first: int, chance: tuple[int, int, int] | None) -> None:
        self.before, self.first, self.last, self.chance = before, first, first - 1, chance
        self.tries, self.most, self.ways = 0, _REDRAWS, 1


class _Replay(_Mends):
    """Worlds played along a drawing, from the start or from a copy of an earlier world, repaired where
    they part from the real match (see the package's step 3)."""

    def play(self, repairs: int, start: tuple | None = None):
        """The world, or `_Misfit`: played from `start` (a world before answer d, as `(world, d)`; None:
        a new match) along the drawing. Where a world parts from what the seat observed, it is mended
        (see `repair`) and played on from the mended copy; a world mended anywhere is then played once
        more along the final drawing, from the last copy kept before the first shuffle a mend changed,
        so that its whole history is its own (mended again where that one parts, up to `repairs` mends
        in all)."""
        self.repairs = repairs
        while True:
            world = self.played(*(start if start is not None else (self.start(), 0)))
            if self.changed is None:
                self.drawn_out()
                return world
            start = self.resume(self.changed)
            self.changed = None

    def drawn_out(self) -> None:
        """The world is drawn: the state of the real generator's copy and the real outcomes it gave go to this replay
        (the match's belief keeps them, `_Belief.keep`), none of it with the world's chance (`_Source.release`)."""
        source = self.source
        self.stream_state = source.stream.getstate() if source.stream is not None else None
        self.reals, source.reals = source.reals, []
        source.release()

    def played(self, world, d: int):
        """`world`, before answer `d`, played on to the last answer (see `play`)."""
        dealing, decisions, seat = self.tr.dealing, self.decisions, self.seat
        self.anew_from(d)
        run: _Run | None = None  # the last run of other seats' answers drawn anew (see `ran`)
        while d < len(decisions):
            if self.dealt_last < d < self.redrawn and decisions[d][1] == seat:
                # a copy before each of the seat's own answers since the last shuffle: the other seats' answers since
                # one of them are drawn anew from there (`_moved`), not from that shuffle
                self.marks.append(_Snap(world.st.rng.used, d, world.backup()))
            # a copy before the answer: to mend from, and kept if the answer deals (as the real one did)
            # (made only where it is used: most answers are given as the real ones were)
            later = world.backup_later() if self.repairs > 0 or d in dealing else None
            used = world.st.rng.used
            if d == self.open_at:
                self.opening(world, None, used, d)
            self.redrew = False
            self.run_mark = self.chance_mark(world) if run is None or d > run.last + 1 else self.run_mark
            # (what a mend ranks its swaps by: none where no mend is left, as a world played again unmended)
            k = world._verified
            inside = list(map(set, map(world.st.zones.__getitem__, self.hidden))) if self.repairs > 0 else None
            try:
                world = self.step(world, d)
                if inside is not None:
                    self.note(d, k, world._verified, inside)
                if self.redrew or world.st.rng.used != used:  # (else neither keeps anything)
                    prev = later.made() if later is not None else None
                    self.dealt(world, used, d, prev)
                    run = self.ran(run, prev, d)
                else:
                    self.over_own(run, d)
                d += 1
                continue
            except RuleError:
                misfit = _Misfit("the rules failed")
            except _Misfit as err:
                misfit = err
            if run is not None and run.tries < run.most and d - run.last <= _REDRAWN_REACH:
                world, d = self.run_again(run)
                continue
            world = self.mended(later.made() if later is not None else None, d, misfit)
            run = None
            d += 1
        return world

    def anew_from(self, d: int) -> None:
        """The world is played from before answer `d` (again): the copies kept of it from there on, and what its answers
        drawn anew found from there on, are dropped (they are kept again as it goes); what they find is noted from
        there on, if not from earlier."""
        if self.marks and self.marks[-1].d >= d:
            self.marks = [mark for mark in self.marks if mark.d < d]
        found = self.found
        if found and max(found) >= d:
            self.found = {k: v for k, v in found.items() if k < d}
        if self.whole is None or self.whole > d:
            self.whole = d

    def ran(self, run: _Run | None, prev, d: int) -> _Run | None:
        """The last run of other seats' answers drawn anew after answer `d` (`_Run`). A run may be drawn again
        `_REDRAWS` times, or twice as many times as its secret answers have ways to go together (their options
        multiplied), up to `_REDRAWS_MOST`: secret answers show only later, together (contracts shown at once), so
        only a draw of them all together tells whether they fit (the last one's options are tried in turn; another
        seat's pick of a card the seat did not see shows at once)."""
        if not self.redrew or prev is None:
            return run
        if run is None or not run.first <= d <= run.last + 1:
            run = _Run(prev, d, self.run_mark)
        if d > run.last:  # the run goes on (else it is drawn again: its draws left as they are)
            run.last = d
            if self.decisions[d][2]:
                run.ways = min(run.ways * self.options, _REDRAWS_MOST)
                run.most = max(_REDRAWS, min(2 * run.ways, _REDRAWS_MOST))
        return run

    def run_again(self, run: _Run) -> tuple[Any, int]:
        """The run of other seats' answers drawn anew (`ran`) to be drawn again, where what the seat saw next may tell
        them (contracts shown), before any card is traded: the world before its first answer, with its chance as it
        stood there, and that answer."""
        run.tries += 1
        world, d = run.before.clone(), run.first
        self.chance_back(run.chance)
        self.snaps = [snap for snap in self.snaps if snap.d < d]
        self.anew_from(d)
        self.known = None  # (a run drawn again: from here the world may be other than the kept one)
        return world, d

    def chance_mark(self, world) -> tuple[int, int, int] | None:
        """Where `world`'s chance stands, to set it back to (`chance_back`) where the outcomes from here on are drawn as
        they come (not read back from an earlier drawing): (the outcomes drawn so far, those of them drawn anew, where
        those were drawn); else None. The real generator's copy is kept lazily (`_Source.run_from`)."""
        source, pos = self.source, world.st.rng.pos
        mark = (pos, source.anew, len(source.anews)) if pos == len(source.events) else None
        source.run_from(pos if mark is not None else None)
        return mark

    def chance_back(self, mark: tuple[int, int, int] | None) -> None:
        """The world's chance set back to `mark` (`chance_mark`): what a run that failed drew is dropped."""
        if mark is not None:
            source = self.source
            source.rewind_run(mark[0])
            source.anew = mark[1]
            del source.anews[mark[2]:]

    def over_own(self, run: _Run | None, d: int) -> None:
        """The run of other seats' answers drawn anew (if any) goes on over answer `d` where that is the seat's own
        secret answer right after it: a round answered at once, the seat among those asked (what the seat sees next, as
        contracts shown together, tells all of the round's answers, so all of them are drawn again)."""
        if run is not None and run.last == d - 1 and self.decisions[d][2]:
            run.last = d

    def mended(self, prev, d: int, misfit: _Misfit):
        """The world after answer `d`, mended from `prev` (the world before it) where it gave `misfit`; the
        misfit raised again where the mends left (`self.repairs`) find none."""
        reached, flat = misfit.reached, 0
        self.unanswered = isinstance(misfit, _Unanswered)
        self.moved_last = misfit.moved_last
        self.stepped = set()
        self.lines_at = prev._verified if prev is not None else 0
        while True:
            if self.repairs <= 0 or flat > _FLAT or prev is None:
                raise misfit
            self.repairs -= 1
            mend = self.repair_thorough(prev, d, reached, misfit.blocked) if self.thorough else \
                self.repair(prev, d, reached, misfit.blocked if misfit.instead else None)
            if mend is None:
                raise misfit
            done, prev, now = mend
            if done:
                # (its probes gave answers on worlds of other drawings: what answers drawn anew find is noted again by
                # a pass to come)
                self.found, self.whole, self.known = {}, None, None
                return prev
            flat = flat + 1 if now <= reached else 0  # mends that get no further: give up soon
            reached = now

    def again(self, start: tuple | None, old, swaps: list[tuple[int, int, int]]) -> tuple:
        """`start` (as for `play`) with the answers of `old`, a world of an earlier drawing, given again
        from there, each card answered traded as `swaps` trade it ((shuffle, x, y): x and y traded from
        that shuffle on); nothing compared on the way (`play` compares what the seat observed after).
        Returns (the world, the answer it is before); `_Misfit` where an answer is no option."""
        world, d0 = start if start is not None else (self.start(), 0)
        answers = _answers_from(old, d0)
        dealing, chanced, open_at = self.tr.dealing, self.tr.picked or self.tr.rolls, self.open_at
        traded: dict[int, int] = {}  # the trades of the shuffles dealt so far, as one map (made again as they are)
        upto = -1
        for d, e in enumerate(answers, d0):
            who = e[1]
            ask = world._ask_of(who)
            if ask is None:
                raise _Misfit(f"P{who} is not asked here")
            prev, used = world.backup() if d in dealing else None, world.st.rng.used
            if d == open_at:
                self.opening(world, prev, used, d)
            if e[5] >= 0:  # a card: the one this drawing puts where the old one lay
                if used != upto:
                    traded, upto = _trades(swaps, used), used
                value = traded.get(e[3], e[3])
                options = ask[1]
                action = options.index(value) if value in options else -1
            else:
                action = _labelled(world, ask, e[3])
            if action < 0:
                raise _Misfit("the answer given is not an option here")
            if chanced:
                world = self.chanced(world, d, lambda w, _, who=who, action=action: _applied(w, who, action), True)
            else:  # (the real match's chance was its shuffles': see `chanced`)
                world.apply(who, action)
            if world.st.rng.used != used:
                self.dealt(world, used, d, prev)
        return world, d0 + len(answers)
