"""Lights Out: a square grid of lights; pressing a cell toggles it and its four orthogonal
neighbours; the puzzle is solved when every light is out.

Moves name the cell pressed: column letter then row from the top (`b2`). The desc is the
rows of lights from the top, `1` on and `0` off, joined by `/`. A start position is made by
pressing random cells of a dark board, so every generated puzzle can be solved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.game import ONGOING, WON, Game, Status, check_move_text
from gridgames.core.grid import Grid
from gridgames.core.params import Params, param
from gridgames.core.rng import Rng
from gridgames.core.words import count


@dataclass(frozen=True)
class LightsOutParams(Params):
    size: int = param(5, lo=3, hi=9, help="cells on a side")


@dataclass(frozen=True)
class LightsOutState:
    params: LightsOutParams
    lights: tuple[bool, ...]  # row by row, True when on
    presses: int = 0
    last: int | None = None

    @property
    def grid(self) -> Grid:
        return Grid(self.params.size, self.params.size)

    @property
    def solved(self) -> bool:
        return not any(self.lights)


def press(grid: Grid, lights: tuple[bool, ...], cell: int) -> tuple[bool, ...]:
    """The rule of the game: the cell and its orthogonal neighbours change."""
    changed = list(lights)
    for target in (cell, *grid.neighbours4(cell)):
        changed[target] = not changed[target]
    return tuple(changed)


class LightsOut(Game):
    name = "lightsout"
    title = "Lights Out"
    summary = "Press a light to toggle it and its neighbours. Put every light out."
    params_type = LightsOutParams
    renderer = "lightsout.js"
    sample_params = ("size=3", "size=4")

    def new_desc(self, params: LightsOutParams, rng: Rng) -> str:
        grid = Grid(params.size, params.size)
        lights = (False,) * grid.size
        while not any(lights):
            for cell in range(grid.size):
                if rng.chance(1, 2):
                    lights = press(grid, lights, cell)
        return "/".join("".join("1" if on else "0" for on in lights[r * grid.cols:
                                                                    (r + 1) * grid.cols])
                        for r in range(grid.rows))

    def new_state(self, params: LightsOutParams, desc: str) -> LightsOutState:
        rows = desc.split("/") if isinstance(desc, str) else []
        size = params.size
        if len(rows) != size or any(len(row) != size or set(row) - {"0", "1"} for row in rows):
            raise BadInput(f"a Lights Out desc is {size} rows of {size} digits 0 or 1, "
                           "joined by /")
        return LightsOutState(params, tuple(ch == "1" for row in rows for ch in row))

    def max_moves(self, params: LightsOutParams) -> int | None:
        return None  # one may press for ever

    def legal_moves(self, state: LightsOutState) -> list[str]:
        if state.solved:
            return []
        return [state.grid.cell_name(cell) for cell in range(state.grid.size)]

    def apply(self, state: LightsOutState, move: str) -> LightsOutState:
        check_move_text(move)
        if state.solved:
            raise IllegalMove("the lights are all out: the puzzle is solved")
        try:
            cell = state.grid.parse_cell(move)
        except ValueError as err:
            raise IllegalMove(f"{move!r} is not a cell of this board") from err
        return LightsOutState(state.params, press(state.grid, state.lights, cell),
                              state.presses + 1, cell)

    def status(self, state: LightsOutState) -> Status:
        if state.solved:
            return Status(WON, f"All lights out in {count(state.presses, 'press', 'presses')}!",
                          score=state.presses)
        return Status(ONGOING, f"{count(sum(state.lights), 'light')} on · "
                      f"{count(state.presses, 'press', 'presses')}", score=state.presses)

    def text(self, state: LightsOutState) -> str:
        grid = state.grid
        lines = ["  " + " ".join(grid.cell_name(c)[0] for c in range(grid.cols))]
        for r in range(grid.rows):
            row = state.lights[r * grid.cols:(r + 1) * grid.cols]
            lines.append(f"{r + 1} " + " ".join("O" if on else "." for on in row))
        return "\n".join(lines)

    def own_view(self, state: LightsOutState) -> dict[str, Any]:
        grid = state.grid
        return {
            "kind": "lightsout",
            "rows": grid.rows,
            "cols": grid.cols,
            "lights": list(state.lights),
            "moves": [grid.cell_name(cell) for cell in range(grid.size)],
            "last": state.last,
            "solved": state.solved,
        }
