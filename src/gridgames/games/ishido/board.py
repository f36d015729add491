"""The Ishido board: geometry, the opening cells, neighbours, and the points of a placement."""

from __future__ import annotations

from collections.abc import Sequence

from gridgames.core.grid import Grid
from gridgames.games.ishido.tiles import SEED

ROWS, COLS = 8, 12
GRID = Grid(ROWS, COLS)
EMPTY = -1
# (column, row) of the six opening tiles, in pouch order (the seed's `initial-locations`).
OPENING_CELLS = tuple(GRID.index(row, col)
                      for col, row in ((0, 0), (11, 0), (5, 3), (6, 4), (0, 7), (11, 7)))
NEIGHBOURS = tuple(GRID.neighbours4(cell) for cell in range(GRID.size))
EDGE = frozenset(c for c in range(GRID.size)
                 if c // COLS in (0, ROWS - 1) or c % COLS in (0, COLS - 1))
FOURWAY_BONUS = (25, 50, 100, 200, 400, 600, 800, 1000, 5000, 10000, 25000, 50000)
END_BONUS = {0: 1000, 1: 500, 2: 100}  # classic: tiles left at the end -> bonus


def neighbour_tiles(board: Sequence[int], cell: int) -> tuple[int, ...]:
    """The tiles orthogonally next to cell, sorted (the key of tiles.allowed_kinds)."""
    return tuple(sorted(board[n] for n in NEIGHBOURS[cell] if board[n] != EMPTY))


def placement_points(rules: str, cell: int, neighbours: int, fourways_before: int) -> int:
    """Points for a placement next to `neighbours` tiles (the end bonus aside)."""
    base = 1 << (neighbours - 1)
    if rules == SEED:
        return base
    if cell in EDGE:
        return 0
    points = base << fourways_before
    if neighbours == 4:
        points += FOURWAY_BONUS[min(fourways_before, len(FOURWAY_BONUS) - 1)]
    return points
