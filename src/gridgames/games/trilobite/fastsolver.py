"""The Trilobite solver compiled with numba: the same search as solver.py (the reference the
tests check this against), on 64-bit integers, so boards need width * (height + 1) <= 63
bits. Compiled code is cached on disk: the first call of a fresh install compiles.

What makes a node cheap here (one-entry table slots, prefetched children, an explicit
stack, a hardware popcount) is in docs/machine-play.md ("Trilobite's compiled solver").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from llvmlite import binding, ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from gridgames.games.trilobite.bitboard import FULL_WINDOW, HINTED, LOWER, MAX_SCORE, geometry

# numba keys its disk cache on this file's text alone and compiles into the code the values
# of the constants it takes from bitboard.py, so they are repeated here: a change there stops
# the import until it is made here too, and that edit makes numba compile afresh (a stale
# cache would search with the old values).
if (MAX_SCORE, LOWER, HINTED, FULL_WINDOW) != (32, 65, 64, 16):
    raise ImportError("bitboard.py's solver constants changed: repeat them in fastsolver.py")

# The work array: constants and the node counter, its own length, the column masks, then one
# frame per depth. The table follows it in the same allocation: a compiled call pays for each
# array it is passed (about 0.2 us, a twentieth of a short solve), so solve() passes one.
(WIDTH, CELLS, LINE, H1, BOTTOM, BOARD, KEYMASK, LOWBITS, LOWMASK, TAG, NODES, LENGTH,
 MASKS) = range(13)  # MASKS: the column masks, centre first, then 0 up to `lanes` of them
# A frame: the node, its window, its table slot and entry tag, its move loop; then its moves
# by column (F_MOVES + j), its move order (F_MOVES + lanes + i), and by column the cells where
# the side to move would win after that move (F_MOVES + 2 * lanes + j; -1: not computed).
# `lanes` is the width rounded up to a multiple of 8, so that the line tests of a node's
# moves run as one loop of whole vectors (_lanes).
F_CUR, F_MASK, F_ALPHA, F_BETA, F_SLOT, F_CHECK, F_COUNT, F_NEXT, F_MOVES = range(9)
ENTER, NEXT_CHILD, RETURN = range(3)

MULT = 0x9E3779B97F4A7C15 - (1 << 64)  # odd (the golden ratio in 64 bits), as an int64
VALUE_BITS = 8  # an entry's low bits: the stored bound + OFFSET, in 0..129
MOVE_BITS = 5  # above them: 1 + the cut-off move's index in MASKS (0: none); width <= 31
TAG_SHIFT = VALUE_BITS + MOVE_BITS  # above both: the epoch and the key's low bits
OFFSET = MAX_SCORE
EPOCH_BITS_MAX = 20  # reset() is an increment; the table is cleared once in 2**20 resets
ABORT = -1000  # _solve's answer when the node budget ran out (no score is this low)
NO_LIMIT = 1 << 62  # a node limit no search reaches
# Opaque pointers since LLVM 15 changed the intrinsic's name.
_PREFETCH = "llvm.prefetch.p0" if binding.llvm_version_info[0] >= 15 else "llvm.prefetch.p0i8"


@intrinsic
def _popcount(typingctx, x):
    """The number of set bits, as one instruction where the CPU has it."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return x(x), codegen


def _item_pointer(context, builder, array_type, args):
    """The address of args[0][args[1]], the index taken as it is (never negative here)."""
    struct = context.make_array(array_type)(context, builder, args[0])
    return cgutils.get_item_pointer(context, builder, array_type, struct, [args[1]],
                                    wraparound=False)


@intrinsic
def _prefetch(typingctx, array, index):
    """Ask the cache for array[index] ahead of its use: a hint, with no effect on results."""
    def codegen(context, builder, signature, args):
        pointer = _item_pointer(context, builder, signature.args[0], args)
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]),
            _PREFETCH)
        # read, keep in all cache levels, data
        builder.call(function, [builder.bitcast(pointer, byte_pointer), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.void(array, index), codegen


@intrinsic
def _load(typingctx, array, index):
    """array[index], for an index known not to be negative: no wrap-around test (numba
    tests every signed index for a negative one, a few instructions on every access)."""
    def codegen(context, builder, signature, args):
        return builder.load(_item_pointer(context, builder, signature.args[0], args))
    return array.dtype(array, index), codegen


@intrinsic
def _store(typingctx, array, index, value):
    """array[index] = value, for an index known not to be negative (see _load)."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        value = context.cast(builder, args[2], signature.args[2], array_type.dtype)
        builder.store(value, _item_pointer(context, builder, array_type, args))
        return context.get_dummy_value()
    return types.void(array, index, value), codegen


@njit(cache=True, inline="always")
def _lanes(width):
    """The width rounded up to a multiple of 8 (the frame's sections are this long)."""
    return (width + 7) & -8


@njit(cache=True, inline="always")
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
def _winning_any(stones, mask, line, h1, board):
    found = 0
    for d in (1, h1, h1 - 1, h1 + 1):
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


@njit(cache=True, inline="always")
def _winning(stones, mask, line, h1, board):
    """Empty cells where `stones` would complete a line. Scalars only: an array argument
    would cost reference counting on every call."""
    if line == 4:
        return _winning4(stones, mask, h1, board)
    return _winning_any(stones, mask, line, h1, board)


@njit(cache=True, inline="always")
def _negamax(current, mask, moves, alpha, beta, budget, work):
    """Negamax with alpha-beta over an explicit stack of frames, node for node the recursive
    search of solver.Solver.negamax: forced and losing moves first, bounds from the position
    and the table, then the moves ordered by the threats they make. ABORT past `budget`.
    Every index into the frames and the table is non-negative: _load and _store."""
    width, cells, line, h1 = work[WIDTH], work[CELLS], work[LINE], work[H1]
    bottom, board = work[BOTTOM], work[BOARD]
    keymask, lowbits, lowmask, tag = work[KEYMASK], work[LOWBITS], work[LOWMASK], work[TAG]
    lanes = _lanes(width)
    frames = MASKS + lanes
    row = F_MOVES + 3 * lanes
    order = F_MOVES + lanes
    made = F_MOVES + 2 * lanes
    nodes = work[NODES]
    tbase = work[LENGTH]  # the table follows the work array: its first slot
    base = moves
    result = 0
    known = -1  # the threats against the node entered, when its parent computed them
    mode = ENTER
    while True:
        if mode == ENTER:  # a new node: current, mask, moves, alpha, beta
            nodes += 1
            if nodes > budget:
                _store(work, NODES, nodes)
                return ABORT
            mode = RETURN
            possible = (mask + bottom) & board
            if known >= 0:  # the parent's move ordering found them already
                threats = known & ~mask
            else:
                threats = _winning(current ^ mask, mask, line, h1, board)
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
            hashed = ((current + mask) * MULT) & keymask
            slot = hashed >> lowbits
            # Read only past the cheap cut-offs above (a third to a half of all nodes on
            # Pons' sets): a read they do not need is a trip to memory when the table is cold.
            entry = _load(work, tbase + slot)
            high = (cells - 1 - moves) // 2
            check = (tag | (hashed & lowmask)) << TAG_SHIFT
            hint = 0
            if (entry ^ check) < (1 << TAG_SHIFT):  # this position, stored in this epoch
                hint = (entry >> VALUE_BITS) & ((1 << MOVE_BITS) - 1)
                stored = (entry & ((1 << VALUE_BITS) - 1)) - OFFSET
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
            # The children's slots are asked for only now that the node will search them
            # (not for the cut-offs above): their trips to memory overlap the ordering.
            rest = nxt  # one bit per playable column
            while rest:
                move = rest & -rest
                rest ^= move
                child = ((current ^ mask) + (mask | move)) * MULT
                _prefetch(work, tbase + ((child & keymask) >> lowbits))
            at = frames + moves * row
            count = 0
            single = (nxt & (nxt - 1)) == 0  # one move: nothing to order
            if not single:  # every move's line test first, several moves per instruction
                if line == 4:
                    for j in range(lanes):
                        _store(work, at + made + j, _winning4(
                            current | (nxt & _load(work, MASKS + j)), mask, h1, board))
                else:
                    for j in range(width):
                        _store(work, at + made + j, _winning_any(
                            current | (nxt & _load(work, MASKS + j)), mask, line, h1, board))
            for j in range(width):  # centre first; insertion sort keeps that order on ties
                move = nxt & _load(work, MASKS + j)
                if move:
                    _store(work, at + F_MOVES + j, move)
                    key = 63 - j  # the threats made, then the column: all keys differ
                    if single:
                        _store(work, at + made + j, -1)
                    else:
                        key += 64 * _popcount(_load(work, at + made + j))
                        if j + 1 == hint:  # it cut off here before
                            key += 64 * HINTED
                    pos = at + order + count
                    while pos > at + order and _load(work, pos - 1) < key:
                        _store(work, pos, _load(work, pos - 1))
                        pos -= 1
                    _store(work, pos, key)
                    count += 1
            _store(work, at + F_CUR, current)
            _store(work, at + F_MASK, mask)
            _store(work, at + F_ALPHA, alpha)
            _store(work, at + F_BETA, beta)
            _store(work, at + F_SLOT, slot)
            _store(work, at + F_CHECK, check)
            _store(work, at + F_COUNT, count)
            _store(work, at + F_NEXT, 0)
            mode = NEXT_CHILD
        elif mode == NEXT_CHILD:  # search the frame's next move, or store its bound
            at = frames + moves * row
            i = _load(work, at + F_NEXT)
            if i < _load(work, at + F_COUNT):
                _store(work, at + F_NEXT, i + 1)
                column = 63 - (_load(work, at + order + i) & 63)
                parent_mask = _load(work, at + F_MASK)
                current = _load(work, at + F_CUR) ^ parent_mask
                mask = parent_mask | _load(work, at + F_MOVES + column)
                known = _load(work, at + made + column)
                alpha, beta = -_load(work, at + F_BETA), -_load(work, at + F_ALPHA)
                moves += 1
                mode = ENTER
            else:
                result = _load(work, at + F_ALPHA)
                _store(work, tbase + _load(work, at + F_SLOT),
                       _load(work, at + F_CHECK) | (result + OFFSET))
                mode = RETURN
        else:  # RETURN: hand `result` to the frame below
            if moves == base:
                _store(work, NODES, nodes)
                return result
            moves -= 1
            at = frames + moves * row
            score = -result
            if score >= _load(work, at + F_BETA):  # a cut-off: keep the bound and the move
                tried = _load(work, at + F_NEXT) - 1
                cut = 64 - (_load(work, at + order + tried) & 63)  # 1 + its index
                _store(work, tbase + _load(work, at + F_SLOT), _load(work, at + F_CHECK)
                       | (cut << VALUE_BITS) | (score + LOWER + OFFSET))
                result = score
            else:
                if score > _load(work, at + F_ALPHA):
                    _store(work, at + F_ALPHA, score)
                mode = NEXT_CHILD


# _solve mirrors solver.Solver._solve line for line on purpose: compiled code cannot call the
# Python reference, and the tests hold the two to the same answers.
@njit(cache=True)
def _solve(current, mask, moves, weak, budget, floor, ceiling, work):
    cells, bottom, board = work[CELLS], work[BOTTOM], work[BOARD]
    if _winning(current, mask, work[LINE], work[H1], board) & ((mask + bottom) & board):
        return min(ceiling, 1 if weak else (cells + 1 - moves) // 2)
    low = -((cells - moves) // 2)
    high = (cells + 1 - moves) // 2
    if weak:
        low, high = -1, 1
    low, high = max(low, floor), min(high, ceiling)
    while low < high:
        if cells - moves <= FULL_WINDOW:
            alpha, beta = low, high
        else:
            alpha = low + (high - low) // 2
            if alpha <= 0 and low // 2 < alpha:
                alpha = low // 2
            elif alpha >= 0 and high // 2 > alpha:
                alpha = high // 2
            beta = alpha + 1
        score = _negamax(current, mask, moves, alpha, beta, budget, work)
        if score == ABORT:
            return ABORT
        if score <= alpha:  # (fail-soft) at most alpha: at most the score
            high = score
        elif score >= beta:  # at least beta: at least the score
            low = score
        else:  # within the window: the score
            low = high = score
    if weak:  # the search is fail-soft: only the sign is asked for
        return (low > 0) - (low < 0)
    return min(max(low, floor), ceiling)


SIGNATURE = (types.int64, types.int64, types.int64, types.boolean, types.int64, types.int64,
             types.int64, types.int64[::1])


# A table slot is a trip to memory, and in a large table nearly every trip misses the caches.
# So a search whose root has few empty cells uses a smaller table of its own, which stays in
# the caches: SMALL_TIERS holds (most empty cells, slot bits), from the fewest cells. With at
# most 32 empty cells (all but the first few moves) a search has 2**18 slots (2 MB): on
# Pons' sets a quarter to a half less time where a search takes up to a million nodes, even
# where the smaller table costs a third more nodes. The searches of a few hundred nodes
# (at most 22 empty cells: 64 kB; at most 14: 8 kB) find their slots in the caches even when
# other work passed between two solves and took the caches: that is most of their time
# (Test_L3_R1 3.1 against 4.7-5.1 us with the 2 MB table alone, on the machine with a small
# L3 cache they were tuned on; nodes the same within 1%). The openings' long searches (tens
# of millions of nodes) need the large table, and so do boards of at most 32 cells (every
# search on them is an opening's).
SMALL_TIERS = ((14, 10), (22, 13), (32, 18))
# A search of the first moves with no budget of its own starts in the largest small table,
# and only if it needs more than SMALL_FIRST nodes starts again in the large one: most such
# searches are short (Test_L1_R1: 2,800 nodes a position, 28% less time this way), and a
# long one loses at most this many nodes (Test_L1_R2 and L1_R3 about 1% more time).
SMALL_FIRST = 100_000


class _Region:
    """A work array and a table of 2**slot_bits slots, in one allocation."""

    def __init__(self, geo, slot_bits: int) -> None:
        key_bits = geo.width * (geo.height + 1)
        width = geo.width
        # An entry: epoch, then the key's low bits (those the slot does not tell), then the
        # cut-off move and the bound; the epoch takes what is left of 63 bits, so entries
        # stay non-negative.
        self.low_bits = key_bits - slot_bits
        self.epoch_bits = min(EPOCH_BITS_MAX, 63 - TAG_SHIFT - self.low_bits)
        self.epoch = 1
        lanes = _lanes(width)
        length = MASKS + lanes + (geo.cells + 1) * (F_MOVES + 3 * lanes)
        self.memory = np.empty(length + (1 << slot_bits), dtype=np.int64)
        self.memory.fill(0)  # epoch 0 matches nothing; filled now, not page by page in a search
        work, self.table = self.memory[:length], self.memory[length:]
        work[LENGTH] = length
        work[WIDTH], work[CELLS], work[LINE], work[H1] = width, geo.cells, geo.line, geo.h1
        work[BOTTOM], work[BOARD] = geo.bottom, geo.board
        work[KEYMASK], work[LOWBITS] = (1 << key_bits) - 1, self.low_bits
        work[LOWMASK], work[TAG] = (1 << self.low_bits) - 1, self.epoch << self.low_bits
        work[MASKS:MASKS + width] = [geo.columns[col] for col in geo.order]
        self.work = work

    def reset(self) -> None:
        """Forget the table (a new epoch) and the node count."""
        self.epoch += 1
        if self.epoch >= 1 << self.epoch_bits:
            self.table.fill(0)
            self.epoch = 1
        self.work[TAG] = self.epoch << self.low_bits
        self.work[NODES] = 0


class FastSolver:
    """Same interface as solver.Solver for solve(); memory_mb bounds the large table (on
    boards of more than 32 cells, with at least 8 MB, the small tables of SMALL_TIERS come
    on top, 2.1 MB)."""

    def __init__(self, width: int = 7, height: int = 6, line: int = 4,
                 memory_mb: float = 64.0) -> None:
        key_bits = width * (height + 1)
        if key_bits > 63:
            raise ValueError("the compiled solver needs width * (height + 1) <= 63")
        self.g = geo = geometry(width, height, line)
        # The largest power of two of 8-byte entries within the budget (at least 1024).
        entries = max(1024, int(memory_mb * 1024 * 1024) // 8)
        # (More on the largest boards, so that an entry has room for a bit of epoch.)
        slot_bits = min(max(entries.bit_length() - 1, key_bits - (62 - TAG_SHIFT)), key_bits)
        self._large = _Region(geo, slot_bits)
        # (most empty cells, region) from the fewest; the large table takes the rest.
        tiered = (bool(SMALL_TIERS) and slot_bits > SMALL_TIERS[-1][1] + 1
                  and geo.cells > SMALL_TIERS[-1][0])
        self._tiers = [(most, _Region(geo, bits)) for most, bits in SMALL_TIERS] if tiered else []
        self._pinned: _Region | None = None
        self._regions = [self._large] + [region for _, region in self._tiers]
        # Each position's region by its number of stones (a look-up: short solves feel
        # every step of a call).
        self._by_moves = [self._tier(geo.cells - moves) for moves in range(geo.cells + 1)]
        # For a search with no budget, by the number of stones: the memory it runs in, and
        # the small table's when it starts there first (SMALL_FIRST), else None.
        self._memory = [region.memory for region in self._by_moves]
        first = self._tiers[-1][1].memory if self._tiers else None
        self._first = [first if region is self._large else None for region in self._by_moves]
        # _solve compiled for the types solve() passes, called without the dispatcher's type
        # matching (over half of the fixed cost of a call, which short solves feel).
        self._run = _solve.compile(SIGNATURE)

    # The large region's parts, as the tests reach them.
    @property
    def table(self) -> np.ndarray:
        return self._large.table

    @property
    def _large_memory(self) -> np.ndarray:
        """The work array with the table after it, as _negamax takes them."""
        return self._large.memory

    @property
    def nodes(self) -> int:
        return sum(int(region.work[NODES]) for region in self._regions)

    @property
    def memory_bytes(self) -> int:
        return sum(region.table.nbytes for region in self._regions)

    def _tier(self, empty: int) -> _Region:
        for most, region in self._tiers:
            if empty <= most:
                return region
        return self._large

    @contextmanager
    def one_table(self, moves: int) -> Iterator[None]:
        """Every search in the block uses the table of a position of `moves` stones, so a
        position's children find what the search of the position stored (not the other
        table, where a child one stone on would otherwise go)."""
        self._pinned = self._pinned or self._by_moves[moves]
        try:
            yield
        finally:
            self._pinned = None

    def reset(self) -> None:
        """Forget the tables (a new epoch) and the node count."""
        for region in self._regions:
            region.reset()

    def _store(self, key: int, bound: int) -> None:
        """Put a bound in the large table as the search does (for the tests)."""
        work = self._large.work
        hashed = (key * MULT) & int(work[KEYMASK])
        check = (int(work[TAG]) | (hashed & int(work[LOWMASK]))) << TAG_SHIFT
        self._large.table[hashed >> self._large.low_bits] = check | (bound + OFFSET)

    def solve(self, current: int, mask: int, moves: int, weak: bool = False,
              budget: int | None = None, floor: int = -MAX_SCORE - 1,
              ceiling: int = MAX_SCORE + 1) -> int | None:
        """The exact score clamped to [floor, ceiling] (floor means "floor or less"), or None
        when `budget` nodes were not enough. A narrow window is a cheaper question."""
        if budget is None and self._pinned is None:  # the common question, in few steps
            first = self._first[moves]
            if first is not None:
                score = self._run(current, mask, moves, weak, int(first[NODES]) + SMALL_FIRST,
                                  floor, ceiling, first)
                if score != ABORT:
                    return score
            return self._run(current, mask, moves, weak, NO_LIMIT, floor, ceiling,
                             self._memory[moves])
        region = self._pinned or self._by_moves[moves]
        limit = NO_LIMIT if budget is None else int(region.work[NODES]) + budget
        score = self._run(current, mask, moves, weak, limit, floor, ceiling, region.memory)
        return None if score == ABORT else score
