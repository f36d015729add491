"""Tic-tac-toe (source: docs/rules/tictactoe.md).

3x3 board, X moves first and players alternate; a move on a taken cell is illegal; a player
wins with a row, column or diagonal of three through their last move; after nine moves with no
line the game is a draw ("It's a Draw"). Moves name a cell: column letter a-c, then row 1-3
from the top. The shared stone-game rules are in core/stones.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridgames.core.errors import IllegalMove
from gridgames.core.grid import Grid
from gridgames.core.params import Params
from gridgames.core.stones import EMPTY, StoneGame, StoneState

COLUMN_NAMES, ROW_NAMES = "abc", "123"  # a1 is the top-left cell (core/grid.py)
GRID = Grid(3, 3)


@dataclass(frozen=True)
class TicTacToeParams(Params):
    """Tic-tac-toe has no parameters: the source's board is always 3x3, three in a row."""


class TicTacToe(StoneGame):
    name = "tictactoe"
    title = "Tic-tac-toe"
    summary = "Three in a row on a 3x3 grid: X against O."
    rules = ("X and O take turns to mark an empty cell; X goes first. Three marks in a row, "
             "a column or a diagonal win. A full board without a line is a draw.")
    params_type = TicTacToeParams
    person_words = False  # the status line keeps the source's words, against the AI too
    renderer = "tictactoe.js"
    order = 10

    def grid_of(self, params: Params) -> Grid:
        return GRID

    def line_length(self, params: Params) -> int:
        return 3

    def cell_of_move(self, state: StoneState, move: str) -> int:
        try:
            cell = GRID.parse_cell(move)
        except ValueError as err:
            raise IllegalMove(f"{move!r} is not a cell of the board (a1 to c3)") from err
        if state.cells[cell] != EMPTY:
            raise IllegalMove(f"{move} is already taken")
        return cell

    def move_of_cell(self, state: StoneState, cell: int) -> str:
        return GRID.cell_name(cell)

    def playable_cells(self, state: StoneState) -> list[int]:
        return [c for c, v in enumerate(state.cells) if v == EMPTY]

    def text(self, state: StoneState) -> str:
        return self.board_text(state, list(COLUMN_NAMES), list(ROW_NAMES))

    def own_view(self, state: StoneState) -> dict[str, Any]:
        """The board's coordinates too, so that the page shows what `a1` means."""
        return {**super().own_view(state), "column_names": list(COLUMN_NAMES),
                "row_names": list(ROW_NAMES)}
