"""Puzzles with exactly one solution and a graded difficulty.

The seed's shuffle makes the board and its hidden arrangement. The deduction solver, allowed
techniques up to the asked level, works on it; whenever it is stuck, one bar of the hidden
arrangement that it has not deduced yet is locked on as a hint (ruling out a placement that
is not in the answer), and it goes on. It ends solved, so the solution is unique (every step
was forced). The puzzle is kept when the hardest technique used is the asked level, otherwise
another board is made. Hint bars are few: most of the board is left to reasoning.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridgames.core.bits import bits
from gridgames.core.rng import Rng
from gridgames.games.twomino.generator import Board, shuffled
from gridgames.games.twomino.solver import LEVELS, Puzzle, _Deducer, deduce

MAX_TRIES = 10_000


@dataclass(frozen=True)
class Made:
    board: Board
    locked: frozenset[int]
    grade: str


def unique_puzzle(n: int, level: str, rng: Rng) -> Made:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
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
