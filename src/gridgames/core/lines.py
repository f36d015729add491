"""Lines of equal pieces through a cell, counted as Trilobite's source does it.

For the cell of the last move, the eight rays of `Grid.rays` (cut at the edge and at
`length - 1` cells) pair up into four lines; a line's length is 1 + the run of the mover's
pieces along one ray + the run along the opposite ray. Only lines through the last move can
be new, so this is the whole win check after a move (docs/rules/trilobite.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from gridgames.core.grid import Grid


def _run(cells: Sequence[int], ray: tuple[int, ...], piece: int) -> tuple[int, ...]:
    out = []
    for cell in ray:
        if cells[cell] != piece:
            break
        out.append(cell)
    return tuple(out)


def longest_line(grid: Grid, cells: Sequence[int], cell: int, length: int) -> tuple[int, ...]:
    """Cells of the longest line of `cells[cell]`'s pieces through `cell` (sorted), looking at
    most `length - 1` cells each way: enough to tell whether a line of `length` exists."""
    piece = cells[cell]
    rays = grid.rays(cell, length - 1)
    best: tuple[int, ...] = (cell,)
    for i in range(0, 8, 2):
        line = _run(cells, rays[i], piece) + (cell,) + _run(cells, rays[i + 1], piece)
        if len(line) > len(best):
            best = line
    return tuple(sorted(best))


def winning_line(grid: Grid, cells: Sequence[int], cell: int, length: int) -> tuple[int, ...]:
    """The line that the piece on `cell` completes, or () when it makes none of `length`."""
    line = longest_line(grid, cells, cell, length)
    return line if len(line) >= length else ()


def any_line(grid: Grid, cells: Sequence[int], length: int) -> tuple[int, ...]:
    """Any line of `length` equal pieces on the board (for checking set-up positions)."""
    for cell, piece in enumerate(cells):
        if piece and (line := winning_line(grid, cells, cell, length)):
            return line
    return ()
