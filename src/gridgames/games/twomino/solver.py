"""2mino solvers: an exact-cover search that counts solutions, and a deduction solver that
grades a puzzle by the hardest technique it needs (as Simon Tatham's Dominosa does).

A placement is a domino on two adjacent cells (named by the bar between them); its value is
the pair of symbols it covers. A solution uses every cell once and every value once. Locked
bars separate cells, so placements across them are out from the start.

Deduction techniques by level (each level may use those below it):
- trivial: a value with one possible placement takes it; a cell with one possible
  placement takes it.
- basic: a cell whose placements all have one value keeps that value for itself; a placement
  that would leave some cell or some value with no placement, or would force two clashing
  dominoes (a duplicate), is ruled out; area parity: a placement that would leave a region of
  an odd number of free cells (cells joined where a domino can still lie) is ruled out.
- hard: set analysis: when k free cells showing symbol v can only take k distinct values
  between them (the double v-v aside), those values are ruled out elsewhere.
Each step is recorded (technique, why, placements placed or ruled out) for hints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from gridgames.core.bits import bits
from gridgames.games.twomino.board import SYMBOLS, Layout, layout, pair_index, pair_of_index

LEVELS = ("trivial", "basic", "hard")



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
        hi, lo = pair_of_index(self.values[p])
        return (f"{SYMBOLS[hi]}{SYMBOLS[lo]} on {self.lay.grid.cell_name(a)}-"
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


class _Deducer:
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
        techniques = [self.trivial, self.basic, self.hard][:self.max_level + 1]
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
                    hi, lo = pair_of_index(value)
                    self.rule_out(elsewhere, 1, f"every domino on {self.p.lay.grid.cell_name(cell)}"
                                  f" is {SYMBOLS[hi]}{SYMBOLS[lo]}, so it is nowhere else")
                    return True
        for p in bits(self.alive):
            rest = self.alive & ~self.p.conflict[p]
            a, b = self.p.cells_of(p)
            forced: dict[int, int] = {}  # cell -> its one remaining placement
            for cell in self.free_cells - {a, b}:
                left = rest & self.p.cell_mask[cell]
                if not left:
                    self.rule_out(1 << p, 1, f"{self.p.describe(p)} would leave "
                                  f"{self.p.lay.grid.cell_name(cell)} with no domino")
                    return True
                if left.bit_count() == 1:
                    forced[cell] = left.bit_length() - 1
            picks = set(forced.values())
            if any(self.p.conflict[q] & (1 << r) for q in picks for r in picks if q != r):
                self.rule_out(1 << p, 1, f"{self.p.describe(p)} would force two dominoes that "
                              "clash (the same pair twice, or one cell twice)")
                return True
            for value in self.free_values - {self.p.values[p]}:
                if not rest & self.p.value_mask[value]:
                    hi, lo = pair_of_index(value)
                    self.rule_out(1 << p, 1, f"{self.p.describe(p)} would leave pair "
                                  f"{SYMBOLS[hi]}{SYMBOLS[lo]} no place")
                    return True
        for p in bits(self.alive):
            if self._cuts_odd_region(p):
                self.rule_out(1 << p, 1, f"{self.p.describe(p)} would cut off an odd number "
                              "of cells")
                return True
        return False

    def _cuts_odd_region(self, p: int) -> bool:
        """Would placing p leave a region of an odd number of free cells, cells being joined
        where a domino can still lie across them?"""
        a, b = self.p.cells_of(p)
        free = self.free_cells - {a, b}
        alive = self.alive & ~self.p.conflict[p]
        seen: set[int] = set()
        for start in free:
            if start in seen:
                continue
            size, stack = 0, [start]
            seen.add(start)
            while stack:
                cell = stack.pop()
                size += 1
                for q in bits(self.p.cell_mask[cell] & alive):
                    x, y = self.p.cells_of(q)
                    near = y if x == cell else x
                    if near in free and near not in seen:
                        seen.add(near)
                        stack.append(near)
            if size % 2:
                return True
        return False

    # hard

    def hard(self) -> bool:
        for symbol in range(self.p.lay.n):
            cells = [c for c in sorted(self.free_cells) if self.p.symbols[c] == symbol]
            double = pair_index(symbol, symbol)
            options = []
            for cell in cells:
                values = {self.p.values[q] for q in bits(self.p.cell_mask[cell] & self.alive)}
                options.append(values)
            usable = [i for i, values in enumerate(options) if double not in values]
            for size in range(2, len(usable) + 1):
                for subset in combinations(usable, size):
                    union = set().union(*(options[i] for i in subset))
                    if len(union) != size:
                        continue
                    inside = 0
                    for i in subset:
                        inside |= self.p.cell_mask[cells[i]]
                    outside = 0
                    for value in union:
                        outside |= self.p.value_mask[value]
                    outside &= self.alive & ~inside
                    if outside:
                        names = ", ".join(self.p.lay.grid.cell_name(cells[i]) for i in subset)
                        self.rule_out(outside, 2, f"cells {names} (all {SYMBOLS[symbol]}) can "
                                      f"only take {size} pairs between them")
                        return True
        return False


def deduce(n: int, symbols: tuple[int, ...], locked: frozenset[int] | set[int],
           max_level: str = "hard") -> Deduction:
    puzzle = Puzzle.of(n, symbols, locked)
    deducer = _Deducer(puzzle, max_level)
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
                return lay.bar_name(bar), f"{step.why}: turn {lay.bar_name(bar)} {state}"
    return None
