"""A meeple game as an OpenSpiel game: `load(GAME, players=N)` registers it with pyspiel (as
`meeple_<name>_<N>`) and returns a `pyspiel.Game` that OpenSpiel's algorithms and tests run on.

The game is sequential with explicit chance: every chance event of the match (a die, a random pick, each
Fisher–Yates draw of a shuffle) is a chance node of uniform outcomes (`Match.chance_outcomes`), and a
question asked of several seats at once in secret is answered seat by seat, each answer hidden from the
others as in the match (OpenSpiel's turn-based form of a simultaneous move). An action is the position of
an option in the question (`Match.legal_actions`); the number of actions is bounded as `common.bounds`
says. What a seat observes comes from its seat handle only: `information_state_string` is the seat's
information state, `observation_string` its view, `observation_tensor` that view in a fixed encoding
(`common.Encoding`; no information state tensor: what a seat observed over a match has no fixed length).
`resample_from_infostate` draws a world the seat cannot tell apart (`chance.determinize`). Returns are at
the end: the winners share the pot (zero-sum, see `common.returns`)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from ..game import Game
from ..run import chance
from .common import Encoding, bounds, check_actions, game_of, returns, score_returns

_CLASSES: dict[str, Any] = {}  # registered short names: their game class, made once per process


def load(game: str | Path | Game, players: int | None = None, max_actions: int | None = None,
         scores: tuple[float, float] | None = None) -> Any:
    """A `pyspiel.Game` for a meeple game (a bundled name, a folder or a loaded Game) at `players` seats
    (default: the game's). `max_actions` raises the bound on the options of a question if a game needs it.
    With `scores=(low, high)`, the returns are the scores less their mean (which must lie within those
    bounds: a game declares none) instead of the winners' share of the pot (a poker game's chips)."""
    meeple = game_of(game)
    n = players or meeple.default_players
    meeple.check_players(n)
    short = f"meeple_{meeple.name.replace('-', '_')}_{n}" + ("_scores" if scores is not None else "")
    cls = _CLASSES.get(short)
    if cls is None or cls.meeple is not meeple or (max_actions is not None and cls.actions < max_actions) \
            or cls.utility != scores:
        cls = _game_class(short, meeple, n, max_actions, scores)
        _CLASSES[short] = cls
    return cls()


def _game_class(short: str, meeple: Game, players: int, max_actions: int | None,
                scores: tuple[float, float] | None) -> Any:
    """The pyspiel game class of one game at one player count, registered under `short`."""
    found = bounds(meeple, players)
    actions = max(found.actions, max_actions or 0)
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"meeple {meeple.name}, {players} players",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=actions,
        max_chance_outcomes=found.outcomes,
        num_players=players,
        min_utility=-1.0 if scores is None else float(scores[0]),
        max_utility=float(players - 1) if scores is None else float(scores[1]),
        utility_sum=0.0,
        max_game_length=found.length,
    )

    class MeepleGame(pyspiel.Game):
        """A meeple game at a fixed number of seats, as OpenSpiel sees it."""

        def __init__(self, params: dict | None = None) -> None:
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self) -> MeepleState:
            cls = type(self)
            if cls.start is None:  # every match starts alike (its chance to come): made once, copied after
                cls.start = meeple.new_match(players=players, seed=0, explicit_chance=True)
            return MeepleState(self, cls.start.clone())

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SeatObserver:
            if params:
                raise ValueError(f"observation parameters are not supported; got {params}")
            return SeatObserver(iig_obs_type is not None and iig_obs_type.perfect_recall, encoding)

    encoding = Encoding(meeple, players)
    MeepleGame.meeple = meeple
    MeepleGame.start = None
    MeepleGame.bounds = found
    MeepleGame.actions = actions
    MeepleGame.utility = scores
    MeepleGame.returns = staticmethod(returns if scores is None else score_returns)
    if short not in pyspiel.registered_names():
        pyspiel.register_game(game_type, MeepleGame)
    else:  # the same name again (the game's files changed, or a larger bound): the newest class answers
        _CLASSES[short] = MeepleGame
    return MeepleGame


class _Shown(dict):
    """A state's views by seat, kept until its next action. A copy of the state (pyspiel copies a state's
    attributes one by one) shares them: it shows the same until one of the two acts and takes a new one."""

    def __deepcopy__(self, memo: dict) -> _Shown:
        return self


class MeepleState(pyspiel.State):
    """A state of a meeple match with explicit chance (the match itself is kept in `match`). What it shows
    (each seat's view, its string) is kept until the next action: OpenSpiel's checks ask for them again."""

    def __init__(self, game: Any, match: Any) -> None:
        super().__init__(game)
        self.match = match
        self._views = _Shown()
        self._text: str | None = None

    def view(self, player: int) -> dict:
        """What `player` sees now (`Seat.view`)."""
        seen = self._views.get(player)
        if seen is None:
            seen = self._views[player] = self.match.seat(player).view()
        return seen

    # ---- who acts
    def current_player(self) -> int:
        m = self.match
        if m.over:
            return pyspiel.PlayerId.TERMINAL
        if m.chance_outcomes():
            return pyspiel.PlayerId.CHANCE
        return m.to_act()[0]

    def _legal_actions(self, player: int) -> list[int]:
        if player < 0 or player not in self.match.to_act():
            return []
        actions = self.match.seat(player).legal_actions()
        check_actions(len(actions), type(self.get_game()).actions, "question")
        return actions

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self.match.chance_outcomes()
        check_actions(len(outcomes), type(self.get_game()).bounds.outcomes, "chance event")
        return outcomes

    def _apply_action(self, action: int) -> None:
        m = self.match
        self._views, self._text = _Shown(), None
        problem = m.apply_chance(action) if m.chance_outcomes() else m.apply(m.to_act()[0], action)
        if problem is not None:
            raise ValueError(problem.reason)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}"
        labels = self.match.seat(player).labels() if player in self.match.to_act() else []
        if not 0 <= action < len(labels):
            return f"action {action}"
        label = labels[action]
        same = labels[:action].count(label)  # two copies of a card read alike; OpenSpiel wants each string once
        return f"{label} ({same + 1})" if same else label

    # ---- another world
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeepleState:
        """A state `player_id` cannot tell from this one (at a question), its hidden part drawn anew
        (`chance.determinize`), reached from the start by its own chance outcomes and actions (so its
        `history()` is its own); the drawing is seeded by one number from `probability_sampler`."""
        world = chance.determinize(self.match, player_id, random.Random(int(probability_sampler() * 2 ** 53)))
        state = self.get_game().new_initial_state()
        outcomes, decisions = iter(world._explicit.given), iter(world.history)
        while True:
            step = next(outcomes, None) if state.is_chance_node() else next(decisions, (None, None))[1]
            if step is None:
                return state
            state.apply_action(step)

    # ---- the end
    def is_terminal(self) -> bool:
        return bool(self.match.over)

    def returns(self) -> list[float]:
        return type(self.get_game()).returns(self.match)

    def rewards(self) -> list[float]:
        return self.returns()  # terminal rewards: all of the return comes at the end

    # ---- copies
    def __deepcopy__(self, memo: dict) -> MeepleState:
        other = MeepleState(self.get_game(), self.match.clone())
        return other

    def __str__(self) -> str:
        if self._text is None:
            m = self.match
            self._text = json.dumps(m.result(), sort_keys=True) if m.over else \
                f"history {m.history}, to act {m.to_act()}, chance {len(m.chance_outcomes())}"
        return self._text


class SeatObserver:
    """What one seat observes, from its seat handle: with perfect recall its information state (a string
    only), else its view now, as JSON and as a tensor (`common.Encoding`, its pieces named in `dict`)."""

    def __init__(self, perfect_recall: bool, encoding: Encoding) -> None:
        self.perfect_recall = perfect_recall
        self.encoding = encoding
        self.tensor = None if perfect_recall else np.zeros(encoding.size, np.float32)
        self.dict: dict = {} if self.tensor is None else encoding.views(self.tensor)

    def set_from(self, state: MeepleState, player: int) -> None:
        """The seat's view now into `tensor` (zeros while the set-up waits for its first chance outcomes)."""
        if self.tensor is None:
            return
        if _started(state.match):
            self.encoding.fill(self.tensor, state.view(player))
        else:
            self.tensor.fill(0)

    def string_from(self, state: MeepleState, player: int) -> str:
        m = state.match
        if not _started(m):
            return ""  # the set-up waits for its first chance outcomes: nothing is seen yet
        if self.perfect_recall:
            return m.seat(player).information_state()
        return json.dumps(state.view(player), sort_keys=True, default=str)


def _started(m: Any) -> bool:
    """False for the stand-in of a match whose set-up waits for its first chance outcomes (no state yet)."""
    return "st" in m.__dict__ or "_decisions" in m.__dict__
