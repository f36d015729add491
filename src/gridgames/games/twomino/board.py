"""The source's boards (docs/rules/twomino.md): a `Board` is a full arrangement of the
dominoes, the symbols with the hidden answer, from which the `seed` generator makes a puzzle.

Samples: the pairs in the source's order (00, 10, 11, 20, ...), in reading order of pair
slots: vertical pairs when N is odd, horizontal ones when N is even. Shuffling: the pairs go
to random slots, some turned 180 degrees; then every even square of whole dominoes is
transposed with probability 1/2. Then about N^2/4 bars between dominoes are locked as hints.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridgames.core.rng import Rng
from gridgames.games.twomino.layout import layout, pair_count


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
    """The source's game board: pairs swapped to random slots (some turned), then squares of
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


def hint_bars(board: Board, rng: Rng) -> list[int]:
    """The source's hints: N^2/4 random bars of the hidden arrangement, locked."""
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
