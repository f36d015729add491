"""The exact Trilobite solver (Connect-N with gravity): the game value of a position.

Scores follow Pascal Pons' Connect-4 benchmark sets, for any board: positive when the side
to move wins, (cells + 1 - stones when the winner plays the winning stone) // 2, so the
sooner the larger; 0 for a draw; negative for a loss. On 7x6 a win with your last (21st)
stone scores 1. The search follows Pons' "Solving Connect 4" (docs/machine-play.md,
"Trilobite's solver"). This is the clear reference; fastsolver.py compiles the same search.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager, nullcontext

from gridgames.core.errors import BadInput
from gridgames.games.trilobite.bitboard import (
    FULL_WINDOW,
    HINTED,
    LOWER,
    MAX_SCORE,
    Geometry,
    geometry,
)
from gridgames.games.trilobite.game import COLUMN_NAMES


def parse_moves(geometry: Geometry, text: str) -> tuple[int, int, int]:
    """(current, mask, moves) after a move string like 4453; BadInput when it is not a valid,
    undecided position (a full column, a line already made, a bad character)."""
    current = mask = moves = 0
    for index, ch in enumerate(text):
        col = COLUMN_NAMES.find(ch)
        if not 0 <= col < geometry.width:
            raise BadInput(f"character {index + 1} ({ch!r}) is not a column")
        if mask & geometry.tops[col]:
            raise BadInput(f"move {index + 1}: column {ch} is full")
        spot = (mask + (1 << (col * geometry.h1))) & geometry.columns[col]
        if geometry.winning_cells(current, mask) & spot:
            raise BadInput(f"move {index + 1} ({ch}) ends the game: the position is decided")
        current ^= mask
        mask |= spot
        moves += 1
    if moves >= geometry.cells:
        raise BadInput("the board is full")
    return current, mask, moves


# floor and ceiling of solve() when none is given: beyond any score (boards of the Python
# solver are unbounded, so their scores can pass the kernel's MAX_SCORE)
NO_CLAMP = 1 << 30


class _OverBudget(Exception):
    pass


class Solver:
    """The reference solver in plain Python. memory_mb bounds its table (about 100 bytes an
    entry in a dict)."""

    def __init__(self, width: int = 7, height: int = 6, line: int = 4,
                 memory_mb: float = 64.0) -> None:
        self.g = geometry(width, height, line)
        self.table: dict[int, tuple[int, int | None]] = {}  # key -> bound, cut-off column
        self.table_entries = max(100, int(memory_mb * 1024 * 1024) // 100)
        self.nodes = 0
        self.limit = 1 << 62
        self.deadline: float | None = None  # time.monotonic() value; None: no time cap

    def reset(self) -> None:
        self.table.clear()
        self.nodes = 0

    def one_table(self, moves: int) -> AbstractContextManager[None]:
        """The compiled solver's (it has two tables); this one has one."""
        return nullcontext()

    # --- position helpers ---

    def possible(self, mask: int) -> int:
        return (mask + self.g.bottom) & self.g.board

    def non_losing(self, current: int, mask: int) -> int:
        possible = self.possible(mask)
        threats = self.g.winning_cells(current ^ mask, mask)
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return 0  # two cells to block: lost
            possible = forced
        return possible & ~(threats >> 1)

    def can_win_next(self, current: int, mask: int) -> bool:
        return bool(self.g.winning_cells(current, mask) & self.possible(mask))

    # --- search ---

    def negamax(self, current: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        """Score within (alpha, beta); the side to move cannot win at once."""
        self.nodes += 1
        # The clock every 16 nodes: a node takes up to a millisecond on a 20x20 board.
        if self.nodes > self.limit or (self.deadline is not None and not self.nodes & 15
                                       and time.monotonic() > self.deadline):
            raise _OverBudget
        g = self.g
        nxt = self.non_losing(current, mask)
        if not nxt:
            return -((g.cells - moves) // 2)
        if moves >= g.cells - 2:
            return 0
        low = -((g.cells - 2 - moves) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (g.cells - 1 - moves) // 2
        key = current + mask
        bound, hint = self.table.get(key, (None, None))
        if bound is not None:
            if bound > MAX_SCORE:  # a lower bound, from an earlier cut-off
                if alpha < bound - LOWER:
                    alpha = bound - LOWER
                    if alpha >= beta:
                        return alpha
            elif bound < high:  # an upper bound
                high = bound
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        ordered = []
        for col in reversed(g.order):
            move = nxt & g.columns[col]
            if move:
                score = self.g.winning_cells(current | move, mask).bit_count()
                if col == hint:  # the move that cut off here before: first
                    score += HINTED
                ordered.append((score, col, move))
        ordered.sort(key=lambda scm: scm[0])  # stable: centre first among equals (reversed)
        for _, col, move in reversed(ordered):
            child = current ^ mask
            score = -self.negamax(child, mask | move, moves + 1, -beta, -alpha)
            if score >= beta:
                self._store(key, score + LOWER, col)
                return score
            if score > alpha:
                alpha = score
        self._store(key, alpha)
        return alpha

    def _store(self, key: int, bound: int, hint: int | None = None) -> None:
        """Keep `bound` for the position `key`, and the column that cut it off (if any)."""
        if len(self.table) >= self.table_entries:
            self.table.clear()  # the memory budget: start again rather than grow
        self.table[key] = (bound, hint)

    def solve(self, current: int, mask: int, moves: int, weak: bool = False,
              budget: int | None = None, deadline: float | None = None,
              floor: int = -NO_CLAMP, ceiling: int = NO_CLAMP) -> int | None:
        """The exact score clamped to [floor, ceiling] (floor means "floor or less"), or None
        when `budget` nodes were not enough (or the clock passed `deadline`, a
        time.monotonic() value). A narrow window is a cheaper question."""
        self.limit = (1 << 62) if budget is None else self.nodes + budget
        self.deadline = deadline
        try:
            return self._solve(current, mask, moves, weak, floor, ceiling)
        except _OverBudget:
            return None

    def _solve(self, current: int, mask: int, moves: int, weak: bool, floor: int,
               ceiling: int) -> int:
        g = self.g
        if self.can_win_next(current, mask):
            return min(ceiling, 1 if weak else (g.cells + 1 - moves) // 2)
        low, high = -((g.cells - moves) // 2), (g.cells + 1 - moves) // 2
        if weak:
            low, high = -1, 1
        low, high = max(low, floor), min(high, ceiling)
        while low < high:
            if g.cells - moves <= FULL_WINDOW:
                alpha, beta = low, high
            else:
                alpha = low + (high - low) // 2
                if alpha <= 0 and low // 2 < alpha:
                    alpha = low // 2
                elif alpha >= 0 and high // 2 > alpha:
                    alpha = high // 2
                beta = alpha + 1
            score = self.negamax(current, mask, moves, alpha, beta)
            if score <= alpha:  # (fail-soft) at most alpha: at most the score
                high = score
            elif score >= beta:  # at least beta: at least the score
                low = score
            else:  # within the window: the score
                low = high = score
        if weak:  # the search is fail-soft: only the sign is asked for
            return (low > 0) - (low < 0)
        return min(max(low, floor), ceiling)
