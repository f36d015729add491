"""The Lights Out solver: linear algebra over GF(2), then the fewest presses.

Pressing a cell twice changes nothing and presses commute, so a solution is a set of cells
x with A x = b over GF(2), where A's column for a cell marks the lights it toggles and b the
lights that are on. Gaussian elimination gives one solution and a basis of the null space;
every solution is that one plus a combination of the basis, so trying all 2^k combinations
(k is at most 8 on the boards this game offers) finds one with the fewest presses: proven,
since the search is complete.
"""

from __future__ import annotations

from typing import Any

from gridgames.core.capabilities import Hint, Hinter, Solver
from gridgames.core.result import PROVEN, Budget, Meter, Result
from gridgames.core.words import count


def fewest_presses(size: int, lights: tuple[bool, ...]) -> list[int] | None:
    """Cells to press (as few as possible), or None when the lights cannot all go out."""
    cells = size * size
    rows = []  # equation per light: (mask of cells that toggle it, 1 if the light is on)
    for light in range(cells):
        r, c = divmod(light, size)
        mask = 1 << light
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < size and 0 <= nc < size:
                mask |= 1 << (nr * size + nc)
        rows.append([mask, int(lights[light])])
    pivots: list[int] = []  # pivot column of each reduced row, in order
    rank = 0
    for col in range(cells):
        found = next((i for i in range(rank, cells) if rows[i][0] >> col & 1), None)
        if found is None:
            continue
        rows[rank], rows[found] = rows[found], rows[rank]
        for i in range(cells):
            if i != rank and rows[i][0] >> col & 1:
                rows[i][0] ^= rows[rank][0]
                rows[i][1] ^= rows[rank][1]
        pivots.append(col)
        rank += 1
    if any(rows[i][1] for i in range(rank, cells)):
        return None  # an equation 0 = 1: no solution
    free = [col for col in range(cells) if col not in pivots]
    base = sum(rows[i][1] << pivots[i] for i in range(rank))
    kernel = []
    for f in free:  # each free cell pressed, and the pivots that must follow it
        vector = 1 << f
        for i in range(rank):
            if rows[i][0] >> f & 1:
                vector |= 1 << pivots[i]
        kernel.append(vector)
    best = base
    for combo in range(1, 1 << len(kernel)):
        candidate = base
        for bit, vector in enumerate(kernel):
            if combo >> bit & 1:
                candidate ^= vector
        if candidate.bit_count() < best.bit_count():
            best = candidate
    return [cell for cell in range(cells) if best >> cell & 1]


class LightsOutSolver(Solver, Hinter):
    """The `solver` and `hints` entries: every answer is proven (the search is complete)."""

    def solve(self, state: Any, budget: Budget) -> Result[list[str]]:
        meter = Meter(budget)
        presses = fewest_presses(state.params.size, state.lights)
        if presses is None:
            return meter.result(None, PROVEN, "these lights cannot all be put out")
        return meter.result([state.grid.cell_name(c) for c in presses], PROVEN,
                            f"fewest presses: {len(presses)}")

    def hint(self, state: Any, budget: Budget) -> Result[Hint]:
        found = self.solve(state, budget)
        if not found.value:
            return found.with_value(None)
        why = (f"part of a fewest-press solution "
               f"({count(len(found.value), 'press', 'presses')} to go)")
        return found.with_value(Hint(found.value[0], why))
