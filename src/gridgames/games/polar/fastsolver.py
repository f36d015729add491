"""The Polar solver compiled with numba: the search of reference.py (the readable form the
tests check this against) on flat arrays, tens of times faster.

The kernel `run` expands a slice of states per call and keeps everything in the arrays of a
`Search` (states in faststore.py's rows, hash table and heap; the bound from fastbounds.py;
pushes by rules.push), so the Python side (solver.py) can watch the clock, grow the arrays
when they fill, and call it again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.games.polar import rules
from gridgames.games.polar.analysis import NEVER
from gridgames.games.polar.board import BOMB, EMPTY, GRID, HEART, ICE, MOUNTAIN
from gridgames.games.polar.fastbounds import (
    TABLES,
    bound_keyed,
    new_keymap,
    relaxed_bound,
    table_key,
)
from gridgames.games.polar.faststore import (
    EXPANDED,
    GOAL,
    HEAP_N,
    KEY,
    N_STATES,
    ROW_BYTES,
    find_or_add,
    heap_pop,
    heap_push,
    rehash,
    row_hash,
)
from gridgames.games.polar.fastwalk import region_first, walk_reach, walk_to_push

CELLS = GRID.size
RUNNING, SOLVED, EXHAUSTED, FULL = range(4)
G_BITS = 24  # heap key: priority in the high bits, then (2^24 - 1 - g): deeper first on ties


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
    events = np.empty((rules.MOST_EVENTS, rules.EVENT_WIDTH), np.int32)  # only read by `moved`
    for _ in range(slice_size):
        if meta[N_STATES] + 4 * CELLS >= capacity or meta[HEAP_N] + 4 * CELLS >= heap_key.size:
            return FULL
        if meta[HEAP_N] == 0:
            return EXHAUSTED
        idx = heap_pop(heap_key, heap_idx, meta[HEAP_N])
        meta[HEAP_N] -= 1
        if closed[idx]:
            continue
        cells = states8[idx]
        closed[idx] = 1
        if not width and weight4 == 4 and rules.hearts_left(cells) == 0:
            meta[GOAL] = idx
            return SOLVED
        meta[EXPANDED] += 1
        walk_reach(cells, pushed_from[idx], nxt, dist, queue)
        parent_key = table_key(cells, mountain_id)
        for target in range(CELLS):
            tile = cells[target]
            if not rules.movable(tile):
                continue
            for d in range(4):
                stand = nxt[target, d ^ 1]  # directions U, D, L, R: d ^ 1 is the opposite
                if stand < 0 or dist[stand] < 0:
                    continue
                child8[:] = cells
                if not rules.moved(events, rules.push(child8, target, d, nxt, events)):
                    continue
                walked = 0
                if not count_pushes and rules.hearts_left(child8) > 0:  # moves: the walk left too
                    walked = walk_to_push(child8, stand, nxt, never, walk_dist, walk_queue)
                    if walked >= never:
                        continue  # nothing left to push: lost
                key = table_key(child8, mountain_id) if tile == BOMB else parent_key
                h = bound_keyed(child8, key, bombable, nxt, never, keymap, far_rows,
                                 crossed_rows, reach_rows, joint_rows, bomb_rows, walk_rows,
                                 scratch, True, -1 if count_pushes else stand, walked)
                if h >= never:
                    continue
                step = 1 if count_pushes else dist[stand] + 1
                g = cost[idx] + step
                if g >= g_cap or (limit > 0 and g + h >= limit):
                    continue
                child8[KEY] = region_first(child8, stand) if count_pushes else stand
                found = find_or_add(states64, hashes, table, meta, child64, row_hash(child64))
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
                heap_push(heap_key, heap_idx, meta[HEAP_N], key, at)
                meta[HEAP_N] += 1
    return RUNNING


def bound(cells: bytes, search: Search, nxt: np.ndarray, penguin: int = -1) -> int:
    """The kernel's bound of a board, with a search's tables (the tests compare it with
    analysis.push_bound, and in a moves search, given the penguin, with walking.move_bound)."""
    row = np.zeros(ROW_BYTES, np.uint8)
    row[:CELLS] = np.frombuffer(bytes(cells), np.uint8)
    return int(relaxed_bound(row, search.mountain_id, search.bombable, nxt, NEVER, search.keymap,
                      search.far_rows, search.crossed_rows, search.reach_rows,
                      search.joint_rows, search.bomb_rows, search.walk_rows,
                      np.zeros(CELLS, np.uint8), True, penguin, 0))


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
        # Relaxed tables by mountains standing (rules.mark_bombable says which can go).
        self.mountain_id = np.full(CELLS, -1, np.int32)
        mountains = [c for c, t in enumerate(start) if t == MOUNTAIN]
        if len(mountains) > 62:
            raise ValueError("a level has at most 62 mountains")  # they key a 64-bit mask
        self.mountain_id[mountains] = np.arange(len(mountains), dtype=np.int32)
        self.bombable = np.zeros(CELLS, np.uint8)
        rules.mark_bombable(row[:CELLS], rules.NEXT, self.bombable)
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
        added = find_or_add(self.states8.view(np.uint64), self.hashes, self.table, self.meta,
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
