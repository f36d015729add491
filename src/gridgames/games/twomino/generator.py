"""2mino puzzles with exactly one solution and a graded difficulty (the `generator` entry).

First, random boards with no given bars until the deduction solver, allowed techniques up
to the asked level, solves one and needs exactly that level (a solved board has one
solution); fastgrade.py does this compiled, random_board and the solver here are its
reference. If a fixed budget of boards runs out, the source's shuffle with a few hint bars
locked where the solver gets stuck. docs/machine-play.md ("2mino's generator") has the
details.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridgames.core.bits import bits
from gridgames.core.capabilities import Generator
from gridgames.core.rng import Rng
from gridgames.games.twomino import fastgrade
from gridgames.games.twomino.board import Board, samples, shuffled
from gridgames.games.twomino.game import TwoMinoParams, encode_desc
from gridgames.games.twomino.layout import LEVELS, layout
from gridgames.games.twomino.solver import Deducer, Puzzle, deduce


def random_board(n: int, rng: Rng) -> Board | None:
    """A random tiling with the pairs dealt to it; None when the deal gets stuck."""
    partner = _random_tiling(n, rng)
    lay = layout(n)
    symbols = [-1] * lay.grid.size
    pairs = [(hi, lo) for hi in range(n) for lo in range(hi + 1)]
    rng.shuffle(pairs)
    dominoes = sorted({(min(c, partner[c]), max(c, partner[c])) for c in range(len(partner))})
    rng.shuffle(dominoes)
    for a, b in dominoes:
        for index, (hi, lo) in enumerate(pairs):
            ways = [(x, y) for x, y in ((hi, lo), (lo, hi))
                    if _reads_one_way(lay, partner, symbols, a, b, x, y)]
            if ways:
                symbols[a], symbols[b] = ways[rng.below(len(ways))]
                del pairs[index]
                break
        else:
            return None
    return Board(n, tuple(symbols), tuple(partner))


def _random_tiling(n: int, rng: Rng) -> list[int]:
    """Partner of each cell: the samples layout mixed by random flips of 2x2 blocks made of
    two parallel dominoes (such flips reach every tiling of a rectangle)."""
    partner = list(samples(n).partner)
    cols, rows = n, n + 1
    for _ in range(8 * rows * cols):
        top, left = rng.below(rows - 1), rng.below(cols - 1)
        a, b = top * cols + left, top * cols + left + 1
        c, d = a + cols, b + cols
        if partner[a] == b and partner[c] == d:
            partner[a], partner[c], partner[b], partner[d] = c, a, d, b
        elif partner[a] == c and partner[b] == d:
            partner[a], partner[b], partner[c], partner[d] = b, a, d, c
    return partner


def _reads_one_way(lay, partner: list[int], symbols: list[int], a: int, b: int, x: int,
                   y: int) -> bool:
    """False when x on a and y on b would match a diagonal cell of a dealt domino lying
    alongside a-b: the 2x2 block could then be read as the two other dominoes."""
    cols = lay.grid.cols
    (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
    for side in (1, -1):
        dr, dc = side * (cb - ca), side * (rb - ra)  # a step across the domino
        if not (0 <= ra + dr < lay.grid.rows and 0 <= ca + dc < cols
                and 0 <= rb + dr < lay.grid.rows and 0 <= cb + dc < cols):
            continue
        c, d = a + dr * cols + dc, b + dr * cols + dc
        if partner[c] == d and symbols[c] >= 0 and (symbols[c] == y or symbols[d] == x):
            return False
    return True


# Random boards tried without given bars: this many cells' worth (8000 boards at N=5, 1318
# at N=13), under a second of the compiled kernel when none is found. The rarest grade
# (extreme) takes 70 to 170 boards on average, so the budget runs out less than once in 10^7
# puzzles at N=13 (far less often below) and puzzles have no given bars, like Simon
# Tatham's.
HINT_FREE_CELLS = 240_000
MAX_TRIES = 10_000


@dataclass(frozen=True)
class Made:
    board: Board
    locked: frozenset[int]
    grade: str


def unique_puzzle(n: int, level: str, rng: Rng) -> Made:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    return hint_free_puzzle(n, level, rng) or puzzle_with_given_bars(n, level, rng)


def hint_free_puzzle(n: int, level: str, rng: Rng) -> Made | None:
    """The first of the budget's random boards that the solver grades `level`: drawn and
    graded by the compiled kernel (tests check it against random_board and deduce)."""
    board, _ = fastgrade.search(n, level, rng, HINT_FREE_CELLS // (n * (n + 1)))
    return None if board is None else Made(board, frozenset(), level)


def puzzle_with_given_bars(n: int, level: str, rng: Rng) -> Made:
    for _ in range(MAX_TRIES):
        board = shuffled(n, rng)
        puzzle = Puzzle.of(n, board.symbols, frozenset())
        deducer = Deducer(puzzle, level)
        answer = {p for p in range(len(puzzle.bars))
                  if board.partner[puzzle.cells_of(p)[0]] == puzzle.cells_of(p)[1]}
        locked: set[int] = set()
        while not deducer.run():
            wrong = [p for p in bits(deducer.alive) if p not in answer]
            pick = rng.choice(wrong)
            locked.add(puzzle.bars[pick])
            deducer.give(pick)
        # Grade the finished puzzle afresh: with all its hint bars known from the start it
        # may need less than the search that placed them.
        final = deduce(n, board.symbols, frozenset(locked), level)
        if final.solved and final.grade == level:
            return Made(board, frozenset(locked), level)
    raise RuntimeError(f"no {level} puzzle for N={n} in {MAX_TRIES} tries")


class TwoMinoGenerator(Generator):
    def warm(self) -> None:
        """Load (or compile, the first time) the kernel that draws and grades boards."""
        fastgrade.warm()

    def new_desc(self, params: TwoMinoParams, rng: Rng) -> str:
        made = unique_puzzle(params.n, params.level, rng)
        return encode_desc(params.n, made.board.symbols, made.locked)
