"""Puzzles with exactly one solution and a graded difficulty.

First, without given bars: random boards (a random tiling with the pairs dealt to it) are
tried until the deduction solver, allowed techniques up to the asked level, solves one and
needs exactly that level. A solved board has one solution, since every step was forced.
About a tenth of random boards are solvable this way, fewer at the higher levels, so this
has a fixed budget of boards (deterministic for a seed).

Then, if the budget ran out, with given bars: the seed's shuffle makes the board and its
hidden arrangement; whenever the solver is stuck, one bar of the hidden arrangement that it has
not deduced yet is locked on as a hint (ruling out a placement that is not in the answer), and
it goes on. The puzzle is kept when the hardest technique used is the asked level, otherwise
another board is made. Hint bars are few: most of the board is left to reasoning.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridgames.core.bits import bits
from gridgames.core.rng import Rng
from gridgames.games.twomino.generator import Board, random_board, shuffled
from gridgames.games.twomino.solver import LEVELS, Puzzle, _Deducer, deduce

# Random boards tried without given bars: this many cells' worth (214 boards at N=7, 66 at
# N=13), about 1 s at N=7 and 3 s at N=13 when none is found.
HINT_FREE_CELLS = 12_000
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
    for _ in range(HINT_FREE_CELLS // (n * (n + 1))):
        board = random_board(n, rng)
        if board is None:
            continue
        result = deduce(n, board.symbols, frozenset(), level)
        if result.solved and result.grade == level:
            return Made(board, frozenset(), level)
    return None


def puzzle_with_given_bars(n: int, level: str, rng: Rng) -> Made:
    for _ in range(MAX_TRIES):
        board = shuffled(n, rng)
        puzzle = Puzzle.of(n, board.symbols, frozenset())
        deducer = _Deducer(puzzle, level)
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
