"""Trilobite positions as bitboards, for search (the AI now, the solver later).

Bit layout (Pascal Pons' Connect-4 layout, any size): column c holds bits c*(H+1) to
c*(H+1)+H-1, bottom row first, plus one sentinel bit on top that is always 0. The sentinel
stops a line from wrapping from the top of one column into the next, so a line test is just
shifts and ANDs in the four directions: 1 (vertical), H+1 (horizontal), H and H+2 (diagonals).
Python ints have no width limit, so every board size works here; a compiled kernel will need
width * (height + 1) <= 64.

`mask` holds every stone, `current` the stones of the side to move: playing a column adds its
bottom-empty bit to mask (mask + bottom bit carries up the column) and swaps sides with XOR.
"""

from __future__ import annotations

from collections.abc import Sequence


class Bitboard:
    __slots__ = ("width", "height", "line", "h1", "current", "mask", "moves",
                 "_bottom", "_top", "_column", "_windows", "_directions")

    def __init__(self, width: int, height: int, line: int) -> None:
        self.width, self.height, self.line = width, height, line
        self.h1 = height + 1
        self.current = self.mask = self.moves = 0
        self._bottom = [1 << (c * self.h1) for c in range(width)]
        self._top = [1 << (c * self.h1 + height - 1) for c in range(width)]
        self._column = [((1 << height) - 1) << (c * self.h1) for c in range(width)]
        self._directions = (1, self.h1, self.h1 - 1, self.h1 + 1)
        self._windows = self._all_windows()

    @classmethod
    def from_cells(cls, width: int, height: int, line: int, cells: Sequence[int],
                   to_move: int) -> Bitboard:
        """From row-major cells (row 0 at the top, 0 empty, p + 1 for player p)."""
        board = cls(width, height, line)
        for index, value in enumerate(cells):
            if value:
                row, col = divmod(index, width)
                bit = 1 << (col * board.h1 + height - 1 - row)
                board.mask |= bit
                if value - 1 == to_move:
                    board.current |= bit
                board.moves += 1
        return board

    def copy(self) -> Bitboard:
        other = object.__new__(Bitboard)
        for name in Bitboard.__slots__:
            setattr(other, name, getattr(self, name))
        return other

    # --- moves ---

    def can_play(self, col: int) -> bool:
        return not self.mask & self._top[col]

    def play(self, col: int) -> None:
        self.current ^= self.mask
        self.mask |= self.mask + self._bottom[col]
        self.moves += 1

    def undo(self, col: int) -> None:
        """Take back the last stone, which was played in `col`."""
        top_stone = (self.mask + self._bottom[col]) & self._column[col]
        top_stone = (top_stone >> 1) if top_stone else self._top[col]
        self.mask ^= top_stone
        self.current ^= self.mask
        self.moves -= 1

    def landing_bit(self, col: int) -> int:
        return (self.mask + self._bottom[col]) & self._column[col]

    def is_winning_move(self, col: int) -> bool:
        return self.has_line(self.current | self.landing_bit(col))

    def has_line(self, stones: int) -> bool:
        for d in self._directions:
            run = stones
            for k in range(1, self.line):
                run &= stones >> (k * d)
                if not run:
                    break
            if run:
                return True
        return False

    @property
    def window_count(self) -> int:
        return len(self._windows)

    @property
    def full(self) -> bool:
        return self.moves == self.width * self.height

    # --- evaluation ---

    def _all_windows(self) -> list[int]:
        """Every set of `line` cells in a straight line on the board, as a mask."""
        windows = []
        w, h, n = self.width, self.height, self.line
        for col in range(w):
            for row in range(h):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    end_c, end_r = col + dc * (n - 1), row + dr * (n - 1)
                    if 0 <= end_c < w and 0 <= end_r < h:
                        windows.append(sum(1 << ((col + dc * k) * self.h1 + row + dr * k)
                                           for k in range(n)))
        return windows

    def windows_by_count(self) -> tuple[list[int], list[int]]:
        """For windows holding stones of one side only: how many hold k stones of the side to
        move (first list) and of the opponent (second), for k = 0..line."""
        mine_counts = [0] * (self.line + 1)
        theirs_counts = [0] * (self.line + 1)
        mine, theirs = self.current, self.current ^ self.mask
        for window in self._windows:
            m, t = window & mine, window & theirs
            if not t:
                mine_counts[m.bit_count()] += 1
            elif not m:
                theirs_counts[t.bit_count()] += 1
        return mine_counts, theirs_counts
