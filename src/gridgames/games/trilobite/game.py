"""Trilobite: Connect-N with gravity on a board of any size. Its source and the facts taken
from it are in docs/rules/trilobite.md.

A move names a column; the stone takes the lowest empty cell of that column (a full column is
illegal). The first player to make a line of `line` stones (the source's `*win-len*`) through
their last move, horizontally, vertically or diagonally, wins; a full board without one is a
draw. The win check is the source's: rays of the last cell, cut at `line - 1` (core.lines).

Move notation: columns 1-9 are the digits `1`..`9` (as in the Connect-4 solver test sets, so a
game is written `4453`); columns 10 and up are letters, `a` = 10, `b` = 11, ... `k` = 20.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.grid import Grid
from gridgames.core.params import Params, param
from gridgames.core.stones import EMPTY, StoneGame, StoneState

MAX_SIDE = 20
COLUMN_NAMES = "123456789abcdefghijk"  # column index -> move


@dataclass(frozen=True)
class TrilobiteParams(Params):
    width: int = param(7, lo=3, hi=MAX_SIDE, help="columns", label="Columns")
    height: int = param(6, lo=3, hi=MAX_SIDE, help="rows", label="Rows")
    line: int = param(4, lo=3, hi=MAX_SIDE, help="stones in a row to win",
                      label="Stones in a row to win")

    def check(self) -> None:
        longest = max(self.width, self.height)
        if self.line > longest:
            raise BadInput(f"line must be from 3 to {longest} (the longer side of a "
                           f"{self.width}x{self.height} board), not {self.line}")


class Trilobite(StoneGame):
    name = "trilobite"
    title = "Trilobite"
    summary = "Connect-N with gravity: drop stones, make a line of N. Any board size."
    rules = ("Two players take turns to drop a stone into a column; it falls to the lowest "
             "empty cell. The first to make a line of N of their stones (across, up and down, "
             "or diagonal; N is the board's line length, 4 by default) wins. A full board "
             "with no line is a draw.")
    params_type = TrilobiteParams
    # The sides are named by the colours the page draws them in (red moves first); the
    # position text keeps `x` and `o` for their stones.
    player_names = ("Red", "Yellow")
    renderer = "trilobite.js"
    order = 20
    sample_params = ("width=4,height=4,line=3", "width=10,height=10,line=5",
                     "width=3,height=5,line=5", "width=11,height=3,line=3")

    def grid_of(self, params: TrilobiteParams) -> Grid:
        return Grid(params.height, params.width)

    def line_length(self, params: TrilobiteParams) -> int:
        return params.line

    def column_of_move(self, grid: Grid, move: str) -> int:
        col = COLUMN_NAMES.find(move) if len(move) == 1 else -1
        if not 0 <= col < grid.cols:
            last = COLUMN_NAMES[grid.cols - 1]
            raise IllegalMove(f"{move!r} is not a column: columns are 1 to {last}"
                              + (" (a = 10, b = 11, ...)" if grid.cols > 9 else ""))
        return col

    def landing_cell(self, state: StoneState, col: int) -> int | None:
        """The lowest empty cell of column col (pieces fall), or None when it is full."""
        grid = state.grid
        for row in range(grid.rows - 1, -1, -1):
            cell = row * grid.cols + col
            if state.cells[cell] == EMPTY:
                return cell
        return None

    def cell_of_move(self, state: StoneState, move: str) -> int:
        col = self.column_of_move(state.grid, move)
        cell = self.landing_cell(state, col)
        if cell is None:
            raise IllegalMove(f"column {move} is full")
        return cell

    def move_of_cell(self, state: StoneState, cell: int) -> str:
        return COLUMN_NAMES[cell % state.grid.cols]

    def playable_cells(self, state: StoneState) -> list[int]:
        cells = (self.landing_cell(state, col) for col in range(state.grid.cols))
        return [c for c in cells if c is not None]

    def check_position(self, grid: Grid, cells: tuple[int, ...]) -> None:
        for cell in range(grid.size - grid.cols):
            if cells[cell] != EMPTY and cells[cell + grid.cols] == EMPTY:
                raise BadInput(f"position has a floating stone at {grid.cell_name(cell)}: "
                               "stones fall to the lowest empty cell")

    def split_moves(self, text: str) -> list[str]:
        """Every column is one character, so `4453` is four moves; spaces, commas ignored."""
        return [ch for ch in text if ch not in " ,\t\n"]

    def move_words(self, move: str) -> str:
        return f"column {move}"

    def text(self, state: StoneState) -> str:
        return self.board_text(state, list(COLUMN_NAMES[:state.grid.cols]), [])

    def own_view(self, state: StoneState) -> dict:
        return {**super().own_view(state), "gravity": True,
                "column_names": list(COLUMN_NAMES[:state.grid.cols])}
