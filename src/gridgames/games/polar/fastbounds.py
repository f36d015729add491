"""The compiled searches' bound (analysis.push_bound, plus walking.move_bound when counting
moves): the relaxed tables' rows (fasttables.py) kept by which mountains stand and whether a
bomb is left, and the bound of a board read from them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.games.polar.board import BOMB, GRID, HEART, ICE, MOUNTAIN
from gridgames.games.polar.fasttables import WALK_CAP, fill_row, fill_walks
from gridgames.games.polar.walking import ROUTE_HEARTS

CELLS = GRID.size
TABLES = 4096  # relaxed tables kept, one per set of mountains standing


@njit(cache=True)
def table_key(cells, mountain_id):
    """Which relaxed tables a board needs: a bit for each mountain standing, bit 0 when a
    bomb is left (only then can mountains still go)."""
    key = 0
    for i in range(CELLS):
        t = cells[i]
        if t == MOUNTAIN:
            key |= 1 << (mountain_id[i] + 1)
        elif t == BOMB:
            key |= 1
    return key


def new_keymap() -> np.ndarray:
    keymap = np.full((2 * TABLES + 1, 2), -1, np.int64)
    keymap[-1, 0] = 0
    return keymap


@njit(cache=True)
def find_row(keymap, key):
    """The table row kept for key, -1 when none. keymap: open addressing over its first
    2 * TABLES entries (key, row; key -1 when empty); its last entry counts the rows used.
    Only read here, so threads may share it while nothing adds."""
    slots = keymap.shape[0] - 1
    slot = (key * 0x9E3779B1) % slots
    while keymap[slot, 0] != -1:
        if keymap[slot, 0] == key:
            return keymap[slot, 1]
        slot = (slot + 1) % slots
    return -1


@njit(cache=True)
def _add_row(keymap, key):
    """A new row for key; once TABLES - 1 are kept, the last row, kept for no key and
    recomputed each time."""
    slots = keymap.shape[0] - 1
    row = keymap[slots, 0]
    if row >= TABLES - 1:
        return TABLES - 1
    keymap[slots, 0] = row + 1
    slot = (key * 0x9E3779B1) % slots
    while keymap[slot, 0] != -1:
        slot = (slot + 1) % slots
    keymap[slot, 0] = key
    keymap[slot, 1] = row
    return row


@njit(cache=True)
def relaxed_bound(cells, mountain_id, bombable, nxt, never, keymap, far_rows, crossed_rows,
           reach_rows, joint_rows, bomb_rows, walk_rows, scratch, objects, penguin, walked):
    """analysis.push_bound (never when the level is lost): the hearts' relaxed pushes, plus a
    push for each ice block on a cell some heart cannot get home without, plus the bombs such
    cells need. Counting moves (`penguin` is where it stands, -1 when counting pushes): plus
    the walk left, the longer of `walked` (measured by the caller) and the walk one heart's
    way needs (walking.move_bound; its tables only in a moves search). The table rows
    depend on which mountains still stand and whether a bomb is left, so they are cached by
    that key. Without `objects` the cells in the way are not counted, nor are stands walled
    in (the tests compare both bounds)."""
    return bound_keyed(cells, table_key(cells, mountain_id), bombable, nxt, never, keymap,
                        far_rows, crossed_rows, reach_rows, joint_rows, bomb_rows, walk_rows,
                        scratch, objects, penguin, walked)


@njit(cache=True)
def bound_keyed(cells, key, bombable, nxt, never, keymap, far_rows, crossed_rows, reach_rows,
                 joint_rows, bomb_rows, walk_rows, scratch, objects, penguin, walked):
    """relaxed_bound with the board's table key given (a push changes it only when a bomb moves, so
    an expansion computes it once for its other children)."""
    row = find_row(keymap, key)
    if row < 0:
        row = _add_row(keymap, key)
        for i in range(CELLS):
            scratch[i] = bombable[i] if key & 1 else 0
        fill_row(cells, scratch, nxt, never, far_rows[row], crossed_rows[row], reach_rows[row],
                  joint_rows[row], bomb_rows[row], objects)
        if walk_rows.shape[0] == far_rows.shape[0]:
            fill_walks(cells, scratch, nxt, never, walk_rows[row])
    return bound_at(cells, row, key & 1, bombable, nxt, never, far_rows, crossed_rows,
                     reach_rows, joint_rows, bomb_rows, walk_rows, objects, penguin, walked)


@njit(cache=True)
def bound_at(cells, row, bombs_left, bombable, nxt, never, far_rows, crossed_rows, reach_rows,
              joint_rows, bomb_rows, walk_rows, objects, penguin, walked):
    """relaxed_bound with its table row found (it only reads the tables, so threads may share
    them)."""
    far, crossed, reach, joint = far_rows[row], crossed_rows[row], reach_rows[row], joint_rows[row]
    heart0 = np.int64(0)
    heart1 = np.int64(0)
    bombs = 0
    total = 0
    most_crossed = 0
    way_bombs = 0
    for i in range(CELLS):
        t = cells[i]
        if t == BOMB:
            bombs += 1
        elif t == HEART:
            if far[i] >= never:
                return never
            if i < 48:
                heart0 |= np.int64(1) << np.int64(i)
            else:
                heart1 |= np.int64(1) << np.int64(i - 48)
            total += far[i]
            most_crossed = max(most_crossed, crossed[i])
            way_bombs = max(way_bombs, joint[i] - far[i])
    if heart0 == 0 and heart1 == 0:
        return 0
    if not objects:
        return never if most_crossed > bombs else total + most_crossed + walked
    ice = 0
    bombs_needed = 0
    mountains_needed = 0
    for z in range(CELLS):
        t = cells[z]
        if not (t == ICE or t == BOMB or (t == MOUNTAIN and bombs_left and bombable[z])):
            continue
        if (heart0 & ~reach[z, 0]) != 0 or (heart1 & ~reach[z, 1]) != 0:
            if t == ICE:
                ice += 1
            elif t == BOMB:
                bombs_needed += 1
            else:
                mountains_needed += 1
    bombed = _least_bomb_pushes(cells, bomb_rows[row], max(mountains_needed, most_crossed),
                                never)
    if bombed >= never:
        return never
    walk = walked
    if penguin >= 0 and walk_rows.shape[0] == far_rows.shape[0]:
        walk = _walk_left(cells, penguin, nxt, walk_rows[row], walked)
        if walk >= WALK_CAP:
            return never
    return total + ice + max(bombs_needed, bombed, way_bombs) + walk


@njit(cache=True)
def _least_bomb_pushes(cells, bomb_far, needed, never):
    """analysis._least_bomb_pushes: the sum of the `needed` least bomb_far over the bombs."""
    taken0 = np.int64(0)
    taken1 = np.int64(0)
    total = 0
    for _ in range(needed):
        best, at = never, -1
        for i in range(CELLS):
            if cells[i] == BOMB and bomb_far[i] < best:
                bit = np.int64(1) << np.int64(i % 48)
                if (taken0 if i < 48 else taken1) & bit:
                    continue
                best, at = bomb_far[i], i
        if at < 0:
            return never
        if at < 48:
            taken0 |= np.int64(1) << np.int64(at)
        else:
            taken1 |= np.int64(1) << np.int64(at - 48)
        total += best
    return total


@njit(cache=True)
def _walk_left(cells, penguin, nxt, walks, walked):
    """walking.heart_walk, at least `walked`, from a row of fill_walks: the most, over the
    hearts, of one heart's least walk home, and with up to ROUTE_HEARTS hearts the least
    route through a stand of every heart (walking._route), by subsets of hearts visited.
    WALK_CAP or more: some heart can never be pushed home."""
    hearts = np.empty(CELLS, np.int64)
    k = 0
    for c in range(CELLS):
        if cells[c] == HEART:
            hearts[k] = c
            k += 1
    for i in range(k):
        one = WALK_CAP
        for d in range(4):
            stand = nxt[hearts[i], d ^ 1]
            if walks[hearts[i], CELLS + d] < WALK_CAP:
                one = min(one, np.int64(walks[penguin, stand]) + walks[hearts[i], CELLS + d])
        walked = max(walked, one)
    if k < 2 or k > ROUTE_HEARTS:  # one heart's route is its way
        return walked
    full = (1 << k) - 1
    route = np.full((full + 1, k, 4), WALK_CAP, np.int32)  # (visited, last, its side)
    for i in range(k):
        for d in range(4):
            if walks[hearts[i], CELLS + d] < WALK_CAP:
                route[1 << i, i, d] = np.int64(walks[penguin, nxt[hearts[i], d ^ 1]])
    for seen in range(1, full):
        for i in range(k):
            for d in range(4):
                if route[seen, i, d] >= WALK_CAP:
                    continue
                stand = nxt[hearts[i], d ^ 1]
                for j in range(k):
                    if seen >> j & 1:
                        continue
                    for e in range(4):
                        if walks[hearts[j], CELLS + e] < WALK_CAP:
                            step = route[seen, i, d] + np.int64(
                                walks[stand, nxt[hearts[j], e ^ 1]])
                            if step < route[seen | 1 << j, j, e]:
                                route[seen | 1 << j, j, e] = step
    least = WALK_CAP
    for i in range(k):
        for d in range(4):
            if route[full, i, d] < WALK_CAP:
                least = min(least, route[full, i, d] + np.int64(walks[hearts[i], CELLS + d]))
    return max(walked, least)
