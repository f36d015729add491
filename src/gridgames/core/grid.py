"""Rectangular grid geometry, and nothing about any game.

A cell is an int index `row * cols + col`, 0-based, row 0 at the top (the games' sources,
docs/rules/, use 1-based Lingo indices and 0-based Lisp ones; we are 0-based everywhere).
Cells also have a printable name: column letter(s) then 1-based row number, `a1` being the
top-left cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gridgames.core.errors import BadInput

# The eight ray directions as (row step, col step), in the order of the Trilobite source's
# `get-test-patterns` (docs/rules/trilobite.md): left, right, up, down, left-up, right-down,
# left-down, right-up.
# Each direction sits next to its opposite, so pairs (0,1), (2,3), (4,5), (6,7) are the four
# lines through a cell: horizontal, vertical, and the two diagonals.
LEFT, RIGHT, UP, DOWN = (0, -1), (0, 1), (-1, 0), (1, 0)
LEFT_UP, RIGHT_DOWN, LEFT_DOWN, RIGHT_UP = (-1, -1), (1, 1), (1, -1), (-1, 1)
RAY_DIRECTIONS = (LEFT, RIGHT, UP, DOWN, LEFT_UP, RIGHT_DOWN, LEFT_DOWN, RIGHT_UP)
ORTHOGONAL = (UP, LEFT, RIGHT, DOWN)  # neighbour order: reading order around the cell
ALL_EIGHT = (LEFT_UP, UP, RIGHT_UP, LEFT, RIGHT, LEFT_DOWN, DOWN, RIGHT_DOWN)


@dataclass(frozen=True)
class Grid:
    rows: int
    cols: int

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise ValueError("a grid needs at least one row and one column")

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def index(self, row: int, col: int) -> int:
        if not self.in_bounds(row, col):
            raise ValueError(f"({row}, {col}) is outside a {self.rows}x{self.cols} grid")
        return row * self.cols + col

    def row_col(self, cell: int) -> tuple[int, int]:
        if not 0 <= cell < self.size:
            raise ValueError(f"cell {cell} is outside a {self.rows}x{self.cols} grid")
        return divmod(cell, self.cols)

    def in_bounds(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def step(self, cell: int, direction: tuple[int, int]) -> int | None:
        """The cell one step away in `direction`, or None past the edge."""
        row, col = divmod(cell, self.cols)
        row, col = row + direction[0], col + direction[1]
        return row * self.cols + col if self.in_bounds(row, col) else None

    def neighbours4(self, cell: int) -> tuple[int, ...]:
        return _neighbours(self, cell, ORTHOGONAL)

    def neighbours8(self, cell: int) -> tuple[int, ...]:
        return _neighbours(self, cell, ALL_EIGHT)

    def ray(self, cell: int, direction: tuple[int, int], max_len: int) -> tuple[int, ...]:
        """Cells going away from `cell` (not included), cut at the edge and at `max_len`."""
        return _ray(self, cell, direction, max_len)

    def rays(self, cell: int, max_len: int) -> tuple[tuple[int, ...], ...]:
        """The eight rays of RAY_DIRECTIONS: the Trilobite source's `get-test-patterns`."""
        return _rays(self, cell, max_len)

    # Printable cell names: `a1` top-left, `b1` right of it, `a2` below it.

    def cell_name(self, cell: int) -> str:
        return _cell_name(self, cell)

    def parse_cell(self, name: str) -> int:
        """Read a cell name; BadInput when malformed or off the board."""
        text = name.strip().lower()
        letters = text.rstrip("0123456789")
        digits = text[len(letters):]
        if not letters or not digits or not letters.isascii() or not letters.isalpha():
            raise BadInput(f"{name!r} is not a cell name like a1")
        if len(letters) > 2 or len(digits) > 3:
            raise BadInput(f"{name!r} is not a cell on this {self.cols}x{self.rows} board")
        col = 0
        for ch in letters:
            col = col * 26 + (ord(ch) - ord("a") + 1)
        col -= 1
        row = int(digits) - 1
        if not self.in_bounds(row, col):
            raise BadInput(f"{name!r} is not a cell on this {self.cols}x{self.rows} board")
        return row * self.cols + col


def column_name(col: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa (spreadsheet style)."""
    name = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        name = chr(ord("a") + rem) + name
    return name


# Pure functions of (grid, cell, ...): memoized with a bound, since boards of every size
# come and go.
@lru_cache(maxsize=1 << 16)
def _neighbours(grid: Grid, cell: int, directions: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    grid.row_col(cell)  # bounds check
    steps = (grid.step(cell, d) for d in directions)
    return tuple(n for n in steps if n is not None)


# The win check after every move asks for a cell's rays, and every legal move list for cell
# names: looked up once each, not rebuilt (in a random playout, most of the engines' time).
@lru_cache(maxsize=1 << 16)
def _rays(grid: Grid, cell: int, max_len: int) -> tuple[tuple[int, ...], ...]:
    return tuple(_ray(grid, cell, d, max_len) for d in RAY_DIRECTIONS)


@lru_cache(maxsize=1 << 16)
def _cell_name(grid: Grid, cell: int) -> str:
    row, col = grid.row_col(cell)
    return column_name(col) + str(row + 1)


@lru_cache(maxsize=1 << 16)
def _ray(grid: Grid, cell: int, direction: tuple[int, int], max_len: int) -> tuple[int, ...]:
    row, col = grid.row_col(cell)
    out = []
    for _ in range(max_len):
        row, col = row + direction[0], col + direction[1]
        if not grid.in_bounds(row, col):
            break
        out.append(row * grid.cols + col)
    return tuple(out)
