"""The Polar solver compiled with numba: the search of solver.py (which stays the readable
reference the tests check this against) on flat arrays, tens of times faster.

A state is a row of 104 bytes: the 96 cells, then the penguin key (its cell when counting
moves, its walking region's first cell when counting pushes), then padding, so that a row
reads as 13 64-bit words for hashing and comparing. States live in growing arrays; an
open-addressing hash table finds them; a binary heap of packed int64 keys orders them. The
kernel runs a slice of expansions per call and keeps everything in the arrays, so the Python
side can watch the clock, grow the arrays when they fill, and call it again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.games.polar.analysis import NEVER
from gridgames.games.polar.board import BOMB, EMPTY, GRID, HEART, HOUSE, ICE, MOUNTAIN, TREE
from gridgames.games.polar.rules import bombable_mountains
from gridgames.games.polar.walking import ROUTE_HEARTS

ROW_BYTES = 104
ROW_WORDS = ROW_BYTES // 8
KEY = GRID.size  # byte 96: the penguin key
CELLS = GRID.size
COLS = GRID.cols
OFF = 255  # the edge, in the push below
RUNNING, SOLVED, EXHAUSTED, FULL = range(4)
# meta slots
N_STATES, HEAP_N, EXPANDED, GOAL = range(4)
TABLES = 4096  # relaxed tables kept, one per set of mountains standing
WALK_CAP = 30_000  # walks longer are stored as this (int16 tables): a bound still
G_BITS = 24  # heap key: priority in the high bits, then (2^24 - 1 - g): deeper first on ties


@njit(cache=True)
def row_hash(row64):
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(ROW_WORDS):
        h ^= row64[i]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(cache=True)
def same_row(a64, b64):
    for i in range(ROW_WORDS):
        if a64[i] != b64[i]:
            return False
    return True


@njit(cache=True)
def _meet(cells, pos, tile, ahead, next_tile):
    if tile == HEART and next_tile == HOUSE:
        cells[pos] = EMPTY
        return True
    if tile == BOMB and next_tile == MOUNTAIN:
        cells[pos] = EMPTY
        cells[ahead] = EMPTY
        return True
    return False


@njit(cache=True)
def push_at(cells, target, d, nxt):
    """Push the movable on target in direction d, in place; False when nothing changes (then
    cells are untouched). Same outcome as solver.push."""
    tile = cells[target]
    ahead = nxt[target, d]
    next_tile = OFF if ahead < 0 else cells[ahead]
    pos = target
    if next_tile == EMPTY:
        while next_tile == EMPTY:
            cells[ahead] = tile
            cells[pos] = EMPTY
            pos = ahead
            ahead = nxt[pos, d]
            next_tile = OFF if ahead < 0 else cells[ahead]
        if tile != ICE:
            _meet(cells, pos, tile, ahead, next_tile)
        return True
    if tile == ICE:
        cells[target] = EMPTY
        return True
    return _meet(cells, target, tile, ahead, next_tile)


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
            if n >= 0 and dist[n] < 0 and (cells[n] == EMPTY or cells[n] == TREE):
                dist[n] = dist[cell] + 1
                queue[tail] = n
                tail += 1
                if n < first:
                    first = n
    return first


@njit(cache=True)
def _walk_to_push(cells, start, nxt, never, dist, queue):
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
            if tile == ICE or tile == HEART or tile == BOMB:
                ahead = nxt[target, d]
                next_tile = OFF if ahead < 0 else cells[ahead]
                if next_tile == EMPTY or tile == ICE or (tile == HEART and next_tile == HOUSE) \
                        or (tile == BOMB and next_tile == MOUNTAIN):
                    return dist[cell]
            elif (tile == EMPTY or tile == TREE) and dist[target] < 0:
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
        if t == EMPTY or t == TREE:
            f0 |= bit
        t = cells[COLS + c]
        if t == EMPTY or t == TREE:
            f1 |= bit
        t = cells[2 * COLS + c]
        if t == EMPTY or t == TREE:
            f2 |= bit
        t = cells[3 * COLS + c]
        if t == EMPTY or t == TREE:
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
def _fill_row(cells, bombable, nxt, never, far, crossed, reach, joint, bomb_far, sealed):
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
def _fill_walks(cells, bombable, nxt, never, walks):
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


@njit(cache=True)
def _walk_left(cells, penguin, nxt, walks, walked):
    """walking.heart_walk, at least `walked`, from a row of _fill_walks: the most, over the
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
    return _bound_keyed(cells, table_key(cells, mountain_id), bombable, nxt, never, keymap,
                        far_rows, crossed_rows, reach_rows, joint_rows, bomb_rows, walk_rows,
                        scratch, objects, penguin, walked)


@njit(cache=True)
def _bound_keyed(cells, key, bombable, nxt, never, keymap, far_rows, crossed_rows, reach_rows,
                 joint_rows, bomb_rows, walk_rows, scratch, objects, penguin, walked):
    """relaxed_bound with the board's table key given (a push changes it only when a bomb moves, so
    an expansion computes it once for its other children)."""
    row = find_row(keymap, key)
    if row < 0:
        row = _add_row(keymap, key)
        for i in range(CELLS):
            scratch[i] = bombable[i] if key & 1 else 0
        _fill_row(cells, scratch, nxt, never, far_rows[row], crossed_rows[row], reach_rows[row],
                  joint_rows[row], bomb_rows[row], objects)
        if walk_rows.shape[0] == far_rows.shape[0]:
            _fill_walks(cells, scratch, nxt, never, walk_rows[row])
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


def bound(cells: bytes, search: Search, nxt: np.ndarray, penguin: int = -1) -> int:
    """The kernel's bound of a board, with a search's tables (the tests compare it with
    analysis.push_bound, and in a moves search, given the penguin, with walking.move_bound)."""
    row = np.zeros(ROW_BYTES, np.uint8)
    row[:CELLS] = np.frombuffer(bytes(cells), np.uint8)
    return int(relaxed_bound(row, search.mountain_id, search.bombable, nxt, NEVER, search.keymap,
                      search.far_rows, search.crossed_rows, search.reach_rows,
                      search.joint_rows, search.bomb_rows, search.walk_rows,
                      np.zeros(CELLS, np.uint8), True, penguin, 0))


ATOMS = 5 * CELLS  # novelty facts: ice, heart or bomb on a cell, a mountain gone, the penguin


@njit(cache=True)
def _novelty(cells, mountain_id, part, seen1, seen2, atoms):
    """Best-first width search (Lipovetzky and Geffner): a state's novelty is 1 when it makes
    some fact true for the first time among the states of its partition (an object on a
    cell, a mountain gone, the penguin's region), 2 when it does so for some pair of facts,
    else 3. Lower novelty goes first: it pulls the search off the plateaus where the bound
    does not change."""
    hb = min(part, seen1.shape[0] - 1)
    n = 0
    for c in range(CELLS):
        t = cells[c]
        if t == ICE:
            atoms[n] = c
        elif t == HEART:
            atoms[n] = CELLS + c
        elif t == BOMB:
            atoms[n] = 2 * CELLS + c
        elif t == EMPTY and mountain_id[c] >= 0:
            atoms[n] = 3 * CELLS + c
        else:
            continue
        n += 1
    atoms[n] = 4 * CELLS + cells[KEY]
    n += 1
    novelty = 3
    for a in range(n):
        if not seen1[hb, atoms[a]]:
            seen1[hb, atoms[a]] = 1
            novelty = 1
    if hb >= seen2.shape[0]:
        return novelty
    for a in range(n):
        for b in range(a + 1, n):
            if not seen2[hb, atoms[a], atoms[b]]:
                seen2[hb, atoms[a], atoms[b]] = 1
                novelty = min(novelty, 2)
    return novelty


@njit(cache=True)
def count_tile(cells, tile):
    n = 0
    for i in range(CELLS):
        if cells[i] == tile:
            n += 1
    return n


@njit(cache=True)
def _heap_push(heap_key, heap_idx, n, key, idx):
    i = n
    while i > 0:
        parent = (i - 1) >> 1
        if heap_key[parent] <= key:
            break
        heap_key[i] = heap_key[parent]
        heap_idx[i] = heap_idx[parent]
        i = parent
    heap_key[i] = key
    heap_idx[i] = idx


@njit(cache=True)
def _heap_pop(heap_key, heap_idx, n):
    """Remove the smallest entry of a heap of n; returns its index (the heap then has n-1)."""
    top = heap_idx[0]
    n -= 1
    key, idx = heap_key[n], heap_idx[n]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and heap_key[child + 1] < heap_key[child]:
            child += 1
        if heap_key[child] >= key:
            break
        heap_key[i] = heap_key[child]
        heap_idx[i] = heap_idx[child]
        i = child
    heap_key[i] = key
    heap_idx[i] = idx
    return top


@njit(cache=True)
def _find_or_add(states64, hashes, table, meta, row64, h):
    """The index of the state equal to row64, adding it when new; -1 - index when added."""
    mask = np.uint64(table.size - 1)
    slot = h & mask
    while True:
        at = table[slot]
        if at < 0:
            n = meta[N_STATES]
            states64[n, :] = row64
            hashes[n] = h
            table[slot] = n
            meta[N_STATES] = n + 1
            return -1 - n
        if hashes[at] == h and same_row(states64[at], row64):
            return at
        slot = (slot + np.uint64(1)) & mask


@njit(cache=True)
def rehash(hashes, n, table):
    table[:] = -1
    mask = np.uint64(table.size - 1)
    for i in range(n):
        slot = hashes[i] & mask
        while table[slot] >= 0:
            slot = (slot + np.uint64(1)) & mask
        table[slot] = i


@njit(cache=True)
def run(states8, states64, hashes, cost, parent, pushed_from, direction, closed, table,
        heap_key, heap_idx, meta, nxt, count_pushes, weight4, width, never, limit, slice_size,
        child8, child64, mountain_id, bombable, keymap, far_rows, crossed_rows, reach_rows,
        joint_rows, bomb_rows, walk_rows, seen1, seen2):
    """Expand up to slice_size states; returns RUNNING, SOLVED (meta[GOAL] set), EXHAUSTED
    or FULL (grow the arrays and call again).

    Not width: A* on g + weight4 / 4 * bound; weight4 = 4 is plain A*, whose goal is tested
    when taken off the heap, so the first goal is cheapest. Width: best-first width search,
    ordered by novelty, then bound, deeper first; goals are taken when generated. Novelty is
    counted among the states with the same bound (the full bound, objects in the way
    counted): measured, this finds a first line on each original level within 42k states,
    where the hearts-only bound with novelty among states of as many hearts left needed up
    to 1.8M (level 2).

    limit: when above 0, only solutions cheaper than limit are wanted: a child whose cost plus
    bound reaches it is dropped, and a state reached again more cheaply is opened again, so a
    search that runs out has shown no cheaper solution exists (the bound is admissible)."""
    capacity = states8.shape[0]
    dist = np.empty(CELLS, np.int32)
    queue = np.empty(CELLS, np.int32)
    walk_dist = np.empty(CELLS, np.int32)
    walk_queue = np.empty(CELLS, np.int32)
    g_cap = (1 << G_BITS) - 1
    scratch = np.empty(CELLS, np.uint8)
    atoms = np.empty(CELLS + 1, np.int32)
    for _ in range(slice_size):
        if meta[N_STATES] + 4 * CELLS >= capacity or meta[HEAP_N] + 4 * CELLS >= heap_key.size:
            return FULL
        if meta[HEAP_N] == 0:
            return EXHAUSTED
        idx = _heap_pop(heap_key, heap_idx, meta[HEAP_N])
        meta[HEAP_N] -= 1
        if closed[idx]:
            continue
        cells = states8[idx]
        closed[idx] = 1
        if not width and weight4 == 4 and count_tile(cells, HEART) == 0:
            meta[GOAL] = idx
            return SOLVED
        meta[EXPANDED] += 1
        walk_reach(cells, pushed_from[idx], nxt, dist, queue)
        parent_key = table_key(cells, mountain_id)
        for target in range(CELLS):
            tile = cells[target]
            if tile != ICE and tile != HEART and tile != BOMB:
                continue
            for d in range(4):
                stand = nxt[target, d ^ 1]  # directions U, D, L, R: d ^ 1 is the opposite
                if stand < 0 or dist[stand] < 0:
                    continue
                child8[:] = cells
                if not push_at(child8, target, d, nxt):
                    continue
                walked = 0
                if not count_pushes and count_tile(child8, HEART) > 0:  # moves: the walk left too
                    walked = _walk_to_push(child8, stand, nxt, never, walk_dist, walk_queue)
                    if walked >= never:
                        continue  # nothing left to push: lost
                key = table_key(child8, mountain_id) if tile == BOMB else parent_key
                h = _bound_keyed(child8, key, bombable, nxt, never, keymap, far_rows,
                                 crossed_rows, reach_rows, joint_rows, bomb_rows, walk_rows,
                                 scratch, True, -1 if count_pushes else stand, walked)
                if h >= never:
                    continue
                step = 1 if count_pushes else dist[stand] + 1
                g = cost[idx] + step
                if g >= g_cap or (limit > 0 and g + h >= limit):
                    continue
                child8[KEY] = region_first(child8, stand) if count_pushes else stand
                found = _find_or_add(states64, hashes, table, meta, child64, row_hash(child64))
                if found < 0:
                    at = -1 - found
                elif cost[found] <= g or (closed[found] and limit == 0):
                    continue
                else:
                    at = found
                    closed[at] = 0
                cost[at] = g
                parent[at] = idx
                pushed_from[at] = stand
                direction[at] = d
                if (width or weight4 != 4) and h == 0:
                    meta[GOAL] = at
                    return SOLVED
                if width:
                    novelty = _novelty(child8, mountain_id, min(h, CELLS), seen1, seen2,
                                       atoms)
                    key = (((novelty << 16) | min(h, 0xFFFF)) << G_BITS) | (g_cap - g)
                else:
                    key = ((4 * g + weight4 * h) << G_BITS) | (g_cap - g)
                _heap_push(heap_key, heap_idx, meta[HEAP_N], key, at)
                meta[HEAP_N] += 1
    return RUNNING


class Search:
    """The arrays of one search, grown (doubled) whenever the kernel says FULL."""

    def __init__(self, start: bytes, penguin: int, count_pushes: bool, width: bool = False,
                 capacity: int = 1 << 16):
        self.count_pushes = count_pushes
        self.width = width
        self.states8 = np.zeros((capacity, ROW_BYTES), np.uint8)
        self.hashes = np.zeros(capacity, np.uint64)
        self.cost = np.zeros(capacity, np.int32)
        self.parent = np.full(capacity, -1, np.int32)
        self.pushed_from = np.zeros(capacity, np.int16)
        self.direction = np.zeros(capacity, np.int8)
        self.closed = np.zeros(capacity, np.uint8)
        parts = GRID.size + 1 if width else 1  # by the bound; pairs while it is below 32
        self.seen1 = np.zeros((parts, ATOMS), np.uint8)
        self.seen2 = np.zeros((min(parts, 32), ATOMS, ATOMS), np.uint8)
        self.table = np.full(2 * capacity, -1, np.int32)
        self.heap_key = np.zeros(capacity, np.int64)
        self.heap_idx = np.zeros(capacity, np.int32)
        self.meta = np.zeros(4, np.int64)
        self.meta[GOAL] = -1
        row = np.zeros(ROW_BYTES, np.uint8)
        row[:CELLS] = np.frombuffer(start, np.uint8)
        row[KEY] = region_first(row, penguin) if count_pushes else penguin
        # Relaxed tables by mountains standing (analysis.bombable_mountains says which can go).
        self.mountain_id = np.full(CELLS, -1, np.int32)
        mountains = [c for c, t in enumerate(start) if t == MOUNTAIN]
        if len(mountains) > 62:
            raise ValueError("a level has at most 62 mountains")  # they key a 64-bit mask
        self.mountain_id[mountains] = np.arange(len(mountains), dtype=np.int32)
        self.bombable = np.zeros(CELLS, np.uint8)
        self.bombable[list(bombable_mountains(start))] = 1
        self.keymap = new_keymap()
        self.far_rows = np.zeros((TABLES, CELLS), np.int32)
        self.crossed_rows = np.zeros((TABLES, CELLS), np.int32)
        self.reach_rows = np.zeros((TABLES, CELLS, 2), np.int64)
        self.joint_rows = np.zeros((TABLES, CELLS), np.int32)
        self.bomb_rows = np.zeros((TABLES, CELLS), np.int32)
        walks = TABLES if not (count_pushes or width) else 1  # only A* over moves uses them
        self.walk_rows = np.zeros((walks, CELLS, CELLS + 4), np.int16)
        self.child8 = np.zeros(ROW_BYTES, np.uint8)
        self.child64 = self.child8.view(np.uint64)
        added = _find_or_add(self.states8.view(np.uint64), self.hashes, self.table, self.meta,
                             row.view(np.uint64), np.uint64(row_hash(row.view(np.uint64))))
        assert added == -1
        self.pushed_from[0] = penguin
        self.heap_idx[0] = 0
        self.meta[HEAP_N] = 1

    def grow(self) -> None:
        def bigger(a: np.ndarray) -> np.ndarray:
            # np.zeros gets pages the system zeroes when first touched; np.full wrote every
            # byte of the new half at once. Rows past the states held are only read as
            # `closed` (0: not yet), the rest is written when a state is added.
            out = np.zeros((2 * a.shape[0], *a.shape[1:]), a.dtype)
            out[:a.shape[0]] = a
            return out

        self.states8 = bigger(self.states8)
        self.hashes = bigger(self.hashes)
        self.cost = bigger(self.cost)
        self.parent = bigger(self.parent)
        self.pushed_from = bigger(self.pushed_from)
        self.direction = bigger(self.direction)
        self.closed = bigger(self.closed)
        self.heap_key = bigger(self.heap_key)
        self.heap_idx = bigger(self.heap_idx)
        self.table = np.empty(2 * self.states8.shape[0], np.int32)
        rehash(self.hashes, int(self.meta[N_STATES]), self.table)

    def run(self, nxt: np.ndarray, weight4: int, never: int, slice_size: int,
            limit: int = 0) -> int:
        return run(self.states8, self.states8.view(np.uint64), self.hashes, self.cost,
                   self.parent, self.pushed_from, self.direction, self.closed, self.table,
                   self.heap_key, self.heap_idx, self.meta, nxt, self.count_pushes, weight4,
                   self.width, never, limit, slice_size, self.child8, self.child64,
                   self.mountain_id, self.bombable, self.keymap, self.far_rows,
                   self.crossed_rows, self.reach_rows, self.joint_rows, self.bomb_rows,
                   self.walk_rows, self.seen1, self.seen2)

    def lowest_open(self) -> int:
        """A proven lower bound on the cost of any solution, for plain A*: the smallest
        cost + bound on the heap (stale entries only make it smaller, so still a bound)."""
        if self.meta[HEAP_N] == 0:
            return 0
        return int(self.heap_key[0] >> G_BITS) // 4  # a binary heap: its least is first

    def nbytes(self) -> int:
        """Memory of the search's arrays (they only grow, so this is their peak)."""
        return sum(a.nbytes for a in (
            self.states8, self.hashes, self.cost, self.parent, self.pushed_from,
            self.direction, self.closed, self.table, self.heap_key, self.heap_idx,
            self.seen1, self.seen2, self.far_rows, self.crossed_rows, self.reach_rows,
            self.joint_rows, self.bomb_rows, self.walk_rows))

    def pushes(self, idx: int) -> list[tuple[int, int]]:
        """From the start to state idx: (the cell the penguin pushed from, direction)."""
        steps = []
        while self.parent[idx] >= 0:
            steps.append((int(self.pushed_from[idx]), int(self.direction[idx])))
            idx = int(self.parent[idx])
        return steps[::-1]
