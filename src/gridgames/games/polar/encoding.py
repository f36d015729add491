"""Polar to a learning agent (gridgames.envs): the four directions as actions, and the board
as two planes (2, rows, cols): the cell codes (0 empty, 1 tree, 2 mountain, 3 house, 4 ice,
5 heart, 6 bomb) and the penguin."""

from __future__ import annotations

from typing import Any

import numpy as np

from gridgames.core.capabilities import Encoding
from gridgames.core.params import Params
from gridgames.games.polar.board import BOMB, COLS, ROWS

MOVES = ("U", "D", "L", "R")
# A level is solved in far fewer moves; an agent walking about is cut short here.
MAX_STEPS = 1000


class PolarEncoding(Encoding):
    def action_count(self, params: Params) -> int:
        return len(MOVES)

    def action_moves(self, state: Any) -> list[str | None]:
        return list(MOVES)

    def observation_space(self, params: Params) -> Any:
        from gymnasium import spaces

        return spaces.Box(0, BOMB, (2, ROWS, COLS), np.int8)

    def observe(self, state: Any, seat: int | None) -> Any:
        planes = np.zeros((2, ROWS * COLS), dtype=np.int8)
        planes[0] = state.board
        planes[1, state.penguin] = 1
        return planes.reshape(2, ROWS, COLS)

    def max_steps(self, params: Params, bound: int | None) -> int | None:
        return MAX_STEPS
