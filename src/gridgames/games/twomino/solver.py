"""2mino solvers: an exact-cover search that counts solutions, and a deduction solver that
grades a puzzle by the hardest technique it needs (as Simon Tatham's Dominosa does).

A placement is a domino on two adjacent cells (named by the bar between them); a solution
uses every cell once and every value once. The techniques, level by level, are in
docs/machine-play.md ("2mino's solver"). Each step is recorded (technique, why, placements
placed or ruled out) for hints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gridgames.core.bits import bits
from gridgames.core.capabilities import Checker, Hint, Hinter, Solver
from gridgames.core.result import PROVEN, Budget, Meter, Result, game_over
from gridgames.games.twomino.deductions import Finding, forcing_chains, set_analysis
from gridgames.games.twomino.layout import LEVELS, Layout, domino_name, layout, pair_index

SOLVED = "the puzzle is solved"  # machine play's note on a finished puzzle


@dataclass
class Puzzle:
    """Placements of a board as bit masks over placement numbers."""

    lay: Layout
    symbols: tuple[int, ...]
    bars: list[int]  # placement -> bar
    values: list[int]  # placement -> pair value
    cell_mask: list[int]  # cell -> placements covering it
    value_mask: list[int]  # value -> placements of that value
    conflict: list[int]  # placement -> placements it excludes (itself included)

    @classmethod
    def of(cls, n: int, symbols: tuple[int, ...], locked: frozenset[int] | set[int]) -> Puzzle:
        lay = layout(n)
        bars, values = [], []
        cell_mask = [0] * lay.grid.size
        value_mask = [0] * lay.pairs
        for bar, (a, b) in enumerate(lay.bars):
            if bar in locked:
                continue
            p = len(bars)
            bars.append(bar)
            values.append(pair_index(symbols[a], symbols[b]))
            cell_mask[a] |= 1 << p
            cell_mask[b] |= 1 << p
            value_mask[values[-1]] |= 1 << p
        conflict = []
        for p, bar in enumerate(bars):
            a, b = lay.bars[bar]
            conflict.append(cell_mask[a] | cell_mask[b] | value_mask[values[p]])
        return cls(lay, symbols, bars, values, cell_mask, value_mask, conflict)

    def cells_of(self, p: int) -> tuple[int, int]:
        return self.lay.bars[self.bars[p]]

    def describe(self, p: int) -> str:
        a, b = self.cells_of(p)
        return (f"{domino_name(self.values[p])} on {self.lay.grid.cell_name(a)} and "
                f"{self.lay.grid.cell_name(b)}")


# --- exact cover: count solutions ---


def count_solutions(puzzle: Puzzle, limit: int = 2) -> tuple[int, list[int] | None]:
    """(number of solutions up to `limit`, the first one as placements)."""
    all_cells = (1 << len(puzzle.cell_mask)) - 1
    all_values = (1 << len(puzzle.value_mask)) - 1
    found: list[list[int]] = []
    count = 0

    def search(alive: int, cells: int, values: int, chosen: list[int]) -> None:
        nonlocal count
        if not cells:
            count += 1
            if not found:
                found.append(list(chosen))
            return
        # Branch on the cell or the pair value with the fewest placements left.
        best_mask = _fewest(puzzle.cell_mask, cells, alive, (0, 1 << 30))
        best_mask = _fewest(puzzle.value_mask, values, alive, best_mask)
        for p in bits(best_mask[0]):
            a, b = puzzle.cells_of(p)
            chosen.append(p)
            search(alive & ~puzzle.conflict[p], cells & ~(1 << a) & ~(1 << b),
                   values & ~(1 << puzzle.values[p]), chosen)
            chosen.pop()
            if count >= limit:
                return

    search((1 << len(puzzle.bars)) - 1, all_cells, all_values, [])
    return count, (found[0] if found else None)


def _fewest(masks: list[int], which: int, alive: int, best: tuple[int, int]) -> tuple[int, int]:
    """(placements, count) of the entry of `which` with the fewest alive placements, if fewer
    than best's."""
    for index in bits(which):
        if best[1] <= 1:
            break
        mask = masks[index] & alive
        size = mask.bit_count()
        if size < best[1]:
            best = (mask, size)
    return best


def solve_board(n: int, symbols: tuple[int, ...],
                locked: frozenset[int] | set[int]) -> list[tuple[int, int]] | None:
    """One solution as domino cell pairs, or None."""
    puzzle = Puzzle.of(n, symbols, locked)
    count, first = count_solutions(puzzle, limit=1)
    return None if not count else [puzzle.cells_of(p) for p in first]


def separators(lay: Layout, dominoes: list[tuple[int, int]]) -> list[int]:
    """The bars that are on in an arrangement: every bar but the dominoes' middles."""
    middles = {lay.bar_index[(min(a, b), max(a, b))] for a, b in dominoes}
    return [b for b in range(len(lay.bars)) if b not in middles]


# --- deductions ---


@dataclass
class Step:
    level: str
    why: str
    placed: list[int] = field(default_factory=list)  # placements placed
    ruled_out: list[int] = field(default_factory=list)  # placements ruled out


@dataclass
class Deduction:
    solved: bool
    grade: str | None  # hardest level used; None when stuck before the end
    steps: list[Step]
    puzzle: Puzzle
    placed: list[int]


class Deducer:
    def __init__(self, puzzle: Puzzle, max_level: str) -> None:
        self.p = puzzle
        self.max_level = LEVELS.index(max_level)
        self.alive = (1 << len(puzzle.bars)) - 1
        self.free_cells = set(range(len(puzzle.cell_mask)))
        self.free_values = set(range(len(puzzle.value_mask)))
        self.placed: list[int] = []
        self.steps: list[Step] = []
        self.hardest = 0

    def place(self, p: int, level: int, why: str) -> None:
        gone = self.alive & self.p.conflict[p] & ~(1 << p)
        self.alive &= ~self.p.conflict[p] | (1 << p)
        a, b = self.p.cells_of(p)
        self.free_cells -= {a, b}
        self.free_values.discard(self.p.values[p])
        self.placed.append(p)
        self.alive &= ~(1 << p)
        self.steps.append(Step(LEVELS[level], why, [p], list(bits(gone))))
        self.hardest = max(self.hardest, level)

    def rule_out(self, mask: int, level: int, why: str) -> None:
        mask &= self.alive
        self.alive &= ~mask
        self.steps.append(Step(LEVELS[level], why, [], list(bits(mask))))
        self.hardest = max(self.hardest, level)

    def run(self) -> bool:
        """Deduce until solved (True) or stuck or contradicted (False)."""
        techniques = [self.trivial, self.basic, self.hard, self.extreme]
        techniques = techniques[:self.max_level + 1]
        while self.free_cells:
            if any(self.alive & self.p.cell_mask[c] == 0 for c in self.free_cells):
                return False  # contradiction: no solution
            if not any(t() for t in techniques):
                return False
        return True

    def give(self, p: int) -> None:
        """A hint from outside: placement p is ruled out (its bar is locked on)."""
        self.alive &= ~(1 << p)
        self.steps.append(Step("given", f"{self.p.describe(p)} is ruled out by a locked bar",
                               [], [p]))

    # trivial

    def trivial(self) -> bool:
        for value in sorted(self.free_values):
            mask = self.p.value_mask[value] & self.alive
            if mask.bit_count() == 1:
                p = mask.bit_length() - 1
                self.place(p, 0, f"{self.p.describe(p)}: the only place left for that pair")
                return True
        for cell in sorted(self.free_cells):
            mask = self.p.cell_mask[cell] & self.alive
            if mask.bit_count() == 1:
                p = mask.bit_length() - 1
                name = self.p.lay.grid.cell_name(cell)
                self.place(p, 0, f"{self.p.describe(p)}: the only domino that can cover {name}")
                return True
        return False

    # basic

    def basic(self) -> bool:
        for cell in sorted(self.free_cells):
            mask = self.p.cell_mask[cell] & self.alive
            values = {self.p.values[p] for p in bits(mask)}
            if len(values) == 1:
                value = values.pop()
                elsewhere = self.p.value_mask[value] & self.alive & ~mask
                if elsewhere:
                    self.rule_out(elsewhere, 1, f"every domino on {self.p.lay.grid.cell_name(cell)}"
                                  f" is {domino_name(value)}, so it is nowhere else")
                    return True
        for p in bits(self.alive):
            rest = self.alive & ~self.p.conflict[p]
            a, b = self.p.cells_of(p)
            for cell in self.free_cells - {a, b}:
                if not rest & self.p.cell_mask[cell]:
                    self.rule_out(1 << p, 1, f"{self.p.describe(p)} would leave "
                                  f"{self.p.lay.grid.cell_name(cell)} with no domino")
                    return True
            for value in self.free_values - {self.p.values[p]}:
                if not rest & self.p.value_mask[value]:
                    self.rule_out(1 << p, 1, f"{self.p.describe(p)} would leave pair "
                                  f"{domino_name(value)} no place")
                    return True
        for p in bits(self.alive):
            twins = self._forced_twins(p)
            if twins:
                (s, t), value = twins
                self.rule_out(1 << p, 1, f"{self.p.describe(p)} would leave both "
                              f"{self.p.lay.grid.cell_name(s)} and {self.p.lay.grid.cell_name(t)}"
                              f" only {domino_name(value)}, which is one domino")
                return True
        for p, sizes in self._even_bridges():
            self.rule_out(1 << p, 1, f"{self.p.describe(p)} would split the free cells into "
                          f"two parts of {sizes[0] - 1} and {sizes[1] - 1} cells, both odd")
            return True
        return False

    def _forced_twins(self, p: int) -> tuple[tuple[int, int], int] | None:
        """Two cells next to placement p that p would leave with the same single pair value
        and no domino joining them: then that pair would be needed twice."""
        a, b = self.p.cells_of(p)
        beside = (self.p.cell_mask[a] | self.p.cell_mask[b]) & self.alive
        forced: dict[int, list[int]] = {}  # value -> cells left only that value
        for q in bits(beside & ~(1 << p)):
            x, y = self.p.cells_of(q)
            cell = y if x in (a, b) else x
            left = self.p.cell_mask[cell] & self.alive & ~beside
            values = {self.p.values[r] for r in bits(left)}
            if len(values) == 1:
                value = values.pop()
                for other in forced.get(value, []):
                    if not left & self.p.cell_mask[other]:
                        return (other, cell), value
                forced.setdefault(value, []).append(cell)
        return None

    def _even_bridges(self) -> list[tuple[int, tuple[int, int]]]:
        """Placements whose two cells each sit on a side of even size when the graph of free
        cells (joined where a domino can lie) falls apart without that placement: placing it
        leaves two odd areas. Bridges come from one depth-first search (Tarjan)."""
        order: dict[int, int] = {}
        low: dict[int, int] = {}
        size: dict[int, int] = {}
        found = []
        for root in sorted(self.free_cells):
            if root in order:
                continue
            tree: list[tuple[int, int]] = []  # (placement, child) tree edges in this component
            stack = [(root, -1, iter(bits(self.p.cell_mask[root] & self.alive)))]
            order[root] = low[root] = len(order)
            size[root] = 1
            while stack:
                cell, via, edges = stack[-1]
                q = next(edges, None)
                if q is None:
                    stack.pop()
                    if stack:
                        parent = stack[-1][0]
                        low[parent] = min(low[parent], low[cell])
                        size[parent] += size[cell]
                        tree.append((via, cell))
                    continue
                if q == via:
                    continue
                x, y = self.p.cells_of(q)
                near = y if x == cell else x
                if near in order:
                    low[cell] = min(low[cell], order[near])
                else:
                    order[near] = low[near] = len(order)
                    size[near] = 1
                    stack.append((near, q, iter(bits(self.p.cell_mask[near] & self.alive))))
            total = size[root]
            for q, child in tree:
                x, y = self.p.cells_of(q)
                parent = y if x == child else x
                if low[child] > order[parent]:
                    sides = (size[child], total - size[child])
                    if sides[0] % 2 == 0 and sides[1] % 2 == 0:
                        found.append((q, sides))
        return sorted(found)

    # hard and extreme

    def hard(self) -> bool:
        return self.apply(set_analysis(self.p, self.alive, self.free_cells, doubles=False), 2)

    def extreme(self) -> bool:
        return (self.apply(set_analysis(self.p, self.alive, self.free_cells, doubles=True), 3)
                or self.apply(forcing_chains(self.p, self.alive, self.free_cells), 3))

    def apply(self, finding: Finding | None, level: int) -> bool:
        if finding is None or not finding.ruled_out & self.alive:
            return False
        self.rule_out(finding.ruled_out, level, finding.why)
        return True


def deduce(n: int, symbols: tuple[int, ...], locked: frozenset[int] | set[int],
           max_level: str = "extreme") -> Deduction:
    puzzle = Puzzle.of(n, symbols, locked)
    deducer = Deducer(puzzle, max_level)
    solved = deducer.run()
    return Deduction(solved, LEVELS[deducer.hardest] if solved else None, deducer.steps,
                     puzzle, deducer.placed)


def next_hint(n: int, symbols: tuple[int, ...], locked: frozenset[int],
              on: frozenset[int]) -> tuple[str, str] | None:
    """(bar move, why) for the first deduction the board does not show yet, else None."""
    result = deduce(n, symbols, locked)
    lay = result.puzzle.lay
    for step in result.steps:
        wanted: list[tuple[int, bool]] = []
        for p in step.placed:
            bar = result.puzzle.bars[p]
            wanted.append((bar, False))
            wanted.extend((b, True) for b in lay.outline(bar))
        wanted.extend((result.puzzle.bars[p], True) for p in step.ruled_out)
        for bar, should_be_on in wanted:
            if (bar in on) != should_be_on:
                state = "on" if should_be_on else "off"
                return lay.bar_name(bar), f"{step.why}: turn it {state}"
    return None


class TwoMinoSolver(Solver, Hinter, Checker):
    """The `solver`, `hints` and `checker` entries. Every answer comes from a search that
    finishes (exact cover, or deduction), so every answer is proven."""

    def solve(self, state: Any, budget: Budget) -> Result[list[str]]:
        """Bars to toggle from here to a solution (one of them when there are several)."""
        meter = Meter(budget)
        if state.won:  # another solution's bars would be moves after the end
            return game_over(meter, SOLVED)
        solution = solve_board(state.n, state.symbols, state.locked)
        if solution is None:
            return meter.result(None, PROVEN, "no solution with these locked bars")
        lay = layout(state.n)
        target = frozenset(separators(lay, solution))
        return meter.result([lay.bar_name(b) for b in sorted(state.on ^ target)], PROVEN)

    def hint(self, state: Any, budget: Budget) -> Result[Hint]:
        meter = Meter(budget)
        if state.won:
            return game_over(meter, SOLVED)
        found = next_hint(state.n, state.symbols, state.locked, state.on)
        if found is None:
            return meter.result(None, PROVEN, "no deduction left from here: check your bars")
        return meter.result(Hint(*found), PROVEN)

    def check(self, state: Any, budget: Budget) -> Result[list[str]]:
        """Bars turned on that no solution has on (each tried against the solver)."""
        meter = Meter(budget)
        lay = layout(state.n)
        wrong = []
        for bar in sorted(state.on - state.locked):
            # Is there a solution with this bar on? Lock it and see.
            if solve_board(state.n, state.symbols, state.locked | {bar}) is None:
                wrong.append(lay.bar_name(bar))
        return meter.result(wrong, PROVEN)
