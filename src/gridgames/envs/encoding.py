"""Fixed action spaces and observations for the environments, read from each game's `view`
(what the web page draws) and `legal_moves`: no rule lives here. An action is an index into
a list fixed for the game's parameters; the move it stands for, and whether it is legal now,
come from the engine.

- stones (tic-tac-toe, Trilobite): a cell, or a column where stones fall (gravity); the
  observation is two planes (rows, cols, 2): the observing player's stones, the opponent's;
- polar: U, D, L, R; the observation is two planes (2, rows, cols): the cell codes
  (0 empty, 1 tree, 2 mountain, 3 house, 4 ice, 5 heart, 6 bomb) and the penguin;
- twomino: one action per bar between two adjacent cells (toggling it); the observation is
  the symbols (rows, cols) and which bars are drawn;
- ishido: a cell for the next tile; the observation is the board's tiles (-1 empty) and the
  next tile.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

POLAR_MOVES = ("U", "D", "L", "R")
POLAR_CODES = 6  # the highest cell code (bomb)


class Encoding:
    """How one game, with fixed parameters, looks to a learning agent."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.kind = view["kind"]
        self.rows, self.cols = view["rows"], view["cols"]
        if self.kind == "stones":
            self.gravity = bool(view.get("gravity"))
            self.n_actions = self.cols if self.gravity else self.rows * self.cols
        elif self.kind == "polar":
            self.n_actions = len(POLAR_MOVES)
        elif self.kind == "twomino":
            self.bar_moves = [bar["move"] for bar in view["bars"]]
            self.n_symbols = view["n"]
            self.n_actions = len(self.bar_moves)
        elif self.kind == "ishido":
            self.n_actions = self.rows * self.cols
        else:
            raise ValueError(f"no environment encoding for boards of kind {self.kind!r}")

    # --- actions ---

    def moves(self, view: dict[str, Any]) -> list[str | None]:
        """The move each action stands for in this position (None: none)."""
        if self.kind == "stones":
            if self.gravity:
                return list(view["column_names"])
            named = [None] * self.n_actions
            for target in view["targets"]:
                named[target["cell"]] = target["move"]
            return named
        if self.kind == "polar":
            return list(POLAR_MOVES)
        if self.kind == "twomino":
            return list(self.bar_moves)
        named = [None] * self.n_actions
        for valid in view["valid"]:
            named[valid["cell"]] = valid["move"]
        return named

    def move(self, view: dict[str, Any], action: Any) -> str | None:
        """The move an action stands for in this position; None when it stands for none."""
        if isinstance(action, np.integer):
            action = int(action)
        if not isinstance(action, int) or isinstance(action, bool) or \
                not 0 <= action < self.n_actions:
            return None
        return self.moves(view)[action]

    def mask(self, view: dict[str, Any], legal: list[str]) -> np.ndarray:
        allowed = set(legal)
        return np.array([m in allowed for m in self.moves(view)], dtype=np.int8)

    # --- observations ---

    def observation_space(self) -> spaces.Space:
        rows, cols = self.rows, self.cols
        if self.kind == "stones":
            return spaces.Box(0, 1, (rows, cols, 2), np.int8)
        if self.kind == "polar":
            return spaces.Box(0, POLAR_CODES, (2, rows, cols), np.int8)
        if self.kind == "twomino":
            return spaces.Dict({
                "symbols": spaces.Box(0, self.n_symbols, (rows, cols), np.int8),
                "bars": spaces.MultiBinary(self.n_actions)})
        return spaces.Dict({"tiles": spaces.Box(-1, 127, (rows, cols), np.int16),
                            "next": spaces.Box(-1, 127, (1,), np.int16)})

    def observe(self, view: dict[str, Any], seat: int | None = None) -> Any:
        rows, cols = self.rows, self.cols
        if self.kind == "stones":
            cells = np.array(view["cells"]).reshape(rows, cols)
            mine, theirs = ("x", "o") if seat == 0 else ("o", "x")
            return np.stack([cells == mine, cells == theirs], axis=-1).astype(np.int8)
        if self.kind == "polar":
            planes = np.zeros((2, rows * cols), dtype=np.int8)
            planes[0] = view["cells"]
            planes[1, view["penguin"]] = 1
            return planes.reshape(2, rows, cols)
        if self.kind == "twomino":
            return {"symbols": np.array(view["symbols"], dtype=np.int8).reshape(rows, cols),
                    "bars": np.array([bar["on"] for bar in view["bars"]], dtype=np.int8)}
        tiles = [-1 if t is None else t for t in view["cells"]]
        upcoming = view.get("next")
        return {"tiles": np.array(tiles, dtype=np.int16).reshape(rows, cols),
                "next": np.array([-1 if upcoming is None else upcoming], dtype=np.int16)}


class Seen:
    """The engine's view and legal moves of a state, read once per state (an environment
    asks for both several times a step)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self._last: tuple[Any, dict[str, Any], list[str]] | None = None

    def __call__(self, state: Any) -> tuple[dict[str, Any], list[str]]:
        if self._last is None or self._last[0] is not state:
            self._last = (state, self.game.view(state), self.game.legal_moves(state))
        return self._last[1], self._last[2]
