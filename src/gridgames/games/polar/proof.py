"""Lower bounds on the fewest pushes of a Polar level, proven by a search whose states are
small: A* over pushes with the open list in layers by f = g + bound, pruned at the bound B
being proven, no parents kept. Expanding every state with g + h <= B - 1 (h: the kernels'
admissible bound) and finding no win proves B; each layer of f used up proves f + 1 on the
way. A state reached again with a smaller g is opened again (the bound may drop by more
than one in a push); a child's bound is at least its parent's less one (pathmax). The keys
are proofkeys.py's, the table prooftable.py's, the rules and the bound the kernels'.
docs/machine-play.md ("Proofs in compact states") has the design and the figures.
"""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass

import numpy as np
from numba import njit
from numba.typed import List

from gridgames.games.polar import fastbounds, fastsolver, fastwalk, rules
from gridgames.games.polar.analysis import NEVER, push_bound
from gridgames.games.polar.board import BOMB, EMPTY, HEART, ICE, MOUNTAIN
from gridgames.games.polar.proofkeys import (
    CELLS,
    PENGUIN_BITS,
    RANK_MODE,
    ROW,
    clear_bits,
    decode,
    encode,
    layout,
    put_bits,
    ranked,
)
from gridgames.games.polar.prooftable import (
    KEY_MASK_LAST,
    add_start,
    find_key,
    flags_of,
    key_hash,
    push_open,
    rebuild,
    set_flags,
)

MAX_F = 62  # g and bound fit 6 bits
# Kernel status
RUNNING, LAYER_DONE, EXHAUSTED, GROW = range(4)
# meta slots
F_CUR, STORED, EXPANDED, GENERATED, BEST_GOAL, LIMIT, LAYER_EXPANDED, REOPENED, TOUCHED = range(9)


@njit(cache=True)
def _landing(cells, child, target, d, nxt, tile):
    """Where the object pushed from target ends (child: the board after the push), -1 when
    it left the board (crushed, home or blown up with a mountain)."""
    ahead = nxt[target, d]
    if ahead < 0 or cells[ahead] != EMPTY:
        return -1  # it could not slide: crushed, or home or blown up where it was
    pos = ahead
    while True:
        n = nxt[pos, d]
        if n < 0 or cells[n] != EMPTY:
            break
        pos = n
    return pos if child[pos] == tile else -1


@njit(cache=True)
def expand(table, buckets, fill, meta, max_load, slice_size, nxt, never, lay_template,
           var_cells, mountains, kind_tile, kind_mode, kind_offset, kind_bits, count_offset,
           binom, mountain_id, bombable, keymap, far_rows, crossed_rows, reach_rows,
           joint_rows, bomb_rows, walk_rows):
    """Expand up to slice_size states of the lowest layer; returns RUNNING, LAYER_DONE (the
    layer meta[F_CUR] is used up: the caller moves on), EXHAUSTED (no layer left) or GROW
    (the table is over max_load full: the caller gives a bigger one).

    A child's key is the parent's with the pushed kind's field (and the penguin's, and the
    mountains' after a bomb) worked out again; a heart pushed to a cell it can never get
    home from is dropped before anything else (the bound would say so, table row unchanged)."""
    words = table.shape[1]
    last = words - 1
    parent_key = np.empty(words, np.uint64)
    cells = np.zeros(ROW, np.uint8)
    kids = np.zeros((4 * CELLS, ROW), np.uint8)  # an expansion's children, their keys...
    kid_keys = np.zeros((4 * CELLS, words), np.uint64)
    kid_hash = np.zeros(4 * CELLS, np.uint64)
    kid_kind = np.zeros(4 * CELLS, np.int64)
    table_mask = np.uint64(table.shape[0] - 1)
    scratch = np.zeros(CELLS, np.uint8)
    dist = np.empty(CELLS, np.int32)
    queue = np.empty(CELLS, np.int32)
    events = np.empty((rules.MOST_EVENTS, rules.EVENT_WIDTH), np.int32)  # read by `moved`
    var_index = np.full(CELLS, -1, np.int64)
    for i in range(var_cells.size):
        var_index[var_cells[i]] = i
    members = np.zeros((3, CELLS), np.int64)
    counts = np.zeros(3, np.int64)
    capacity = table.shape[0]
    f = meta[F_CUR]
    for _ in range(slice_size):
        if meta[STORED] + 4 * CELLS > max_load * capacity:
            return GROW
        limit = min(meta[LIMIT], meta[BEST_GOAL] - 1)  # store states with f <= limit
        if f > limit:
            return EXHAUSTED
        if fill[f] == 0:
            return LAYER_DONE
        fill[f] -= 1
        s = np.int64(buckets[f][fill[f]])
        g, h, closed = flags_of(table, s)
        if closed:
            continue
        set_flags(table, s, g, h, 1)
        for w in range(words):
            parent_key[w] = table[s, w]
        parent_key[last] &= np.uint64(KEY_MASK_LAST)
        penguin = decode(parent_key, cells, lay_template, var_cells, mountains, kind_tile,
                         kind_mode, kind_offset, kind_bits, count_offset, binom)
        counts[:] = 0
        for i in range(var_cells.size):
            t = cells[var_cells[i]]
            kind = 0 if t == ICE else 1 if t == HEART else 2 if t == BOMB else -1
            if kind >= 0:
                members[kind, counts[kind]] = i
                counts[kind] += 1
        table_key = fastbounds.table_key(cells, mountain_id)
        prow = fastbounds.find_row(keymap, table_key)
        if prow >= fastbounds.TABLES - 1:
            prow = -1  # the spare row, kept for no key: worked out again each time
        bombs_left = table_key & 1
        meta[EXPANDED] += 1
        meta[LAYER_EXPANDED] += 1
        fastwalk.walk_reach(cells, penguin, nxt, dist, queue)
        gc = g + 1
        n_kids = 0
        for target in range(CELLS):
            tile = cells[target]
            if tile != ICE and tile != HEART and tile != BOMB:
                continue
            kind = 0 if tile == ICE else 1 if tile == HEART else 2
            for d in range(4):
                stand = nxt[target, d ^ 1]  # U, D, L, R: d ^ 1 is the opposite
                if stand < 0 or dist[stand] < 0:
                    continue
                child = kids[n_kids]
                for c in range(ROW):
                    child[c] = cells[c]
                if not rules.moved(events, rules.push(child, target, d, nxt, events)):
                    continue
                meta[GENERATED] += 1
                landed = _landing(cells, child, target, d, nxt, tile)
                if landed < 0 and kind == 1 and counts[1] == 1:  # the last heart home
                    if gc < meta[BEST_GOAL]:
                        meta[BEST_GOAL] = gc
                    continue
                if kind == 1 and landed >= 0 and prow >= 0 and far_rows[prow, landed] >= never:
                    continue  # that heart can never get home: lost
                first = fastwalk.region_first(child, stand)
                key = kid_keys[n_kids]
                for w in range(words):
                    key[w] = parent_key[w]
                clear_bits(key, 0, PENGUIN_BITS)
                put_bits(key, 0, first + 1, PENGUIN_BITS)
                if kind == 2 and landed < 0:  # a bomb went off with a mountain
                    for j in range(mountains.size):
                        if child[mountains[j]] != MOUNTAIN:
                            clear_bits(key, PENGUIN_BITS + j, 1)
                gone = var_index[target]
                added = var_index[landed] if landed >= 0 else -1
                if kind_mode[kind] == RANK_MODE:
                    k = counts[kind] - (1 if landed < 0 else 0)
                    r = ranked(members[kind], counts[kind], gone, added, binom)
                    clear_bits(key, kind_offset[kind], kind_bits[kind])
                    put_bits(key, kind_offset[kind], count_offset[kind, k] + r, kind_bits[kind])
                else:
                    clear_bits(key, kind_offset[kind] + gone, 1)
                    if added >= 0:
                        put_bits(key, kind_offset[kind] + added, 1, 1)
                kid_hash[n_kids] = key_hash(key)
                kid_kind[n_kids] = kind
                n_kids += 1
        # Touch every child's first slot in one tight loop: the loads miss the cache
        # independently, so the memory fetches them side by side, not one after another.
        touched = np.uint64(0)
        for m in range(n_kids):
            touched += table[np.int64(kid_hash[m] & table_mask), 0]
        meta[TOUCHED] += touched & np.uint64(1)
        for m in range(n_kids):
            key = kid_keys[m]
            child = kids[m]
            at = find_key(table, key, kid_hash[m])
            if at >= 0:
                g_old, h_old, _ = flags_of(table, at)
                if g_old <= gc:
                    continue
                hc = max(h_old, h - 1)  # reached with fewer pushes: open it again
                if gc + hc > limit:
                    continue
                set_flags(table, at, gc, hc, 0)
                meta[REOPENED] += 1
                push_open(buckets, fill, max(gc + hc, f), at)
                continue
            if kid_kind[m] != 2 and prow >= 0:  # the same tables as the parent's
                hc = fastbounds.bound_at(child, prow, bombs_left, bombable, nxt, never, far_rows,
                                   crossed_rows, reach_rows, joint_rows, bomb_rows,
                                   walk_rows, True, -1, 0)
            else:
                hc = fastbounds.relaxed_bound(child, mountain_id, bombable, nxt, never, keymap,
                                        far_rows, crossed_rows, reach_rows, joint_rows,
                                        bomb_rows, walk_rows, scratch, True, -1, 0)
            if hc >= never:
                continue
            hc = max(hc, h - 1)
            if gc + hc > limit:
                continue
            slot = -1 - at
            for w in range(words):
                table[slot, w] = key[w]
            set_flags(table, slot, gc, hc, 0)
            meta[STORED] += 1
            push_open(buckets, fill, max(gc + hc, f), slot)
    return RUNNING


def rss_bytes() -> int:
    """Peak resident memory of this process so far (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def current_rss() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize()
    except OSError:
        return rss_bytes()


@dataclass
class Layer:
    f: int  # every state with g + bound = f (and less) expanded when it ends
    expanded: int  # states expanded in this layer
    stored: int  # states in the table when it ended
    seconds: float
    rss: int  # peak resident bytes by then


@dataclass
class Proof:
    target: int  # the bound asked for: the search looks for wins of fewer pushes
    lower: int  # proven: every win takes at least this many pushes
    fewest: int | None  # proven fewest (a win found at the lowest layer), else None
    complete: bool  # the search ended (not stopped by time or memory)
    stopped: str  # "", "time", "memory"
    layers: list[Layer]
    stored: int
    expanded: int
    generated: int
    reopened: int
    seconds: float
    peak_rss: int
    peak_arrays: int  # the table and open list at their largest (both tables while growing)
    table_bytes: int
    key_bits: int  # the state's bits (the flags take 13 more)
    words: int
    slots: int

    @property
    def bytes_per_state(self) -> float:
        """Table and open list (4 bytes a slot pushed) per state stored."""
        return (self.table_bytes + 4 * self.stored) / max(1, self.stored)


class ProofSearch:
    """One proof: every state with g + bound <= target - 1, lowest f first."""

    def __init__(self, board: bytes | tuple[int, ...], penguin: int, target: int,
                 memory_cap: int = 14 << 30, slots: int = 1 << 16, max_load: float = 0.75):
        board = bytes(board)
        if target - 1 > MAX_F:
            raise ValueError(f"bounds up to {MAX_F + 1} pushes fit the key's 6-bit g")
        self.board, self.penguin, self.target = board, penguin, target
        self.lay = layout(board)
        self.memory_cap = memory_cap
        self.max_load = max_load
        # The kernel's bound tables (a search of a handful of rows: only its tables are used).
        self.tables = fastsolver.Search(board, penguin, True, False, capacity=16)
        self.table = np.zeros((max(16, 1 << (slots - 1).bit_length()), self.lay.words),
                              np.uint64)
        self.buckets = List([np.empty(0, np.uint32) for _ in range(MAX_F + 2)])
        self.fill = np.zeros(MAX_F + 2, np.int64)
        self.meta = np.zeros(9, np.int64)
        self.meta[LIMIT] = target - 1
        self.meta[BEST_GOAL] = MAX_F + 2
        self.start_bound = push_bound(board, penguin)
        self.layers: list[Layer] = []
        self.stopped = ""
        self.peak_arrays = 0
        if HEART not in board:
            self.meta[BEST_GOAL] = 0
        elif self.start_bound < NEVER and self.start_bound <= target - 1:
            key = np.zeros(self.lay.words, np.uint64)
            first = fastwalk.region_first(self._row(board), penguin)
            self._encode(self._row(board), first, key)
            slot = int(add_start(self.table, key, self.start_bound))
            self.meta[STORED] = 1
            push_open(self.buckets, self.fill, self.start_bound, slot)
        self.meta[F_CUR] = min(self.start_bound, MAX_F + 1)

    @staticmethod
    def _row(board: bytes) -> np.ndarray:
        row = np.zeros(ROW, np.uint8)
        row[:CELLS] = np.frombuffer(board, np.uint8)
        return row

    def _encode(self, row: np.ndarray, penguin: int, key: np.ndarray) -> None:
        lay = self.lay
        encode(row, penguin, key, lay.var_cells, lay.mountains, lay.kind_mode, lay.kind_offset,
               lay.kind_bits, lay.count_offset, lay.binom)

    def decode(self, key: np.ndarray) -> tuple[bytes, int]:
        lay = self.lay
        row = np.zeros(ROW, np.uint8)
        first = decode(key, row, lay.template, lay.var_cells, lay.mountains, lay.kind_tile,
                       lay.kind_mode, lay.kind_offset, lay.kind_bits, lay.count_offset,
                       lay.binom)
        return bytes(row[:CELLS]), int(first)

    def _grow(self) -> bool:
        """Double the table when the memory cap allows (old and new held at once)."""
        new_bytes = 2 * self.table.nbytes
        open_bytes = sum(b.nbytes for b in self.buckets)
        if self.table.nbytes + new_bytes + 2 * open_bytes > self.memory_cap:
            return False
        old = self.table
        self.table = np.zeros((2 * old.shape[0], old.shape[1]), np.uint64)
        self.peak_arrays = max(self.peak_arrays, old.nbytes + self._arrays())
        for f in range(len(self.buckets)):
            self.buckets[f] = np.empty(0, np.uint32)
        rebuild(old, self.table, self.buckets, self.fill, int(self.meta[F_CUR]))
        del old
        return True

    def _arrays(self) -> int:
        return self.table.nbytes + sum(b.nbytes for b in self.buckets)

    def lower(self) -> int:
        """Proven now: every state with f below the current layer is expanded."""
        return min(int(self.meta[F_CUR]), int(self.meta[BEST_GOAL]), self.target)

    def run(self, max_seconds: float = 3600.0, report=None, slice_size: int = 50_000) -> Proof:
        lay, t = self.lay, self.tables
        start = time.monotonic()
        done = False
        while not done:
            if time.monotonic() - start > max_seconds:
                self.stopped = "time"
                break
            status = expand(self.table, self.buckets, self.fill, self.meta, self.max_load,
                            slice_size, rules.NEXT, NEVER, lay.template, lay.var_cells,
                            lay.mountains, lay.kind_tile, lay.kind_mode, lay.kind_offset,
                            lay.kind_bits, lay.count_offset, lay.binom, t.mountain_id,
                            t.bombable, t.keymap, t.far_rows, t.crossed_rows, t.reach_rows,
                            t.joint_rows, t.bomb_rows, t.walk_rows)
            self.peak_arrays = max(self.peak_arrays, self._arrays())
            if status == GROW:
                if not self._grow():
                    if self.max_load < 0.9:  # fill further before giving up
                        self.max_load = 0.9
                        continue
                    self.stopped = "memory"
                    break
            elif status in (LAYER_DONE, EXHAUSTED):
                f = int(self.meta[F_CUR])
                if f <= self.target - 1 and f < int(self.meta[BEST_GOAL]):
                    layer = Layer(f, int(self.meta[LAYER_EXPANDED]), int(self.meta[STORED]),
                                  time.monotonic() - start, rss_bytes())
                    self.layers.append(layer)
                    if report:
                        report(layer)
                self.buckets[f] = np.empty(0, np.uint32)
                self.meta[LAYER_EXPANDED] = 0
                self.meta[F_CUR] = f + 1
                if status == EXHAUSTED or f + 1 > min(self.target - 1,
                                                       int(self.meta[BEST_GOAL]) - 1):
                    done = True
        seconds = time.monotonic() - start
        best = int(self.meta[BEST_GOAL])
        lower = self.lower() if self.stopped else min(self.target, best)
        fewest = best if (best <= self.target - 1 and lower >= best) else None
        return Proof(self.target, lower, fewest, not self.stopped, self.stopped, self.layers,
                     int(self.meta[STORED]), int(self.meta[EXPANDED]),
                     int(self.meta[GENERATED]), int(self.meta[REOPENED]), seconds, rss_bytes(),
                     self.peak_arrays, self.table.nbytes, lay.bits, lay.words,
                     self.table.shape[0])


def prove(board: bytes | tuple[int, ...], penguin: int, target: int, max_seconds: float = 3600,
          memory_cap: int = 14 << 30, slots: int = 1 << 16, report=None) -> Proof:
    """Try to prove that every win of the level takes at least `target` pushes. The answer's
    `lower` is what is proven (target when the search ended without a win below it);
    `fewest` is set when a win with fewer pushes was found (then proven fewest)."""
    return ProofSearch(board, penguin, target, memory_cap, slots).run(max_seconds, report)
