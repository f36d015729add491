"""Ishido to a learning agent (gridgames.envs): one action per cell (where the next tile goes),
and the board's tiles (rows, cols; -1 where empty) with the next tile (-1 once none is left).
A game ends by itself within its 66 placements, so an episode is never cut short."""

from __future__ import annotations

from typing import Any

import numpy as np

from gridgames.core.capabilities import Encoding
from gridgames.core.params import Params
from gridgames.games.ishido.game import COLS, GRID, ROWS

TILE_CODES = 127  # the observation's bound on a tile's code (the 36 kinds fit well within)


class IshidoEncoding(Encoding):
    def action_count(self, params: Params) -> int:
        return GRID.size

    def action_moves(self, state: Any) -> list[str | None]:
        return [GRID.cell_name(cell) for cell in range(GRID.size)]

    def observation_space(self, params: Params) -> Any:
        from gymnasium import spaces

        return spaces.Dict({"tiles": spaces.Box(-1, TILE_CODES, (ROWS, COLS), np.int16),
                            "next": spaces.Box(-1, TILE_CODES, (1,), np.int16)})

    def observe(self, state: Any, seat: int | None) -> Any:
        upcoming = state.next_tile
        # The board marks an empty cell -1 (EMPTY) already.
        return {"tiles": np.array(state.board, dtype=np.int16).reshape(ROWS, COLS),
                "next": np.array([-1 if upcoming is None else upcoming], dtype=np.int16)}

    def max_steps(self, params: Params, bound: int | None) -> int | None:
        return None
