"""One match played for the balance lab, and what is kept of it: a record of plain data (JSON-ready).

A record holds the result (scores, winners, length, whether a safety cap stopped it), the first player,
the game counters at the end, each seat's declared group, the leader at the end of every round, and per
seat the cards (by definition) it chose in a decision, had in its own zones at the end, and had there at
the end of any round. The lab is omniscient: it reads the true match, as `sim` does; the bots never do.

Bots that choose from the number of options alone (`random`, `first`) are played on the quiet path `sim`
uses (no Match, no log), with the generators `sim` uses when every seat is random, so `report`'s matches
are `sim`'s matches; any other bot gets a seat handle (`Match.seat`) through `interpreter.bots`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from ..game import Game
from ..run.failures import RULE_FAILURES, rule_error
from ..run.flow import ROUND, Cursor, finish, run_flow
from ..run.match import Match, RandomBot, random_bot
from ..run.runtime import K_CARD, State

QUIET_KINDS = ("random", "first")
"""Bot kinds that choose from the number of options alone."""

Record = dict[str, Any]


class BotError(ValueError):
    """A bot name that names no bot available here."""


def check_bots(names: Sequence[str]) -> None:
    """Refuse (BotError) a bot name that is neither a quiet kind nor known to `interpreter.bots`."""
    for name in names:
        if name in QUIET_KINDS:
            continue
        _handle_bot(name, 0, 0)


def seat_bots(spec: str | None, players: int) -> list[str]:
    """`--bots`: one name for every seat, or a comma-separated name per seat (default: random)."""
    if not spec:
        return ["random"] * players
    names = [s.strip() for s in spec.split(",")]
    if any(not n for n in names):
        raise BotError(f"--bots {spec!r} names an empty bot")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise BotError(f"--bots names {len(names)} bots for {players} seats: give one for every seat, or one per seat")
    return names


def bot_seed(seed: int, seat: int) -> int:
    """The seed of a seat's own bot generator: from the match seed and the seat alone."""
    return (seed * 1_000_003 + 7) * 16 + seat + 1


def _pickers(names: Sequence[str], seed: int) -> list[Callable[[int], int]]:
    """Each seat's choice from a number of options, for quiet bots (all random: `sim`'s one generator)."""
    if all(n == "random" for n in names):
        shared = random_bot(seed).pick
        return [shared] * len(names)
    out: list[Callable[[int], int]] = []
    for seat, name in enumerate(names):
        out.append(RandomBot(bot_seed(seed, seat)).pick if name == "random" else _first)
    return out


def _first(n: int) -> int:
    return 0


def _handle_bot(name: str, seed: int, seat: int) -> Callable[[Any], int]:
    """A bot of `interpreter.bots` for one seat, with its own generator: a function of its seat handle to its
    action."""
    try:
        bots = importlib.import_module("interpreter.bots")
    except ImportError:
        raise BotError(f"unknown bot {name!r} (bots here: {', '.join(QUIET_KINDS)})") from None
    try:
        return bots.get(name, seed=bot_seed(seed, seat)).choose
    except ValueError as err:  # bots.BotNameError: the message names the bots there are
        raise BotError(str(err)) from None


class _Watch:
    """What a match tells the lab as it goes: its first player, each round's leader, the cards of each seat."""

    __slots__ = ("chosen", "first", "game", "in_round", "leaders", "owned")

    def __init__(self, game: Game, st_layout: Any, players: int) -> None:
        self.game = game
        self.first = -1
        self.leaders: list[int] = []
        self.chosen: list[set[int]] = [set() for _ in range(players)]
        self.in_round: list[set[int]] = [set() for _ in range(players)]
        self.owned = [(zi, s) for zi, s in enumerate(st_layout.zone_owner) if s >= 0]

    def ended(self, st: State, part: int) -> None:
        if part != ROUND:
            return
        self.leaders.append(_leader(self.game, st))
        defs = st.layout.card_def
        zones = st.zones
        for zi, s in self.owned:
            self.in_round[s].update(defs[c] for c in zones[zi])


def _leader(game: Game, st: State) -> int:
    """The one seat ahead on score now (-1 if none: a tie, or no score), worked out on a budget of its own."""
    if game.score is None:
        return -1
    steps = st.steps
    st.steps = st.steps_max
    try:
        scores = [game.score(st, p) for p in range(st.n)]
    finally:
        st.steps = steps
    best = min(scores) if game.lowest_wins else max(scores)
    return scores.index(best) if scores.count(best) == 1 else -1


def play(game: Game, players: int, seed: int, bots: Sequence[str]) -> Record:
    """One match of `game` between `bots` (a name per seat) from `seed`, as a record."""
    if all(b in QUIET_KINDS for b in bots):
        return _play_quiet(game, players, seed, bots)
    return _play_handles(game, players, seed, bots)


def _play_quiet(game: Game, players: int, seed: int, bots: Sequence[str]) -> Record:
    """The quiet path: the compiled flow driven by a bare loop, as `interpreter.run.sim.simulate` drives it."""
    st = State(game.model.setup(players), players, seed, None, game.max_steps)
    st.table_counters = game.counter_names
    watch = _Watch(game, st.layout, players)
    pick = _pickers(bots, seed)
    defs = st.layout.card_def
    chosen = watch.chosen
    flow = run_flow(game, st, Cursor(), None, None, watch.ended)
    send = flow.send
    decisions = 0
    try:
        ask = next(flow)
        watch.first = st.first  # the first player of the first round, as its first question is asked
        while True:
            if ask[0] == -1:  # a simultaneous choice: every seat answers, in the order asked
                answers = []
                for a in ask[1]:
                    value = a[1][pick[a[0]](len(a[1]))]
                    if a[2] == K_CARD and value >= 0:
                        chosen[a[0]].add(defs[value])
                    answers.append(value)
                decisions += len(answers)
                ask = send(answers)
            else:
                value = ask[1][pick[ask[0]](len(ask[1]))]
                if ask[2] == K_CARD and value >= 0:
                    chosen[ask[0]].add(defs[value])
                decisions += 1
                ask = send(value)
    except StopIteration as stop:
        declared, capped = stop.value
    except RULE_FAILURES as err:
        raise rule_error(game, err, seed, decisions) from err
    st.decisions = decisions
    try:
        scores, winners = finish(game, st, declared)
        groups = [str(game.report_by(st, p)) for p in range(players)] if game.report_by else []
    except RULE_FAILURES as err:
        raise rule_error(game, err, seed, decisions) from err
    return _record(game, st, watch, seed, scores, winners, decisions, capped, groups)


def _play_handles(game: Game, players: int, seed: int, bots: Sequence[str]) -> Record:
    """Bots that need a seat handle: the match through the step API, each seat's bot given `m.seat(s)`."""
    watch = _Watch(game, game.model.setup(players), players)
    m = Match(game, players, seed, ended=watch.ended)
    watch.first = m.st.first
    handles = [m.seat(s) for s in range(players)]
    quiet = _pickers(bots, seed)
    act = [(lambda h, q=quiet[s]: q(len(h.legal_actions()))) if name in QUIET_KINDS
           else _handle_bot(name, seed, s) for s, name in enumerate(bots)]
    index = {cid: i for i, cid in enumerate(m.layout.card_ids)}
    defs = m.layout.card_def
    while not m.over:
        for seat in m.to_act():
            action = act[seat](handles[seat])
            chosen = index.get(m.option_ids(seat)[action])
            problem = m.apply(seat, action)
            if problem is not None:
                raise BotError(f"bot {bots[seat]!r} of seat {seat} answered {action!r}: {problem.reason}")
            if chosen is not None:
                watch.chosen[seat].add(defs[chosen])
    st = m.st
    groups = [str(game.report_by(st, p)) for p in range(players)] if game.report_by else []
    capped = _capped(m)
    assert m.scores is not None and m.winners is not None
    return _record(game, st, watch, seed, m.scores, m.winners, st.decisions, capped, groups)


def _capped(m: Match) -> bool:
    """Whether a safety cap stopped a match played through the step API (its flow's return value is not kept
    there): the same match again on the quiet path, answering with the decisions it made."""
    st = State(m.game.model.setup(m.players), m.players, m.seed, None, m.game.max_steps)
    st.table_counters = m.game.counter_names
    flow = run_flow(m.game, st, Cursor())
    made = iter(m.history)
    try:
        ask = next(flow)
        while True:
            if ask[0] == -1:
                answers = {}
                for _ in ask[1]:
                    seat, action = next(made)
                    answers[seat] = action
                ask = flow.send([a[1][answers[a[0]]] for a in ask[1]])
            else:
                ask = flow.send(ask[1][next(made)[1]])
    except StopIteration as stop:
        return bool(stop.value[1])


def _record(game: Game, st: State, watch: _Watch, seed: int, scores: list[int], winners: list[int],
            decisions: int, capped: bool, groups: list[str]) -> Record:
    defs = st.layout.card_def
    at_end: list[set[int]] = [set() for _ in range(st.n)]
    for zi, s in watch.owned:
        at_end[s].update(defs[c] for c in st.zones[zi])
    counters = [st.gc[i] for i, name in game.counter_names[0] if game.model.counters[name].type == "num"]
    seat_counters = [list(st.pc[i]) for i, name in game.counter_names[1] if game.model.counters[name].type == "num"]
    return {
        "seed": seed, "scores": list(scores), "winners": list(winners), "turns": st.turn or st.rounds_played,
        "rounds": st.rounds_played, "decisions": decisions, "capped": bool(capped),
        "first": watch.first, "counters": counters, "seat_counters": seat_counters,
        "groups": groups, "leaders": watch.leaders,
        "chosen": [sorted(c) for c in watch.chosen], "at_end": [sorted(h) for h in at_end],
        "in_round": [sorted(h | at_end[s]) for s, h in enumerate(watch.in_round)],
    }


def counter_names(game: Game) -> tuple[list[str], list[str]]:
    """The number counters a record keeps: the game's, then the per-seat ones."""
    counters = game.model.counters
    return ([name for _, name in game.counter_names[0] if counters[name].type == "num"],
            [name for _, name in game.counter_names[1] if counters[name].type == "num"])


def card_labels(game: Game) -> list[tuple[str, str, str]]:
    """Each card definition's (id, name, kind), in the order records number them."""
    return [(d.id, d.name, d.kind) for d in game.model.cards]
