"""What a learning agent sees of Dots and Boxes (the `encoding` capability that
gridgames.envs reads): one action per line of the board, in the rules' reading order, and an
observation of the lines drawn and the boxes each side owns, from the observer's seat, so a
policy learnt as Red also reads a position as Blue. Gymnasium is imported inside the methods:
the game loads without the `rl` extra.
"""

from __future__ import annotations

from typing import Any

from gridgames.core.capabilities import Encoding
from gridgames_dotsandboxes.game import UNDRAWN, DotsParams, DotsState, layout, line_name


class DotsEncoding(Encoding):
    def action_count(self, params: DotsParams) -> int:
        return len(layout(params.rows, params.cols)[0])

    def action_moves(self, state: DotsState) -> list[str | None]:
        return [line_name(state.params, line) for line in range(len(state.lines))]

    def observation_space(self, params: DotsParams) -> Any:
        import numpy as np
        from gymnasium import spaces

        return spaces.Dict({
            "lines": spaces.MultiBinary(self.action_count(params)),
            # Plane 0: the observer's boxes; plane 1: the opponent's.
            "boxes": spaces.Box(0, 1, (2, params.rows, params.cols), np.int8)})

    def observe(self, state: DotsState, seat: int | None) -> Any:
        import numpy as np

        params = state.params
        me = 0 if seat is None else seat
        owners = np.array([-1 if owner is None else owner for owner in state.boxes])
        boxes = np.stack([owners == me, owners == 1 - me]).astype(np.int8)
        return {"lines": np.array([drawer != UNDRAWN for drawer in state.lines], dtype=np.int8),
                "boxes": boxes.reshape(2, params.rows, params.cols)}
