"""Trilobite, from the seed `003_e1c30812c33854f5.txt` (Common Lisp; English summary in the
seeds README): Connect-N with gravity on a board of any size.

A move names a column; the stone takes the lowest empty cell of that column (a full column is
illegal). The first player to make a line of `line` stones (the seed's `*win-len*`) through
their last move, horizontally, vertically or diagonally, wins; a full board without one is a
draw. The win check is the seed's: rays of the last cell, cut at `line - 1` (core.lines).

Move notation: columns 1-9 are the digits `1`..`9` (as in the Connect-4 solver test sets, so a
game is written `4453`); columns 10 and up are letters, `a` = 10, `b` = 11, ... `k` = 20.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.grid import Grid
from gridgames.core.params import Params, param
from gridgames.core.rng import Rng
from gridgames.core.stones import EMPTY, StoneGame, StoneState
from gridgames.games.trilobite.ai import choose_column
from gridgames.games.trilobite.bitboard import Bitboard
from gridgames.games.trilobite.solver import analyze, make_solver

MAX_SIDE = 20
PERFECT = "perfect"
# Nodes the perfect player may search per move before it falls back to "hard": a few seconds
# with the compiled solver; the opening of 7x6 needs more, so it plays "hard" there.
PERFECT_BUDGET = 3_000_000
COLUMN_NAMES = "123456789abcdefghijk"  # column index -> move


@dataclass(frozen=True)
class TrilobiteParams(Params):
    width: int = param(7, lo=3, hi=MAX_SIDE, help="columns")
    height: int = param(6, lo=3, hi=MAX_SIDE, help="rows")
    line: int = param(4, lo=3, hi=MAX_SIDE, help="stones in a row to win")

    def check(self) -> None:
        longest = max(self.width, self.height)
        if self.line > longest:
            raise BadInput(f"line must be from 3 to {longest} (the longer side of a "
                           f"{self.width}x{self.height} board), not {self.line}")


class Trilobite(StoneGame):
    name = "trilobite"
    title = "Trilobite"
    summary = "Connect-N with gravity: drop stones, make a line of N. Any board size."
    params_type = TrilobiteParams
    ai_levels = ("easy", "medium", "hard", "perfect")
    cli_module = "gridgames.games.trilobite.commands"
    can_analyze = True
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

    def text(self, state: StoneState) -> str:
        return self.board_text(state, list(COLUMN_NAMES[:state.grid.cols]), [])

    def view(self, state: StoneState) -> dict:
        return {"kind": "stones", "gravity": True,
                "column_names": list(COLUMN_NAMES[:state.grid.cols]), **super().view(state)}

    def bitboard(self, state: StoneState) -> Bitboard:
        p = state.params
        return Bitboard.from_cells(p.width, p.height, p.line, state.cells, state.to_move)

    def choose(self, state: StoneState, level: str, rng: Rng) -> str:
        self.check_level(level)
        if state.over:
            raise IllegalMove("the game is over")
        if level == PERFECT:
            scores = self.analysis(state)
            if scores is not None:  # the best score: the fastest win, or the slowest loss
                best = max(s for s in scores if s is not None)
                return COLUMN_NAMES[rng.choice([c for c, s in enumerate(scores) if s == best])]
            level = "hard"  # the solver could not finish within its budget
        return COLUMN_NAMES[choose_column(self.bitboard(state), level, rng)]

    def analysis(self, state: StoneState,
                 budget: int = PERFECT_BUDGET) -> list[int | None] | None:
        """The exact score of every column for the side to move (None where full), or None
        when the solver needs more than `budget` nodes."""
        if state.over:
            return [None] * state.grid.cols
        p = state.params
        solver = _solver(p.width, p.height, p.line)
        board = self.bitboard(state)
        return analyze(solver, board.current, board.mask, board.moves, budget=budget)


@cache
def _solver(width: int, height: int, line: int):
    """One solver (and its table) per board shape, kept between moves."""
    return make_solver(width, height, line, memory_mb=64.0)
