"""A stone game to a learning agent (gridgames.envs), shaped like PettingZoo's classic
environments: one action per cell, or per column where stones fall; the observation is two
planes (rows, cols, 2): the observing player's stones and the opponent's."""

from __future__ import annotations

from typing import Any

import numpy as np

from gridgames.core.capabilities import Encoding
from gridgames.core.params import Params
from gridgames.core.stones import StoneGame, StoneState


class StonesEncoding(Encoding):
    def __init__(self, game: StoneGame, columns: bool = False) -> None:
        self.game = game
        self.columns = columns  # an action is a column (gravity), not a cell

    def action_count(self, params: Params) -> int:
        grid = self.game.grid_of(params)
        return grid.cols if self.columns else grid.size

    def action_moves(self, state: StoneState) -> list[str | None]:
        # A column's move is the move of any of its cells: the top row's.
        return [self.game.move_of_cell(state, cell)
                for cell in range(self.action_count(state.params))]

    def observation_space(self, params: Params) -> Any:
        from gymnasium import spaces

        grid = self.game.grid_of(params)
        return spaces.Box(0, 1, (grid.rows, grid.cols, 2), np.int8)

    def observe(self, state: StoneState, seat: int | None) -> Any:
        grid = state.grid
        cells = np.array(state.cells, dtype=np.int8).reshape(grid.rows, grid.cols)
        mine = (seat or 0) + 1  # player p's stones have the value p + 1
        theirs = 3 - mine
        return np.stack([cells == mine, cells == theirs], axis=-1).astype(np.int8)
