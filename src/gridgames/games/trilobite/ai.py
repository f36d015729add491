"""The Trilobite search AI: negamax alpha-beta on bitboards, with iterative deepening, a
transposition table, centre-first move ordering and a heuristic evaluation at the horizon.

It is bounded by a node budget, not by time, so a position, level and seed give the same
move on every machine. The perfect level plays only a move the opening book or the solver
proved best; when the solver's budget runs out first it says so and plays the hard level's
move. docs/machine-play.md ("Trilobite's AI") has the evaluation and the details.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gridgames.core.capabilities import AiPlayer
from gridgames.core.result import BEST_FOUND, PROVEN, Budget, Meter, Result, game_over
from gridgames.core.rng import Rng
from gridgames.games.trilobite.analyzer import TrilobiteAnalyzer, compiled_fits
from gridgames.games.trilobite.bitboard import Bitboard
from gridgames.games.trilobite.game import COLUMN_NAMES

WIN = 1_000_000
INF = 10 * WIN


@dataclass(frozen=True)
class Level:
    max_depth: int
    node_budget: int
    slack: int  # moves this close to the best value are picked from at random


LEVELS = {
    "easy": Level(max_depth=2, node_budget=5_000, slack=60),
    "medium": Level(max_depth=4, node_budget=30_000, slack=0),
    "hard": Level(max_depth=64, node_budget=120_000, slack=0),
}


class _OutOfBudget(Exception):
    pass


class Searcher:
    def __init__(self, board: Bitboard, node_budget: int,
                 out_of_time: Callable[[], bool] = lambda: False) -> None:
        self.board = board
        self.budget = node_budget
        self.out_of_time = out_of_time
        self.nodes = 0
        self.table: dict[int, tuple[int, int, int, int]] = {}  # key -> depth, lo, hi, best
        centre = (board.width - 1) / 2
        self.order = sorted(range(board.width), key=lambda c: (abs(c - centre), c))
        weights = [0] + [4 ** (k - 1) for k in range(1, board.line + 1)]
        self.weights = weights

    def evaluate(self) -> int:
        mine, theirs = self.board.windows_by_count()
        return sum(w * (m - t) for w, m, t in zip(self.weights, mine, theirs, strict=True))

    def negamax(self, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        # The clock every 64 nodes: a node takes up to 0.1 ms on a 20x20 board.
        if self.nodes > self.budget or (self.nodes & 63 == 0 and self.out_of_time()):
            raise _OutOfBudget
        board = self.board
        playable = [c for c in self.order if board.can_play(c)]
        if not playable:
            return 0
        for col in playable:
            if board.is_winning_move(col):
                return WIN - board.moves - 1
        if depth == 0:
            return self.evaluate()
        key = board.current + board.mask
        entry = self.table.get(key)
        best_col = -1
        if entry is not None:
            e_depth, lo, hi, best_col = entry
            if e_depth >= depth:
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
        if best_col in playable:
            playable.remove(best_col)
            playable.insert(0, best_col)
        original_alpha, best = alpha, -INF
        for col in playable:
            board.play(col)
            try:
                value = -self.negamax(depth - 1, -beta, -alpha)
            finally:
                board.undo(col)
            if value > best:
                best, best_col = value, col
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        lo = best if best > original_alpha else -INF
        hi = best if best < beta else INF
        self.table[key] = (depth, lo, hi, best_col)
        return best

    def root_values(self, depth: int, previous: dict[int, int]) -> dict[int, int]:
        """Values of each root move at depth; moves clearly worse than the best get bounds."""
        board = self.board
        cols = [c for c in self.order if board.can_play(c)]
        cols.sort(key=lambda c: -previous.get(c, 0))
        values: dict[int, int] = {}
        best = -INF
        for col in cols:
            if board.is_winning_move(col):
                values[col] = WIN - board.moves - 1
                best = max(best, values[col])
                continue
            board.play(col)
            try:
                values[col] = -self.negamax(depth - 1, -INF, -(best - 1) if best > -INF else INF)
            finally:
                board.undo(col)
            best = max(best, values[col])
        return values


@dataclass(frozen=True)
class SearchResult:
    values: dict[int, int]  # column -> value for the side to move (bounds for poor moves)
    depth: int  # deepest completed iteration
    nodes: int


# The budgets above are for 7x6, line 4 (69 windows). A node costs about as much as the
# evaluation's windows, so bigger boards get proportionally fewer nodes: about the same time.
REFERENCE_WINDOWS = 69


def search(board: Bitboard, level: str, out_of_time: Callable[[], bool] = lambda: False,
           max_nodes: int | None = None) -> SearchResult:
    """Iterative deepening at `level` until its depth or node budget (or the time) runs out;
    `max_nodes` can only lower the level's own budget."""
    spec = LEVELS[level]
    windows = board.window_count
    budget = max(1000, spec.node_budget * min(REFERENCE_WINDOWS, windows) // max(1, windows))
    if max_nodes is not None:
        budget = max(1, min(budget, max_nodes))
    searcher = Searcher(board.copy(), budget, out_of_time)
    values: dict[int, int] = {}
    reached = 0
    for depth in range(1, spec.max_depth + 1):
        try:
            values = searcher.root_values(depth, values)
        except _OutOfBudget:
            break
        reached = depth
        if max(values.values()) >= WIN // 2 or depth >= board.width * board.height - board.moves:
            break  # a forced win is found, or the search already reaches the end of the game
    if not values:  # not even depth 1 fitted the budget: play the most central move
        values = {next(c for c in searcher.order if board.can_play(c)): 0}
    return SearchResult(values, reached, searcher.nodes)


def choose_column(board: Bitboard, level: str, rng: Rng,
                  out_of_time: Callable[[], bool] = lambda: False,
                  max_nodes: int | None = None) -> tuple[int, SearchResult]:
    """The column (0-based) the AI plays at `level`, ties broken by rng, and its search."""
    found = search(board, level, out_of_time, max_nodes)
    best = max(found.values.values())
    candidates = [c for c, v in found.values.items() if v >= best - LEVELS[level].slack]
    return rng.choice(sorted(candidates)), found


PERFECT = "perfect"
# Nodes the perfect level's solver may search per move (about 3 s with the compiled solver
# on 7x6) before it says it ran out and plays the hard level's move instead. Just past the
# book (6-8 stones) a move's best columns took 0-16M nodes on 15 openings (0-1.3 s): 8M
# made it fall back there; a deeper book brings the time down, not this cap.
PERFECT_NODES = 32_000_000
SOLVER_SHARE = 0.7  # of a time cap, for the perfect level's solver
# Where a page offers the perfect level: where it proves its moves within the page's 2 s.
# Its hardest move is the empty board's (the whole game ahead): on every board of at most
# PERFECT_CELLS cells, any line, the solver proves it in at most 0.2 s of CPU (7x3 line 7);
# past it some take seconds (6x4 line 6: 0.9 s, 8x3 line 8: 1.8 s, 6x6 line 4: not in 32M
# nodes). On 7x6 line 4 the opening book answers the first moves and the solver the rest
# (its times: docs/machine-play.md, "The AI"). `python bench/bench_trilobite_budget.py
# --perfect-boards` measures it.
PERFECT_CELLS = 21
BOOK_BOARDS = frozenset({(7, 6, 4)})  # (width, height, line)


class TrilobiteAi(AiPlayer):
    """The `ai` entry: easy, medium and hard search with a heuristic (never proven); perfect
    plays a move the solver proved best, the fastest win or the longest resistance."""

    levels = ("easy", "medium", "hard", PERFECT)

    def __init__(self, analyzer: TrilobiteAnalyzer) -> None:
        self.analyzer = analyzer

    def offered(self, params: Any) -> tuple[str, ...]:
        """Perfect only where it proves its moves in a page's time (PERFECT_CELLS,
        BOOK_BOARDS); elsewhere the strongest level offered is hard, what perfect plays there
        anyway (perfect stays playable: saved games and links may name it)."""
        return self.levels if perfect_offered(params) else self.levels[:-1]

    def choose(self, state, level: str, rng: Rng, budget: Budget) -> Result[str]:
        self.check_level(level)
        if state.over:
            return game_over()
        meter = Meter(budget)
        board = Bitboard.of(state)
        if level != PERFECT:
            return self._heuristic(board, level, rng, budget, meter)
        nodes = budget.nodes if budget.nodes is not None else PERFECT_NODES
        if compiled_fits(board.width, board.height):
            # The solver may use most of the time; the rest is for the hard level's move.
            seconds = None if budget.seconds is None else budget.seconds * SOLVER_SHARE
            found, solved = self.analyzer.best(state, Budget(nodes, seconds))
            meter.nodes += solved.nodes
            if found is not None:
                return meter.result(COLUMN_NAMES[rng.choice(found[1])], PROVEN)
            return self._heuristic(board, "hard", rng, budget, meter, _ran_out(solved))
        # On the boards past the compiled solver, the Python solver proves a move only near
        # the end of a game: the hard level's move first, at its full strength, then the time
        # left to prove one.
        fallback = self._heuristic(board, "hard", rng, budget, meter)
        found, solved = self.analyzer.best(state, Budget(nodes, meter.seconds_left))
        meter.nodes += solved.nodes
        if found is not None:
            return meter.result(COLUMN_NAMES[rng.choice(found[1])], PROVEN)
        return meter.result(fallback.value, BEST_FOUND, _ran_out(solved))

    def _heuristic(self, board: Bitboard, level: str, rng: Rng, budget: Budget, meter: Meter,
                   note: str = "") -> Result[str]:
        column, found = choose_column(board, level, rng, meter.out_of_time, budget.nodes)
        meter.nodes += found.nodes
        note = note or f"searched {found.depth} moves ahead, not to the end"
        return meter.result(COLUMN_NAMES[column], BEST_FOUND, note)


def perfect_offered(params: Any) -> bool:
    return params.width * params.height <= PERFECT_CELLS or \
        (params.width, params.height, params.line) in BOOK_BOARDS


def _ran_out(solved: Meter) -> str:
    return (f"not proven within the budget ({solved.nodes:,} positions in "
            f"{solved.seconds:.1f} s): the hard level's move")
