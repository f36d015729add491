"""The view envelope: the part of every game's view that is the same for all games (its
status, and its legal moves each with the place it acts on), so that an environment, a test
or a page can read any game without knowing it. `Game.view` builds it; a game only says where
a move acts (`Game.place`) when the default (a cell name such as `a1`) does not fit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from gridgames.core.grid import Grid

SIDES = "NESW"
ENVELOPE_KEYS = ("status", "actions")


@dataclass(frozen=True)
class Cell:
    """A move that acts on one cell (its index, row * cols + col)."""

    index: int


@dataclass(frozen=True)
class Edge:
    """A move that acts on one side of a cell: the line between two cells, or on the border.
    Make it with `edge` or `edge_between`, which give every edge its one canonical name."""

    cell: int
    side: str


Place = Cell | Edge


def is_canonical(grid: Grid, cell: int, side: str) -> bool:
    """Every edge has one name: a cell's N or W side, and S or E only on the board's bottom
    or right border (where no cell lies below or to the right to name it as N or W)."""
    row, col = grid.row_col(cell)
    return (side in "NW" or (side == "S" and row == grid.rows - 1)
            or (side == "E" and col == grid.cols - 1))


def edge(grid: Grid, cell: int, side: str) -> Edge:
    """The edge on `side` of `cell`, under its canonical name."""
    if side not in SIDES:
        raise ValueError(f"a side is one of N, E, S, W, not {side!r}")
    if is_canonical(grid, cell, side):
        return Edge(cell, side)
    return Edge(cell + grid.cols, "N") if side == "S" else Edge(cell + 1, "W")


def edge_between(grid: Grid, a: int, b: int) -> Edge:
    """The edge two orthogonally adjacent cells share."""
    low, high = min(a, b), max(a, b)
    if high - low == grid.cols:
        return Edge(high, "N")
    if high - low == 1 and high % grid.cols:
        return Edge(high, "W")
    raise ValueError(f"cells {a} and {b} are not side by side on a {grid.rows}x{grid.cols} grid")


def all_edges(grid: Grid) -> list[Edge]:
    """Every edge of the grid, the border's included, cell by cell in reading order and each
    cell's sides in N, E, S, W order."""
    return [Edge(cell, side) for cell in range(grid.size) for side in SIDES
            if is_canonical(grid, cell, side)]


def default_place(grid: Grid, move: str) -> Place | None:
    """A move written as a cell name (`a1`) acts on that cell; any other acts on no place."""
    try:
        return Cell(grid.parse_cell(move))
    except ValueError:  # BadInput too: not a cell name of this grid
        return None


def action(move: str, place: Place | None) -> dict[str, Any]:
    if isinstance(place, Cell):
        return {"move": move, "cell": place.index}
    if isinstance(place, Edge):
        return {"move": move, "edge": [place.cell, place.side]}
    return {"move": move}


def envelope(own: dict[str, Any], status: Any,
             placed: Iterable[tuple[str, Place | None]]) -> dict[str, Any]:
    """The game's own view with the envelope added: `status` and `actions`."""
    clash = [key for key in ENVELOPE_KEYS if key in own]
    if clash:
        raise ValueError(f"a game's own view may not use the envelope's keys: {clash}")
    return {**own, "status": asdict(status),
            "actions": [action(move, place) for move, place in placed]}


def grid_of_view(view: dict[str, Any]) -> Grid:
    return Grid(view["rows"], view["cols"])
