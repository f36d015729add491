"""Gymnasium environments for the puzzles: Polar (by level), 2mino (by parameters), Ishido.

- a fixed `Discrete` action space (encoding.py) and the legal actions' mask in
  `info["action_mask"]`;
- rewards: Ishido's score change on each placement; Polar and 2mino +1 when solved and
  STEP_COST on every other move (they have no score);
- an illegal action leaves the state unchanged, costs ILLEGAL_PENALTY, and says so in
  `info["illegal"]`;
- the episode terminates when the game is over (solved, or no longer winnable), and is
  truncated after `max_steps` (default: Polar 1000, 2mino four times its bars, Ishido never:
  72 tiles at most);
- render_mode "ansi": `render()` returns the game's own text board.

`reset(seed=...)` makes the start from the seed where the game generates one (2mino boards,
Ishido pouches); a Polar level is fixed by its parameters.
"""

from __future__ import annotations

from typing import Any

import gymnasium
from gymnasium import spaces

from gridgames.core.game import WON
from gridgames.core.rng import Rng
from gridgames.envs.encoding import Encoding, Seen
from gridgames.registry import default_games

PUZZLES = ("polar", "twomino", "ishido")
STEP_COST = -0.01
ILLEGAL_PENALTY = -0.1


class PuzzleEnv(gymnasium.Env):
    """`PuzzleEnv("polar", "pack=original,level=2")`, `PuzzleEnv("twomino", "n=5")`,
    `PuzzleEnv("ishido")`."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, game: str = "polar", params: str = "", render_mode: str | None = None,
                 max_steps: int | None = None) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = default_games().get_game(game)
        if game not in PUZZLES:
            raise ValueError(f"{self.game.title} is not a puzzle of this module "
                             f"({', '.join(PUZZLES)})")
        self.params = self.game.parse_params(params)
        self.render_mode = render_mode
        self.state: Any = self._start(None)
        self.seen = Seen(self.game)
        self.encoding = Encoding(self.game.view(self.state))
        self.action_space = spaces.Discrete(self.encoding.n_actions)
        self.observation_space = self.encoding.observation_space()
        default = {"polar": 1000, "twomino": 4 * self.encoding.n_actions, "ishido": None}
        self.max_steps = max_steps if max_steps is not None else default[game]
        self.steps = 0

    def _start(self, seed: Any) -> Any:
        desc = self.game.new_desc(self.params, Rng(f"env {seed}"))
        return self.game.new_state(self.params, desc)

    def _info(self, **extra: Any) -> dict[str, Any]:
        view, legal = self.seen(self.state)
        return {"action_mask": self.encoding.mask(view, legal), **extra}

    def _score(self) -> int:
        return self.game.status(self.state).score or 0

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.state = self._start(seed)
        self.steps = 0
        return self.encoding.observe(self.seen(self.state)[0]), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        view, legal = self.seen(self.state)
        move = self.encoding.move(view, action)
        self.steps += 1
        truncated = self.max_steps is not None and self.steps >= self.max_steps
        if move is None or move not in legal:
            return (self.encoding.observe(view), ILLEGAL_PENALTY, False, truncated,
                    self._info(illegal=True))
        before = self._score()
        self.state = self.game.apply(self.state, move)
        status = self.game.status(self.state)
        if self.game.name == "ishido":
            reward = float(self._score() - before)
        else:
            reward = 1.0 if status.kind == WON else STEP_COST
        observation = self.encoding.observe(self.seen(self.state)[0])
        return observation, reward, status.over, truncated and not status.over, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.game.text(self.state)
