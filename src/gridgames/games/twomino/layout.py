"""The 2mino board's layout (docs/rules/twomino.md): N symbols on N+1 rows x N columns,
every unordered pair of symbols once as a domino. Bars separate orthogonally adjacent cells.

- Cells are 0-based row-major indices; symbols are 0..N-1, written 0-9 then a, b, c.
- A bar is the pair of cells (a, b) it separates, a < b; bars are numbered in sorted order.
  Its move name is the two cell names joined by a dash, top or left cell first: `a1-b1`.
- Pair values: the source orders pairs with the higher symbol first (00, 10, 11, 20, 21, 22...)
  so the pair (hi, lo) has index hi * (hi + 1) / 2 + lo.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gridgames.core.errors import BadInput
from gridgames.core.grid import Grid

SYMBOLS = "0123456789abc"
MIN_N, MAX_N = 3, 13
# Difficulty: the hardest deduction a puzzle needs (solver.py), declared once, easiest first.
LEVELS = ("trivial", "basic", "hard", "extreme")


def pair_index(a: int, b: int) -> int:
    hi, lo = max(a, b), min(a, b)
    return hi * (hi + 1) // 2 + lo


def pair_of_index(index: int) -> tuple[int, int]:
    """(hi, lo) of a pair index."""
    hi = 0
    while (hi + 1) * (hi + 2) // 2 <= index:
        hi += 1
    return hi, index - hi * (hi + 1) // 2


def pair_name(index: int) -> str:
    """A pair value as the source writes it, higher symbol first: '10', 'c5'."""
    hi, lo = pair_of_index(index)
    return SYMBOLS[hi] + SYMBOLS[lo]


def domino_name(index: int) -> str:
    """A pair value as a player reads it on a domino, higher symbol first: '1-0', 'c-5'."""
    hi, lo = pair_of_index(index)
    return f"{SYMBOLS[hi]}-{SYMBOLS[lo]}"


def pair_count(n: int) -> int:
    return n * (n + 1) // 2


@dataclass(frozen=True, eq=False)
class Layout:
    """Geometry of a board for N symbols: its grid, bars and the bars around each domino."""

    n: int
    grid: Grid
    bars: tuple[tuple[int, int], ...]
    bar_index: dict[tuple[int, int], int]

    @property
    def pairs(self) -> int:
        return pair_count(self.n)

    def bar_name(self, bar: int, joiner: str = "-") -> str:
        a, b = self.bars[bar]
        return f"{self.grid.cell_name(a)}{joiner}{self.grid.cell_name(b)}"

    def parse_bar(self, name: str, joiner: str = "-", kind: str = "bar") -> int:
        """The bar between the two cells `name` joins (`a1-a2`; a pair move reads `a1=a2`
        with joiner "=" and kind "pair")."""
        first, joined, second = name.partition(joiner)
        if not joined:
            raise BadInput(f"{name!r} is not a {kind}: name its two cells, like a1{joiner}b1")
        a, b = self.grid.parse_cell(first), self.grid.parse_cell(second)
        bar = self.bar_index.get((min(a, b), max(a, b)))
        if bar is None:
            raise BadInput(f"{name!r} is not a {kind}: the two cells must be side by side")
        return bar

    def outline(self, bar: int) -> tuple[int, ...]:
        """The six bars around the domino on the two cells of `bar` (fewer at the board's
        edge, which counts as a bar that is always on)."""
        return _outline(self, bar)


@lru_cache(maxsize=MAX_N + 1)  # one per board size: bounded by the game
def layout(n: int) -> Layout:
    if not MIN_N <= n <= MAX_N:
        raise BadInput(f"N must be from {MIN_N} to {MAX_N}, not {n}")
    grid = Grid(n + 1, n)
    bars = []
    for cell in range(grid.size):
        for other in grid.neighbours4(cell):
            if other > cell:
                bars.append((cell, other))
    bars.sort()
    return Layout(n, grid, tuple(bars), {bar: i for i, bar in enumerate(bars)})


@lru_cache(maxsize=4096)  # (layout, bar): 312 bars at N=13
def _outline(lay: Layout, bar: int) -> tuple[int, ...]:
    a, b = lay.bars[bar]
    around = []
    for cell, other in ((a, b), (b, a)):
        for near in lay.grid.neighbours4(cell):
            if near != other:
                around.append(lay.bar_index[(min(cell, near), max(cell, near))])
    return tuple(sorted(around))
