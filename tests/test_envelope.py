"""The view envelope's places (core/envelope.py): every edge of a board, its border included,
has exactly one name, and any name of it leads there."""

from __future__ import annotations

import pytest

from gridgames.core.envelope import SIDES, Cell, Edge, all_edges, default_place, edge, edge_between
from gridgames.core.grid import Grid

GRID = Grid(3, 4)  # 3 rows, 4 columns


def test_every_edge_has_one_name():
    edges = all_edges(GRID)
    assert len(edges) == len(set(edges)) == (3 + 1) * 4 + 3 * (4 + 1)
    named = {edge(GRID, cell, side) for cell in range(GRID.size) for side in SIDES}
    assert named == set(edges)


def test_the_names_of_shared_and_border_edges():
    assert edge(GRID, 0, "E") == edge(GRID, 1, "W") == edge_between(GRID, 1, 0) == Edge(1, "W")
    assert edge(GRID, 0, "S") == edge(GRID, 4, "N") == edge_between(GRID, 0, 4) == Edge(4, "N")
    assert edge(GRID, 0, "N") == Edge(0, "N") and edge(GRID, 0, "W") == Edge(0, "W")
    assert edge(GRID, 11, "S") == Edge(11, "S") and edge(GRID, 11, "E") == Edge(11, "E")
    assert edge(GRID, 3, "E") == Edge(3, "E")  # the right border, top row
    with pytest.raises(ValueError):
        edge_between(GRID, 3, 4)  # the end of one row and the start of the next
    with pytest.raises(ValueError):
        edge(GRID, 0, "X")


def test_a_cell_name_is_a_cell_and_anything_else_no_place():
    assert default_place(GRID, "b2") == Cell(5)
    assert default_place(GRID, "e1") is None  # off the board
    for move in ("U", "clear", "4", "a1-b1"):
        assert default_place(GRID, move) is None
