"""The 2mino deductions above basic: set analysis (hard, and with the double: extreme) and
forcing chains (extreme). They follow the techniques Simon Tatham's Dominosa grades with, so
that our grades can be compared with his.

Each function looks at the placements still alive and returns what it can rule out (a bit mask
of placements and the reason), or None. They never place anything themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gridgames.core.bits import bits
from gridgames.games.twomino.layout import SYMBOLS, domino_name, pair_index

# Above this many cells of one symbol the subset table (2**k entries) is not built.
MAX_SET_CELLS = 16


@dataclass(frozen=True)
class Finding:
    ruled_out: int  # bit mask of placements
    why: str


def set_analysis(puzzle, alive: int, free_cells: set[int], doubles: bool) -> Finding | None:
    """Cells showing symbol v that between them can only take as many pairs as there are cells
    must take exactly those pairs, so the pairs are ruled out elsewhere.

    Two cells of the set joined by a still possible double v-v complicate the count: one domino
    may then cover two of them. That case is only used with `doubles` (extreme): k cells with
    k-1 pairs need the double inside the set; k cells with k pairs need the double to touch it.
    """
    for symbol in range(puzzle.lay.n):
        cells = [c for c in sorted(free_cells) if puzzle.symbols[c] == symbol]
        if not 3 <= len(cells) <= MAX_SET_CELLS:
            continue
        found = _symbol_sets(puzzle, alive, symbol, cells, doubles)
        if found:
            return found
    return None


def _symbol_sets(puzzle, alive: int, symbol: int, cells: list[int],
                 doubles: bool) -> Finding | None:
    k = len(cells)
    double = pair_index(symbol, symbol)
    partners = np.zeros(k, dtype=np.int64)  # cell -> bit set of the other symbols it may take
    joined = np.zeros(k, dtype=np.int64)  # cell -> set cells a double placement joins it to
    index = {cell: i for i, cell in enumerate(cells)}
    for i, cell in enumerate(cells):
        for p in bits(puzzle.cell_mask[cell] & alive):
            a, b = puzzle.cells_of(p)
            other = b if a == cell else a
            partners[i] |= 1 << puzzle.symbols[other]
            if puzzle.values[p] == double and other in index:
                joined[i] |= 1 << index[other]
    # Every subset at once, built up one cell at a time: the union of the pairs it may take,
    # and whether a double may join two of its cells.
    union = np.zeros(1 << k, dtype=np.int64)
    paired = np.zeros(1 << k, dtype=bool)
    subsets = np.arange(1 << k, dtype=np.int64)
    for i in range(k):
        lo, hi = 1 << i, 1 << (i + 1)
        union[lo:hi] = union[:lo] | partners[i]
        paired[lo:hi] = paired[:lo] | ((subsets[:lo] & joined[i]) != 0)
    size = POPCOUNT[subsets]
    pairs = POPCOUNT[union]
    useful = (pairs >= 2) & (pairs <= k - 2)  # smaller or larger sets are simpler deductions
    plain = useful & ~paired & (pairs == size)
    shapes = [("plain", plain)]
    if doubles:
        shapes += [("double inside", useful & paired & (pairs == size - 1)),
                   ("double touches", useful & paired & (pairs == size))]
    for shape, chosen in shapes:
        for subset in sorted(np.flatnonzero(chosen).tolist(), key=lambda s: (s.bit_count(), s)):
            ruled_out = _outside(puzzle, alive, symbol, [cells[i] for i in bits(subset)],
                                 int(union[subset]), shape)
            if ruled_out:
                return Finding(ruled_out, _set_reason(puzzle, symbol, cells, subset,
                                                      int(union[subset]), shape))
    return None


def _outside(puzzle, alive: int, symbol: int, members: list[int], others: int,
             shape: str) -> int:
    """Placements of the set's pairs that the set's reasoning rules out."""
    inside = 0
    for cell in members:
        inside |= 1 << cell
    ruled_out = 0
    for other in bits(others):
        value = pair_index(symbol, other)
        is_double = other == symbol
        if shape == "double touches" and not is_double:
            continue
        for p in bits(puzzle.value_mask[value] & alive):
            a, b = puzzle.cells_of(p)
            used = ((inside >> a) & 1) + ((inside >> b) & 1)
            needed = 2 if is_double and shape == "double inside" else 1
            if used < needed:
                ruled_out |= 1 << p
    return ruled_out


def _set_reason(puzzle, symbol: int, cells: list[int], subset: int, others: int,
                shape: str) -> str:
    names = ", ".join(puzzle.lay.grid.cell_name(cells[i]) for i in bits(subset))
    pairs = ", ".join(domino_name(pair_index(symbol, o)) for o in bits(others))
    s = SYMBOLS[symbol]
    if shape == "plain":
        return f"cells {names} (all {s}) can only take the pairs {pairs}, one each"
    if shape == "double inside":
        return (f"cells {names} (all {s}) can only take the pairs {pairs}: that is one pair "
                f"too few unless {s}{s} covers two of them")
    return (f"cells {names} (all {s}) can only take the pairs {pairs}: {s}{s} must cover one "
            "of them")


def _popcount_table() -> np.ndarray:
    counts = np.zeros(1 << MAX_SET_CELLS, dtype=np.int64)
    for i in range(MAX_SET_CELLS):
        counts[1 << i: 2 << i] = counts[:1 << i] + 1
    return counts


POPCOUNT = _popcount_table()  # bits set in every number below 2**16 (cell and symbol sets)


# --- forcing chains ---


def forcing_chains(puzzle, alive: int, free_cells: set[int]) -> Finding | None:
    """A cell with exactly two placements takes one or the other. Linking placements through
    such cells makes chains of two sides: one side is placed, the other is not. A side that
    would place one pair twice, or take every pair some other cell could have, is ruled out;
    a pair with a placement on both sides of a chain lies on one of those two."""
    side = _chain_sides(puzzle, alive, free_cells)
    members: dict[tuple[int, int], int] = {}
    for p, key in side.items():
        members[key] = members.get(key, 0) | (1 << p)
    for key in sorted(members):
        values = [puzzle.values[p] for p in bits(members[key])]
        if len(values) > 1 and len(set(values)) < len(values):
            twice = domino_name(next(v for v in values if values.count(v) > 1))
            return Finding(members[key], f"{_describe_chain(puzzle, members[key])} would place "
                           f"{twice} twice")
    for cell in sorted(free_cells):
        own = [p for p in bits(puzzle.cell_mask[cell] & alive)]
        if len(own) < 2:
            continue
        candidates = None
        for p in own:
            with_value = {side[q] for q in bits(puzzle.value_mask[puzzle.values[p]] & alive)}
            candidates = with_value if candidates is None else candidates & with_value
        candidates -= {side[p] for p in own}
        for key in sorted(candidates):
            name = puzzle.lay.grid.cell_name(cell)
            return Finding(members[key], f"{_describe_chain(puzzle, members[key])} would use "
                           f"every pair {name} could take")
    for value in range(len(puzzle.value_mask)):
        mask = puzzle.value_mask[value] & alive
        if mask.bit_count() <= 2:
            continue
        places = list(bits(mask))
        for i, p in enumerate(places):
            for q in places[i + 1:]:
                if side[p][0] == side[q][0] and side[p][1] != side[q][1]:
                    chain = members[side[p]] | members[side[q]]
                    return Finding(mask & ~(1 << p) & ~(1 << q),
                                   f"{domino_name(value)} is on both sides of "
                                   f"{_describe_chain(puzzle, chain)}, so it is one of "
                                   f"{puzzle.describe(p)} and {puzzle.describe(q)}")
    return None


def _chain_sides(puzzle, alive: int, free_cells: set[int]) -> dict[int, tuple[int, int]]:
    """Placement -> (chain, side): a union-find where each link says 'opposite sides'."""
    parent = {p: p for p in bits(alive)}
    flip = dict.fromkeys(parent, 0)  # parity to the parent

    def find(p: int) -> tuple[int, int]:
        parity = 0
        while parent[p] != p:
            parity ^= flip[p]
            p = parent[p]
        return p, parity

    for cell in sorted(free_cells):
        mask = puzzle.cell_mask[cell] & alive
        if mask.bit_count() != 2:
            continue
        p, q = bits(mask)
        (rp, fp), (rq, fq) = find(p), find(q)
        if rp != rq:
            parent[rq] = rp
            flip[rq] = fp ^ fq ^ 1
    return {p: find(p) for p in parent}


def _describe_chain(puzzle, mask: int) -> str:
    placed = [puzzle.describe(p) for p in bits(mask)]
    if len(placed) == 1:
        return placed[0]
    return "the chain " + ", ".join(placed)
