"""What both adapters need of a game: its action and chance bounds, a fixed encoding of what a seat sees,
and a match's returns."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..game import Game, load_game
from ..run import information
from ..run.match import Match, random_bot

PROBES = 8  # random matches played at load time to bound questions and chance events
MAX_DECISIONS = 20_000  # as `meeple check`: a match ends within this many decisions
_FOUND: dict[tuple[int, int, int], tuple[Game, Bounds]] = {}  # the bounds found, by game (kept alive), seats, probes


@dataclass(frozen=True, slots=True)
class Bounds:
    """How large a game's questions and chance events get: `actions` bounds the options of any question
    (action ids are option positions 0..actions-1), `outcomes` the outcomes of any chance event; `length`
    bounds decisions plus chance events of a match."""

    actions: int
    outcomes: int
    length: int


def game_of(game: str | Path | Game) -> Game:
    """A loaded game, from a bundled name, a folder or a Game."""
    return game if isinstance(game, Game) else load_game(game)


def bounds(game: Game, players: int, probes: int = PROBES) -> Bounds:
    """The bounds of `game` at `players`: a card question offers at most every card and `none`, a chance
    event (a shuffle's draw) at most every card; a number or text question, or a die, may offer more, so
    the largest seen in `probes` random matches counts too. A question or event past its bound is refused
    when met (`check_actions`). Found once per loaded game (every environment made of it has the same)."""
    key = (id(game), players, probes)
    found = _FOUND.get(key)
    if found is None or found[0] is not game:
        found = _FOUND[key] = (game, _probed(game, players, probes))
    return found[1]


def _probed(game: Game, players: int, probes: int) -> Bounds:
    """The bounds of `game` at `players`, found by `probes` random matches (see `bounds`)."""
    cards = len(game.model.setup(players).card_ids)
    most = {"options": max(cards + 1, players, 2), "outcomes": max(cards, 2), "decisions": 0, "chance": 0}
    for seed in range(probes):
        rng = random.Random(seed)

        def outcome(n: int, rng: random.Random = rng) -> int:
            most["outcomes"] = max(most["outcomes"], n)
            return rng._randbelow(n)  # type: ignore[attr-defined]

        m = Match(game, players, seed, chance=outcome)
        bot = random_bot(seed)
        while not m.over and len(m.history) < MAX_DECISIONS:
            for seat in m.to_act():
                n = len(m.legal_actions(seat))
                most["options"] = max(most["options"], n)
                m.apply(seat, bot.pick(n))
        most["decisions"] = max(most["decisions"], len(m.history))
        most["chance"] = max(most["chance"], m.st.chance_used)
    # a match may run longer than the probes did: up to the decisions `meeple check` allows, and its chance
    # events as many again as the longest probe's per decision, at the least one shuffle of every card per deal
    per_decision = most["chance"] / max(most["decisions"], 1)
    length = MAX_DECISIONS + int(MAX_DECISIONS * per_decision) + most["chance"]
    return Bounds(most["options"], most["outcomes"], length)


class Encoding:
    """What a seat sees, as a vector of one length for every view of a game at a number of seats (the
    observation tensor of either adapter), in three pieces: `zones`, for each zone of the game (rows) and
    each card face (columns), how many of that face the seat sees there, the last column how many of its
    cards it cannot see; `asked`, 1 for each seat asked now; `counters`, the counters it sees (whole
    numbers; a hidden or text counter reads 0), the game's then each player's counter seat by seat."""

    def __init__(self, game: Game, players: int) -> None:
        layout = game.model.setup(players)
        self.zones = list(layout.zone_names)
        self.faces = sorted(set(information.faces(layout)))
        self._face_at = {face: i for i, face in enumerate(self.faces)}
        game_counters, player_counters = game.counter_names
        self.counters = [(name, None) for _, name in game_counters] + \
            [(name, p) for _, name in player_counters for p in range(players)]
        self.pieces = [("zones", (len(self.zones), len(self.faces) + 1)), ("asked", (players,)),
                       ("counters", (len(self.counters),))]
        self.size = sum(int(np.prod(shape)) for _, shape in self.pieces)

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The pieces of `vector` (of `size` numbers), each a view of it in its own shape."""
        out, at = {}, 0
        for name, shape in self.pieces:
            size = int(np.prod(shape))
            out[name] = vector[at:at + size].reshape(shape)
            at += size
        return out

    def fill(self, vector: np.ndarray, view: dict[str, Any]) -> None:
        """Write a seat's `view` (`Seat.view()`) into `vector`, all of it (what was there before is cleared)."""
        vector.fill(0)
        pieces = self.views(vector)
        zones, hidden = pieces["zones"], len(self.faces)
        shown = view.get("zones", {})
        for z, name in enumerate(self.zones):
            cards = shown.get(name)
            if isinstance(cards, dict):  # a hidden zone: its size only
                zones[z, hidden] = cards.get("count", 0)
                continue
            for card in cards or []:
                i = self._face_at.get(card) if isinstance(card, str) else None
                zones[z, hidden if i is None else i] += 1
        for p in view.get("to_act", []):
            pieces["asked"][p] = 1
        counters = view.get("counters", {})
        for i, (name, p) in enumerate(self.counters):
            value = counters.get(name)
            if p is not None and isinstance(value, list):
                value = value[p] if p < len(value) else None
            pieces["counters"][i] = value if isinstance(value, int) and not isinstance(value, bool) else 0


def check_actions(n: int, bound: int, what: str) -> None:
    """Refuse a question or chance event larger than the bound the adapter declared."""
    if n > bound:
        raise ValueError(f"this {what} has {n} outcomes, more than the {bound} the adapter declared; "
                         f"load the game with max_actions={n} or more")


def returns(m: Any) -> list[float]:
    """Each seat's return: 0 until the end; then the winners share a pot of one point a seat, each seat
    having staked one (a sole winner of n gets n-1, every other seat -1; zero-sum)."""
    if not m.over:
        return [0.0] * m.players
    winners = m.winners or []
    if not winners:
        return [0.0] * m.players
    share = m.players / len(winners) - 1.0
    return [share if p in winners else -1.0 for p in range(m.players)]


def score_returns(m: Any) -> list[float]:
    """Each seat's return by score: 0 until the end; then its score less the mean score (zero-sum; for a
    game whose scores are chips won and lost, the chips themselves)."""
    if not m.over or m.scores is None:
        return [0.0] * m.players
    mean = sum(m.scores) / m.players
    return [s - mean for s in m.scores]
