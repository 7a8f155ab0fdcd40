"""Stage 7: one match, step by step (OpenSpiel-style): who acts, legal actions, apply, view, result."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from itertools import filterfalse
from operator import itemgetter
from typing import Any

from . import belief, chance, free_worlds, information
from .failures import RULE_FAILURES, rule_error
from .flow import SETUP, Cursor, finish, run_flow
from .information import Watcher, relabel_frozen
from .invalid import INVALID_MOVE, MATCH_OVER, NOT_YOUR_TURN, Invalid
from .random_bots import RandomBot as RandomBot  # re-exported: every import of it from here works
from .random_bots import random_bot
from .runtime import (
    CHANCE_USED,
    DECISIONS,
    K_CARD,
    OWNER,
    PUBLIC,
    Quiet,
    RuleError,
    State,
    move,
    seen_by,
)
from .seat import Seat


class DrawnChance:
    """Chance outcomes drawn from a function instead of the seeded generator (see `Match`)."""

    def __init__(self, outcome: Callable[[int], int]) -> None:
        self._randbelow = outcome


class ChanceMismatch(Exception):
    """Recorded chance outcomes do not fit the match they are replayed into (not a rule failure)."""


class Recorded:
    """Chance answered with recorded outcomes, in order; when they run out, by a generator seeded with
    `then` if given, else ChanceMismatch (as when an outcome does not fit its event). A value, so a
    match using it can be cloned and pickled; `used` counts the recorded outcomes given so far."""

    __slots__ = ("outcomes", "rest", "used")

    def __init__(self, outcomes: Sequence[int], then: int | None = None) -> None:
        self.outcomes = tuple(outcomes)
        self.used = 0
        self.rest = None if then is None else random.Random(then)

    def __call__(self, n: int) -> int:
        i = self.used
        if i >= len(self.outcomes):
            if self.rest is None:
                raise ChanceMismatch(f"the recorded chance outcomes ran out: chance event {i + 1} has none")
            return self.rest._randbelow(n)  # type: ignore[attr-defined]
        k = self.outcomes[i]
        if not (isinstance(k, int) and 0 <= k < n):
            raise ChanceMismatch(f"chance outcome {i + 1} is {k!r}, but its event has outcomes 0–{n - 1}")
        self.used = i + 1
        return k

    def __getstate__(self) -> tuple:
        return self.outcomes, self.used, self.rest

    def __setstate__(self, state: tuple) -> None:
        self.outcomes, self.used, self.rest = state


_FIRST = itemgetter(0)  # a question's seat


class Match:
    """One match of a game between `players` seats, driven one decision at a time.

    A match is a value: `clone()` copies it and `pickle` saves it, at any point. Just before a phase
    that asks a player, the match keeps a frozen copy of its state (`_base`) and from then on the
    answers sent into the flow (`_sent`); a copy thaws that state and sends the same answers again.
    That re-runs a few answers (at least `REPLAY_SPAN` are given before a new copy is taken, so a match
    does not pay a copy at every phase), never the match from its start.
    """

    REPLAY_SPAN = 6
    # Declared for the type checker, set only on some matches: a copy not yet rebuilt keeps the decisions
    # made (see `_Unbuilt`); a match that interpreter.testing draws keeps its chance outcomes.
    _decisions: int
    _record: tuple[Watcher, int]  # a copy to go back to, not used yet: its record held lazily (see `backup`)
    chance_drawn: list[int] | None
    _explicit: chance.Explicit | None = None  # explicit chance (see `chance`), only where asked for
    _unmarked = False  # a search's copy (`search_copy`): keeps no new base
    _verified: int  # a world being drawn: how many of the seat's observations it is known to share (see belief)
    _faces_read = False  # a phase that may read a card's face has started (see `free_worlds`)
    _drawn: Sequence  # a determinized world: the drawing `belief.replayed` plays it along, up to its n-th answer

    def __init__(self, game, players: int, seed: int, log: bool = False, bots=None,
                 arrange: dict[str, list[str]] | None = None, after_setup=None,
                 chance: Callable[[int], int] | None = None, ended=None) -> None:
        """`chance`, if given, answers every chance event instead of the seeded generator: called with n,
        it returns an outcome in 0..n-1 (a property test's strategy, or outcomes recorded in a log).
        `ended(st, part)`, if given, is called at the end of every turn and round of this match (not of
        its copies): see `run_flow`; what it raises stops the match there."""
        game.check_players(players)
        self.game = game
        self.players = players
        self.seed = seed
        self.layout = game.model.setup(players)
        self.log: list[dict] | None = [] if log else None
        if self.log is not None:
            header = {"type": "match", "game": game.name, "version": game.version, "seed": seed,
                      "players": players, "bots": list(bots or ["random"] * players)}
            self.log.append(header)
        self.st = State(self.layout, players, seed, self.log if self.log is not None else Quiet(), game.max_steps)
        if chance is not None:  # an object with its own `_randbelow` (a determinized world's) is used as it is
            self.st.rng = chance if hasattr(chance, "_randbelow") else DrawnChance(chance)
        self.st.table_counters = game.counter_names
        # who sees what: observed as the match goes (never replayed), rendered per seat on demand; which cards
        # each seat can no longer tell apart only where the chance is the seed's (the only matches drawn from)
        self._watch = self.st.watch = Watcher(self.st, tagged=chance is None)
        self._seen: list[information.Seen] = [information.new_cache() for _ in range(players)]
        self._base_info: tuple = (0, 0, None)  # at the kept base: events recorded, decisions made, tags
        self._reseed: tuple | None = None  # (answers sent, chance state): a determinized copy's new chance
        self.history: list[tuple[int, int]] = []
        self.winners: list[int] | None = None
        self.scores: list[int] | None = None
        self._arrange, self._after_setup = arrange, after_setup
        self._ask: tuple | None = None
        self._answers: dict[int, Any] = {}
        self._base: tuple[Cursor, tuple] | None = None
        self._sent: list[Any] = []
        self._resuming = False
        self._rng = self.st.rng
        self.failure: RuleError | None = None  # the rules failed during play (the match cannot go on)
        self._flow = run_flow(game, self.st, Cursor(), self._hook(), self._mark, ended, self._reading_faces)
        self._advance(None)

    def _hook(self):
        """The hook run between the set-up phases and round 1: `arrange`, then `after_setup(match)`
        (a test's own set-up: counters, a scripted `match.st.rng`, …)."""
        if not self._arrange and self._after_setup is None:
            return None

        def hook(st: State) -> None:
            if self._arrange:
                self.arrange(self._arrange)
            if self._after_setup is not None:
                self._after_setup(self)

        return hook

    def _reading_faces(self) -> None:
        """A phase that may read a card's face is about to start (what `free_worlds` asks)."""
        self._faces_read = True
        self._watch.walks = {}  # (no world of it is drawn without replay from here on: the walks serve none)

    def _mark(self, cur: Cursor) -> None:
        """A phase that asks is about to start: keep a copy of the state to start again from."""
        if self._resuming or self._unmarked:
            return  # replaying answers already given (or a search's copy): the base and answers since are kept
        st, base = self.st, self._base
        if base is not None and len(self._sent) < self.REPLAY_SPAN:
            return  # few answers since the last copy: a clone replays them rather than every phase paying a copy
        # the chance generator's state is copied again only if it moved since the last copy
        kept = base[1][-1] if base is not None and base[1][CHANCE_USED] == st.chance_used and self._rng is st.rng \
            and self._reseed is None else None
        self._base = (cur, st.freeze(kept))
        self._rng = st.rng
        self._sent = []
        self._reseed = None
        self._base_info = (len(self._watch.events), len(self.history), [t[:] for t in self._watch.tags])
        free_worlds.walk_ahead(self)

    # ---- a match is a value
    def clone(self) -> Match:
        """An independent match at the same point (state, chance, history, log, pending question, the
        seats' beliefs: `belief.carry`), made without replaying the match from its start.

        The copy shares what neither changes (the kept base, the record of who saw what, until one of
        them records more); its running flow is rebuilt from the base when it is first used."""
        if self._explicit is not None and self._explicit.n:
            return chance.copied(self)
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other._answers = dict(self._answers)
        other._sent = list(self._sent)
        other.log = None if self.log is None else list(self.log)
        record = self.__dict__.get("_record")
        if record is not None:  # a copy to go back to, not used yet: so is this one (see `backup`)
            other._record = (_uncounted(record[0].copy()), record[1])
        else:
            other._watch = self._watch.copy()
            if "_kept" in self.__dict__:  # the seats' beliefs go on with the copy (see `belief.carry`)
                belief.carry(self, other)
        other._seen = list(map(information.fork_cache, self._seen))  # (in C: no frame of a comprehension)
        if self.over or self.failure is not None:
            other._resume()
        else:
            if "st" in self.__dict__:  # else `self` is a copy not yet rebuilt, and so is `other`
                other._decisions = self.st.decisions
                del other.st, other._flow, other._pending
            other.__class__ = _Unbuilt
        return other

    def backup(self) -> Match:
        """A copy to go back to (as `clone`) of a world being drawn, whose record keeps no tags (a `search`
        watcher's, only ever appended to): the copy holds the record lazily, its list and length then, so that this
        match records on in place; the copy takes a list of its own (or shares it, counted, where nobody recorded
        past it) only when it is first used (a drawn world is copied before answers it is played, to go back to if
        the answer parts, and most such copies are never used: each would have had the world copy its record)."""
        other = self.clone()
        watch = other.__dict__.get("_watch")
        if other.__class__ is _Unbuilt and watch is not None and watch.search:
            del other._watch
            other._record = (_uncounted(watch), len(watch.events))
        return other

    def backup_later(self) -> Later:
        """What `backup` would copy of this world now, the copy made only where it is asked for (`Later.made`): a world
        being drawn is kept before each answer it is played, and most such copies are never used."""
        return Later(self)

    def search_copy(self) -> Match:
        """A copy for one iteration of a search: it keeps what information states read (the observations),
        not what a determinization of it would (which cards each seat can no longer tell apart), nor a new
        base at each phase (a copy of it replays every answer since the last one kept). Not to be drawn from."""
        other = self.clone()
        other._watch.search = True
        other._unmarked = True
        return other

    def __deepcopy__(self, memo: dict) -> Match:
        """`copy.deepcopy` is `clone` (a state of a game-AI library holding a match is copied so)."""
        return self.clone()

    def _resume(self, frozen_now: tuple | None = None) -> None:
        """Rebuild the running flow: thaw the base state, start the flow at its phase, send the
        phase's answers again (the base is shared, never changed; a new one is taken at the next phase).
        A finished match has no flow: its state (`frozen_now`, or the current one) is copied."""
        log = self.log
        if self.over or self.failure is not None:
            frozen = frozen_now if frozen_now is not None else self.st.freeze()
            self.st = State.thaw(self.layout, self.players, frozen, log if log is not None else Quiet(),
                                 self.game.counter_names)
            self._flow = None
            self._watched()
            return
        lazy = self.__dict__.pop("_decisions", None)
        if "_record" in self.__dict__:
            _taken(self)
        self.__class__ = Match
        decisions = frozen_now[DECISIONS] if frozen_now is not None else lazy if lazy is not None \
            else self.st.decisions
        assert self._base is not None, "a match waiting for an answer has marked its phase"
        cur, frozen = self._base
        st = State.thaw(self.layout, self.players, frozen, Quiet(), self.game.counter_names)
        self.st = st
        self._resuming = True
        try:
            flow = run_flow(self.game, st, cur, self._hook(), self._mark, None, self._reading_faces)
            ask = self._send_again(flow, st)
        finally:
            self._resuming = False
        self._flow = flow
        self._pending = ask
        self._rng = st.rng
        st.log = log if log is not None else Quiet()
        st.decisions = decisions
        self._watched()

    def _quiet_flow(self) -> tuple[State, Any, tuple]:
        """The running flow rebuilt as `sim` runs one (no log, no watcher, no upkeep of who knows which
        card): the kept base thawed, its answers sent again. Returns the state, the flow and its pending
        question; the match itself is left as it was (see `interpreter.run.rollout`)."""
        assert self._base is not None, "a match waiting for an answer has marked its phase"
        cur, frozen = self._base
        st = State.thaw(self.layout, self.players, frozen, None, self.game.counter_names)
        owner = self
        if cur.part == SETUP and (self._arrange or self._after_setup is not None):
            owner = Match.__new__(Match)  # the set-up hook works on a stand-in holding the quiet state
            owner.__dict__.update(self.__dict__)
            owner.st = st
        flow = run_flow(self.game, st, cur, owner._hook(), None)
        return st, flow, self._send_again(flow, st)

    def _spent_flow(self) -> tuple[State, Any, tuple]:
        """This match's own running flow made quiet, for a play-out that uses the match up (`rollout(m, pick,
        spend=True)`): no log, no watcher, no kept bases from here on, and nothing rebuilt. Returns the state,
        the flow and its pending question; the match is left with nobody to ask (not to be used again)."""
        assert self._explicit is None and self.failure is None and not self.over
        st, flow, ask = self.st, self._flow, self._pending  # (a copy not yet rebuilt is rebuilt here)
        st.log = st.watch = None  # the phases read both as they go: what they record for seats stops here
        self._resuming = True  # the flow's marks keep no base
        self._flow = self._pending = None
        return st, flow, ask

    def _send_again(self, flow, st: State) -> Any:
        """Start a flow rebuilt from the kept base and send it the answers given since (a determinized
        copy's new chance taking over where it did); returns the pending question."""
        reseed = self._reseed
        if self._explicit is not None:  # the outcomes given since the base was kept are the match's own
            st.rng = self._explicit.reader(st.chance_used)
        ask = next(flow)
        for i, value in enumerate(self._sent):
            if reseed is not None and i == reseed[0]:
                st.rng = _chance(reseed[1])
            ask = flow.send(value)
        if reseed is not None and reseed[0] == len(self._sent):
            st.rng = _chance(reseed[1])
        return ask

    def seat(self, seat: int) -> Seat[Match]:
        """What an agent of `seat` is given: its view, information state, question and answers, and
        nothing that reads the hidden state (see `interpreter.run.seat.Seat`)."""
        return Seat(self, seat)

    def _watched(self) -> None:
        """Hand the rebuilt state to the watcher (which takes its shadow of it)."""
        self.st.watch = self._watch
        self._watch.sync(self.st)

    def __getstate__(self) -> dict[str, Any]:
        if self._explicit is not None:  # told its chance: its outcomes and decisions say it all
            return {"explicit": (self._explicit.start, self._explicit.given, list(self.history))}
        if "_record" in self.__dict__:  # (a copy's record held lazily is taken first: see `backup`)
            _taken(self)
        state = dict(self.__dict__)
        # the seats' lines are rendered again; the last worlds drawn are drawn again
        for name in ("st", "_flow", "layout", "_rng", "_decisions", "_seen", "_kept"):
            state.pop(name, None)
        # the game pickles as its folder: unpickled, it is the game loaded in this process (the folder not read)
        if self.over:
            state["now"] = self.st.freeze()
        else:  # the base holds the rest
            decisions = self.__dict__.get("_decisions")
            state["now"] = (*([None] * DECISIONS), self.st.decisions if decisions is None else decisions, None, None)
        if self._base is not None and self._base[0].part != SETUP:
            state["_after_setup"] = None  # already run: a test's hook need not be saved
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        if "explicit" in state:
            chance.retold(self, *state["explicit"])
            return
        now = state.pop("now")
        self.__dict__.update(state)
        self.layout = self.game.model.setup(self.players)
        self._seen = [information.new_cache() for _ in range(self.players)]  # rendered again when asked for
        self._resume(now)

    def arrange(self, arrange: dict[str, list[str]]) -> None:
        """Test set-ups: put the named cards on top of the named zones (`hand@0`, `deck`), in order."""
        t = self.layout
        zones = {name: zi for zi, name in enumerate(t.zone_names)}
        cards = {cid: c for c, cid in enumerate(t.card_ids)}
        for zone, ids in arrange.items():
            if zone not in zones:
                raise ValueError(f"no zone {zone!r}; zones: {', '.join(t.zone_names)}")
            for cid in reversed(ids):
                if cid not in cards:
                    raise ValueError(f"no card {cid!r}")
                move(self.st, cards[cid], zones[zone], 0, -1)

    # ---- the step API
    @property
    def _ask(self) -> tuple | None:
        """The pending question of the flow (None when nobody is asked)."""
        return self._pending

    @_ask.setter
    def _ask(self, ask: tuple | None) -> None:
        self._pending = ask
        if ask is not None:  # every seat sees who is asked; the asked seat sees its question
            st, watch = self.st, self._watch
            for a in ask[1] if ask[0] == -1 else (ask,):
                seat, options, kind = a[0], a[1], a[2]
                if kind == K_CARD:  # a card is named when rendered: its face if seen, else where it lay
                    shown = _named(self.layout, st, seat, options)
                else:
                    shown = tuple(options)
                watch.asked(st, seat, a[3], kind, shown)

    def _decided(self, seat: int, ask: tuple, action: int) -> None:
        """Record an answer as each seat sees it (a simultaneous choice is secret from the others)."""
        secret = self._pending is not None and self._pending[0] == -1
        value = ask[1][action]
        if ask[2] == K_CARD and value >= 0:  # labelled per seat when rendered: who sees it, where it lies
            st = self.st
            zi = st.zone_of[value]
            self._watch.decided(st, seat, secret, value, seen_by(st, value), zi, st.zones[zi].index(value))
        else:
            self._watch.decided(self.st, seat, secret, self.label(ask, action), 0, -1, -1)

    @property
    def over(self) -> bool:
        """True once the match has a result."""
        return self.winners is not None

    @property
    def simultaneous(self) -> bool:
        """True while the pending choice is asked of several players at once, in secret."""
        ask = self._pending
        return ask is not None and ask[0] == -1

    def to_act(self) -> list[int]:
        """Seats that must act now: one, or several for a simultaneous choice (those not yet answered)."""
        ask = self._pending
        if ask is None:
            return []
        if ask[0] == -1:  # (the seats of the questions, in C: no frame of a comprehension; most often none answered)
            answered = self._answers
            seats = list(map(_FIRST, ask[1]))
            return list(filterfalse(answered.__contains__, seats)) if answered else seats
        return [ask[0]]

    def _ask_of(self, seat: int) -> tuple | None:
        ask = self._pending
        if ask is None:
            return None
        if ask[0] == -1:
            if seat in self._answers:
                return None
            asks = ask[1]
            if seat < len(asks) and asks[seat][0] == seat:  # (the questions in order of their seats, as most are)
                return asks[seat]
            for a in asks:
                if a[0] == seat:
                    return a
            return None
        return ask if ask[0] == seat else None

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Action numbers open to `seat` (default: the only seat to act)."""
        ask = self._ask_of(self._seat(seat))
        return list(range(len(ask[1]))) if ask else []

    def action_labels(self, seat: int | None = None) -> list[str]:
        """A readable name for each legal action of `seat`, as that seat may see it.

        A card the seat sees is named by its face (two copies of a card read alike: either will do); one
        it cannot see by where it lies (`hidden card 2 of table`) and its back."""
        seat = self._seat(seat)
        ask = self._ask_of(seat)
        return [self.label(ask, i, viewer=seat) for i in range(len(ask[1]))] if ask else []

    def option_ids(self, seat: int | None = None) -> list[str]:
        """The omniscient name of each legal action of `seat` (card ids even of hidden cards): for
        tools and tests that know everything, like the match log."""
        ask = self._ask_of(self._seat(seat))
        return [self.label(ask, i) for i in range(len(ask[1]))] if ask else []

    def prompt(self, seat: int | None = None) -> str:
        """What `seat` is being asked, in words."""
        ask = self._ask_of(self._seat(seat))
        return "" if ask is None else self._prompt_of(ask)

    def _prompt_of(self, ask: tuple, written: bool = False) -> str:
        """The question of an ask as the asked seat reads it (`written`: as the rules write it, which is
        what the other seats see of a question with `{…}` parts)."""
        return information.prompt_text(self.game, ask[3], ask[2], written)

    def _seat(self, seat: int | None) -> int:
        if seat is not None:
            return seat
        acting = self.to_act()
        return acting[0] if acting else -1

    def apply(self, seat: int, action: int) -> Invalid | None:
        """Play `action` for `seat`; an illegal one is returned as an Invalid value and changes nothing."""
        if self._explicit is not None and not self._explicit.live:
            return chance.step(self, seat, action)
        if self.over:
            return Invalid(MATCH_OVER, "the match is over")
        ask = self._ask_of(seat)
        if ask is None:
            return Invalid(NOT_YOUR_TURN, f"seat {seat} has nothing to decide now")
        if not isinstance(action, int) or not 0 <= action < len(ask[1]):
            return Invalid(INVALID_MOVE, f"action {action!r} is not one of 0..{len(ask[1]) - 1}")
        self._decided(seat, ask, action)
        self.history.append((seat, action))
        self.st.decisions += 1
        if self.log is not None:
            self.log.append({"type": "decision", "who": seat, "choice": action, "options": len(ask[1]),
                             "label": self.label(ask, action)})
        value = ask[1][action]
        pending = self._pending
        assert pending is not None
        if pending[0] == -1:
            self._answers[seat] = value
            if len(self._answers) < len(pending[1]):
                return None
            value = [self._answers[a[0]] for a in pending[1]]
            self._answers = {}
        self._advance(value)
        return None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """A match with explicit chance stopped at a chance event: its outcomes with their probabilities
        (n uniform ones: a die, a random pick, one Fisher–Yates draw of a shuffle); else []."""
        return chance.outcomes(self)

    def apply_chance(self, outcome: int) -> Invalid | None:
        """Give the pending chance event its outcome; the match runs on to its next question or chance
        event. Returned as an Invalid value if no event is pending or the outcome is not one of it."""
        problem = chance.apply(self, outcome)
        return None if problem is None else Invalid(INVALID_MOVE, problem)

    def _advance(self, value: Any) -> None:
        if value is not None:
            self._sent.append(value)
        try:
            try:
                self._ask = self._flow.send(value)
            except StopIteration as stop:
                self._ask = None
                self.scores, self.winners = finish(self.game, self.st, stop.value[0])
                if self.log is not None:
                    self.log.append(self.result())
        except RULE_FAILURES as err:  # the rules failed: the match stops here, its log so far kept
            self._ask = self._flow = None
            self.failure = rule_error(self.game, err, self.seed, self.st.decisions)
            if self.log is not None:
                self.log.append({"type": "error", "message": str(self.failure), "decisions": self.st.decisions})
            raise self.failure from err

    def label(self, ask: tuple, i: int, viewer: int | None = None) -> str:
        """The readable name of option `i` of an ask: without `viewer`, the card's id (which copy: the
        full log's name); for `viewer`, what it sees (a card's face, copies alike, or its place)."""
        value, kind, t = ask[1][i], ask[2], self.layout
        if kind == K_CARD:
            if value < 0:
                return "none"
            if viewer is None:
                return t.card_ids[value]
            if seen_by(self.st, value) >> viewer & 1:
                return information.faces(t)[value]
            return information.hidden_label(self.game, self.st, value, viewer)
        return information.value_label(t, kind, value)

    # ---- reading the match
    def result(self) -> dict[str, Any]:
        """The result object of the contract (only once the match is over)."""
        st = self.st
        line = {"type": "result", "winners": self.winners, "scores": self.scores,
                "turns": st.turn or st.rounds_played, "decisions": st.decisions}
        if self.game.lowest_wins:
            line["wins"] = "lowest"
        if st.gone:
            line["out"] = [p for p in range(st.n) if st.gone >> p & 1]
        return line

    def view(self, seat: int) -> dict[str, Any]:
        """What `seat` may see: hidden cards show only their back (another player's hand in a canonical
        order), hidden zones only their size, counters only where the seat may see them."""
        return information.view(self, seat)

    # ---- what a seat knows
    def information_state(self, seat: int) -> str:
        """A canonical string, equal for two matches exactly when `seat` cannot tell them apart: what it
        observed from the start (its questions and answers, the public moves, flips, rolls and sayings,
        who answered and, when not secret, what; its own cards and glimpses), then what it sees now."""
        return information.information_state(self, seat)

    def information_state_json(self, seat: int) -> dict[str, Any]:
        """The information state as data: {game, players, seat, observed: [...], now: view}."""
        return information.information_state_json(self, seat)

    def determinize(self, seat: int, rng: random.Random, *, fresh: bool = False) -> Match:
        """Another legal match, with a history of its own from its start, that `seat` cannot tell from
        this one: the shuffles it did not see dealt anew, the other seats' secret answers and their
        picks of cards it did not see drawn anew, what the rules imply kept (see `belief`); its chance
        to come drawn from `rng`. Raises `NoConsistentWorld` if none is found within the budget.

        Where no rule has read a card's face so far (and no other seat answered in secret), the world is this
        match with the cards the seat never saw dealt to each other's places, built from the kept base without
        a replay (`free_worlds`); else it is drawn and played by `belief`. Asked again at the same point, `belief`
        moves from the seat's last world; `fresh` asks for one drawn independently of it, at several times the
        cost (worlds without replay are always drawn independently)."""
        drawn = free_worlds.free_world(self, seat, rng)
        if drawn is None:
            return belief.determinize(self, seat, rng, fresh=fresh)
        return self._free_world(drawn, seat)

    def _free_world(self, drawn: free_worlds.FreeWorld, seat: int) -> Match:
        """A copy of this match made of a world drawn without replay (see `free_worlds`), not yet rebuilt: its
        base, record of events and seed the world's own, its answers this match's."""
        world = Match.__new__(_Unbuilt)
        world.__dict__.update(self.__dict__)
        for name in ("st", "_flow", "_pending", "_kept", "_verified", "_record"):
            world.__dict__.pop(name, None)
        if "st" in self.__dict__:  # (else this match is a copy not yet rebuilt, which keeps its decisions made)
            world._decisions = self.st.decisions
        world.history = list(self.history)
        world._answers = dict(self._answers)
        world._sent = list(self._sent)
        world.log = None
        world.seed = drawn.seed
        world._base = drawn.base
        world._base_info = (self._base_info[0], self._base_info[1], [])  # (a world keeps no tags)
        world._reseed = world._rng = None
        world._watch = drawn.watch
        world._seen = [information.fork_cache(cache) if s == seat else information.new_cache()
                       for s, cache in enumerate(self._seen)]
        world._drawn = drawn.drawn
        return world

    @staticmethod
    def relabeled(m: Match, pi: list[int], seat: int, rng: random.Random | None) -> Match | None:
        """`m` played again from its kept base with card c's identity given to pi[c]; with `rng`, the
        secret answers of the other seats since the base are drawn anew. None if the answers do not fit."""
        cur, frozen = m._base  # type: ignore[misc]
        base_events, base_history, base_tags = m._base_info
        other = Match.__new__(Match)
        other.__dict__.update(m.__dict__)
        other.__dict__.pop("_record", None)  # (its own record is made below)
        other.log = None
        other._base = (cur, relabel_frozen(frozen, pi))
        other.history = m.history[:base_history]
        other._answers, other._sent, other._reseed, other._rng = {}, [], None, None
        other._seen = [information.cut_cache(m, cache, base_events) for cache in m._seen]
        other._watch = m._watch.relabeled(pi, base_events, base_tags)
        other.st = State.thaw(m.layout, m.players, other._base[1], Quiet(), m.game.counter_names)
        other._watched()
        other._pending = None
        other._resuming = True  # the base stays the relabeled one
        try:
            other._flow = run_flow(m.game, other.st, cur, other._hook(), other._mark, None, other._reading_faces)
            other._advance(None)
            if not other._answered_again(m, pi, seat, rng):
                return None
        except (RuleError, StopIteration):
            return None
        finally:
            other._resuming = False
        return other

    def _answered_again(self, m: Match, pi: list[int], seat: int, rng: random.Random | None) -> bool:
        """Give this match, just rebuilt from `m`'s kept base relabeled by `pi`, the answers `m` was given since
        that base, relabeled (with `rng`, the other seats' secret answers drawn anew); False where they no
        longer fit. (StopIteration: fewer answers were recorded than are asked now.)"""
        hist = iter(m.history[m._base_info[1]:])
        for sent in m._sent:
            ask = self._pending
            if ask is None:
                return False
            if ask[0] == -1:
                if not self._answered_together(ask[1], sent, hist, pi, seat, rng):
                    return False
            elif not self._answer_again(next(hist)[0], sent, pi, None):
                return False
        # the answers to a question of several seats that not all of them have answered yet
        return all(p in m._answers and self._answer_again(p, m._answers[p], pi, rng if p != seat else None)
                   for p, _a in hist)

    def _answered_together(self, asks: list, sent: list, hist: Iterator[tuple[int, int]], pi: list[int], seat: int,
                           rng: random.Random | None) -> bool:
        """Answer a question of several seats again, in the order they answered it before (`hist`): each seat the
        value it sent (`sent`, in the order asked), relabeled, or with `rng` another seat's secret one drawn
        anew. False if another set of seats is asked now (who is asked hung on a card)."""
        for _ in asks:
            p, _a = next(hist)
            place = next((i for i, a in enumerate(asks) if a[0] == p), None)
            if place is None or place >= len(sent) or \
                    not self._answer_again(p, sent[place], pi, rng if p != seat else None):
                return False
        return True

    def _answer_again(self, seat: int, value: Any, pi: list[int], rng: random.Random | None) -> bool:
        """Answer `seat`'s question with `value` relabeled (or, with `rng`, a random option)."""
        ask = self._ask_of(seat)
        if ask is None:
            return False
        options = ask[1]
        if rng is not None and ask[2] != K_CARD:  # a secret card is redrawn by the relabeling (same back)
            action = rng.randrange(len(options))
        else:
            if ask[2] == K_CARD and isinstance(value, int) and value >= 0:
                value = pi[value]
            if value not in options:
                return False
            action = options.index(value)
        return self.apply(seat, action) is None


class _Unbuilt(Match):
    """A copy of a match whose state, flow and question are rebuilt on first use (see `Match.clone`);
    then it is a plain Match again. (A class of its own: `__getattr__` on Match would slow every
    attribute read of every match.)"""

    def __getattr__(self, name: str) -> Any:
        if name in ("st", "_flow", "_pending") and "_decisions" in self.__dict__:
            self._resume()
            return self.__dict__[name]
        if name == "_watch" and "_record" in self.__dict__:  # a record held lazily (see `Match.backup`)
            return _taken(self)
        raise AttributeError(f"'Match' object has no attribute {name!r}")


class Later:
    """A copy to go back to (`Match.backup`) of a world being drawn as it stood, made only when first asked for
    (`made`), the world having played on in place since: it holds the world and what a copy reads of it that the
    world changes as it goes on (its attributes then, how long its history, answers sent and record of events were,
    its record's last table and walks, its rendered observations as they were, its decisions made). A world's
    history, answers sent and record only grow (a record another copy shares is copied first, with what it held;
    answers sent start a new list at a new base), so their first items then are those of its lists now. A world
    that is no plain `Match` at work (a copy not yet rebuilt, one over, failed, logged or with explicit chance, or
    whose record keeps tags) is copied at once."""

    __slots__ = ("answers", "copy", "decisions", "events", "fresh", "history", "last", "seen", "sent", "state", "walks",
                 "watch")

    def __init__(self, m: Match) -> None:
        self.copy: Match | None = None
        watch = m.__dict__.get("_watch")
        if m.__class__ is not Match or m._explicit is not None or m.winners is not None or m.failure is not None \
                or m.log is not None or watch is None or not watch.search:
            self.copy = m.backup()
            return
        self.state, self.decisions, self.answers = dict(m.__dict__), m.st.decisions, dict(m._answers)
        self.history, self.sent = len(m.history), len(m._sent)
        self.watch, self.events, self.last, self.walks, self.fresh = watch, len(watch.events), watch.last, \
            watch.walks, watch.fresh
        self.seen = list(map(information.cache_state, m._seen))

    def made(self) -> Match:
        """The copy (`Match.backup` as the world stood), made once."""
        if self.copy is None:
            state = self.state
            other = Match.__new__(_Unbuilt)
            other.__dict__.update(state)
            other.history = state["history"][:self.history]
            other._answers, other._sent = self.answers, state["_sent"][:self.sent]
            other._seen, other._decisions = list(map(information.cache_of, self.seen)), self.decisions
            del other.st, other._flow, other._pending, other._watch
            watch = self.watch.copy()
            watch.last, watch.walks, watch.fresh = self.last, self.walks, self.fresh
            other._record = (_uncounted(watch), self.events)
            self.copy = other
        return self.copy


def _taken(m: Match) -> Watcher:
    """The watcher of a copy that holds its record lazily (see `Match.backup`), given the record as it stood when
    the copy was made: the list itself, shared from here on and counted, where nobody recorded past it, else its
    first events copied."""
    watch, events = m.__dict__.pop("_record")
    if len(watch.events) == events:
        watch.owners[0] += 1
    else:
        watch.events, watch.owners = watch.events[:events], [1]
    m._watch = watch
    return watch


def _uncounted(watch: Watcher) -> Watcher:
    """A copy of a watcher (`Watcher.copy`) not counted among those sharing its record (held lazily: see
    `Match.backup`)."""
    watch.owners[0] -= 1
    return watch


class ExplicitStart:
    """How a match with explicit chance is built from its set-up, given chance outcomes (a value: a match
    keeping it can be pickled)."""

    def __init__(self, game, players: int, seed: int, options: dict[str, Any]) -> None:
        self.game, self.players, self.seed, self.options = game, players, seed, options

    def __call__(self, given: tuple[int, ...]) -> Match:
        return Match(self.game, self.players, self.seed, chance=chance.Outcomes(given), **self.options)

    def __getstate__(self) -> tuple:
        return self.game, self.players, self.seed, self.options  # the game pickles as its folder

    def __setstate__(self, state: tuple) -> None:
        self.game, self.players, self.seed, self.options = state

    def blank(self) -> Match:
        """A stand-in for the match while its set-up waits for a chance outcome: no state, nobody to act."""
        m = Match.__new__(Match)
        m.game, m.players, m.seed = self.game, self.players, self.seed
        m.history, m.winners, m.scores, m.failure, m.log = [], None, None, None, None
        m._pending, m._answers = None, {}
        return m


def explicit_match(game, players: int, seed: int, **options: Any) -> Match:
    """A match that stops at every chance event (`chance_outcomes`, `apply_chance`) instead of drawing
    from its seed; told the outcomes its seed would draw, it plays the seed's match."""
    game.check_players(players)
    return chance.started(ExplicitStart(game, players, seed, options))


_OPENED: dict[int, tuple] = {}


def _open_zones(t) -> list[list[bool]]:
    """Per seat, per zone of layout `t`: whether a card lying face up there is seen by the seat (a public zone,
    or its own), one of the ways `seen_by` sees a card (kept per layout)."""
    hit = _OPENED.get(id(t))
    if hit is None or hit[0] is not t:
        hit = _OPENED[id(t)] = (t, [[vis == PUBLIC or (vis == OWNER and owner == s)
                                     for vis, owner in zip(t.zone_vis, t.zone_owner, strict=True)] for s in range(t.n)])
    return hit[1]


def _named(t, st: State, seat: int, options: Sequence[int]) -> tuple:
    """The cards of a question as the watcher records them for `seat`: a card's face where the seat surely sees it
    (face up where it sees, or known), else (the card, its zone, its place there); "none" for no card."""
    ids, zone_of, face = information.faces(t), st.zone_of, st.face
    opened = _open_zones(t)[seat]
    if options and min(options) >= 0 and all(map(face.__getitem__, options)) and \
            all(map(opened.__getitem__, map(zone_of.__getitem__, options))):
        return tuple(map(ids.__getitem__, options))  # (all face up where the seat sees: looked through in C)
    zones, known, bit = st.zones, st.known, 1 << seat
    return tuple(["none" if c < 0 else ids[c]
                  if (face[c] and opened[zone_of[c]]) or known[c] & bit or seen_by(st, c) & bit
                  else (c, zone_of[c], zones[zone_of[c]].index(c)) for c in options])


def _chance(state: tuple) -> random.Random:
    """A chance generator in a given state."""
    rng = random.Random.__new__(random.Random)  # not seeded from the system first: its state is set at once
    rng.setstate(state)
    return rng


def play_random(game, players: int, seed: int, log: bool = False) -> Match:
    """Play a whole match between uniformly random bots through the step API."""
    m = Match(game, players, seed, log=log)
    rng = random_bot(seed)
    while not m.over:
        for seat in m.to_act():
            m.apply(seat, rng.pick(len(m.legal_actions(seat))))
    return m


def replay(game, players: int, seed: int, decisions: list[tuple[int, int]], log: bool = False,
           chance: Sequence[int] | None = None) -> Match:
    """Re-run a match from its seed and decisions; a match whose chance came from a function (a property
    test's) is re-run from its `chance` outcomes, in order, instead of its seed."""
    m = Match(game, players, seed, log=log, chance=None if chance is None else Recorded(chance))
    for seat, action in decisions:
        problem = m.apply(seat, action)
        if problem is not None:
            raise ValueError(f"decision {seat}:{action} does not fit the match: {problem.reason}")
    return m
