"""The exact Trilobite solver (Connect-N with gravity): the game value of a position.

Score convention (that of Pascal Pons' Connect-4 benchmark sets, for any board): positive
when the side to move wins, (cells + 1 - stones on the board when the winner plays the winning
stone) // 2, so the sooner the larger; 0 for a draw; negative when the side to move loses. On
7x6 a win with your last (21st) stone scores 1.

The ideas, each small (after Pons' "Solving Connect 4", written here from the description):
- bitboards with a sentinel row (bitboard.py): a position is two integers;
- negamax with alpha-beta, and the search started with a null window at a guessed score,
  narrowed like a binary search (a null-window search only answers "above or below");
- bounds: a side that cannot win on its next stone can score at most (cells - 1 - stones)//2,
  and one that is not lost at once at least -(cells - 2 - stones)//2;
- only non-losing moves: when the opponent has a winning cell we must take it (two means we
  lose), and we never play just below an opponent's winning cell;
- move order: the moves that create the most new winning cells first, centre first on ties;
- a transposition table of upper bounds, of bounded size (the memory budget).
Winning cells for any line length come from shifted ANDs of the stones in each direction.

This is the clear reference implementation; fastsolver.py compiles the same search.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridgames.core.errors import BadInput


@dataclass
class Geometry:
    width: int
    height: int
    line: int

    def __post_init__(self) -> None:
        self.h1 = self.height + 1
        self.cells = self.width * self.height
        self.bottom = sum(1 << (c * self.h1) for c in range(self.width))
        self.board = self.bottom * ((1 << self.height) - 1)
        self.columns = [((1 << self.height) - 1) << (c * self.h1) for c in range(self.width)]
        self.tops = [1 << (c * self.h1 + self.height - 1) for c in range(self.width)]
        centre = (self.width - 1) / 2
        self.order = sorted(range(self.width), key=lambda c: (abs(c - centre), c))
        # For each direction, the (left shifts, right shifts) of each split of a window.
        self.splits = []
        for d in (1, self.h1, self.h1 - 1, self.h1 + 1):
            for before in range(self.line):
                after = self.line - 1 - before
                self.splits.append((tuple(i * d for i in range(1, before + 1)),
                                    tuple(i * d for i in range(1, after + 1))))

    def winning_cells(self, stones: int, mask: int) -> int:
        """Empty cells where `stones` would complete a line of `line`."""
        found = 0
        for left, right in self.splits:
            run = -1
            for s in left:
                run &= stones << s
            for s in right:
                run &= stones >> s
            found |= run
        return found & (self.board ^ mask)


def parse_moves(geometry: Geometry, text: str) -> tuple[int, int, int]:
    """(current, mask, moves) after a move string like 4453; BadInput when it is not a valid,
    undecided position (a full column, a line already made, a bad character)."""
    current = mask = moves = 0
    names = "123456789abcdefghijk"
    for index, ch in enumerate(text):
        col = names.find(ch)
        if not 0 <= col < geometry.width:
            raise BadInput(f"character {index + 1} ({ch!r}) is not a column")
        if mask & geometry.tops[col]:
            raise BadInput(f"move {index + 1}: column {ch} is full")
        spot = (mask + (1 << (col * geometry.h1))) & geometry.columns[col]
        if geometry.winning_cells(current, mask) & spot:
            raise BadInput(f"move {index + 1} ({ch}) ends the game: the position is decided")
        current ^= mask
        mask |= spot
        moves += 1
    if moves >= geometry.cells:
        raise BadInput("the board is full")
    return current, mask, moves


class _OverBudget(Exception):
    pass


class Solver:
    """The reference solver in plain Python. memory_mb bounds its table (about 100 bytes an
    entry in a dict)."""

    def __init__(self, width: int = 7, height: int = 6, line: int = 4,
                 memory_mb: float = 64.0) -> None:
        self.g = Geometry(width, height, line)
        self.table: dict[int, int] = {}
        self.table_entries = max(100, int(memory_mb * 1024 * 1024) // 100)
        self.nodes = 0
        self.limit = 1 << 62

    def reset(self) -> None:
        self.table.clear()
        self.nodes = 0

    # --- position helpers ---

    def possible(self, mask: int) -> int:
        return (mask + self.g.bottom) & self.g.board

    def non_losing(self, current: int, mask: int) -> int:
        possible = self.possible(mask)
        threats = self.g.winning_cells(current ^ mask, mask)
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return 0  # two cells to block: lost
            possible = forced
        return possible & ~(threats >> 1)

    def can_win_next(self, current: int, mask: int) -> bool:
        return bool(self.g.winning_cells(current, mask) & self.possible(mask))

    # --- search ---

    def negamax(self, current: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        """Score within (alpha, beta); the side to move cannot win at once."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise _OverBudget
        g = self.g
        nxt = self.non_losing(current, mask)
        if not nxt:
            return -((g.cells - moves) // 2)
        if moves >= g.cells - 2:
            return 0
        low = -((g.cells - 2 - moves) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (g.cells - 1 - moves) // 2
        key = current + mask
        bound = self.table.get(key)
        if bound is not None and bound < high:
            high = bound
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        ordered = []
        for col in reversed(g.order):
            move = nxt & g.columns[col]
            if move:
                score = self.g.winning_cells(current | move, mask).bit_count()
                ordered.append((score, move))
        ordered.sort(key=lambda sm: sm[0])  # stable: centre first among equals (reversed)
        for _, move in reversed(ordered):
            child = current ^ mask
            score = -self.negamax(child, mask | move, moves + 1, -beta, -alpha)
            if score >= beta:
                return score
            if score > alpha:
                alpha = score
        if len(self.table) >= self.table_entries:
            self.table.clear()  # the memory budget: start again rather than grow
        self.table[key] = alpha
        return alpha

    def solve(self, current: int, mask: int, moves: int, weak: bool = False,
              budget: int | None = None) -> int | None:
        """The exact score, or None when `budget` nodes were not enough."""
        self.limit = (1 << 62) if budget is None else self.nodes + budget
        try:
            return self._solve(current, mask, moves, weak)
        except _OverBudget:
            return None

    def _solve(self, current: int, mask: int, moves: int, weak: bool) -> int:
        g = self.g
        if self.can_win_next(current, mask):
            return 1 if weak else (g.cells + 1 - moves) // 2
        low, high = -((g.cells - moves) // 2), (g.cells + 1 - moves) // 2
        if weak:
            low, high = -1, 1
        while low < high:
            mid = low + (high - low) // 2
            if mid <= 0 and low // 2 < mid:
                mid = low // 2
            elif mid >= 0 and high // 2 > mid:
                mid = high // 2
            score = self.negamax(current, mask, moves, mid, mid + 1)
            if score <= mid:
                high = score
            else:
                low = score
        if weak:  # the search is fail-soft: only the sign is asked for
            return (low > 0) - (low < 0)
        return low


def analyze(solver, current: int, mask: int, moves: int, weak: bool = False,
            budget: int | None = None) -> list[int | None] | None:
    """Score of each column for the side to move (None where the column is full), with any
    solver; None when `budget` nodes (shared by all columns) were not enough."""
    g = solver.g
    limit = None if budget is None else solver.nodes + budget
    winning = g.winning_cells(current, mask)
    out: list[int | None] = []
    for col in range(g.width):
        if mask & g.tops[col]:
            out.append(None)
            continue
        move = (mask + (1 << (col * g.h1))) & g.columns[col]
        if winning & move:
            out.append(1 if weak else (g.cells + 1 - moves) // 2)
        elif moves + 1 >= g.cells:
            out.append(0)
        else:
            left = None if limit is None else max(1, limit - solver.nodes)
            score = solver.solve(current ^ mask, mask | move, moves + 1, weak, left)
            if score is None:
                return None
            out.append(-score)
    return out


def make_solver(width: int = 7, height: int = 6, line: int = 4, memory_mb: float = 64.0,
                engine: str = "auto"):
    """The compiled solver when numba is there and the board fits 63 bits, else Python."""
    if engine not in ("auto", "fast", "python"):
        raise BadInput("engine must be auto, fast or python")
    fits = width * (height + 1) <= 63
    if engine != "python" and fits:
        try:
            from gridgames.games.trilobite.fastsolver import FastSolver
        except ImportError:
            if engine == "fast":
                raise BadInput("the compiled solver needs numba") from None
        else:
            return FastSolver(width, height, line, memory_mb)
    if engine == "fast":
        raise BadInput(f"the compiled solver needs width x (height + 1) <= 63, not "
                       f"{width * (height + 1)}")
    return Solver(width, height, line, memory_mb)
