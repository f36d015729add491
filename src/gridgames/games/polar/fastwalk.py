"""The penguin's walking, compiled for the searches: the cells it reaches and how far, the
first cell of its region (a search over pushes keys states by it), and the walk to its next
useful push (a search over moves adds it to the bound).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.games.polar import rules
from gridgames.games.polar.board import GRID

CELLS = GRID.size
COLS = GRID.cols


@njit(cache=True)
def walk_reach(cells, start, nxt, dist, queue):
    """Breadth-first walking distances from start (-1: out of reach); returns the region's
    first cell."""
    for i in range(CELLS):
        dist[i] = -1
    dist[start] = 0
    queue[0] = start
    head, tail, first = 0, 1, start
    while head < tail:
        cell = queue[head]
        head += 1
        for d in range(4):
            n = nxt[cell, d]
            if n >= 0 and dist[n] < 0 and rules.walkable(cells[n]):
                dist[n] = dist[cell] + 1
                queue[tail] = n
                tail += 1
                if n < first:
                    first = n
    return first


@njit(cache=True)
def walk_to_push(cells, start, nxt, never, dist, queue):
    """The fewest steps from start to a cell the penguin can push something from (a push
    that changes the board), never when there is none. Counting moves, every position not
    won needs at least this walk before its next push, on top of the pushes left."""
    for i in range(CELLS):
        dist[i] = -1
    dist[start] = 0
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        cell = queue[head]
        head += 1
        for d in range(4):
            target = nxt[cell, d]
            if target < 0:
                continue
            tile = cells[target]
            if rules.movable(tile):
                if rules.changes(cells, target, d, nxt):
                    return dist[cell]
            elif rules.walkable(tile) and dist[target] < 0:
                dist[target] = dist[cell] + 1
                queue[tail] = target
                tail += 1
    return never


@njit(cache=True)
def _row_fill(seed, free):
    """The cells of `free` (one row's bits) joined to `seed` along the row: a shift-and-mask
    fill in both directions that doubles its reach each step (5 steps cover 24 columns)."""
    up = seed
    down = seed
    g_up = free
    g_down = free
    for shift in (1, 2, 4, 8, 16):
        s = np.uint32(shift)
        up |= g_up & (up << s)
        g_up &= g_up << s
        down |= g_down & (down >> s)
        g_down &= g_down >> s
    return (up | down) & free


@njit(cache=True)
def region_first(cells, start):
    """The first cell of the penguin's walking region: a flood fill on one bit mask per row
    (24 bits each), held in four scalars so that nothing is allocated (this runs for every
    child; with arrays it was half the time of an expansion)."""
    f0 = f1 = f2 = f3 = np.uint32(0)
    for c in range(COLS):
        bit = np.uint32(1) << np.uint32(c)
        t = cells[c]
        if rules.walkable(t):
            f0 |= bit
        t = cells[COLS + c]
        if rules.walkable(t):
            f1 |= bit
        t = cells[2 * COLS + c]
        if rules.walkable(t):
            f2 |= bit
        t = cells[3 * COLS + c]
        if rules.walkable(t):
            f3 |= bit
    s0 = s1 = s2 = s3 = np.uint32(0)
    bit = np.uint32(1) << np.uint32(start % COLS)
    row = start // COLS
    if row == 0:
        s0 = bit
    elif row == 1:
        s1 = bit
    elif row == 2:
        s2 = bit
    else:
        s3 = bit
    while True:  # rows fill along, then pass to the rows above and below, until nothing grows
        n0 = _row_fill(s0 | (s1 & f0), f0)
        n1 = _row_fill(s1 | ((n0 | s2) & f1), f1)
        n2 = _row_fill(s2 | ((n1 | s3) & f2), f2)
        n3 = _row_fill(s3 | (n2 & f3), f3)
        if n0 == s0 and n1 == s1 and n2 == s2 and n3 == s3:
            break
        s0, s1, s2, s3 = n0, n1, n2, n3
    for r, seen in ((0, s0), (1, s1), (2, s2), (3, s3)):
        if seen:
            c = 0
            while not (seen >> np.uint32(c)) & np.uint32(1):
                c += 1
            return r * COLS + c
    return start
