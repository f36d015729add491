"""Trilobite's machine analysis: the score of every column of a position, the best columns,
and the `analyzer` entry, with either solver (the compiled one when it takes the board, else
the reference, solver.py); a pool of solvers by board shape, each with its table.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from gridgames.core.cache import BoundedCache
from gridgames.core.capabilities import Analyzer
from gridgames.core.errors import BadInput
from gridgames.core.result import BEST_FOUND, PROVEN, Budget, Meter, Result, game_over
from gridgames.core.words import count
from gridgames.games.trilobite.bitboard import Bitboard
from gridgames.games.trilobite.book import BookShelf, child_positions, position_key, win_score
from gridgames.games.trilobite.game import COLUMN_NAMES
from gridgames.games.trilobite.solver import Solver, parse_moves

UNKNOWN = -1000  # a column score the budget did not reach (no real score is this low)
# The compiled kernel cannot read the clock, so a time cap becomes nodes at its speed, which
# varies tenfold with the board (measured 1.6 million nodes a second for a line of 20 on 3x20,
# 14 million for a line of 4 on 9x6) and with the machine's load: a short first search
# (PROBE_NODES) times it here and now, then the time left is given in nodes at that speed,
# with a margin. The table keeps the probe's work, so little of it is lost.
PROBE_NODES = 200_000
SPEED_MARGIN = 0.8
SLICE_SECONDS = 0.25
SPREAD = 0.25  # of an analysis's time, spread over its columns first (column_scores)
PROVEN_SCORES = 20_000  # exact scores an analyzer keeps from its searches (a few MB)


def solve_until(solver, deadline: float | None, current: int, mask: int, moves: int,
                weak: bool = False, budget: int | None = None, **clamp: int) -> int | None:
    """solver.solve (any solver) that also stops by `deadline` (a time.monotonic() value;
    None: no clock): None when the budget or the time ran out first."""
    if deadline is None:
        return solver.solve(current, mask, moves, weak, budget, **clamp)
    started, start = time.monotonic(), solver.nodes
    if started >= deadline:
        return None
    if isinstance(solver, Solver):  # the reference reads the clock itself
        return solver.solve(current, mask, moves, weak, budget, deadline=deadline, **clamp)
    probe = PROBE_NODES if budget is None else min(budget, PROBE_NODES)
    score = solver.solve(current, mask, moves, weak, probe, **clamp)
    if score is not None or probe == budget:
        return score
    # The rest in slices of at most SLICE_SECONDS at the speed measured so far, the clock
    # read between them: a machine that gets busier mid-search (a speed 10 times lower, on a
    # loaded 2-core machine) overruns by a slice, not by the whole time left. Each slice
    # starts again from the position, with the table's work kept.
    while True:
        now = time.monotonic()
        spent = solver.nodes - start
        speed = spent / max(now - started, 1e-3)
        nodes = int(speed * min(deadline - now, SLICE_SECONDS) * SPEED_MARGIN)
        if budget is not None:
            nodes = min(nodes, budget - spent)
        if nodes <= 0:
            return None
        score = solver.solve(current, mask, moves, weak, nodes, **clamp)
        if score is not None or (budget is not None and solver.nodes - start >= budget):
            return score


def column_scores(solver, current: int, mask: int, moves: int, weak: bool = False,
                  budget: int | None = None,
                  seconds_left: Callable[[], float | None] | None = None) -> list[int | None]:
    """Score of each column for the side to move, with any solver: None where the column is
    full, UNKNOWN where `budget` nodes (shared by all columns) or the time ran out first.

    Under a time cap, a first pass spreads SPREAD of the time over the columns, so the cheap
    ones (a move refuted at once) are never left unknown behind a hard one; then each column
    still unknown in turn gets all the time left (a search cut short loses most of its work,
    so one finished column is worth more than several cut)."""
    g = solver.g
    limit = None if budget is None else solver.nodes + budget
    winning = g.winning_cells(current, mask)
    out: list[int | None] = []
    children: dict[int, int] = {}  # column -> the mask after playing it, to be searched
    for col in range(g.width):
        if mask & g.tops[col]:
            out.append(None)
            continue
        move = (mask + g.bottoms[col]) & g.columns[col]
        if winning & move:
            out.append(1 if weak else (g.cells + 1 - moves) // 2)
        elif moves + 1 >= g.cells:
            out.append(0)
        else:
            out.append(UNKNOWN)
            children[col] = mask | move
    for spread in (True, False) if seconds_left is not None else (False,):
        unsolved = [col for col in children if out[col] == UNKNOWN]
        share = None
        if spread and unsolved:
            share = (seconds_left() or 0.0) * SPREAD / len(unsolved)
        for col in unsolved:
            left = None if limit is None else limit - solver.nodes
            timed = None if seconds_left is None else seconds_left()
            if (left is not None and left <= 0) or (timed is not None and timed <= 0):
                return out
            deadline = None if timed is None else time.monotonic() + min(timed, share or timed)
            score = solve_until(solver, deadline, current ^ mask, children[col], moves + 1,
                                weak, left)
            if score is not None:
                out[col] = -score
    return out


# Nodes spent finding more best columns once one is proven: they only vary the play, so
# the search for them is cut short rather than made whole. Past the book one best column
# takes 0.1-1M nodes: 4M here was most of the slowest moves' time.
TIE_NODES = 100_000
# Each column's first question gets this many nodes, doubled each round (best_columns).
ROUND_NODES = 1 << 15


def parents_floor(known: Callable[[int, int], int | None], current: int, mask: int,
                  g) -> int | None:
    """A lower bound on the score of the side to move, from the known scores of the
    positions one move back (the other side's top stone taken off a column), or None. The
    other side played one move of such a position, which was at most as good for it as its
    best: so the score here is at least minus that position's score."""
    theirs = current ^ mask
    floor = None
    for col in range(g.width):
        stones = mask & g.columns[col]
        top = 1 << (stones.bit_length() - 1) if stones else 0
        if top & theirs:
            score = known(theirs ^ top, mask ^ top)
            if score is not None and (floor is None or -score > floor):
                floor = -score
    return floor


def best_columns(solver, current: int, mask: int, moves: int, budget: int | None = None,
                 seconds: float | None = None,
                 known: Callable[[int, int], int | None] = lambda current, mask: None,
                 tie_budget: int | None = None) -> tuple[int, list[int]] | None:
    """(the position's exact score, the columns that reach it), or None when `budget` nodes
    or `seconds` ran out before one column was proven to reach it. Cheaper than every
    column's exact score: the position's score, then one null-window question per column
    ("does it reach the score?"); `known` gives the scores an opening book (or an earlier
    search) holds, which need no search. When the budget runs out after a column was
    proven best, the columns proven so far (a best move, maybe not every one); `tie_budget`
    bounds the nodes spent looking for more once one is found (other best columns only
    vary the play).

    The position's score: when a position one move back is known, the score it implies
    (parents_floor) is asked first with one null-window question, as the other side most
    often kept its score (then the next score up, while the answer is above). The columns:
    the questions go round the columns, the centre first, with ROUND_NODES nodes each,
    doubled each round, until one column is proven best: a best column is often proven in
    a fraction of the nodes that refuting a poor one takes (on 766632222 column 6 took 0.3M
    nodes where 3, 5 and 2 took 2.6-7.3M each). The score being exact, a column is also
    proven best when every other one is proven short of it, with no search of its own (on
    54444452122 the six others took 0.9M nodes in all, where proving the seventh took
    4.4M after 8M in rounds cut short)."""
    g = solver.g
    winning = g.winning_cells(current, mask)
    children = sorted(child_positions(current, mask, g), key=lambda c: abs(2 * c[0] - g.width + 1))
    wins = [col for col, _, child_mask, _ in children if winning & (child_mask ^ mask)]
    if wins:
        return win_score(moves, g), sorted(wins)
    limit = (1 << 62) if budget is None else budget
    deadline = None if seconds is None else time.monotonic() + seconds
    start = solver.nodes

    def ask(position: tuple[int, int, int], nodes: int | None = None,
            **clamp: int) -> int | None:
        """solve_until within what is left of the budget (and at most `nodes`)."""
        left = limit - (solver.nodes - start)
        if left <= 0:
            return None
        return solve_until(solver, deadline, *position,
                           budget=left if nodes is None else min(left, nodes), **clamp)

    with solver.one_table(moves):  # the position and its children share what they find
        score = known(current, mask)
        if score is None:
            floor = parents_floor(known, current, mask, g)
            if floor is None:
                score = ask((current, mask, moves))
            else:  # one null-window question a score, up from the floor
                score = floor
                while (answer := ask((current, mask, moves), floor=score, ceiling=score + 1)) \
                        is not None and answer > score:
                    score += 1
                if answer is None:
                    return None
        if score is None:
            return None
        best: list[int] = []
        asking: list[tuple[int, int, int]] = []  # the columns to search: column, child, mask
        for col, child, child_mask, _ in children:
            answer = 0 if moves + 1 >= g.cells else known(child, child_mask)
            if answer is None:
                asking.append((col, child, child_mask))
            elif answer == -score:
                best.append(col)
        nodes = ROUND_NODES
        while asking and not best:
            if len(asking) == 1:  # every other column falls short of the exact score
                best.append(asking.pop()[0])
                break
            for item in list(asking):
                answer = ask((item[1], item[2], moves + 1), nodes,
                             floor=-score, ceiling=-score + 1)
                if answer is None:
                    if solver.nodes - start >= limit or \
                            (deadline is not None and time.monotonic() >= deadline):
                        return None  # out of budget or time
                    continue  # out of this round's nodes: the next round
                asking.remove(item)
                if answer == -score:
                    best.append(item[0])
                    break
                if len(asking) == 1:
                    break  # the last one reaches the score: the loop's test above
            nodes *= 2
        if not best:  # no column reaches the score: a wrong known score, so nothing proven
            return None
        if tie_budget is not None:
            limit = min(limit, solver.nodes - start + tie_budget)
        for col, child, child_mask in asking:
            answer = ask((child, child_mask, moves + 1), floor=-score, ceiling=-score + 1)
            if answer is None:
                break  # out of budget: the columns proven so far
            if answer == -score:
                best.append(col)
        return score, sorted(best)


def analyze(solver, current: int, mask: int, moves: int, weak: bool = False,
            budget: int | None = None) -> list[int | None] | None:
    """Every column's exact score (None where full), or None when `budget` nodes were not
    enough for all of them."""
    scores = column_scores(solver, current, mask, moves, weak, budget)
    return None if UNKNOWN in scores else scores


def compiled_fits(width: int, height: int) -> bool:
    """Whether the compiled solver takes the board: its bitboard (a sentinel row on top) fits
    a signed 64-bit integer."""
    return width * (height + 1) <= 63


def make_solver(width: int = 7, height: int = 6, line: int = 4, memory_mb: float = 64.0,
                engine: str = "auto"):
    """The compiled solver when numba is there and the board fits 63 bits, else Python.
    BadInput when its table of `memory_mb` cannot be had (a limit on the address space)."""
    if engine not in ("auto", "fast", "python"):
        raise BadInput("engine must be auto, fast or python")
    fits = compiled_fits(width, height)
    kind: Any = Solver
    if engine != "python" and fits:
        try:
            from gridgames.games.trilobite.fastsolver import FastSolver
        except ImportError:
            if engine == "fast":
                raise BadInput("the compiled solver needs numba") from None
        else:
            kind = FastSolver
    if engine == "fast" and kind is Solver:
        raise BadInput(f"the compiled solver needs width x (height + 1) <= 63, not "
                       f"{width * (height + 1)}")
    try:
        return kind(width, height, line, memory_mb)
    except MemoryError:
        raise BadInput(f"not enough memory for a table of {memory_mb:g} MB") from None


class SolverPool:
    """Solvers by board shape, owned by the game's machine play: at most `shapes` of them
    (each holds a table of `memory_mb`), one search at a time (a solver's table and counters
    are not shared between searches)."""

    def __init__(self, memory_mb: float = 64.0, shapes: int = 2) -> None:
        self.memory_mb = memory_mb
        self._solvers: BoundedCache[tuple[int, int, int], object] = BoundedCache(shapes)
        self._lock = threading.Lock()

    @contextmanager
    def borrow(self, width: int, height: int, line: int) -> Iterator[Any]:
        with self._lock:
            key = (width, height, line)
            yield self._solvers.get_or_make(
                key, lambda: make_solver(width, height, line, self.memory_mb))


class TrilobiteAnalyzer(Analyzer):
    """The exact score of every column (the `analyzer` entry): proven when every column was
    solved within the budget; otherwise the columns solved, and the others unknown."""

    score_help = ("exact score for the side to move: positive wins (the larger, the sooner), "
                  "0 draws, negative loses (the larger, the later)")

    def __init__(self, pool: SolverPool, books: BookShelf | None = None) -> None:
        self.pool = pool
        self.books = books if books is not None else BookShelf(folders=[])
        # Exact scores the perfect level's searches proved (the position's, its best
        # columns'), by shape and position key: the next move's search starts from them
        # (parents_floor), as a game's next position is one of these plus one stone.
        self.proven: BoundedCache[tuple[int, int, int, int], int] = BoundedCache(PROVEN_SCORES)

    def warm(self) -> None:
        """Load (or compile, the first time) the compiled solver before it is needed."""
        with self.pool.borrow(7, 6, 4) as solver:
            solver.solve(*parse_moves(solver.g, "4444"), budget=1000)

    def scores(self, state: Any, budget: Budget) -> tuple[list[int | None], Meter]:
        """Per column: score, None (full) or UNKNOWN; and the meter of the work."""
        meter = Meter(budget)
        board = Bitboard.of(state)
        if state.over:
            return [None] * board.width, meter
        book = self._book(board)
        if book is not None:  # the opening book first: a look-up
            known = book.column_scores(board.current, board.mask, board.moves)
            if known is not None:
                return known, meter
        with self.pool.borrow(board.width, board.height, board.line) as solver:
            before = solver.nodes
            scores = column_scores(solver, board.current, board.mask, board.moves,
                                   budget=budget.nodes,
                                   seconds_left=(lambda: meter.seconds_left)
                                   if budget.seconds is not None else None)
            meter.nodes = solver.nodes - before
        return scores, meter

    def _book(self, board: Bitboard):
        """The opening book of this board's shape (books key positions in 64 bits)."""
        if board.width * (board.height + 1) > 64:
            return None
        return self.books.get(board.width, board.height, board.line)

    def _known(self, board: Bitboard) -> Callable[[int, int], int | None]:
        """The exact score of a position of this board's shape from the book or an earlier
        search, or None."""
        book = self._book(board)
        g, shape = board.g, (board.width, board.height, board.line)

        def known(current: int, mask: int) -> int | None:
            score = None if book is None else book.score(current, mask)
            if score is None:
                score = self.proven.get((*shape, position_key(current, mask, g)))
            return score
        return known

    def _remember(self, board: Bitboard, score: int, columns: list[int]) -> None:
        """The position's score and its best columns' (minus it), for the next searches."""
        g, shape = board.g, (board.width, board.height, board.line)
        self.proven.put((*shape, position_key(board.current, board.mask, g)), score)
        for col, child, child_mask, wins in child_positions(board.current, board.mask, g):
            if col in columns and not wins and board.moves + 1 < g.cells:
                self.proven.put((*shape, position_key(child, child_mask, g)), -score)

    def best(self, state: Any, budget: Budget) -> tuple[tuple[int, list[int]] | None, Meter]:
        """(the best score, the columns that reach it) from the book or the solver, or None
        when the budget ran out; and the meter of the work."""
        scores, meter = self.scores(state, Budget(0)) if not state.over else ([], Meter())
        if scores and UNKNOWN not in scores:  # the book had every column
            top = max(s for s in scores if s is not None)
            return (top, [c for c, s in enumerate(scores) if s == top]), meter
        meter = Meter(budget)
        board = Bitboard.of(state)
        with self.pool.borrow(board.width, board.height, board.line) as solver:
            before = solver.nodes
            found = best_columns(solver, board.current, board.mask, board.moves,
                                 budget.nodes, budget.seconds, self._known(board), TIE_NODES)
            meter.nodes = solver.nodes - before
        if found is not None:
            self._remember(board, *found)
        return found, meter

    def analyze(self, state: Any, budget: Budget) -> Result[dict[str, int | None]]:
        if state.over:
            return game_over()
        scores, meter = self.scores(state, budget)
        shown = {COLUMN_NAMES[col]: (None if score == UNKNOWN else score)
                 for col, score in enumerate(scores) if score is not None}
        if UNKNOWN not in scores:
            return meter.result(shown, PROVEN)
        unknown = scores.count(UNKNOWN)
        return meter.result(shown, BEST_FOUND, f"{count(unknown, 'column')} not solved within "
                            "the budget")
