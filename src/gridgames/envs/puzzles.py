"""Gymnasium environments for the one-player games (the puzzles), any installed game included:

- a fixed `Discrete` action space (encoding.py) and the legal actions' mask in
  `info["action_mask"]`;
- rewards: where the game ranks its score higher-is-better (`score_order`), the score's
  change on each move; otherwise +1 on the move that wins and STEP_COST on every other;
- an illegal action leaves the state unchanged, costs ILLEGAL_PENALTY, and says so in
  `info["illegal"]`;
- the episode terminates when the game is over (won, or no longer winnable), and is
  truncated after `max_steps` (default: the game's encoding says, else its own bound on its
  length, `max_moves`; None: never);
- render_mode "ansi": `render()` returns the game's own text board.

`reset(seed=...)` makes the start from the seed where the game generates one.
"""

from __future__ import annotations

from typing import Any

import gymnasium
from gymnasium import spaces

from gridgames.core.game import WON, Game
from gridgames.core.rng import Rng
from gridgames.envs.encoding import encoder_for, find_game

STEP_COST = -0.01
ILLEGAL_PENALTY = -0.1


class PuzzleEnv(gymnasium.Env):
    """`PuzzleEnv(name, "param=value,...")`: any one-player game, by name or as a game object."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, game: str | Game, params: str = "", render_mode: str | None = None,
                 max_steps: int | None = None) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = find_game(game)
        if self.game.players != 1:
            raise ValueError(f"{self.game.title} is not a one-player game")
        self.params = self.game.parse_params(params)
        self.render_mode = render_mode
        self.state: Any = self._start(None)
        self.encoding = encoder_for(self.game, self.params, self.state)
        self.action_space = spaces.Discrete(self.encoding.n_actions)
        self.observation_space = self.encoding.observation_space
        self.max_steps = max_steps if max_steps is not None else self.encoding.max_steps
        self.scored = self.game.score_order == "higher"
        self.steps = 0

    def _start(self, seed: Any) -> Any:
        desc = self.game.new_desc(self.params, Rng(f"env {seed}"))
        return self.game.new_state(self.params, desc)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.encoding.mask(self.state), **extra}

    def _score(self) -> int:
        return self.game.status(self.state).score or 0

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.state = self._start(seed)
        self.steps = 0
        return self.encoding.observe(self.state), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        move = self.encoding.move(self.state, action)
        self.steps += 1
        truncated = self.max_steps is not None and self.steps >= self.max_steps
        if move is None or move not in self.encoding.legal(self.state):
            return (self.encoding.observe(self.state), ILLEGAL_PENALTY, False, truncated,
                    self._info(illegal=True))
        before = self._score()
        self.state = self.game.apply(self.state, move)
        status = self.game.status(self.state)
        if self.scored:
            reward = float(self._score() - before)
        else:
            reward = 1.0 if status.kind == WON else STEP_COST
        observation = self.encoding.observe(self.state)
        return observation, reward, status.over, truncated and not status.over, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.game.text(self.state)
