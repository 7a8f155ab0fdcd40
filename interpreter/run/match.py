"""Stage 7: one match, step by step (OpenSpiel-style): who acts, legal actions, apply, view, result."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .runtime import HIDDEN, K_BOOL, K_CARD, K_NUMBER, K_PLAYER, OWNER, PUBLIC, GameOver, State, move, seen_by

INVALID_MOVE = "INVALID_MOVE"
NOT_YOUR_TURN = "NOT_YOUR_TURN"
MATCH_OVER = "MATCH_OVER"


@dataclass(frozen=True, slots=True)
class Invalid:
    """An illegal action, returned (never raised): a stable code and a reason."""

    code: str
    reason: str


def run_flow(game, st: State, after_setup=None, flow=None):
    """The match's turn structure: setup, then rounds of phases (and turns), until the end.

    A generator of asks; with the direct variant's phases (`game.direct_flow`) it never yields."""
    flow = flow or game.flow
    round_counters, round_player_counters = game.resets["round"]
    turn_counters, turn_player_counters = game.resets["turn"]
    try:
        st.active = st.first
        for fn, asks in flow["setup"]:
            if asks:
                yield from fn(st)
            else:
                fn(st)
        if after_setup is not None:
            after_setup(st)
        for r in range(1, game.rounds + 1):
            st.round = r
            for k in round_counters:
                st.gc[k] = game.initial[k]
            for k in round_player_counters:
                st.pc[k] = [game.player_initial[k]] * st.n
            st.active = st.first
            for fn, asks in flow["round"]:
                if asks:
                    yield from fn(st)
                else:
                    fn(st)
            if flow["turn"]:
                for p in st.orders[st.first]:
                    st.active = p
                    st.turn += 1
                    for k in turn_counters:
                        st.gc[k] = game.initial[k]
                    for k in turn_player_counters:
                        st.pc[k] = [game.player_initial[k]] * st.n
                    for fn, asks in flow["turn"]:
                        if asks:
                            yield from fn(st)
                        else:
                            fn(st)
                    if st.log is not None:
                        st.log.append(snapshot(st))
            elif st.log is not None:
                st.log.append(snapshot(st))
        st.active = st.first
        for fn, asks in flow["after_last_round"]:
            if asks:
                yield from fn(st)
            else:
                fn(st)
    except GameOver as over:
        return over.winners
    return None


def snapshot(st: State) -> dict[str, Any]:
    """The omniscient `state` log line: every zone's card ids by owner, face-down cards, counters."""
    t = st.layout
    zones: dict[str, Any] = {}
    for zi, cards in enumerate(st.zones):
        name, _, seat = t.zone_names[zi].partition("@")
        ids = [t.card_ids[c] for c in cards]
        if seat:
            zones.setdefault(name, {})[seat] = ids
        else:
            zones[name] = ids
    down = [t.card_ids[c] for cards in st.zones for c in cards if not st.face[c]]
    return {"type": "state", "round": st.round, "turn": st.turn or None, "first": st.first,
            "zones": zones, "face_down": down, "counters": counters(st)}


def counters(st: State) -> dict[str, Any]:
    """Every counter by name: a game counter's value, a player counter's list of values by seat."""
    game, player = st.table_counters
    named: dict[str, Any] = {name: st.gc[i] for i, name in game}
    named.update({name: list(st.pc[i]) for i, name in player})
    return named


def finish(game, st: State, declared: list[int] | None) -> tuple[list[int], list[int]]:
    """Scores and winners: the winners the game declared, else (also when it named nobody) the best
    score with tie-breaks (ties share the win)."""
    scores = [game.score(st, p) if game.score else 0 for p in range(st.n)]
    named = sorted(p for p in set(declared or ()) if 0 <= p < st.n)
    if named:
        return scores, named
    keys = [(scores[p], *(tb(st, p) for tb in game.tiebreaks)) for p in range(st.n)]
    best = max(keys)
    return scores, [p for p in range(st.n) if keys[p] == best]


class Match:
    """One match of a game between `players` seats, driven one decision at a time."""

    def __init__(self, game, players: int, seed: int, log: bool = False, bots=None,
                 arrange: dict[str, list[str]] | None = None, after_setup=None) -> None:
        game.check_players(players)
        self.game = game
        self.players = players
        self.seed = seed
        self.layout = game.model.setup(players)
        self.log: list[dict] | None = [] if log else None
        if self.log is not None:
            header = {"type": "match", "game": game.name, "version": game.version, "seed": seed,
                      "players": players, "bots": list(bots or ["random"] * players)}
            if not game.bundled:
                header["path"] = game.model.root  # so that `replay` finds a game outside the bundle
            self.log.append(header)
        self.st = State(self.layout, players, seed, self.log)
        self.st.table_counters = game.counter_names
        self.history: list[tuple[int, int]] = []
        self.winners: list[int] | None = None
        self.scores: list[int] | None = None
        self._flow = run_flow(game, self.st, self._set_up(arrange, after_setup))
        self._ask: tuple | None = None
        self._answers: dict[int, Any] = {}
        self._advance(None)

    def _set_up(self, arrange, after_setup):
        """The hook run between the set-up phases and round 1: `arrange`, then `after_setup(match)`
        (a test's own set-up: counters, a scripted `match.st.rng`, …)."""
        if not arrange and after_setup is None:
            return None

        def hook(st: State) -> None:
            if arrange:
                self.arrange(arrange)
            if after_setup is not None:
                after_setup(self)

        return hook

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
    def over(self) -> bool:
        """True once the match has a result."""
        return self.winners is not None

    @property
    def simultaneous(self) -> bool:
        """True while the pending choice is asked of several players at once, in secret."""
        return self._ask is not None and self._ask[0] == -1

    def to_act(self) -> list[int]:
        """Seats that must act now: one, or several for a simultaneous choice (those not yet answered)."""
        ask = self._ask
        if ask is None:
            return []
        if ask[0] == -1:
            return [a[0] for a in ask[1] if a[0] not in self._answers]
        return [ask[0]]

    def _ask_of(self, seat: int) -> tuple | None:
        ask = self._ask
        if ask is None:
            return None
        if ask[0] == -1:
            return next((a for a in ask[1] if a[0] == seat and seat not in self._answers), None)
        return ask if ask[0] == seat else None

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Action numbers open to `seat` (default: the only seat to act)."""
        ask = self._ask_of(self._seat(seat))
        return list(range(len(ask[1]))) if ask else []

    def action_labels(self, seat: int | None = None) -> list[str]:
        """A readable name for each legal action of `seat`, as that seat may see it.

        A card the seat cannot see is named by where it lies (`hidden card 2 of table`) and its back."""
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
        if ask is None:
            return ""
        text = self.game.prompts[ask[3]]
        return text or {K_CARD: "choose a card", K_PLAYER: "choose a player", K_BOOL: "yes or no",
                        K_NUMBER: "choose a number"}.get(ask[2], "choose one")

    def _seat(self, seat: int | None) -> int:
        if seat is not None:
            return seat
        acting = self.to_act()
        return acting[0] if acting else -1

    def apply(self, seat: int, action: int) -> Invalid | None:
        """Play `action` for `seat`; an illegal one is returned as an Invalid value and changes nothing."""
        if self.over:
            return Invalid(MATCH_OVER, "the match is over")
        ask = self._ask_of(seat)
        if ask is None:
            return Invalid(NOT_YOUR_TURN, f"seat {seat} has nothing to decide now")
        if not isinstance(action, int) or not 0 <= action < len(ask[1]):
            return Invalid(INVALID_MOVE, f"action {action!r} is not one of 0..{len(ask[1]) - 1}")
        self.history.append((seat, action))
        self.st.decisions += 1
        if self.log is not None:
            self.log.append({"type": "decision", "who": seat, "choice": action, "options": len(ask[1]),
                             "label": self.label(ask, action)})
        value = ask[1][action]
        if self._ask[0] == -1:
            self._answers[seat] = value
            if len(self._answers) < len(self._ask[1]):
                return None
            value = [self._answers[a[0]] for a in self._ask[1]]
            self._answers = {}
        self._advance(value)
        return None

    def _advance(self, value: Any) -> None:
        try:
            self._ask = self._flow.send(value)
        except StopIteration as stop:
            self._ask = None
            self.scores, self.winners = finish(self.game, self.st, stop.value)
            if self.log is not None:
                self.log.append(self.result())

    def label(self, ask: tuple, i: int, viewer: int | None = None) -> str:
        """The readable name of option `i` of an ask (hiding what `viewer`, if given, cannot see)."""
        value, kind, t = ask[1][i], ask[2], self.layout
        if kind == K_CARD:
            if value < 0:
                return "none"
            if viewer is None or seen_by(self.st, value) >> viewer & 1:
                return t.card_ids[value]
            zi = self.st.zone_of[value]
            back = "".join(f", {self.game.prop_names[k]} {t.props[k][value]}" for k in t.back[value])
            return f"hidden card {self.st.zones[zi].index(value) + 1} of {t.zone_names[zi]}{back}"
        if kind == K_PLAYER:
            return t.player_name(value)
        if kind == K_BOOL:
            return "yes" if value else "no"
        return str(value)

    # ---- reading the match
    def result(self) -> dict[str, Any]:
        """The result object of the contract (only once the match is over)."""
        st = self.st
        return {"type": "result", "winners": self.winners, "scores": self.scores,
                "turns": st.turn or st.round, "decisions": st.decisions}

    def view(self, seat: int) -> dict[str, Any]:
        """What `seat` may see: hidden cards show only their back, hidden zones only their size."""
        st, t = self.st, self.layout
        zones: dict[str, Any] = {}
        bit = 1 << seat
        for zi, cards in enumerate(st.zones):
            vis, owner = t.zone_vis[zi], t.zone_owner[zi]
            shown = []
            for c in cards:
                up = st.face[c]
                visible = bool(st.known[c] & bit) or (up and (vis == PUBLIC or (vis == OWNER and owner == seat)))
                if visible:
                    shown.append(t.card_ids[c])
                else:
                    shown.append({"hidden": True, **{self.game.prop_names[k]: t.props[k][c] for k in t.back[c]}})
            if vis == HIDDEN and not any(isinstance(x, str) for x in shown):
                zones[t.zone_names[zi]] = {"count": len(cards)}
            else:
                zones[t.zone_names[zi]] = shown
        return {"seat": seat, "round": st.round, "turn": st.turn, "first": st.first, "active": st.active,
                "zones": zones, "counters": counters(st), "to_act": self.to_act(),
                "options": self.action_labels(seat)}


def random_bot(seed: int) -> random.Random:
    """The RNG of the random bots, derived from the match seed (so a seed fixes the whole match)."""
    return random.Random(seed * 1_000_003 + 7)


def play_random(game, players: int, seed: int, log: bool = False) -> Match:
    """Play a whole match between uniformly random bots through the step API."""
    m = Match(game, players, seed, log=log)
    rng = random_bot(seed)
    while not m.over:
        for seat in m.to_act():
            m.apply(seat, rng._randbelow(len(m.legal_actions(seat))))
    return m


def replay(game, players: int, seed: int, decisions: list[tuple[int, int]], log: bool = False) -> Match:
    """Re-run a match from its seed and decisions (also the way to clone a match)."""
    m = Match(game, players, seed, log=log)
    for seat, action in decisions:
        problem = m.apply(seat, action)
        if problem is not None:
            raise ValueError(f"decision {seat}:{action} does not fit the match: {problem.reason}")
    return m
