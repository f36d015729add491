"""Trilobite positions as bitboards: the one geometry of a board shape, for the AI and the
solvers alike.

Pascal Pons' Connect-4 layout at any size: column c holds bits c*(H+1) to c*(H+1)+H-1,
bottom row first, plus a sentinel bit on top that is always 0, so a line test is shifts and
ANDs. A position is `mask` (every stone) and `current` (the side to move's stones). Python
ints have no width limit; the compiled solver needs width * (height + 1) <= 63.
docs/machine-play.md ("Trilobite's bitboards") has the details.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

# The solvers' table (solver.py and its compiled mirror) keeps per position an upper bound
# (the score itself: |score| <= MAX_SCORE on boards of up to 63 cells) or a lower bound from
# a beta cut-off (score + LOWER, so stored > MAX_SCORE). The two ranges do not meet, so an
# entry says which it is.
MAX_SCORE = 32
LOWER = 2 * MAX_SCORE + 1
# Move ordering of both solvers: the column that made a beta cut-off in an earlier visit of a
# position (kept in the table) comes before any count of threats (a board has fewer than 64
# cells, so fewer than 64 threats).
HINTED = 64
# Both solvers' root: with at most this many empty cells, one search of the whole window of
# possible scores; with more, a series of null-window searches that narrow it. Near the end
# the one search takes fewer nodes (on Pons' sets 41-50% fewer from 2 to 10 empty cells,
# 9-35% fewer from 11 to 16, 16% at 17 and 18), and further from it mostly more (up to 1.7
# times); in the compiled solver 16 was the fastest of 12, 14, 16, 18 and 20.
FULL_WINDOW = 16


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int
    line: int
    h1: int = field(init=False)
    cells: int = field(init=False)
    bottoms: tuple[int, ...] = field(init=False)  # per column, its bottom bit
    bottom: int = field(init=False)  # every column's bottom bit
    board: int = field(init=False)  # every playable cell
    columns: tuple[int, ...] = field(init=False)  # per column, its cells
    tops: tuple[int, ...] = field(init=False)  # per column, its top cell
    order: tuple[int, ...] = field(init=False)  # columns, centre first
    directions: tuple[int, ...] = field(init=False)  # vertical, horizontal, two diagonals
    # For each direction, the (left shifts, right shifts) of each split of a line around a cell.
    splits: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = field(init=False)
    # Every set of `line` cells in a straight line on the board, as a mask (for the AI's
    # evaluation).
    windows: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        width, height, line = self.width, self.height, self.line
        h1 = height + 1
        bottoms = tuple(1 << (c * h1) for c in range(width))
        centre = (width - 1) / 2
        directions = (1, h1, h1 - 1, h1 + 1)
        splits = tuple((tuple(i * d for i in range(1, before + 1)),
                        tuple(i * d for i in range(1, line - before)))
                       for d in directions for before in range(line))
        values = {
            "h1": h1, "cells": width * height, "bottoms": bottoms, "bottom": sum(bottoms),
            "board": sum(bottoms) * ((1 << height) - 1),
            "columns": tuple(((1 << height) - 1) << (c * h1) for c in range(width)),
            "tops": tuple(1 << (c * h1 + height - 1) for c in range(width)),
            "order": tuple(sorted(range(width), key=lambda c: (abs(c - centre), c))),
            "directions": directions, "splits": splits,
            "windows": _windows(width, height, line, h1),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def winning_cells(self, stones: int, mask: int) -> int:
        """Empty cells where `stones` would complete a line of `line`."""
        found = 0
        for left, right in self.splits:
            run = -1
            for s in left:
                run &= stones << s
            for s in right:
                run &= stones >> s
            found |= run
        return found & (self.board ^ mask)

    def has_line(self, stones: int) -> bool:
        for d in self.directions:
            run = stones
            for k in range(1, self.line):
                run &= stones >> (k * d)
                if not run:
                    break
            if run:
                return True
        return False

    def cell_bit(self, row: int, col: int) -> int:
        """The bit of a cell given as the game numbers it (row 0 at the top)."""
        return 1 << (col * self.h1 + self.height - 1 - row)


@lru_cache(maxsize=64)
def geometry(width: int, height: int, line: int) -> Geometry:
    """The geometry of a shape, made once: a pure function of the shape."""
    return Geometry(width, height, line)


def _windows(width: int, height: int, line: int, h1: int) -> tuple[int, ...]:
    found = []
    for col in range(width):
        for row in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                end_c, end_r = col + dc * (line - 1), row + dr * (line - 1)
                if 0 <= end_c < width and 0 <= end_r < height:
                    found.append(sum(1 << ((col + dc * k) * h1 + row + dr * k)
                                     for k in range(line)))
    return tuple(found)


class Bitboard:
    """A position that can be played and taken back in place (for the search AI)."""

    __slots__ = ("g", "current", "mask", "moves")

    def __init__(self, width: int, height: int, line: int) -> None:
        self.g = geometry(width, height, line)
        self.current = self.mask = self.moves = 0

    @classmethod
    def from_cells(cls, width: int, height: int, line: int, cells: Sequence[int],
                   to_move: int) -> Bitboard:
        """From row-major cells (row 0 at the top, 0 empty, p + 1 for player p)."""
        board = cls(width, height, line)
        for index, value in enumerate(cells):
            if value:
                bit = board.g.cell_bit(*divmod(index, width))
                board.mask |= bit
                if value - 1 == to_move:
                    board.current |= bit
                board.moves += 1
        return board

    @classmethod
    def of(cls, state: Any) -> Bitboard:
        """The position of a Trilobite game state (core/stones.StoneState)."""
        p = state.params
        return cls.from_cells(p.width, p.height, p.line, state.cells, state.to_move)

    @property
    def width(self) -> int:
        return self.g.width

    @property
    def height(self) -> int:
        return self.g.height

    @property
    def line(self) -> int:
        return self.g.line

    def copy(self) -> Bitboard:
        other = object.__new__(Bitboard)
        other.g, other.current, other.mask, other.moves = self.g, self.current, self.mask, \
            self.moves
        return other

    # --- moves ---

    def can_play(self, col: int) -> bool:
        return not self.mask & self.g.tops[col]

    def play(self, col: int) -> None:
        self.current ^= self.mask
        self.mask |= self.mask + self.g.bottoms[col]
        self.moves += 1

    def undo(self, col: int) -> None:
        """Take back the last stone, which was played in `col`."""
        top_stone = self.landing_bit(col)
        top_stone = (top_stone >> 1) if top_stone else self.g.tops[col]
        self.mask ^= top_stone
        self.current ^= self.mask
        self.moves -= 1

    def landing_bit(self, col: int) -> int:
        return (self.mask + self.g.bottoms[col]) & self.g.columns[col]

    def is_winning_move(self, col: int) -> bool:
        return self.g.has_line(self.current | self.landing_bit(col))

    def has_line(self, stones: int) -> bool:
        return self.g.has_line(stones)

    @property
    def window_count(self) -> int:
        return len(self.g.windows)

    @property
    def full(self) -> bool:
        return self.moves == self.g.cells

    # --- evaluation ---

    def windows_by_count(self) -> tuple[list[int], list[int]]:
        """For windows holding stones of one side only: how many hold k stones of the side to
        move (first list) and of the opponent (second), for k = 0..line."""
        mine_counts = [0] * (self.g.line + 1)
        theirs_counts = [0] * (self.g.line + 1)
        mine, theirs = self.current, self.current ^ self.mask
        for window in self.g.windows:
            m, t = window & mine, window & theirs
            if not t:
                mine_counts[m.bit_count()] += 1
            elif not m:
                theirs_counts[t.bit_count()] += 1
        return mine_counts, theirs_counts
