"""A meeple game as a PettingZoo AEC environment: `env(GAME, players=N)`.

Agents are `player_0` … `player_{N-1}`, one a seat. The agent to act is the seat asked; a question asked
of several seats at once in secret is answered seat by seat, each answer hidden from the others as in the
match. An agent knocked out of the match leaves at once, with the reward of a loss (where the game lets no
knocked-out player win). An action is the position of an option in the question, below the bound
`common.bounds` gives (the action mask marks the legal ones). Chance is drawn from the match's seed
(`reset(seed=S)`).

An observation is `{"observation": vector, "action_mask": mask}`, the vector made from the seat handle
only (`common.Encoding`): for each zone of the game and each card face, how many of that face the seat
sees there; for each zone how many of its cards the seat cannot see; whose turn it is; the counters the
seat sees (whole numbers; a hidden or text counter reads 0). Rewards come at the end: the winners share
the pot (zero-sum, `common.returns`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.spaces import Box as Vector  # (a zone of a bundled game is called so)
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..game import Game
from ..run.match import Match
from .common import Encoding, bounds, check_actions, game_of, returns


def env(game: str | Path | Game, players: int | None = None, render_mode: str | None = None,
        max_actions: int | None = None) -> AECEnv:
    """An AEC environment for a meeple game (a bundled name, a folder or a loaded Game) at `players` seats
    (default: the game's), wrapped as PettingZoo's own environments are (illegal actions end the game)."""
    inner = MeepleEnv(game, players, render_mode, max_actions)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(inner))


class MeepleEnv(AECEnv):
    """The environment itself (see `env` for the wrapped one)."""

    def __init__(self, game: str | Path | Game, players: int | None = None, render_mode: str | None = None,
                 max_actions: int | None = None) -> None:
        super().__init__()
        self.game = game_of(game)
        self.players = players or self.game.default_players
        self.game.check_players(self.players)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not one of None, 'ansi'")
        self.render_mode = render_mode
        self.metadata = {"render_modes": ["ansi"], "name": f"meeple_{self.game.name.replace('-', '_')}_v0",
                         "is_parallelizable": False}
        self.actions = max(bounds(self.game, self.players).actions, max_actions or 0)
        self._encoding = Encoding(self.game, self.players)
        size = self._encoding.size
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self._seat_of = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {agent: spaces.Dict({
            "observation": Vector(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float64),
            "action_mask": Vector(low=0, high=1, shape=(self.actions,), dtype=np.int8),
        }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.actions) for agent in self.possible_agents}
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ---- the match
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.match = Match(self.game, self.players, 0 if seed is None else seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        """The agent to act: the seat asked (the first not yet answered of a secret question)."""
        m = self.match
        assert m is not None
        acting = m.to_act()
        if acting:
            self.agent_selection = self.possible_agents[acting[0]]
            check_actions(len(m.legal_actions(acting[0])), self.actions, "question")
        else:
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        m = self.match
        assert m is not None
        seat = self._seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        problem = m.apply(seat, int(action))  # type: ignore[arg-type]
        if problem is not None:
            raise ValueError(f"{agent}: {problem.reason}")
        if m.over:
            final = returns(m)
            for a in self.agents:
                self.rewards[a] = final[self._seat_of[a]]
                self.terminations[a] = True
                self.infos[a] = {"result": m.result()}
        elif not self.game.out_can_win:  # a seat knocked out of the match has lost: it leaves now
            for a in self.agents:
                if m.st.gone >> self._seat_of[a] & 1 and not self.terminations[a]:
                    self.rewards[a] = -1.0
                    self.terminations[a] = True
        self._accumulate_rewards()
        self._select()
        if any(self.terminations[a] for a in self.agents) and not m.over:
            self._deads_step_first()

    # ---- what an agent observes
    def observe(self, agent: str) -> dict[str, Any]:
        m = self.match
        assert m is not None
        seat = self._seat_of[agent]
        handle = m.seat(seat)
        vector = np.zeros(self._encoding.size, dtype=np.float64)
        self._encoding.fill(vector, handle.view())
        mask = np.zeros(self.actions, dtype=np.int8)
        mask[handle.legal_actions()] = 1
        return {"observation": vector, "action_mask": mask}

    def render(self) -> str | None:
        """`ansi`: what every seat sees (no hidden card), and the result once the match is over."""
        if self.render_mode is None or self.match is None:
            return None
        m = self.match
        if m.over:
            return json.dumps(m.result(), sort_keys=True)
        return f"to act: {[self.possible_agents[p] for p in m.to_act()]}; decisions: {len(m.history)}"

    def close(self) -> None:
        self.match = None
