"""A two-player game as a single-agent Gymnasium environment: the other seat is played by
one of the game's own AI levels (`gridgames list` names them), within a budget, for training
against the strongest.

It wraps the PettingZoo environment (twoplayer.py), so the observations, actions, rewards and
the illegal-action rule are the same; the opponent's moves happen inside `reset` (when it
moves first) and `step`. The action mask is in `info["action_mask"]`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from gridgames.core.game import Game
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.envs.twoplayer import TwoPlayerEnv

DEFAULT_BUDGET = Budget(nodes=200_000, seconds=2.0)


class VsAiEnv(gymnasium.Env):
    """`VsAiEnv(name, level=...)`: the agent plays `seat` (0 moves first) of any two-player
    game with an AI player."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, game: str | Game, params: str = "", level: str | None = None,
                 seat: int = 0, budget: Budget = DEFAULT_BUDGET,
                 render_mode: str | None = None) -> None:
        self.inner = TwoPlayerEnv(game, params, render_mode)
        ai = self.inner.game.ai
        if ai is None:
            raise ValueError(f"{self.inner.game.title} has no AI player")
        self.level = ai.check_level(level or ai.default_level)
        if seat not in (0, 1):
            raise ValueError("seat is 0 (moves first) or 1")
        self.seat, self.budget = seat, budget
        self.agent = self.inner.possible_agents[seat]
        self.render_mode = render_mode
        self.action_space = self.inner.action_space(self.agent)
        self.observation_space = self.inner.observation_space(self.agent)["observation"]
        self.rng = Rng("opponent")
        self.last_result: Any = None  # the opponent's last answer (proven or best found)

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.rng = Rng(f"opponent {seed}")
        self.inner.reset(seed=seed)
        self._opponent_moves()
        return self._observe()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.inner.step(action)
        self._opponent_moves()
        observation, info = self._observe()
        reward = float(self.inner._cumulative_rewards[self.agent])
        done = self.inner.terminations[self.agent]
        if self.inner.infos[self.agent].get("illegal"):
            info["illegal"] = True
        return observation, reward, done, False, info

    def _opponent_moves(self) -> None:
        inner = self.inner
        while inner.agent_selection != self.agent and not inner.terminations[self.agent]:
            found = inner.game.ai.choose(inner.state, self.level, self.rng, self.budget)
            self.last_result = found
            inner.step(inner.encoding_action(found.value))

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        seen = self.inner.observe(self.agent)
        return seen["observation"], {"action_mask": seen["action_mask"]}

    def render(self) -> str | None:
        return self.inner.render()
