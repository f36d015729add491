"""Boards for 2mino: the seed's samples layout and the seed's shuffling generator.

Samples (the seed): the pairs in the seed's order (00, 10, 11, 20, ...), the higher symbol
first, in reading order of pair slots: vertical pairs (2 rows x 1 column) when N is odd,
horizontal ones (1 row x 2 columns) when N is even, so that they fill the N+1 x N board.

Shuffling (the seed): the pairs go to random slots, some turned 180 degrees; then, for even
square sizes from 2x2 up to NxN, every square of the board made of whole dominoes is
transposed with probability 1/2 (which turns its horizontal dominoes vertical and back).
Then about N^2/4 bars between dominoes are locked as hints.

Random boards (ours, for unique puzzles without given bars): a random domino tiling, then the
pairs dealt to its dominoes so that no two side-by-side dominoes form a 2x2 block whose
diagonal cells match (such a block can always be read the other way round, as Simon Tatham's
Dominosa generator also avoids).
"""

from __future__ import annotations

from dataclasses import dataclass

from gridgames.core.rng import Rng
from gridgames.games.twomino.board import layout, pair_count


@dataclass(frozen=True)
class Board:
    n: int
    symbols: tuple[int, ...]  # per cell
    partner: tuple[int, ...]  # per cell: the other cell of its domino (the hidden answer)

    def separators(self) -> list[int]:
        """Bars of the hidden arrangement: between cells of different dominoes."""
        lay = layout(self.n)
        return [i for i, (a, b) in enumerate(lay.bars) if self.partner[a] != b]


def samples(n: int) -> Board:
    lay = layout(n)
    cols = lay.grid.cols
    symbols = [0] * lay.grid.size
    partner = [0] * lay.grid.size
    pairs = [(hi, lo) for hi in range(n) for lo in range(hi + 1)]
    for slot, (hi, lo) in enumerate(pairs):
        if n % 2:  # vertical pairs, n pair slots per double row
            row, col = 2 * (slot // n), slot % n
            first, second = row * cols + col, (row + 1) * cols + col
        else:  # horizontal pairs, n / 2 pair slots per row
            row, col = slot // (n // 2), 2 * (slot % (n // 2))
            first, second = row * cols + col, row * cols + col + 1
        symbols[first], symbols[second] = hi, lo
        partner[first], partner[second] = second, first
    return Board(n, tuple(symbols), tuple(partner))


def shuffled(n: int, rng: Rng) -> Board:
    """The seed's game board: pairs swapped to random slots (some turned), then squares of
    whole dominoes transposed at random."""
    base = samples(n)
    cols = layout(n).grid.cols
    slots = sorted({(min(c, base.partner[c]), max(c, base.partner[c]))
                    for c in range(len(base.symbols))})
    values = [(base.symbols[a], base.symbols[b]) for a, b in slots]
    rng.shuffle(values)
    symbols = list(base.symbols)
    for (a, b), (x, y) in zip(slots, values, strict=True):
        if rng.chance(1, 2):
            x, y = y, x  # turned 180 degrees
        symbols[a], symbols[b] = x, y
    partner = list(base.partner)
    rows = n + 1
    for size in range(2, n + 1, 2):
        for top in range(rows - size + 1):
            for left in range(cols - size + 1):
                square = [(top + i) * cols + left + j for i in range(size) for j in range(size)]
                inside = set(square)
                if all(partner[c] in inside for c in square) and rng.chance(1, 2):
                    _transpose(symbols, partner, top, left, size, cols)
    return Board(n, tuple(symbols), tuple(partner))


def _transpose(symbols: list[int], partner: list[int], top: int, left: int, size: int,
               cols: int) -> None:
    def flip(cell: int) -> int:
        r, c = divmod(cell, cols)
        return (top + (c - left)) * cols + left + (r - top)

    cells = [(top + i) * cols + left + j for i in range(size) for j in range(size)]
    old_symbols = {c: symbols[c] for c in cells}
    old_partner = {c: partner[c] for c in cells}
    for c in cells:
        symbols[flip(c)] = old_symbols[c]
        partner[flip(c)] = flip(old_partner[c])


def random_board(n: int, rng: Rng) -> Board | None:
    """A random tiling with the pairs dealt to it; None when the deal gets stuck."""
    partner = _random_tiling(n, rng)
    lay = layout(n)
    symbols = [-1] * lay.grid.size
    pairs = [(hi, lo) for hi in range(n) for lo in range(hi + 1)]
    rng.shuffle(pairs)
    dominoes = sorted({(min(c, partner[c]), max(c, partner[c])) for c in range(len(partner))})
    rng.shuffle(dominoes)
    for a, b in dominoes:
        for index, (hi, lo) in enumerate(pairs):
            ways = [(x, y) for x, y in ((hi, lo), (lo, hi))
                    if _reads_one_way(lay, partner, symbols, a, b, x, y)]
            if ways:
                symbols[a], symbols[b] = ways[rng.below(len(ways))]
                del pairs[index]
                break
        else:
            return None
    return Board(n, tuple(symbols), tuple(partner))


def _random_tiling(n: int, rng: Rng) -> list[int]:
    """Partner of each cell: the samples layout mixed by random flips of 2x2 blocks made of
    two parallel dominoes (such flips reach every tiling of a rectangle)."""
    partner = list(samples(n).partner)
    cols, rows = n, n + 1
    for _ in range(8 * rows * cols):
        top, left = rng.below(rows - 1), rng.below(cols - 1)
        a, b = top * cols + left, top * cols + left + 1
        c, d = a + cols, b + cols
        if partner[a] == b and partner[c] == d:
            partner[a], partner[c], partner[b], partner[d] = c, a, d, b
        elif partner[a] == c and partner[b] == d:
            partner[a], partner[b], partner[c], partner[d] = b, a, d, c
    return partner


def _reads_one_way(lay, partner: list[int], symbols: list[int], a: int, b: int, x: int,
                   y: int) -> bool:
    """False when x on a and y on b would match a diagonal cell of a dealt domino lying
    alongside a-b: the 2x2 block could then be read as the two other dominoes."""
    cols = lay.grid.cols
    (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
    for side in (1, -1):
        dr, dc = side * (cb - ca), side * (rb - ra)  # a step across the domino
        if not (0 <= ra + dr < lay.grid.rows and 0 <= ca + dc < cols
                and 0 <= rb + dr < lay.grid.rows and 0 <= cb + dc < cols):
            continue
        c, d = a + dr * cols + dc, b + dr * cols + dc
        if partner[c] == d and symbols[c] >= 0 and (symbols[c] == y or symbols[d] == x):
            return False
    return True


def hint_bars(board: Board, rng: Rng) -> list[int]:
    """The seed's hints: N^2/4 random bars of the hidden arrangement, locked."""
    bars = board.separators()
    rng.shuffle(bars)
    return sorted(bars[:board.n * board.n // 4])


def check_board(board: Board) -> None:
    """Every pair exactly once, dominoes on adjacent cells (for tests and new generators)."""
    lay = layout(board.n)
    seen = [0] * pair_count(board.n)
    for cell, other in enumerate(board.partner):
        assert board.partner[other] == cell and other != cell
        assert (min(cell, other), max(cell, other)) in lay.bar_index
        if cell < other:
            a, b = board.symbols[cell], board.symbols[other]
            seen[max(a, b) * (max(a, b) + 1) // 2 + min(a, b)] += 1
    assert seen == [1] * pair_count(board.n)
