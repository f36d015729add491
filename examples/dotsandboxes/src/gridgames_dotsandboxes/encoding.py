"""What a learning agent sees of Dots and Boxes (the `encoding` capability that
gridgames.envs reads): one action per line of the board, in the rules' reading order, and
the board as an image on the doubled lattice (2 rows + 1, 2 cols + 1) where a line sits
between two dots and a box between four, with three channels: the lines drawn, the
observer's boxes, the opponent's boxes. Seen from the observer's seat, a policy learnt as
Red also reads a position as Blue. NumPy and Gymnasium are imported inside the methods: the
game loads without the `rl` extra.
"""

from __future__ import annotations

from typing import Any

from gridgames.core.capabilities import Encoding
from gridgames_dotsandboxes.game import UNDRAWN, DotsParams, DotsState, layout, line_name


class DotsEncoding(Encoding):
    def action_count(self, params: DotsParams) -> int:
        return len(layout(params.rows, params.cols).dots)

    def action_moves(self, state: DotsState) -> list[str | None]:
        return [line_name(state.params, line) for line in range(len(state.lines))]

    def observation_space(self, params: DotsParams) -> Any:
        import numpy as np
        from gymnasium import spaces

        return spaces.Box(0, 1, (2 * params.rows + 1, 2 * params.cols + 1, 3), np.int8)

    def observe(self, state: DotsState, seat: int | None) -> Any:
        import numpy as np

        params = state.params
        me = 0 if seat is None else seat
        image = np.zeros((2 * params.rows + 1, 2 * params.cols + 1, 3), dtype=np.int8)
        cols = params.cols + 1  # dots in a row
        for (a, b), drawer in zip(layout(params.rows, params.cols).dots, state.lines,
                                  strict=True):
            if drawer != UNDRAWN:  # a line's place is the sum of its dots' places
                image[a // cols + b // cols, a % cols + b % cols, 0] = 1
        for box, owner in enumerate(state.boxes):
            if owner is not None:
                row, col = divmod(box, params.cols)
                image[2 * row + 1, 2 * col + 1, 1 if owner == me else 2] = 1
        return image
