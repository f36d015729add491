"""core.grid: geometry, and the Trilobite source's test patterns (docs/rules/trilobite.md)."""

import pytest

from gridgames.core.errors import BadInput
from gridgames.core.grid import Grid, column_name

# docs/rules/trilobite.md: `(get-test-patterns N)` on a 10x10 board with *win-len* 5.
# Order: left, right, up, down, left-up, right-down, left-down, right-up; NIL is empty.
SEED_PATTERNS = {
    44: ((43, 42, 41, 40), (45, 46, 47, 48), (34, 24, 14, 4), (54, 64, 74, 84), (33, 22, 11, 0),
         (55, 66, 77, 88), (53, 62, 71, 80), (35, 26, 17, 8)),
    32: ((31, 30), (33, 34, 35, 36), (22, 12, 2), (42, 52, 62, 72), (21, 10), (43, 54, 65, 76),
         (41, 50), (23, 14, 5)),
    29: ((28, 27, 26, 25), (), (19, 9), (39, 49, 59, 69), (18, 7), (), (38, 47, 56, 65), ()),
}


@pytest.mark.parametrize("cell", sorted(SEED_PATTERNS))
def test_rays_reproduce_seed_test_patterns(cell):
    assert Grid(10, 10).rays(cell, 5 - 1) == SEED_PATTERNS[cell]


def test_index_and_row_col_round_trip():
    grid = Grid(3, 4)  # docs/rules/tictactoe.md: 4 columns, 3 rows
    # The tic-tac-toe source: index = (row - 1) * columns + column, 1-based; 11 is row 3, col 3.
    assert grid.index(3 - 1, 3 - 1) + 1 == 11
    for cell in range(grid.size):
        assert grid.index(*grid.row_col(cell)) == cell
    with pytest.raises(ValueError):
        grid.row_col(12)
    with pytest.raises(ValueError):
        grid.index(3, 0)


def test_bounds():
    grid = Grid(2, 5)
    assert grid.in_bounds(1, 4)
    assert not grid.in_bounds(2, 0)
    assert not grid.in_bounds(0, -1)


def test_neighbours():
    grid = Grid(3, 3)
    assert grid.neighbours4(4) == (1, 3, 5, 7)
    assert grid.neighbours4(0) == (1, 3)
    assert grid.neighbours8(0) == (1, 3, 4)
    assert grid.neighbours8(4) == (0, 1, 2, 3, 5, 6, 7, 8)
    assert grid.neighbours8(8) == (4, 5, 7)


def test_ray_is_cut_at_max_length_and_edge():
    grid = Grid(4, 6)
    assert grid.ray(0, (0, 1), 3) == (1, 2, 3)
    assert grid.ray(0, (0, 1), 10) == (1, 2, 3, 4, 5)
    assert grid.ray(0, (-1, 0), 10) == ()
    assert grid.ray(23, (-1, -1), 10) == (16, 9, 2)


def test_cell_names():
    grid = Grid(30, 30)
    assert grid.cell_name(0) == "a1"
    assert grid.cell_name(31) == "b2"
    assert grid.cell_name(29) == "ad1"
    assert column_name(25) == "z" and column_name(26) == "aa"
    for cell in (0, 1, 29, 30, 899):
        assert grid.parse_cell(grid.cell_name(cell)) == cell
    for bad in ("", "a", "1", "a0", "ae1", "a31", "?1", "ä1"):
        with pytest.raises(BadInput):
            grid.parse_cell(bad)
