"""The Trilobite solver compiled with numba: the same search as solver.py (which stays the
reference the tests check this against), on 64-bit integers, so boards need
width * (height + 1) <= 63 bits. The transposition table is two preallocated arrays (keys and
upper bounds) whose size comes from the memory budget; move lists use a scratch array per
depth, so the search allocates nothing. Compiled code is cached on disk (numba cache=True):
the first call of a fresh install compiles, later runs load it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.games.trilobite.bitboard import LOWER, MAX_SCORE, geometry

# The constants and counters of a search, in one int64 array: compiled calls pass each array
# argument as a descriptor with reference counting, so one array beats eight in the recursion.
WIDTH, CELLS, LINE, BOTTOM, BOARD, EPOCH, BUDGET, NODES, ABORTED, COLUMNS = range(10)
DIRS = 10  # four shifts: vertical, horizontal, two diagonals
ORDER = 14  # `width` columns, centre first; then the `width` column masks
ENTRY_BYTES = 9  # int64 key (with the epoch in its top bits) + int8 bound
EPOCH_BITS = 14


@njit(cache=True)
def _popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def _winning4(stones, mask, h1, board):
    """Line length 4, unrolled: for each direction, the three stones on either side."""
    r = (stones << 1) & (stones << 2) & (stones << 3)  # vertical: three below
    for d in (h1, h1 - 1, h1 + 1):
        p = (stones << d) & (stones << 2 * d)
        r |= p & (stones << 3 * d)
        r |= p & (stones >> d)
        p = (stones >> d) & (stones >> 2 * d)
        r |= p & (stones << d)
        r |= p & (stones >> 3 * d)
    return r & (board ^ mask)


@njit(cache=True)
def _winning(stones, mask, c, board):
    line = c[LINE]
    if line == 4:
        return _winning4(stones, mask, c[DIRS + 1], board)
    found = 0
    for k in range(4):
        d = c[DIRS + k]
        for before in range(line):
            run = -1
            ok = True
            for i in range(1, before + 1):
                if i * d >= 63:
                    ok = False
                    break
                run &= stones << (i * d)
            if ok:
                for i in range(1, line - before):
                    if i * d >= 63:
                        ok = False
                        break
                    run &= stones >> (i * d)
            if ok:
                found |= run
    return found & (board ^ mask)


# A frame of the search, one per depth (the depth is the number of moves played).
F_CUR, F_MASK, F_ALPHA, F_BETA, F_SLOT, F_TAGGED, F_COUNT, F_NEXT = range(8)
ENTER, NEXT_CHILD, RETURN = range(3)


@njit(cache=True)
def _negamax(current, mask, moves, alpha, beta, c, keys, bounds, scratch, frames):
    """Negamax with alpha-beta, written as a loop over an explicit stack of frames instead of
    recursion: a compiled call passes every array with reference counting, which cost more
    than the node's own work. Same search, node for node, as the recursive form:
    forced and losing moves first, bounds from the position and the table, then the moves
    ordered by the threats they make."""
    width, cells, bottom, board = c[WIDTH], c[CELLS], c[BOTTOM], c[BOARD]
    base = moves
    result = 0
    mode = ENTER
    while True:
        if mode == ENTER:  # a new node: current, mask, moves, alpha, beta
            c[NODES] += 1
            if c[NODES] > c[BUDGET]:  # over the node budget: give up (ABORTED tells)
                c[ABORTED] = 1
                return 0
            mode = RETURN
            possible = (mask + bottom) & board
            threats = _winning(current ^ mask, mask, c, board)
            forced = possible & threats
            if forced:
                if forced & (forced - 1):
                    result = -((cells - moves) // 2)
                    continue
                possible = forced
            nxt = possible & ~(threats >> 1)
            if nxt == 0:
                result = -((cells - moves) // 2)
                continue
            if moves >= cells - 2:
                result = 0
                continue
            low = -((cells - 2 - moves) // 2)
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    result = alpha
                    continue
            high = (cells - 1 - moves) // 2
            key = current + mask
            slot = key % keys.shape[0]
            tagged = key | c[EPOCH]  # the key with the table's epoch in its top bits
            if keys[slot] == tagged:
                stored = bounds[slot]
                if stored > MAX_SCORE:  # a lower bound, from an earlier cut-off
                    if alpha < stored - LOWER:
                        alpha = stored - LOWER
                        if alpha >= beta:
                            result = alpha
                            continue
                elif stored < high:
                    high = stored
            if beta > high:
                beta = high
                if alpha >= beta:
                    result = beta
                    continue
            count = 0
            for j in range(width):  # centre first; insertion sort keeps that order on ties
                move = nxt & c[c[COLUMNS] + c[ORDER + j]]
                if move:
                    score = _popcount(_winning(current | move, mask, c, board))
                    pos = count
                    while pos > 0 and scratch[moves, width + pos - 1] < score:
                        scratch[moves, width + pos] = scratch[moves, width + pos - 1]
                        scratch[moves, pos] = scratch[moves, pos - 1]
                        pos -= 1
                    scratch[moves, width + pos] = score
                    scratch[moves, pos] = move
                    count += 1
            frames[moves, F_CUR] = current
            frames[moves, F_MASK] = mask
            frames[moves, F_ALPHA] = alpha
            frames[moves, F_BETA] = beta
            frames[moves, F_SLOT] = slot
            frames[moves, F_TAGGED] = tagged
            frames[moves, F_COUNT] = count
            frames[moves, F_NEXT] = 0
            mode = NEXT_CHILD
        elif mode == NEXT_CHILD:  # search the frame's next move, or store its bound
            i = frames[moves, F_NEXT]
            if i < frames[moves, F_COUNT]:
                frames[moves, F_NEXT] = i + 1
                parent_mask = frames[moves, F_MASK]
                current = frames[moves, F_CUR] ^ parent_mask
                mask = parent_mask | scratch[moves, i]
                alpha, beta = -frames[moves, F_BETA], -frames[moves, F_ALPHA]
                moves += 1
                mode = ENTER
            else:
                slot = frames[moves, F_SLOT]
                result = frames[moves, F_ALPHA]
                keys[slot] = frames[moves, F_TAGGED]
                bounds[slot] = result
                mode = RETURN
        else:  # RETURN: hand `result` to the frame below
            if moves == base:
                return result
            moves -= 1
            score = -result
            if score >= frames[moves, F_BETA]:
                slot = frames[moves, F_SLOT]
                keys[slot] = frames[moves, F_TAGGED]
                bounds[slot] = score + LOWER
                result = score
            else:
                if score > frames[moves, F_ALPHA]:
                    frames[moves, F_ALPHA] = score
                mode = NEXT_CHILD


# _solve mirrors solver.Solver._solve line for line on purpose: compiled code cannot call the
# Python reference, and the tests hold the two to the same answers.
@njit(cache=True)
def _solve(current, mask, moves, weak, c, keys, bounds, scratch, frames):
    cells, bottom, board = c[CELLS], c[BOTTOM], c[BOARD]
    if _winning(current, mask, c, board) & ((mask + bottom) & board):
        return 1 if weak else (cells + 1 - moves) // 2
    low = -((cells - moves) // 2)
    high = (cells + 1 - moves) // 2
    if weak:
        low, high = -1, 1
    while low < high:
        mid = low + (high - low) // 2
        if mid <= 0 and low // 2 < mid:
            mid = low // 2
        elif mid >= 0 and high // 2 > mid:
            mid = high // 2
        score = _negamax(current, mask, moves, mid, mid + 1, c, keys, bounds, scratch, frames)
        if c[ABORTED]:
            return 0
        if score <= mid:
            high = score
        else:
            low = score
    if weak:  # the search is fail-soft: only the sign is asked for
        return (low > 0) - (low < 0)
    return low


class FastSolver:
    """Same interface as solver.Solver for solve(); memory_mb bounds the table."""

    def __init__(self, width: int = 7, height: int = 6, line: int = 4,
                 memory_mb: float = 64.0) -> None:
        if width * (height + 1) > 63:
            raise ValueError("the compiled solver needs width * (height + 1) <= 63")
        self.g = geometry(width, height, line)
        geo = self.g
        # g[5] is the table's epoch, shifted above the key bits: an entry stored in an older
        # epoch no longer matches, so reset() is one increment instead of clearing the table
        # (boards whose keys leave no room for it clear the table instead).
        # g[6] is the node budget of one solve() (see `budget`).
        self._key_bits = width * (height + 1)
        self._epoch = 1
        c = np.zeros(ORDER + 2 * width, dtype=np.int64)
        c[WIDTH], c[CELLS], c[LINE], c[BOTTOM], c[BOARD] = (width, geo.cells, line,
                                                          geo.bottom, geo.board)
        c[EPOCH], c[BUDGET] = self._tag(), 1 << 62
        c[DIRS:DIRS + 4] = [1, geo.h1, geo.h1 - 1, geo.h1 + 1]
        c[ORDER:ORDER + width] = geo.order
        c[ORDER + width:] = geo.columns
        c[COLUMNS] = ORDER + width  # where the column masks start (read as c[c[COLUMNS]+i])
        self._c = c
        entries = max(1021, int(memory_mb * 1024 * 1024) // ENTRY_BYTES)
        entries -= 1 - entries % 2  # odd, so that keys spread over the slots
        self.keys = np.full(entries, -1, dtype=np.int64)
        self.bounds = np.zeros(entries, dtype=np.int8)
        # per depth: the ordered moves, then their scores
        self._scratch = np.zeros((geo.cells + 1, 2 * width), dtype=np.int64)
        self._frames = np.zeros((geo.cells + 1, 8), dtype=np.int64)

    @property
    def nodes(self) -> int:
        return int(self._c[NODES])

    @property
    def memory_bytes(self) -> int:
        return self.keys.nbytes + self.bounds.nbytes

    def _tag(self) -> int:
        return self._epoch << self._key_bits if self._key_bits + EPOCH_BITS <= 63 else 0

    def reset(self) -> None:
        """Forget the table (a new epoch) and the node count."""
        self._epoch += 1
        if self._epoch >= 1 << EPOCH_BITS or not self._tag():
            self.keys.fill(-1)
            self._epoch = 1
        self._c[EPOCH] = self._tag()
        self._c[NODES] = 0

    def solve(self, current: int, mask: int, moves: int, weak: bool = False,
              budget: int | None = None) -> int | None:
        """The exact score, or None when `budget` nodes were not enough."""
        self._c[BUDGET] = (1 << 62) if budget is None else self._c[NODES] + budget
        self._c[ABORTED] = 0
        score = int(_solve(current, mask, moves, weak, self._c, self.keys, self.bounds,
                           self._scratch, self._frames))
        return None if self._c[ABORTED] else score
