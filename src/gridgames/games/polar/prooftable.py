"""The proof search's table of states (proof.py): open addressing with linear probing over
the keys' 64-bit words (proofkeys.py). The top 13 bits of a key's last word hold the
state's pushes g (6 bits), its bound (6 bits) and whether it was expanded, masked off when
keys are compared; the open list is a stack of table slots for each f = g + bound.
"""

from __future__ import annotations

import numpy as np
from numba import njit

FLAG_BITS = 13  # g (6), bound (6), expanded (1), at the top of the last word
G_SHIFT, H_SHIFT, CLOSED_SHIFT = 51, 57, 63
KEY_MASK_LAST = (1 << G_SHIFT) - 1


@njit(cache=True, inline="always")
def key_hash(key):
    h = np.uint64(0x9E3779B97F4A7C15)
    last = key.size - 1
    for w in range(key.size):
        v = key[w]
        if w == last:
            v &= np.uint64(KEY_MASK_LAST)
        h ^= v
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=True)
def find_key(table, key, h):
    """The slot holding key, or the empty slot where it would go (then -1 - slot)."""
    mask = np.uint64(table.shape[0] - 1)
    slot = h & mask
    words = key.size
    last = words - 1
    keep = np.uint64(KEY_MASK_LAST)
    while True:
        s = np.int64(slot)
        if table[s, 0] == 0:
            return -1 - s
        same = True
        for w in range(last):
            if table[s, w] != key[w]:
                same = False
                break
        if same and (table[s, last] & keep) == (key[last] & keep):
            return s
        slot = (slot + np.uint64(1)) & mask


@njit(cache=True)
def add_start(table, key, h):
    """Put the start's key in the table (g 0, bound h); returns its slot."""
    slot = -1 - find_key(table, key, key_hash(key))
    for w in range(key.size):
        table[slot, w] = key[w]
    set_flags(table, slot, 0, h, 0)
    return slot


@njit(cache=True, inline="always")
def flags_of(table, s):
    v = table[s, table.shape[1] - 1]
    g = np.int64((v >> np.uint64(G_SHIFT)) & np.uint64(63))
    h = np.int64((v >> np.uint64(H_SHIFT)) & np.uint64(63))
    closed = np.int64(v >> np.uint64(CLOSED_SHIFT))
    return g, h, closed


@njit(cache=True, inline="always")
def set_flags(table, s, g, h, closed):
    last = table.shape[1] - 1
    v = table[s, last] & np.uint64(KEY_MASK_LAST)
    v |= np.uint64(g) << np.uint64(G_SHIFT)
    v |= np.uint64(h) << np.uint64(H_SHIFT)
    v |= np.uint64(closed) << np.uint64(CLOSED_SHIFT)
    table[s, last] = v


@njit(cache=True)
def push_open(buckets, fill, f, slot):
    arr = buckets[f]
    n = fill[f]
    if n == arr.size:
        bigger = np.empty(max(1024, arr.size + arr.size // 2), np.uint32)
        bigger[:n] = arr
        buckets[f] = bigger
        arr = bigger
    arr[n] = np.uint32(slot)
    fill[f] = n + 1


@njit(cache=True)
def rebuild(old, table, buckets, fill, f_cur):
    """Move every state of old into table (a fresh, larger one) and open list again from the
    states not yet expanded (each once, in the layer of its f, not below the current)."""
    words = old.shape[1]
    mask = np.uint64(table.shape[0] - 1)
    key = np.empty(words, np.uint64)
    for f in range(fill.size):
        fill[f] = 0
    for s in range(old.shape[0]):
        if old[s, 0] == 0:
            continue
        for w in range(words):
            key[w] = old[s, w]
        slot = key_hash(key) & mask
        while table[np.int64(slot), 0] != 0:
            slot = (slot + np.uint64(1)) & mask
        t = np.int64(slot)
        for w in range(words):
            table[t, w] = key[w]
        g, h, closed = flags_of(old, s)
        if not closed:
            push_open(buckets, fill, max(g + h, f_cur), t)
