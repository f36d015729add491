"""The relaxed game's tables, compiled: analysis.py and walking.py on flat arrays, one row of
each table per set of mountains standing (fastbounds.py keeps the rows and reads them).

The relaxed game keeps only what never moves (trees, houses, mountains no bomb can meet, and
for some rows the mountains still standing): for an object on every cell, the fewest pushes
that take it to its goal, what its way needs bombed, and the walking between pushes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.games.polar.board import GRID, HOUSE, MOUNTAIN, TREE

CELLS = GRID.size
WALK_CAP = 30_000  # walks longer are stored as this (int16 tables): a bound still


@njit(cache=True)
def _access(cells, bombable, nxt, never, stand, heart, wall):
    """analysis._access: 0 when the penguin may get to stand other than through the heart's
    cell, 1 when only through a bombable mountain, never when not at all (the edge, houses,
    lasting mountains and `wall` all round)."""
    need = never
    for d in range(4):
        near = nxt[stand, d]
        if near < 0 or near == heart or near == wall:
            continue
        t = cells[near]
        if t == HOUSE or (t == MOUNTAIN and not bombable[near]):
            continue
        if t != MOUNTAIN:
            return 0
        need = 1
    return need


@njit(cache=True)
def _stops(cells, bombable, wall, bomb, at):
    """A slide cannot enter `at`: a tree, a lasting mountain, `wall`, or for a bomb a house."""
    t = cells[at]
    return at == wall or t == TREE or (t == MOUNTAIN and not bombable[at]) or (
        bomb and t == HOUSE)


@njit(cache=True)
def _goal(cells, bombable, bomb, at):
    """Where a slide's way ends: a house for a heart, a standing mountain for a bomb."""
    if bomb:
        return cells[at] == MOUNTAIN and bombable[at] != 0
    return cells[at] == HOUSE


@njit(cache=True)
def _slides(cells, bombable, nxt, never, wall, bomb, cap, most, sealed, out):
    """analysis._slides on flat arrays, for an object on each cell (a heart, or with `bomb`
    a bomb): the fewest pushes to its goal in the relaxed game, or with `most` the fewest
    bombable mountains standing that some one push of its way crosses or stands on. `wall`
    (-1: none) is a cell made a lasting wall: no slide enters it, no stand is on it, and
    _access does not walk through it."""
    for i in range(CELLS):
        out[i] = never
    changed = True
    while changed:
        changed = False
        for c in range(CELLS):
            if _stops(cells, bombable, wall, bomb, c) or _goal(cells, bombable, bomb, c):
                continue
            best = out[c]
            for d in range(4):
                stand = nxt[c, d ^ 1]
                if stand < 0 or stand == wall or cells[stand] == HOUSE or (
                        cells[stand] == MOUNTAIN and not bombable[stand]):
                    continue
                count = _access(cells, bombable, nxt, never, stand, c, wall) if sealed else 0
                if count >= never:
                    continue
                if not bomb and cells[stand] == MOUNTAIN:
                    count += 1
                at = nxt[c, d]
                while at >= 0 and count <= cap and not _stops(cells, bombable, wall, bomb, at):
                    if _goal(cells, bombable, bomb, at):
                        best = min(best, count if most else 1)
                        break
                    if not bomb and cells[at] == MOUNTAIN:
                        count += 1
                    if count <= cap and out[at] < never:
                        best = min(best, max(count, out[at]) if most else 1 + out[at])
                    at = nxt[at, d]
            if best < out[c]:
                out[c] = best
                changed = True


@njit(cache=True)
def _joint(cells, bombable, nxt, never, far, joint):
    """analysis._joint_pushes: for a heart on each cell, the least over its ways home of its
    pushes plus the bombable mountains the way crosses (the most on any one push)."""
    capped = np.empty(CELLS, np.int32)
    for i in range(CELLS):
        joint[i] = never
    cap = 0
    while True:
        _slides(cells, bombable, nxt, never, -1, False, cap, False, True, capped)
        same = True
        for i in range(CELLS):
            if capped[i] < never:
                joint[i] = min(joint[i], capped[i] + cap)
            if capped[i] != far[i]:
                same = False
        if same:
            return
        cap += 1


@njit(cache=True)
def fill_row(cells, bombable, nxt, never, far, crossed, reach, joint, bomb_far, sealed):
    """One table row: the relaxed pushes (far), the mountains crossed, and for every cell
    that can hold an object, the cells from which a heart still gets home with that cell
    walled (two 48-bit masks)."""
    _slides(cells, bombable, nxt, never, -1, False, never, False, sealed, far)
    _slides(cells, bombable, nxt, never, -1, False, never, True, sealed, crossed)
    if not sealed:  # the hearts-only bound needs neither the ways' bombs nor reach
        return
    _joint(cells, bombable, nxt, never, far, joint)
    _slides(cells, bombable, nxt, never, -1, True, never, False, False, bomb_far)
    walled = np.empty(CELLS, np.int32)
    for z in range(CELLS):
        t = cells[z]
        reach[z, 0] = reach[z, 1] = 0
        if t == TREE or t == HOUSE or (t == MOUNTAIN and not bombable[z]):
            continue
        _slides(cells, bombable, nxt, never, z, False, never, False, True, walled)
        for i in range(CELLS):
            if walled[i] < never:
                reach[z, i // 48] |= np.int64(1) << np.int64(i % 48)


@njit(cache=True)
def fill_walks(cells, bombable, nxt, never, walks):
    """walking._walk_tables on flat arrays, into one row (int16, walks over WALK_CAP stored
    as WALK_CAP): walks[a, :CELLS] the relaxed walking distances from a; walks[c, CELLS + d]
    the least walk left after a heart on c is pushed in direction d (WALK_CAP: no such push
    gets it home)."""
    apart = np.full((CELLS, CELLS), WALK_CAP, np.int32)
    queue = np.empty(CELLS, np.int32)
    for a in range(CELLS):  # walking distances, through all but houses and lasting mountains
        if cells[a] == HOUSE or (cells[a] == MOUNTAIN and not bombable[a]):
            continue
        apart[a, a] = 0
        queue[0] = a
        head, tail = 0, 1
        while head < tail:
            c = queue[head]
            head += 1
            for d in range(4):
                n = nxt[c, d]
                if n >= 0 and apart[a, n] >= WALK_CAP and not (cells[n] == HOUSE or (
                        cells[n] == MOUNTAIN and not bombable[n])):
                    apart[a, n] = apart[a, c] + 1
                    queue[tail] = n
                    tail += 1
    walk = np.full((CELLS, CELLS), WALK_CAP, np.int32)
    after = np.full((CELLS, 4), WALK_CAP, np.int32)
    changed = True
    while changed:
        changed = False
        for c in range(CELLS):
            t = cells[c]
            if t == TREE or t == HOUSE or (t == MOUNTAIN and not bombable[c]):
                continue
            for d in range(4):
                stand = nxt[c, d ^ 1]
                after[c, d] = WALK_CAP
                if stand < 0 or cells[stand] == HOUSE or (
                        cells[stand] == MOUNTAIN and not bombable[stand]):
                    continue
                at = nxt[c, d]
                while at >= 0 and not _stops(cells, bombable, -1, False, at):
                    if cells[at] == HOUSE:
                        after[c, d] = 0
                        break
                    after[c, d] = min(after[c, d], walk[at, stand])
                    at = nxt[at, d]
            for p in range(CELLS):
                best = walk[c, p]
                for d in range(4):
                    if after[c, d] < WALK_CAP:
                        best = min(best, apart[p, nxt[c, d ^ 1]] + after[c, d])
                if best < walk[c, p]:
                    walk[c, p] = best
                    changed = True
    for a in range(CELLS):
        for b in range(CELLS):
            walks[a, b] = apart[a, b]
        for d in range(4):
            walks[a, CELLS + d] = after[a, d]
