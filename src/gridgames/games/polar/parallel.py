"""A* over pushes on both cores: the kernel's search (fastsolver.run), reorganised so that
threads share the work.

The open states fall into buckets by (pushes + bound, pushes); the lowest bucket is worked
through a slice at a time in two steps over LANES lanes that numba's threads run: expand
(each lane writes children into its own buffer) and store (each lane owns a partition of
the states, so no two threads write the same memory). docs/machine-play.md ("Polar's A* on
both cores") has the details.
"""

from __future__ import annotations

import threading
from collections import defaultdict

import numpy as np
from numba import njit, prange

from gridgames.games.polar import fastsolver as fast
from gridgames.games.polar import rules
from gridgames.games.polar.analysis import NEVER
from gridgames.games.polar.board import BOMB, EMPTY, GRID, HEART, HOUSE, ICE
from gridgames.games.polar.fastbounds import bound_at, find_row, relaxed_bound, table_key
from gridgames.games.polar.faststore import KEY, ROW_BYTES, row_hash, same_row
from gridgames.games.polar.fastwalk import region_first, walk_reach

RUNNING, SOLVED, EXHAUSTED, FULL = fast.RUNNING, fast.SOLVED, fast.EXHAUSTED, fast.FULL
CELLS = GRID.size
# The work is cut into this many lanes, whatever the cores: each lane expands its share of a
# slice and owns a partition of the states. A fixed count keeps the search's order, and so
# its answer and its counts, the same on every machine; numba runs the lanes on its threads.
LANES = 4
# numba's default thread pool (workqueue) must not run two parallel kernels at once: a
# process runs one such search at a time (threads of one process may each ask for one).
ONE_AT_A_TIME = threading.Lock()
OUT_ROWS = 1 << 16  # children each lane's buffer holds per slice
# A stored state's bytes: its row, hash, cost, parent, stand, direction, and at most two
# hash table entries of 8 bytes.
STATE_BYTES = ROW_BYTES + 8 + 4 + 8 + 2 + 1 + 16
PART_SHIFT = np.uint64(40)  # a state's partition: hash bits above the table's slots
# A child's record beside its cells: parent, stand, direction, bound, hash (as int64), and
# the table row its bound reads (2 * row + 1 when a bomb is left).
PARENT, STAND, DIRECTION, BOUND, HASH, ROW = range(6)
MISSING = -1  # BOUND: the child's table row does not exist yet (_fill_missing makes it)
PENDING = -2  # BOUND: to be computed when the child is stored, only if it is new


@njit(cache=True)
def _stranded(cells, far, never):
    """A heart that cannot get home even with nothing else moving (the first test of
    fastbounds.bound_at, the one that drops most lost children)."""
    for i in range(CELLS):  # noqa: SIM110 (numba compiles no any() over a generator)
        if cells[i] == HEART and far[i] >= never:
            return True
    return False


@njit(cache=True)
def _heart_stranded(child, target, d, nxt, far, never):
    """_stranded after a heart was pushed from target in direction d, its parent not lost and
    the table the same: only that heart moved, so only it can be stranded. It slid over empty
    cells, so the first cell on its way that is not empty is the heart (or the house it
    went into)."""
    at = target
    while at >= 0 and child[at] == EMPTY:
        at = nxt[at, d]
    return at >= 0 and child[at] == HEART and far[at] >= never


@njit(cache=True)
def _to_partition(lists, list_n, t, hashed, i):
    """List lane t's child i under its partition, for _store to take without a scan."""
    q = (hashed >> PART_SHIFT) % np.uint64(lists.shape[1])
    lists[t, q, list_n[t, q]] = i
    list_n[t, q] += 1


@njit(parallel=True, cache=True)
def _expand(ids, g, never, parts, states8, cost, nxt, mountain_id, keymap, far_rows, out8,
            out, out_n, lists, list_n, goal, expanded):
    """Expand the states `ids` (global ids, all with `pushes` g) into the threads' buffers:
    out8 holds the children's rows (with their penguin key), out their records. Bounds wait
    for _store: most children are states met before (4 in 5 on level 2), and the bound is
    the dearest part of a child. goal[t] is a state without hearts thread t met (-1: none)."""
    threads = out8.shape[0]
    share = (ids.size + threads - 1) // threads
    for t in prange(threads):
        list_n[t, :] = 0
        dist = np.empty(CELLS, np.int32)
        queue = np.empty(CELLS, np.int32)
        events = np.empty((rules.MOST_EVENTS, rules.EVENT_WIDTH), np.int32)  # for `moved`
        n = 0
        found = -1
        opened = 0
        for k in range(t * share, min(ids.size, (t + 1) * share)):
            gid = ids[k]
            p, idx = gid % parts, gid // parts
            if cost[p, idx] != g:
                continue  # reached again more cheaply since: that entry is the live one
            cells = states8[p, idx]
            if rules.hearts_left(cells) == 0:
                found = gid
                break
            opened += 1
            walk_reach(cells, cells[KEY], nxt, dist, queue)
            parent_key = table_key(cells, mountain_id)
            parent_row = find_row(keymap, parent_key)
            for target in range(CELLS):
                tile = cells[target]
                if not rules.movable(tile):
                    continue
                for d in range(4):
                    stand = nxt[target, d ^ 1]
                    if stand < 0 or dist[stand] < 0:
                        continue
                    child = out8[t, n]
                    child[:] = cells
                    if not rules.moved(events, rules.push(child, target, d, nxt, events)):
                        continue
                    key, row = parent_key, parent_row  # only a bomb's push changes them
                    if tile == BOMB:
                        key = table_key(child, mountain_id)
                        row = find_row(keymap, key)
                    if row >= 0 and (  # lost: a heart can never get home
                            _stranded(child, far_rows[row], never) if tile == BOMB else
                            tile == HEART and _heart_stranded(child, target, d, nxt,
                                                              far_rows[row], never)):
                        continue
                    if row >= 0:
                        child[KEY] = region_first(child, stand)
                        hashed = row_hash(out8[t, n].view(np.uint64))
                        out[t, n, HASH] = np.int64(hashed)
                        out[t, n, BOUND] = PENDING
                        out[t, n, ROW] = 2 * row + (key & 1)
                        _to_partition(lists, list_n, t, hashed, n)
                    else:
                        out[t, n, BOUND] = MISSING
                    out[t, n, PARENT] = gid
                    out[t, n, STAND] = stand
                    out[t, n, DIRECTION] = d
                    n += 1
        out_n[t] = n  # written once: threads writing neighbouring counters slow each other
        goal[t] = found
        expanded[t] = opened


@njit(cache=True)
def _fill_missing(g, limit, never, out8, out, out_n, lists, list_n, mountain_id, bombable, nxt,
                  keymap, far_rows, crossed_rows, reach_rows, joint_rows, bomb_rows, walk_rows):
    """The children whose table row was missing, one thread: fill the rows, then bound,
    region and hash them (a bound of never marks a child dropped)."""
    scratch = np.empty(CELLS, np.uint8)
    for t in range(out8.shape[0]):
        for i in range(out_n[t]):
            if out[t, i, BOUND] != MISSING:
                continue
            child = out8[t, i]
            h = relaxed_bound(child, mountain_id, bombable, nxt, never, keymap, far_rows,
                              crossed_rows, reach_rows, joint_rows, bomb_rows, walk_rows,
                              scratch, True, -1, 0)
            if h >= never or (limit > 0 and g + 1 + h >= limit):
                out[t, i, BOUND] = never
                continue
            out[t, i, BOUND] = h
            child[KEY] = region_first(child, out[t, i, STAND])
            hashed = row_hash(child.view(np.uint64))
            out[t, i, HASH] = np.int64(hashed)
            _to_partition(lists, list_n, t, hashed, i)


@njit(parallel=True, cache=True)
def _store(g, limit, never, out8, out, lists, list_n, states8, hashes, cost, parent,
           pushed_from, direction, table, count, fresh, fresh_n, bombable, nxt, far_rows,
           crossed_rows, reach_rows, joint_rows, bomb_rows, walk_rows):
    """Store the children of pushes g + 1, each partition by its own thread; a child new
    to its partition (or reached more cheaply) is bounded here, and dropped when the level is
    lost from it or it cannot beat `limit`. fresh[q] lists the states of partition q that
    are new or reached more cheaply (their global ids, with cost + bound)."""
    parts = states8.shape[0]
    for q in prange(parts):
        m = 0
        mask = np.uint64(table.shape[1] - 1)
        for t in range(out8.shape[0]):
            for k in range(list_n[t, q]):
                i = lists[t, q, k]
                h = out[t, i, BOUND]
                hashed = np.uint64(out[t, i, HASH])
                row64 = out8[t, i].view(np.uint64)
                slot = hashed & mask
                tag = np.int64(hashed >> np.uint64(33))  # 31 bits: entries stay positive
                at = -1
                while True:  # the state's entry, or the empty slot where it would go
                    entry = table[q, slot]
                    if entry < 0:
                        break
                    if entry >> 32 == tag:
                        at = entry & 0xFFFFFFFF
                        if same_row(states8[q, at].view(np.uint64), row64):
                            break
                        at = -1
                    slot = (slot + np.uint64(1)) & mask
                if at >= 0 and cost[q, at] <= g + 1:
                    continue  # met before, as cheaply
                if h == PENDING:
                    row = out[t, i, ROW]
                    h = bound_at(out8[t, i], row >> 1, row & 1, bombable, nxt, never,
                                 far_rows, crossed_rows, reach_rows, joint_rows,
                                 bomb_rows, walk_rows, True, -1, 0)
                    if h >= never or (limit > 0 and g + 1 + h >= limit):
                        continue
                if at < 0:
                    at = count[q]
                    count[q] = at + 1
                    table[q, slot] = (tag << 32) | at
                    states8[q, at] = out8[t, i]
                    hashes[q, at] = hashed
                cost[q, at] = g + 1
                parent[q, at] = out[t, i, PARENT]
                pushed_from[q, at] = out[t, i, STAND]
                direction[q, at] = out[t, i, DIRECTION]
                fresh[q, m, 0] = at * parts + q
                fresh[q, m, 1] = g + 1 + h
                m += 1
        fresh_n[q] = m  # written once, as in _expand


@njit(cache=True)
def _rehash(hashes, count, table, parts):
    """Fill the tables anew from the states' hashes. An entry is the state's index in its
    low 32 bits and its hash's high 31 bits above them: most states met again differ there,
    so the look-up reads their rows only when the bits agree."""
    table[:] = -1
    mask = np.uint64(table.shape[1] - 1)
    for q in range(parts):
        for i in range(count[q]):
            slot = hashes[q, i] & mask
            while table[q, slot] >= 0:
                slot = (slot + np.uint64(1)) & mask
            table[q, slot] = (np.int64(hashes[q, i] >> np.uint64(33)) << 32) | i


class ParallelSearch:
    """A* over pushes with numba's threads; run() goes on from where the last call stopped.

    The states' arrays are reserved once, for as many states as max_bytes holds, and never
    copied: the system gives memory to a reservation only where it is written, so a small
    search costs little, and a large one is not slowed by doubling and copying gigabytes
    (a ninth of level 3's proof went to that). Only the hash tables grow (rebuilt from the
    hashes)."""

    def __init__(self, start: bytes, penguin: int, nxt: np.ndarray, max_bytes: int = 4 << 30):
        self.threads = LANES
        self.parts = LANES
        tables = fast.Search(start, penguin, True, capacity=16)  # the relaxed tables' arrays
        self.mountain_id, self.bombable, self.keymap = (tables.mountain_id, tables.bombable,
                                                        tables.keymap)
        self.rows = (tables.far_rows, tables.crossed_rows, tables.reach_rows, tables.joint_rows,
                     tables.bomb_rows, tables.walk_rows)
        parts = self.parts
        # At least room for two slices' children in a partition (one slice may put all its
        # children in one), else run() would stop as full before it began.
        least = 2 * LANES * OUT_ROWS
        capacity = max(least, max_bytes // (parts * STATE_BYTES))
        while True:
            try:
                self._reserve(capacity)
                break
            except MemoryError:  # a system that will not reserve so much: ask for less
                if capacity <= least:
                    raise
                capacity = max(least, capacity // 2)
        self.table = np.full((parts, 1 << 14), -1, np.int64)
        self.count = np.zeros(parts, np.int64)
        most = 4 * sum(1 for t in start if t in (ICE, HEART, BOMB))  # children of one state
        self.slice = max(1, OUT_ROWS // max(1, most))  # states per lane per slice
        self.out8 = np.zeros((self.threads, OUT_ROWS, ROW_BYTES), np.uint8)
        self.out = np.zeros((self.threads, OUT_ROWS, 6), np.int64)
        self.out_n = np.zeros(self.threads, np.int64)
        self.lists = np.zeros((self.threads, parts, OUT_ROWS), np.int32)  # by partition
        self.list_n = np.zeros((self.threads, parts), np.int64)
        self.fresh = np.zeros((parts, self.threads * OUT_ROWS, 2), np.int64)
        self.fresh_n = np.zeros(parts, np.int64)
        self.goal_of = np.zeros(self.threads, np.int64)
        self.expanded_of = np.zeros(self.threads, np.int64)
        self.expanded = 0
        self.goal = -1
        self.buckets: dict[tuple[int, int], list[np.ndarray]] = defaultdict(list)
        # The start, in the partition its hash gives, as every state.
        q = int((tables.hashes[0] >> PART_SHIFT) % np.uint64(parts))
        self.states8[q, 0] = tables.states8[0]
        self.hashes[q, 0] = tables.hashes[0]
        self.cost[q, 0] = 0
        self.parent[q, 0] = -1
        self.pushed_from[q, 0] = penguin
        self.direction[q, 0] = 0
        self.count[q] = 1
        _rehash(self.hashes, self.count, self.table, parts)
        h = fast.bound(start, tables, nxt)
        if h < NEVER:
            self.buckets[(h, 0)].append(np.array([q], np.int64))

    def _reserve(self, capacity: int) -> None:
        """The states' arrays, left unwritten: only rows below a partition's count are read."""
        parts = self.parts
        self.states8 = np.empty((parts, capacity, ROW_BYTES), np.uint8)
        self.hashes = np.empty((parts, capacity), np.uint64)
        self.cost = np.empty((parts, capacity), np.int32)
        self.parent = np.empty((parts, capacity), np.int64)
        self.pushed_from = np.empty((parts, capacity), np.int16)
        self.direction = np.empty((parts, capacity), np.int8)

    def lowest_open(self) -> int:
        """A proven lower bound on the pushes of any solution: the least total waiting."""
        return min((f for f, _ in self.buckets), default=0)

    def run(self, nxt: np.ndarray, never: int, seconds_left, max_expanded: int,
            limit: int = 0) -> int:
        """Work until solved, exhausted, or seconds_left() <= 0 or max_expanded states
        expanded (then RUNNING), or until a partition might not hold the next slice's
        children (FULL: the memory given is used up). limit > 0: only solutions with fewer
        pushes are wanted."""
        while self.buckets:
            if seconds_left() <= 0 or self.expanded >= max_expanded:
                return RUNNING
            if int(self.count.max()) + self.threads * OUT_ROWS > self.states8.shape[1]:
                return FULL
            f, g = min(self.buckets, key=lambda key: (key[0], -key[1]))
            if limit > 0 and f >= limit:
                self.buckets.clear()
                break
            chunks = self.buckets[(f, g)]
            take = self.slice * self.threads
            taken: list[np.ndarray] = []
            while chunks and take > 0:  # a full slice, from the bucket's many small arrays
                ids = chunks.pop()
                if ids.size > take:  # the rest waits in the bucket
                    chunks.append(ids[take:])
                    ids = ids[:take]
                taken.append(ids)
                take -= ids.size
            if not chunks:
                del self.buckets[(f, g)]
            ids = np.concatenate(taken) if len(taken) > 1 else taken[0]
            if self._step(ids, g, never, limit, nxt):
                return SOLVED
        return EXHAUSTED

    def _step(self, ids: np.ndarray, g: int, never: int, limit: int, nxt: np.ndarray) -> bool:
        _expand(ids, g, never, self.parts, self.states8, self.cost, nxt, self.mountain_id,
                self.keymap, self.rows[0], self.out8, self.out, self.out_n, self.lists,
                self.list_n, self.goal_of, self.expanded_of)
        self.expanded += int(self.expanded_of.sum())
        goals = self.goal_of[self.goal_of >= 0]
        if goals.size:
            self.goal = int(goals[0])
            return True
        _fill_missing(g, limit, never, self.out8, self.out, self.out_n, self.lists,
                      self.list_n, self.mountain_id, self.bombable, nxt, self.keymap,
                      *self.rows)
        self._grow_tables(int(self.out_n.sum()))
        _store(g, limit, never, self.out8, self.out, self.lists, self.list_n, self.states8,
               self.hashes, self.cost, self.parent, self.pushed_from, self.direction,
               self.table, self.count, self.fresh, self.fresh_n, self.bombable, nxt,
               *self.rows)
        for q in range(self.parts):
            fresh = self.fresh[q, :self.fresh_n[q]]
            for f in np.unique(fresh[:, 1]):
                self.buckets[(int(f), g + 1)].append(fresh[fresh[:, 1] == f, 0].copy())
        return False

    def _grow_tables(self, children: int) -> None:
        """Double the hash tables until they stay at most half full with `children` more."""
        size = self.table.shape[1]
        while 2 * (int(self.count.max()) + children) > size:
            size *= 2
        if size != self.table.shape[1]:
            self.table = np.empty((self.parts, size), np.int64)
            _rehash(self.hashes, self.count, self.table, self.parts)  # it clears the table

    def stored(self) -> int:
        return int(self.count.sum())

    def nbytes(self) -> int:
        """Memory the search uses: the rows of its states held so far, its tables and
        buffers (the reservation beyond the rows written takes none)."""
        held = int(self.count.sum()) * (STATE_BYTES - 16)
        arrays = (self.table, self.out8, self.out, self.lists, self.fresh, *self.rows)
        return held + sum(a.nbytes for a in arrays)

    def pushes(self, gid: int) -> list[tuple[int, int]]:
        """From the start to state gid: (the cell the penguin pushed from, direction)."""
        steps = []
        while True:
            p, idx = gid % self.parts, gid // self.parts
            if self.parent[p, idx] < 0:
                return steps[::-1]
            steps.append((int(self.pushed_from[p, idx]), int(self.direction[p, idx])))
            gid = int(self.parent[p, idx])


def warm(nxt: np.ndarray) -> None:
    """Run a one-push search, so that every kernel is compiled (or loaded from numba's disk
    cache) before a caller starts its clock: the first compile in a fresh install takes
    20 s or more, which a budget of seconds must not pay."""
    board = bytearray(CELLS)
    board[1], board[3] = HEART, HOUSE
    search = ParallelSearch(bytes(board), 0, nxt, 0)
    assert search.run(nxt, NEVER, lambda: 1.0, 100) == SOLVED
