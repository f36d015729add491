"""The compiled searches' states: rows of bytes, their hash table and the open states' heap.

A state is a row of ROW_BYTES bytes: the 96 cells, then the penguin key (its cell when
counting moves, its walking region's first cell when counting pushes), then padding, so that
a row reads as ROW_WORDS 64-bit words for hashing and comparing. An open-addressing table of
row indices finds a state; a binary heap of packed int64 keys (fastsolver.run packs them)
orders the open ones.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.games.polar.board import GRID

ROW_BYTES = 104
ROW_WORDS = ROW_BYTES // 8
KEY = GRID.size  # byte 96: the penguin key
# The slots of a search's `meta` array: states held, heap entries, states expanded, the goal.
N_STATES, HEAP_N, EXPANDED, GOAL = range(4)


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
def heap_push(heap_key, heap_idx, n, key, idx):
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
def heap_pop(heap_key, heap_idx, n):
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
def find_or_add(states64, hashes, table, meta, row64, h):
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
