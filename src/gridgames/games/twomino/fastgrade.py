"""2mino's random boards and their grading compiled with numba, for the generator.

The same work as generator.random_board (with the same draws from the same xoshiro256**
state, so a seed still gives the same board) and as solver.Deducer run on a board without
locked bars (the same deduction at every step, so the same grade), on flat arrays. The Python
forms stay the reference and the source of the steps shown as hints; tests check that both
give the same boards and grades.

Placements are the bars of layout(n), numbered the same way. Grades are indices of LEVELS;
STUCK when the deductions allowed do not finish (or the board has no solution).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from gridgames.core.rng import Rng
from gridgames.games.twomino.board import Board, samples
from gridgames.games.twomino.layout import LEVELS, layout

STUCK = -1
MAX_SET_CELLS = 16  # as deductions.MAX_SET_CELLS: no set analysis over more cells of a symbol


# --- the random number generator: Rng.next_u64 and Rng.below on a uint64[4] state ---


@njit(cache=True)
def _next_u64(s):
    s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
    x = s1 * np.uint64(5)
    result = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s[0], s[1], s[2] = s0, s1, s2
    s[3] = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    return result


@njit(cache=True)
def _below(s, n):
    bits = 0
    while (n >> bits) > 0:
        bits += 1
    shift = np.uint64(64 - bits)
    limit = np.uint64(n)
    while True:
        value = _next_u64(s) >> shift
        if value < limit:
            return np.int64(value)


# --- random boards: generator.random_board ---


@njit(cache=True)
def _reads_one_way(cols, rows, partner, symbols, a, b, x, y):
    ra, ca = a // cols, a % cols
    rb, cb = b // cols, b % cols
    for side in (1, -1):
        dr, dc = side * (cb - ca), side * (rb - ra)
        if not (0 <= ra + dr < rows and 0 <= ca + dc < cols
                and 0 <= rb + dr < rows and 0 <= cb + dc < cols):
            continue
        c, d = a + dr * cols + dc, b + dr * cols + dc
        if partner[c] == d and symbols[c] >= 0 and (symbols[c] == y or symbols[d] == x):
            return False
    return True


@njit(cache=True)
def _random_board(n, s, base_partner, partner, symbols, pair_hi, pair_lo, dom_a, dom_b):
    """Fill partner and symbols; False when the deal gets stuck (random_board's None)."""
    rows, cols = n + 1, n
    partner[:] = base_partner
    for _ in range(8 * rows * cols):
        top, left = _below(s, rows - 1), _below(s, cols - 1)
        a = top * cols + left
        b, c, d = a + 1, a + cols, a + cols + 1
        if partner[a] == b and partner[c] == d:
            partner[a], partner[c], partner[b], partner[d] = c, a, d, b
        elif partner[a] == c and partner[b] == d:
            partner[a], partner[b], partner[c], partner[d] = b, a, d, c
    symbols[:] = -1
    count = 0
    for hi in range(n):
        for lo in range(hi + 1):
            pair_hi[count], pair_lo[count] = hi, lo
            count += 1
    for i in range(count - 1, 0, -1):
        j = _below(s, i + 1)
        pair_hi[i], pair_hi[j] = pair_hi[j], pair_hi[i]
        pair_lo[i], pair_lo[j] = pair_lo[j], pair_lo[i]
    dominoes = 0
    for cell in range(rows * cols):  # in sorted order: each cell is in one domino
        if partner[cell] > cell:
            dom_a[dominoes], dom_b[dominoes] = cell, partner[cell]
            dominoes += 1
    for i in range(dominoes - 1, 0, -1):
        j = _below(s, i + 1)
        dom_a[i], dom_a[j] = dom_a[j], dom_a[i]
        dom_b[i], dom_b[j] = dom_b[j], dom_b[i]
    left_pairs = count
    for k in range(dominoes):
        a, b = dom_a[k], dom_b[k]
        dealt = False
        for index in range(left_pairs):
            hi, lo = pair_hi[index], pair_lo[index]
            first = _reads_one_way(cols, rows, partner, symbols, a, b, hi, lo)
            second = _reads_one_way(cols, rows, partner, symbols, a, b, lo, hi)
            ways = int(first) + int(second)
            if ways == 0:
                continue
            pick = _below(s, ways)
            if first and pick == 0:
                symbols[a], symbols[b] = hi, lo
            else:
                symbols[a], symbols[b] = lo, hi
            for m in range(index, left_pairs - 1):
                pair_hi[m], pair_lo[m] = pair_hi[m + 1], pair_lo[m + 1]
            left_pairs -= 1
            dealt = True
            break
        if not dealt:
            return False
    return True


# --- the deductions: solver.Deducer without locked bars ---


@njit(cache=True)
def _pair(x, y):
    hi, lo = max(x, y), min(x, y)
    return hi * (hi + 1) // 2 + lo


@njit(cache=True)
def _popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def _kill(p, alive, bar_a, bar_b, value, cell_cnt, val_cnt):
    if alive[p]:
        alive[p] = False
        cell_cnt[bar_a[p]] -= 1
        cell_cnt[bar_b[p]] -= 1
        val_cnt[value[p]] -= 1


@njit(cache=True)
def _other(p, cell, bar_a, bar_b):
    return bar_b[p] if bar_a[p] == cell else bar_a[p]


@njit(cache=True)
def _touches(p, cell, bar_a, bar_b):
    return bar_a[p] == cell or bar_b[p] == cell


@njit(cache=True)
def _conflict(p, q, bar_a, bar_b, value):
    """Placing p rules out q (p's own conflict mask holds p too)."""
    return (value[p] == value[q] or _touches(q, bar_a[p], bar_a, bar_b)
            or _touches(q, bar_b[p], bar_a, bar_b))


@njit(cache=True)
def _grade(n, symbols, max_level, bar_a, bar_b, cell_bars, cell_nbars, popcount, w, flags,
           walk, walk_double, chosen, scratch):
    """The grade of a board without locked bars, deducing as Deducer.run does, or STUCK.
    The last six are work arrays (see _work), allocated once for a whole search."""
    cells = (n + 1) * n
    bars = bar_a.shape[0]
    values = n * (n + 1) // 2
    # Work arrays carved out of w and flags, so one allocation serves a whole search.
    value, w = w[:bars], w[bars:]
    val_start, w = w[:values + 1], w[values + 1:]
    val_list, w = w[:bars], w[bars:]
    cell_cnt, w = w[:cells], w[cells:]
    val_cnt, w = w[:values], w[values:]
    fill, w = w[:values], w[values:]
    seen, w = w[:2 * n], w[2 * n:]
    quiet_cell, quiet_value = w[:cells], w[cells:cells + values]
    alive, free_cell, free_value = (flags[:bars], flags[bars:bars + cells],
                                    flags[bars + cells:bars + cells + values])
    cell_cnt[:] = 0
    val_cnt[:] = 0
    seen[:] = -1
    quiet_cell[:] = -1
    quiet_value[:] = -1
    free_cell[:] = True
    free_value[:] = True
    for p in range(bars):
        value[p] = _pair(symbols[bar_a[p]], symbols[bar_b[p]])
        alive[p] = True
        cell_cnt[bar_a[p]] += 1
        cell_cnt[bar_b[p]] += 1
        val_cnt[value[p]] += 1
    val_start[0] = 0
    for v in range(values):
        val_start[v + 1] = val_start[v] + val_cnt[v]
    fill[:] = val_start[:values]
    for p in range(bars):
        val_list[fill[value[p]]] = p
        fill[value[p]] += 1
    free = cells
    hardest = 0
    while free:
        for c in range(cells):
            if free_cell[c] and cell_cnt[c] == 0:
                return STUCK
        for v in range(values):
            # A pair with no place left can never be placed, so the board cannot be
            # finished: the Python form ends stuck too, a few steps later.
            if free_value[v] and val_cnt[v] == 0:
                return STUCK
        placed = _trivial(cells, values, alive, free_cell, free_value, bar_a, bar_b, value,
                          cell_bars, cell_nbars, val_start, val_list, cell_cnt, val_cnt)
        if placed >= 0:
            free -= 2
            continue
        if max_level >= 1 and _basic(cells, values, alive, free_cell, free_value, bar_a,
                                     bar_b, value, cell_bars, cell_nbars, val_start,
                                     val_list, cell_cnt, val_cnt, quiet_cell, quiet_value,
                                     scratch):
            hardest = max(hardest, 1)
            continue
        if max_level >= 2 and _sets(n, False, symbols, alive, free_cell, bar_a, bar_b, value,
                                    cell_bars, cell_nbars, val_start, val_list, cell_cnt,
                                    val_cnt, popcount, walk, walk_double, chosen, seen,
                                    scratch):
            hardest = max(hardest, 2)
            continue
        if max_level >= 3 and (
                _sets(n, True, symbols, alive, free_cell, bar_a, bar_b, value, cell_bars,
                      cell_nbars, val_start, val_list, cell_cnt, val_cnt, popcount, walk,
                      walk_double, chosen, seen, scratch)
                or _chains(cells, values, alive, free_cell, bar_a, bar_b, value, cell_bars,
                           cell_nbars, val_start, val_list, cell_cnt, val_cnt, scratch)):
            hardest = max(hardest, 3)
            continue
        return STUCK
    return hardest


@njit(cache=True)
def _place(p, alive, free_cell, free_value, bar_a, bar_b, value, cell_bars, cell_nbars,
           val_start, val_list, cell_cnt, val_cnt):
    a, b, v = bar_a[p], bar_b[p], value[p]
    for cell in (a, b):
        for i in range(cell_nbars[cell]):
            _kill(cell_bars[cell, i], alive, bar_a, bar_b, value, cell_cnt, val_cnt)
        free_cell[cell] = False
    for i in range(val_start[v], val_start[v + 1]):
        _kill(val_list[i], alive, bar_a, bar_b, value, cell_cnt, val_cnt)
    free_value[v] = False


@njit(cache=True)
def _trivial(cells, values, alive, free_cell, free_value, bar_a, bar_b, value, cell_bars,
             cell_nbars, val_start, val_list, cell_cnt, val_cnt):
    """Deducer.trivial: the placement placed, or -1."""
    for v in range(values):
        if free_value[v] and val_cnt[v] == 1:
            for i in range(val_start[v], val_start[v + 1]):
                p = val_list[i]
                if alive[p]:
                    _place(p, alive, free_cell, free_value, bar_a, bar_b, value, cell_bars,
                           cell_nbars, val_start, val_list, cell_cnt, val_cnt)
                    return p
    for c in range(cells):
        if free_cell[c] and cell_cnt[c] == 1:
            for i in range(cell_nbars[c]):
                p = cell_bars[c, i]
                if alive[p]:
                    _place(p, alive, free_cell, free_value, bar_a, bar_b, value, cell_bars,
                           cell_nbars, val_start, val_list, cell_cnt, val_cnt)
                    return p
    return -1


@njit(cache=True)
def _basic(cells, values, alive, free_cell, free_value, bar_a, bar_b, value, cell_bars,
           cell_nbars, val_start, val_list, cell_cnt, val_cnt, quiet_cell, quiet_value,
           scratch):
    """Deducer.basic; True when something was ruled out.

    Its first two rules (a cell that keeps its one value; a placement that would leave a
    cell or a value no placement) are applied everywhere at once here, where Deducer rules
    out one placement and goes back to trivial. The grade is the same: those rules and
    trivial's only ever find more as placements go, so whatever their order they end on
    the same board, the one where the other rules (which the two forms apply one at a time,
    in the same order) look next; and basic was needed there exactly when trivial alone
    did not finish.

    What those two rules find at a cell (a value) depends only on the placements left
    there, which can only go: a cell (value) with as many as when the rules last found
    nothing anywhere (quiet_cell, quiet_value) is skipped."""
    gone = False
    # A cell whose placements all have one value keeps that value.
    for c in range(cells):
        if not free_cell[c] or cell_cnt[c] == quiet_cell[c]:
            continue
        only = -1
        for i in range(cell_nbars[c]):
            p = cell_bars[c, i]
            if alive[p]:
                if only == -1:
                    only = value[p]
                elif value[p] != only:
                    only = -2
        if only < 0:
            continue
        for i in range(val_start[only], val_start[only + 1]):
            q = val_list[i]
            if alive[q] and not _touches(q, c, bar_a, bar_b):
                _kill(q, alive, bar_a, bar_b, value, cell_cnt, val_cnt)
                gone = True
    # A placement that would leave a free cell or a free value no placement: it conflicts
    # with every placement left there (any one of them gives the candidates).
    for c in range(cells):
        if not free_cell[c] or cell_cnt[c] == quiet_cell[c]:
            continue
        first = -1
        for i in range(cell_nbars[c]):
            if alive[cell_bars[c, i]]:
                first = cell_bars[c, i]
                break
        if first < 0:
            return True  # emptied here: the caller finds the contradiction
        if not _one_value_but_one(c, alive, value, cell_bars, cell_nbars):
            continue
        far = _other(first, c, bar_a, bar_b)
        for i in range(cell_nbars[far]):
            gone |= _kills_cell(cell_bars[far, i], c, alive, bar_a, bar_b, value, cell_bars,
                                cell_nbars, cell_cnt, val_cnt)
        v = value[first]
        for i in range(val_start[v], val_start[v + 1]):
            gone |= _kills_cell(val_list[i], c, alive, bar_a, bar_b, value, cell_bars,
                                cell_nbars, cell_cnt, val_cnt)
    for v in range(values):
        if not free_value[v] or val_cnt[v] == quiet_value[v]:
            continue
        first = -1
        for i in range(val_start[v], val_start[v + 1]):
            if alive[val_list[i]]:
                first = val_list[i]
                break
        if first < 0:
            return True
        for cell in (bar_a[first], bar_b[first]):
            for i in range(cell_nbars[cell]):
                p = cell_bars[cell, i]
                if not alive[p] or value[p] == v:
                    continue
                hits_all = True
                for j in range(val_start[v], val_start[v + 1]):
                    q = val_list[j]
                    if alive[q] and not (_touches(q, bar_a[p], bar_a, bar_b)
                                         or _touches(q, bar_b[p], bar_a, bar_b)):
                        hits_all = False
                        break
                if hits_all:
                    _kill(p, alive, bar_a, bar_b, value, cell_cnt, val_cnt)
                    gone = True
    if gone:
        return True
    quiet_cell[:] = cell_cnt
    quiet_value[:] = val_cnt
    # Two cells beside a placement left only the same one value and no domino joining them.
    bars = bar_a.shape[0]
    table = scratch[8 * cells + 64:12 * cells + 64]
    _single_values(cells, alive, value, cell_bars, cell_nbars, table)
    for p in range(bars):
        if alive[p] and _forced_twins(p, alive, bar_a, bar_b, cell_bars, cell_nbars, table,
                                      scratch):
            _kill(p, alive, bar_a, bar_b, value, cell_cnt, val_cnt)
            return True
    # Area parity.
    q = _even_bridge(cells, alive, free_cell, bar_a, bar_b, cell_bars, cell_nbars, scratch)
    if q >= 0:
        _kill(q, alive, bar_a, bar_b, value, cell_cnt, val_cnt)
        return True
    return False


@njit(cache=True)
def _one_value_but_one(c, alive, value, cell_bars, cell_nbars):
    """Whether all placements on c but at most one share a value. Otherwise no placement
    can rule out all of them: one off c touches at most one of c's neighbours (the grid has
    no triangles), so it conflicts with the others only through their value."""
    left = 0
    for i in range(cell_nbars[c]):
        left += alive[cell_bars[c, i]]
    if left <= 2:
        return True
    for i in range(cell_nbars[c]):
        p = cell_bars[c, i]
        if not alive[p]:
            continue
        same = 0
        for j in range(cell_nbars[c]):
            q = cell_bars[c, j]
            same += alive[q] and value[q] == value[p]
        if same >= left - 1:
            return True
    return False


@njit(cache=True)
def _kills_cell(p, c, alive, bar_a, bar_b, value, cell_bars, cell_nbars, cell_cnt, val_cnt):
    """Rule p out if placing it would leave cell c (not its own) with no placement."""
    if not alive[p] or _touches(p, c, bar_a, bar_b):
        return False
    for i in range(cell_nbars[c]):
        q = cell_bars[c, i]
        if alive[q] and not _conflict(p, q, bar_a, bar_b, value):
            return False
    _kill(p, alive, bar_a, bar_b, value, cell_cnt, val_cnt)
    return True


@njit(cache=True)
def _single_values(cells, alive, value, cell_bars, cell_nbars, table):
    """table[4 * cell + k]: the one value of the placements left on cell without its k-th
    bar (-1: none, -2: several), which is what _forced_twins asks of the cells beside."""
    for c in range(cells):
        for k in range(cell_nbars[c]):
            only = -1
            for i in range(cell_nbars[c]):
                p = cell_bars[c, i]
                if i == k or not alive[p]:
                    continue
                if only == -1:
                    only = value[p]
                elif value[p] != only:
                    only = -2
            table[4 * c + k] = only


@njit(cache=True)
def _forced_twins(p, alive, bar_a, bar_b, cell_bars, cell_nbars, table, scratch):
    """Deducer._forced_twins: whether it finds two such cells. A cell beside p lies beside
    one of its cells only (the grid has no triangles), so what p leaves it is its
    placements but the one to p's cell: table's entry."""
    forced_value = scratch[0:8]
    forced_cell = scratch[8:16]
    forced = 0
    for mine in (bar_a[p], bar_b[p]):
        for i in range(cell_nbars[mine]):
            q = cell_bars[mine, i]
            if not alive[q] or q == p:
                continue
            cell = _other(q, mine, bar_a, bar_b)
            k = 0
            while cell_bars[cell, k] != q:
                k += 1
            only = table[4 * cell + k]
            if only < 0:
                continue
            for m in range(forced):
                if forced_value[m] != only:
                    continue
                joined = False
                for j in range(cell_nbars[cell]):
                    r = cell_bars[cell, j]
                    if alive[r] and _touches(r, forced_cell[m], bar_a, bar_b):
                        joined = True
                if not joined:
                    return True
            forced_value[forced], forced_cell[forced] = only, cell
            forced += 1
    return False


@njit(cache=True)
def _even_bridge(cells, alive, free_cell, bar_a, bar_b, cell_bars, cell_nbars, scratch):
    """The lowest placement that is a bridge of the free cells' graph with an even number
    of cells on each side, or -1 (Deducer._even_bridges' first)."""
    order = scratch[0:cells]
    low = scratch[cells:2 * cells]
    size = scratch[2 * cells:3 * cells]
    via = scratch[3 * cells:4 * cells]
    up = scratch[4 * cells:5 * cells]
    stack = scratch[5 * cells:6 * cells]
    edge = scratch[6 * cells:7 * cells]
    members = scratch[7 * cells:8 * cells]
    order[:] = -1
    seen = 0
    best = -1
    for root in range(cells):
        if not free_cell[root] or order[root] >= 0:
            continue
        first = seen
        order[root] = low[root] = seen
        seen += 1
        size[root], via[root], up[root] = 1, -1, -1
        stack[0], edge[0] = root, 0
        depth = 1
        members[first] = root
        while depth:
            cell = stack[depth - 1]
            if edge[depth - 1] == cell_nbars[cell]:
                depth -= 1
                if depth:
                    parent = stack[depth - 1]
                    low[parent] = min(low[parent], low[cell])
                    size[parent] += size[cell]
                continue
            q = cell_bars[cell, edge[depth - 1]]
            edge[depth - 1] += 1
            if not alive[q] or q == via[cell]:
                continue
            near = _other(q, cell, bar_a, bar_b)
            if order[near] >= 0:
                low[cell] = min(low[cell], order[near])
            else:
                order[near] = low[near] = seen
                members[seen] = near
                seen += 1
                size[near], via[near], up[near] = 1, q, cell
                stack[depth], edge[depth] = near, 0
                depth += 1
        total = size[root]
        for k in range(first + 1, seen):
            child = members[k]
            bridge = low[child] > order[up[child]]
            even = size[child] % 2 == 0 and (total - size[child]) % 2 == 0
            if bridge and even and (best < 0 or via[child] < best):
                best = via[child]
    return best


@njit(cache=True)
def _sets(n, doubles, symbols, alive, free_cell, bar_a, bar_b, value, cell_bars, cell_nbars,
          val_start, val_list, cell_cnt, val_cnt, popcount, walk, walk_double, chosen, seen,
          scratch):
    """deductions.set_analysis: True when it ruled something out.

    What it finds for a symbol depends only on the placements touching that symbol's cells.
    Placements only go, so while their count stays what it was when the symbol last gave
    nothing (seen[doubles * n + symbol]), it gives nothing again and is skipped."""
    cells = free_cell.shape[0]
    members = scratch[0:MAX_SET_CELLS]
    partners = scratch[MAX_SET_CELLS:2 * MAX_SET_CELLS]
    joined = scratch[2 * MAX_SET_CELLS:3 * MAX_SET_CELLS]
    index = scratch[64:64 + cells]
    stride = chosen.shape[0] // 3  # each shape's part: one entry a subset at most
    for symbol in range(n):
        k = touching = 0
        for c in range(cells):
            index[c] = -1
            if free_cell[c] and symbols[c] == symbol:
                touching += cell_cnt[c]
                if k < MAX_SET_CELLS:
                    members[k] = c
                index[c] = k
                k += 1
        if not 3 <= k <= MAX_SET_CELLS or seen[doubles * n + symbol] == touching:
            continue
        double = _pair(symbol, symbol)
        for i in range(k):
            cell = members[i]
            partners[i] = joined[i] = 0
            for j in range(cell_nbars[cell]):
                p = cell_bars[cell, j]
                if not alive[p]:
                    continue
                other = _other(p, cell, bar_a, bar_b)
                partners[i] |= 1 << symbols[other]
                if value[p] == double and index[other] >= 0:
                    joined[i] |= 1 << index[other]
        # The subsets that can take between 2 and k-2 pairs (the useful ones: smaller or
        # larger sets are simpler deductions), by a depth-first walk that adds cells in
        # order and stops where the pairs pass k-2, since adding cells only adds pairs.
        # walk and walk_double hold its stack: subset, the symbols its cells may pair with,
        # next cell; a double inside.
        found = walk[3 * (MAX_SET_CELLS + 1):]  # subsets chosen of each shape
        found[:] = 0
        walk[0], walk[17], walk[34], walk_double[0] = 0, 0, 0, False
        depth = 0
        while depth >= 0:
            i = walk[34 + depth]
            if i >= k:
                depth -= 1
                continue
            walk[34 + depth] = i + 1
            subset = walk[depth] | (1 << i)
            others = walk[17 + depth] | partners[i]
            double_inside = walk_double[depth] or (walk[depth] & joined[i]) != 0
            pairs = popcount[others]
            size = depth + 1
            if pairs > k - 2 or pairs > size + (k - 1 - i):
                continue  # no set with these cells takes few enough pairs
            if pairs >= 2:
                shape = -1
                if not double_inside and pairs == size:
                    shape = 0
                elif doubles and double_inside and pairs == size - 1:
                    shape = 1
                elif doubles and double_inside and pairs == size:
                    shape = 2
                if shape >= 0:
                    chosen[shape * stride + found[shape]] = (
                        size << MAX_SET_CELLS | subset)
                    found[shape] += 1
            depth += 1
            walk[depth], walk[17 + depth], walk[34 + depth] = subset, others, i + 1
            walk_double[depth] = double_inside
        for shape in range(3):  # plain, double inside, double touches; smaller sets first
            start = shape * stride
            ordered = chosen[start:start + found[shape]]
            ordered.sort()
            for m in range(found[shape]):
                subset = ordered[m] & ((1 << MAX_SET_CELLS) - 1)
                others = 0
                for i in range(k):
                    if (subset >> i) & 1:
                        others |= partners[i]
                if _outside(symbol, shape, subset, members, others, alive, bar_a, bar_b,
                            value, val_start, val_list, cell_cnt, val_cnt, index, k, True):
                    _outside(symbol, shape, subset, members, others, alive, bar_a, bar_b,
                             value, val_start, val_list, cell_cnt, val_cnt, index, k, False)
                    return True
        seen[doubles * n + symbol] = touching
    return False


@njit(cache=True)
def _outside(symbol, shape, subset, members, others, alive, bar_a, bar_b, value, val_start,
             val_list, cell_cnt, val_cnt, index, k, dry):
    """deductions._outside: with `dry`, whether it rules anything out; else rule it out."""
    any_out = False
    for other in range(16):
        if not (others >> other) & 1:
            continue
        is_double = other == symbol
        if shape == 2 and not is_double:
            continue
        needed = 2 if is_double and shape == 1 else 1
        v = _pair(symbol, other)
        for i in range(val_start[v], val_start[v + 1]):
            p = val_list[i]
            if not alive[p]:
                continue
            used = 0
            for cell in (bar_a[p], bar_b[p]):
                at = index[cell]
                if at >= 0 and (subset >> at) & 1:
                    used += 1
            if used < needed:
                if dry:
                    return True
                any_out = True
                _kill(p, alive, bar_a, bar_b, value, cell_cnt, val_cnt)
    return any_out


@njit(cache=True)
def _find(p, parent, flip):
    parity = 0
    while parent[p] != p:
        parity ^= flip[p]
        p = parent[p]
    return p, parity


@njit(cache=True)
def _chains(cells, values, alive, free_cell, bar_a, bar_b, value, cell_bars, cell_nbars,
            val_start, val_list, cell_cnt, val_cnt, scratch):
    """deductions.forcing_chains: True when it ruled something out. A chain side's key is
    2 * root + parity, so keys sort as the Python form's (root, parity) tuples."""
    bars = bar_a.shape[0]
    parent = scratch[0:bars]
    flip = scratch[bars:2 * bars]
    key = scratch[2 * bars:3 * bars]
    for p in range(bars):
        parent[p], flip[p] = p, 0
    for c in range(cells):
        if not free_cell[c] or cell_cnt[c] != 2:
            continue
        p = q = -1
        for i in range(cell_nbars[c]):
            r = cell_bars[c, i]
            if alive[r]:
                if p < 0:
                    p = r
                else:
                    q = r
        if q < p:
            p, q = q, p
        rp, fp = _find(p, parent, flip)
        rq, fq = _find(q, parent, flip)
        if rp != rq:
            parent[rq] = rp
            flip[rq] = fp ^ fq ^ 1
    for p in range(bars):
        if alive[p]:
            root, parity = _find(p, parent, flip)
            key[p] = 2 * root + parity
    # A side that would place one pair twice.
    worst = -1
    for v in range(values):
        for i in range(val_start[v], val_start[v + 1]):
            p = val_list[i]
            if not alive[p]:
                continue
            for j in range(i + 1, val_start[v + 1]):
                q = val_list[j]
                if alive[q] and key[q] == key[p] and (worst < 0 or key[p] < worst):
                    worst = key[p]
    if worst >= 0:
        _kill_side(worst, alive, key, bar_a, bar_b, value, cell_cnt, val_cnt)
        return True
    # A side that would take every pair some cell could have.
    for c in range(cells):
        if not free_cell[c] or cell_cnt[c] < 2:
            continue
        first = -1
        for i in range(cell_nbars[c]):
            if alive[cell_bars[c, i]]:
                first = cell_bars[c, i]
                break
        best = -1
        v = value[first]
        for i in range(val_start[v], val_start[v + 1]):
            cand = key[val_list[i]]
            if not alive[val_list[i]] or (best >= 0 and cand >= best):
                continue
            ok = True
            for j in range(cell_nbars[c]):
                own = cell_bars[c, j]
                if not alive[own]:
                    continue
                if key[own] == cand:
                    ok = False
                    break
                w = value[own]
                has = False
                for m in range(val_start[w], val_start[w + 1]):
                    if alive[val_list[m]] and key[val_list[m]] == cand:
                        has = True
                        break
                if not has:
                    ok = False
                    break
            if ok:
                best = cand
        if best >= 0:
            _kill_side(best, alive, key, bar_a, bar_b, value, cell_cnt, val_cnt)
            return True
    # A pair on both sides of one chain lies on one of those two.
    for v in range(values):
        if val_cnt[v] <= 2:
            continue
        for i in range(val_start[v], val_start[v + 1]):
            p = val_list[i]
            if not alive[p]:
                continue
            for j in range(i + 1, val_start[v + 1]):
                q = val_list[j]
                if alive[q] and key[p] // 2 == key[q] // 2 and key[p] != key[q]:
                    for m in range(val_start[v], val_start[v + 1]):
                        r = val_list[m]
                        if r != p and r != q:
                            _kill(r, alive, bar_a, bar_b, value, cell_cnt, val_cnt)
                    return True
    return False


@njit(cache=True)
def _kill_side(side, alive, key, bar_a, bar_b, value, cell_cnt, val_cnt):
    for p in range(bar_a.shape[0]):
        if alive[p] and key[p] == side:
            _kill(p, alive, bar_a, bar_b, value, cell_cnt, val_cnt)


# --- the search: generator.hint_free_puzzle's loop ---


@njit(cache=True)
def _work(n, cells, bars):
    """_grade's work arrays: its numbers and flags; set analysis' stack (walk, walk_double)
    and its chosen subsets; the rest."""
    return (np.zeros(2 * bars + 4 * cells + 2 * n + 1, dtype=np.int64),
            np.zeros(bars + 2 * cells, dtype=np.bool_),
            np.zeros(3 * (MAX_SET_CELLS + 1) + 3, dtype=np.int64),
            np.zeros(MAX_SET_CELLS + 1, dtype=np.bool_),
            np.zeros(3 << min(n + 1, MAX_SET_CELLS), dtype=np.int64),  # n + 1 cells a symbol
            np.zeros(8 * cells + 4 * bars + 64, dtype=np.int64))


# nogil: a server makes puzzles in its threads, which go on while one is searched.
@njit(cache=True, nogil=True)
def _search(n, max_level, tries, s, base_partner, bar_a, bar_b, cell_bars, cell_nbars,
            popcount, partner, symbols):
    """Random boards until one grades exactly max_level (any board: max_level -1): the
    number of boards drawn (the last is in partner and symbols), or -1 when none in
    `tries`."""
    cells = (n + 1) * n
    pair_hi = np.zeros(cells, dtype=np.int64)
    pair_lo = np.zeros(cells, dtype=np.int64)
    dom_a = np.zeros(cells, dtype=np.int64)
    dom_b = np.zeros(cells, dtype=np.int64)
    w, flags, walk, walk_double, chosen, scratch = _work(n, cells, bar_a.shape[0])
    for attempt in range(tries):
        if not _random_board(n, s, base_partner, partner, symbols, pair_hi, pair_lo, dom_a,
                             dom_b):
            continue
        if max_level < 0:
            return attempt + 1
        grade = _grade(n, symbols, max_level, bar_a, bar_b, cell_bars, cell_nbars, popcount,
                       w, flags, walk, walk_double, chosen, scratch)
        if grade == max_level:
            return attempt + 1
    return -1


# --- the Python side ---


@lru_cache(maxsize=16)  # one per board size
def _tables(n: int) -> tuple[np.ndarray, ...]:
    lay = layout(n)
    bar_a = np.array([a for a, _ in lay.bars], dtype=np.int64)
    bar_b = np.array([b for _, b in lay.bars], dtype=np.int64)
    cell_bars = np.full((lay.grid.size, 4), -1, dtype=np.int64)
    cell_nbars = np.zeros(lay.grid.size, dtype=np.int64)
    for p, (a, b) in enumerate(lay.bars):  # in placement order, as the bit masks count
        for cell in (a, b):
            cell_bars[cell, cell_nbars[cell]] = p
            cell_nbars[cell] += 1
    base = np.array(samples(n).partner, dtype=np.int64)
    return bar_a, bar_b, cell_bars, cell_nbars, base


def _popcounts() -> np.ndarray:
    counts = np.zeros(1 << MAX_SET_CELLS, dtype=np.int64)
    for i in range(MAX_SET_CELLS):
        counts[1 << i: 2 << i] = counts[:1 << i] + 1
    return counts


POPCOUNT = _popcounts()


def grade(n: int, symbols: tuple[int, ...], max_level: str = "extreme") -> str | None:
    """The level deduce(n, symbols, frozenset(), max_level) grades the board, None when it
    does not solve it."""
    bar_a, bar_b, cell_bars, cell_nbars, _ = _tables(n)
    found = _grade(n, np.array(symbols, dtype=np.int64), LEVELS.index(max_level), bar_a,
                   bar_b, cell_bars, cell_nbars, POPCOUNT,
                   *_work(n, len(symbols), len(bar_a)))
    return None if found == STUCK else LEVELS[found]


def search(n: int, level: str, rng: Rng, tries: int) -> tuple[Board | None, int]:
    """(the first of `tries` random boards that grades exactly `level`, boards drawn), from
    rng's draws as generator.random_board makes them; (None, tries) when none does."""
    return _run(n, LEVELS.index(level), rng, tries)


def random_board(n: int, rng: Rng) -> Board | None:
    """generator.random_board's board, drawn here (for tests)."""
    return _run(n, -1, rng, 1)[0]


def _run(n: int, max_level: int, rng: Rng, tries: int) -> tuple[Board | None, int]:
    bar_a, bar_b, cell_bars, cell_nbars, base = _tables(n)
    state = np.array(rng.state_words(), dtype=np.uint64)
    partner = np.zeros(len(base), dtype=np.int64)
    symbols = np.zeros(len(base), dtype=np.int64)
    drawn = _search(n, max_level, tries, state, base, bar_a, bar_b, cell_bars,
                    cell_nbars, POPCOUNT, partner, symbols)
    rng.set_state_words([int(w) for w in state])
    if drawn < 0:
        return None, tries
    return Board(n, tuple(symbols.tolist()), tuple(partner.tolist())), drawn


def warm() -> None:
    """Load (or compile, the first time) the kernel."""
    search(5, "extreme", Rng("warm"), 3)
