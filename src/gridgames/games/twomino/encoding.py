"""2mino to a learning agent (gridgames.envs): one action per bar (toggling it; `clear` is
not an action), and the board as the symbols (rows, cols) and which bars are drawn."""

from __future__ import annotations

from typing import Any

import numpy as np

from gridgames.core.capabilities import Encoding
from gridgames.core.params import Params
from gridgames.games.twomino.board import layout

# An episode is cut short after this many toggles of each bar on average.
STEPS_PER_BAR = 4


class TwoMinoEncoding(Encoding):
    def action_count(self, params: Params) -> int:
        return len(layout(params.n).bars)

    def action_moves(self, state: Any) -> list[str | None]:
        lay = layout(state.n)
        return [lay.bar_name(bar) for bar in range(len(lay.bars))]

    def observation_space(self, params: Params) -> Any:
        from gymnasium import spaces

        grid = layout(params.n).grid
        return spaces.Dict({
            "symbols": spaces.Box(0, params.n, (grid.rows, grid.cols), np.int8),
            "bars": spaces.MultiBinary(self.action_count(params))})

    def observe(self, state: Any, seat: int | None) -> Any:
        lay = layout(state.n)
        return {"symbols": np.array(state.symbols, dtype=np.int8).reshape(lay.grid.rows,
                                                                          lay.grid.cols),
                "bars": np.array([bar in state.on for bar in range(len(lay.bars))],
                                 dtype=np.int8)}

    def max_steps(self, params: Params, bound: int | None) -> int | None:
        return STEPS_PER_BAR * self.action_count(params)
