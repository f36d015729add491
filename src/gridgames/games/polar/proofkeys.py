"""The exact, compact keys of the proof search's states (proof.py): only what can change.
The penguin as its walking region's first cell (7 bits), a bit for each mountain a bomb
might meet, and for each kind of movable (ice, heart, bomb) the set of cells it is on,
ranked in the combinatorial number system among the sets of that size of the cells an
object can ever be on, offset by the smaller sets (objects only go, so the start's count
is the most); a kind whose ranks need more than 62 bits is kept as one bit a cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from gridgames.games.polar import faststore
from gridgames.games.polar.analysis import bombable_mountains
from gridgames.games.polar.board import BOMB, EMPTY, GRID, HEART, HOUSE, ICE, MOUNTAIN, TREE
from gridgames.games.polar.prooftable import FLAG_BITS

CELLS = GRID.size
ROW = faststore.ROW_BYTES  # the kernels' board rows: 96 cells, then padding
KINDS = (ICE, HEART, BOMB)
PENGUIN_BITS = 7
RANK_BITS = 62  # a kind whose sets need more is kept as a mask
MASK_MODE, RANK_MODE = 0, 1


@dataclass
class Layout:
    """Where each part of a state's key lies (bit offsets), and the tables to rank sets."""

    board: bytes
    var_cells: np.ndarray  # the cells an object can ever be on, in order
    mountains: np.ndarray  # bombable mountains, one key bit each
    template: np.ndarray  # the board with every changing cell empty (trees, houses, lasting)
    kind_tile: np.ndarray  # ICE, HEART, BOMB
    kind_mode: np.ndarray  # RANK_MODE or MASK_MODE
    kind_offset: np.ndarray  # bit offset of each kind's field
    kind_bits: np.ndarray
    count_offset: np.ndarray  # [kind, k]: ranks of the sets with fewer than k objects
    binom: np.ndarray  # [i, k] = C(i, k), uint64, k up to the most objects of a kind
    bits: int
    words: int
    kinds_max: list[int] = field(default_factory=list)


def layout(board: bytes) -> Layout:
    bombable = bombable_mountains(board)
    var = [c for c, t in enumerate(board)
           if t in (EMPTY, ICE, HEART, BOMB) or (t == MOUNTAIN and c in bombable)]
    template = np.array([t if (t in (TREE, HOUSE) or (t == MOUNTAIN and c not in bombable))
                         else EMPTY for c, t in enumerate(board)] + [0] * (ROW - CELLS),
                        np.uint8)
    n = len(var)
    most = [board.count(t) for t in KINDS]
    kmax = max(most + [1])
    binom = np.zeros((n + 1, kmax + 1), np.uint64)
    modes, offsets, widths = [], [], []
    count_offset = np.zeros((3, kmax + 2), np.uint64)
    offset = PENGUIN_BITS + len(bombable)
    for j, k in enumerate(most):
        total = sum(math.comb(n, i) for i in range(k + 1))
        if (total - 1).bit_length() <= RANK_BITS:
            modes.append(RANK_MODE)
            width = max(1, (total - 1).bit_length())
            for i in range(k + 1):
                count_offset[j, i + 1] = count_offset[j, i] + math.comb(n, i)
        else:
            modes.append(MASK_MODE)
            width = n
        offsets.append(offset)
        widths.append(width)
        offset += width
    for i in range(n + 1):
        for k in range(kmax + 1):
            value = math.comb(i, k)
            binom[i, k] = value if value < 1 << 64 else 0  # only the ranked kinds read it
    words = (offset + FLAG_BITS + 63) // 64
    return Layout(bytes(board), np.array(var, np.int16), np.array(sorted(bombable), np.int16),
                  template, np.array(KINDS, np.uint8), np.array(modes, np.int8),
                  np.array(offsets, np.int64), np.array(widths, np.int64), count_offset, binom,
                  offset, words, most)


@njit(cache=True, inline="always")
def put_bits(key, offset, value, nbits):
    w = offset >> 6
    s = offset & 63
    key[w] |= np.uint64(value) << np.uint64(s)
    if s + nbits > 64:
        key[w + 1] |= np.uint64(value) >> np.uint64(64 - s)


@njit(cache=True, inline="always")
def get_bits(key, offset, nbits):
    w = offset >> 6
    s = offset & 63
    value = key[w] >> np.uint64(s)
    if s + nbits > 64:
        value |= key[w + 1] << np.uint64(64 - s)
    if nbits < 64:
        value &= (np.uint64(1) << np.uint64(nbits)) - np.uint64(1)
    return value


@njit(cache=True)
def encode(cells, penguin, key, var_cells, mountains, kind_mode, kind_offset, kind_bits,
           count_offset, binom):
    """The key of a board and penguin key (a region's first cell), into key (zeroed here)."""
    for w in range(key.size):
        key[w] = 0
    put_bits(key, 0, penguin + 1, PENGUIN_BITS)
    for j in range(mountains.size):
        if cells[mountains[j]] == MOUNTAIN:
            put_bits(key, PENGUIN_BITS + j, 1, 1)
    c0 = c1 = c2 = 0
    r0 = r1 = r2 = np.uint64(0)
    for i in range(var_cells.size):
        t = cells[var_cells[i]]
        if t == ICE:
            if kind_mode[0] == RANK_MODE:
                c0 += 1
                r0 += binom[i, c0]
            else:
                put_bits(key, kind_offset[0] + i, 1, 1)
        elif t == HEART:
            if kind_mode[1] == RANK_MODE:
                c1 += 1
                r1 += binom[i, c1]
            else:
                put_bits(key, kind_offset[1] + i, 1, 1)
        elif t == BOMB:
            if kind_mode[2] == RANK_MODE:
                c2 += 1
                r2 += binom[i, c2]
            else:
                put_bits(key, kind_offset[2] + i, 1, 1)
    if kind_mode[0] == RANK_MODE:
        put_bits(key, kind_offset[0], count_offset[0, c0] + r0, kind_bits[0])
    if kind_mode[1] == RANK_MODE:
        put_bits(key, kind_offset[1], count_offset[1, c1] + r1, kind_bits[1])
    if kind_mode[2] == RANK_MODE:
        put_bits(key, kind_offset[2], count_offset[2, c2] + r2, kind_bits[2])


@njit(cache=True)
def decode(key, cells, template, var_cells, mountains, kind_tile, kind_mode, kind_offset,
           kind_bits, count_offset, binom):
    """The board of a key into cells (a kernel row); returns the penguin key."""
    for c in range(template.size):
        cells[c] = template[c]
    for j in range(mountains.size):
        if get_bits(key, PENGUIN_BITS + j, 1):
            cells[mountains[j]] = MOUNTAIN
    n = var_cells.size
    for kind in range(3):
        tile = kind_tile[kind]
        if kind_mode[kind] == MASK_MODE:
            for i in range(n):
                if get_bits(key, kind_offset[kind] + i, 1):
                    cells[var_cells[i]] = tile
            continue
        r = get_bits(key, kind_offset[kind], kind_bits[kind])
        k = 0
        while k + 1 < count_offset.shape[1] and count_offset[kind, k + 1] <= r:
            k += 1  # the sets of k objects: count_offset[k] <= r < count_offset[k + 1]
        r -= count_offset[kind, k]
        i = n - 1
        for j in range(k, 0, -1):
            while binom[i, j] > r:
                i -= 1
            r -= binom[i, j]
            cells[var_cells[i]] = tile
            i -= 1
    return np.int64(get_bits(key, 0, PENGUIN_BITS)) - 1


@njit(cache=True, inline="always")
def clear_bits(key, offset, nbits):
    w = offset >> 6
    s = offset & 63
    ones = np.uint64(0xFFFFFFFFFFFFFFFF)
    low = ones if nbits >= 64 else (np.uint64(1) << np.uint64(nbits)) - np.uint64(1)
    key[w] &= ~(low << np.uint64(s))
    if s + nbits > 64:
        key[w + 1] &= ~(low >> np.uint64(64 - s))


@njit(cache=True)
def ranked(members, k, gone, added, binom):
    """The rank of a sorted set of k var indices with `gone` taken out and `added` put in
    (-1: none): the sum of C(index, position) in the combinatorial number system."""
    r = np.uint64(0)
    j = 0
    placed = added < 0
    for m in range(k):
        e = members[m]
        if e == gone:
            continue
        if not placed and added < e:
            j += 1
            r += binom[added, j]
            placed = True
        j += 1
        r += binom[e, j]
    if not placed:
        j += 1
        r += binom[added, j]
    return r
