"""New Polar levels: random boards kept only when the solver solves them.

A board gets a penguin, one or two houses, a few hearts and some trees, mountains, ice
blocks and bombs at random cells. It is kept when no heart starts dead and the solver finds a
solution in fewest pushes within a time limit; its difficulty is that solution (pushes, then
moves of a shortest-moves solution when one is found, else of the pushes solution).
"""

from __future__ import annotations

from dataclasses import dataclass

from gridgames.core.rng import Rng
from gridgames.games.polar.analysis import dead_hearts
from gridgames.games.polar.board import BOMB, EMPTY, GRID, HEART, HOUSE, ICE, MOUNTAIN, TREE
from gridgames.games.polar.packs import Level
from gridgames.games.polar.solver import MOVES, PUSHES, solve


@dataclass(frozen=True)
class Generated:
    level: Level
    pushes: int  # fewest pushes (proven)
    solution: list[str]  # shortest in moves when that search finished, else fewest pushes
    moves_optimal: bool

    @property
    def moves(self) -> int:
        return len(self.solution)


def scatter(rng: Rng, ranges: list[tuple[int, int, int]]) -> tuple[tuple[int, ...], int]:
    """A board with lo to hi of each (tile, lo, hi) at random cells, and a free cell for the
    penguin."""
    board = [EMPTY] * GRID.size
    cells = rng.shuffled(range(GRID.size))
    at = 0
    for tile, lo, hi in ranges:
        for _ in range(rng.randint(lo, hi)):
            board[cells[at]] = tile
            at += 1
    return tuple(board), cells[at]


def random_board(rng: Rng) -> tuple[tuple[int, ...], int]:
    return scatter(rng, [(HOUSE, 1, 2), (HEART, 1, 3), (TREE, 3, 9), (MOUNTAIN, 0, 3),
                         (ICE, 1, 4), (BOMB, 0, 2)])


def generate(rng: Rng, min_pushes: int = 3, seconds: float = 3.0) -> Generated:
    """One solvable level needing at least min_pushes pushes."""
    while True:
        board, penguin = random_board(rng)
        if dead_hearts(board):
            continue
        found = solve(board, penguin, PUSHES, max_seconds=seconds)
        if found.moves is None or found.pushes < min_pushes:
            continue
        if not found.optimal:
            continue
        shortest = solve(board, penguin, MOVES, max_seconds=seconds)
        moves = shortest.moves if shortest.moves is not None else found.moves
        level = Level("", board, penguin, board.count(HEART))
        return Generated(level, found.pushes, moves, shortest.optimal)


def difficulty(item: Generated) -> tuple[int, int]:
    return item.pushes, item.moves
