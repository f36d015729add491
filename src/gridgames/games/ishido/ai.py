"""Ishido players: the AI behind Hint and autoplay, and the greedy baseline.

The AI knows which tiles are still in the pouch but not their order, and scores each valid
cell for the tile in hand by what the placement leaves behind: the cells left for each kind
to come, the dead cells, and (lightly) the points. docs/machine-play.md ("Ishido's AI") has
the terms.
"""

from __future__ import annotations

from collections.abc import Sequence

from gridgames.core.bits import bits
from gridgames.core.capabilities import Hint, Hinter
from gridgames.core.result import BEST_FOUND, Budget, Meter, Result, game_over
from gridgames.core.rng import Rng
from gridgames.games.ishido.game import (
    CLASSIC,
    EMPTY,
    GRID,
    KINDS,
    NEIGHBOURS,
    SEED,
    IshidoState,
    allowed_kinds,
    neighbour_tiles,
    valid_cells,
)

# Cost of one tile to come whose kind has this many cells where it could go (index capped).
RISK = (60.0, 12.0, 4.0, 1.6, 0.7, 0.3, 0.15, 0.08, 0.04)
POINTS_WEIGHT = {SEED: 0.15, CLASSIC: 0.05}
DEAD_COST = {SEED: 3.0, CLASSIC: 6.0}  # per dead cell on the board after the placement
SLACK_COST = 25.0  # per missing cell of slack below SLACK_WANTED, squared
SLACK_WANTED = 4


class Planner:
    """A position seen as cell options and per-kind support, for scoring placements."""

    def __init__(self, board: Sequence[int], rules: str, to_come: Sequence[int]) -> None:
        self.board = list(board)
        self.rules = rules
        self.counts = [0] * KINDS
        for tile in to_come:
            self.counts[tile] += 1
        self.live_kinds = sum(1 << k for k in range(KINDS) if self.counts[k])
        self.tiles_to_come = len(to_come)
        self.options = [0] * GRID.size  # kinds allowed on each empty cell that has a neighbour
        self.support = [0] * KINDS
        self.empty = 0
        self.dead = 0
        for cell, tile in enumerate(self.board):
            if tile != EMPTY:
                continue
            self.empty += 1
            near = neighbour_tiles(self.board, cell)
            if near:
                mask = allowed_kinds(near, rules)
                self.options[cell] = mask
                for k in bits(mask):
                    self.support[k] += 1
                self.dead += not mask & self.live_kinds

    def value(self, cell: int, tile: int, points: int) -> float:
        """How good it is to put `tile` (the one in hand, not in to_come) on `cell`."""
        support = self.support[:]
        live = self.live_kinds
        dead = self.dead
        old = self.options[cell]
        for k in bits(old):
            support[k] -= 1
        dead -= not old & live
        board = self.board
        board[cell] = tile
        try:
            for near in NEIGHBOURS[cell]:
                if board[near] != EMPTY:
                    continue
                before = self.options[near]
                after = allowed_kinds(neighbour_tiles(board, near), self.rules)
                if before == after:
                    continue
                for k in bits(before & ~after):
                    support[k] -= 1
                for k in bits(after & ~before):
                    support[k] += 1
                was_dead = bool(before) and not before & live
                dead += (not after & live) - was_dead
        finally:
            board[cell] = EMPTY
        risk = 0.0
        cap = len(RISK) - 1
        for k in bits(live):
            risk += self.counts[k] * RISK[min(support[k], cap)]
        slack = (self.empty - 1 - dead) - self.tiles_to_come
        shortfall = max(0, SLACK_WANTED - slack)
        return (points * POINTS_WEIGHT[self.rules] - risk - dead * DEAD_COST[self.rules]
                - SLACK_COST * shortfall * shortfall)


def best_cell(board: Sequence[int], pouch: Sequence[int], rules: str, fourways: int) -> int:
    """The AI's cell for pouch[0]; the rest of the pouch is used only as a multiset."""
    tile = pouch[0]
    choices = valid_cells(board, tile, rules, fourways)
    planner = Planner(board, rules, pouch[1:])
    # Ties go to the lower cell index, so a hint is the same every time.
    return max(choices, key=lambda cp: (planner.value(cp[0], tile, cp[1]), -cp[0]))[0]


def greedy_cell(board: Sequence[int], pouch: Sequence[int], rules: str, fourways: int,
                rng: Rng) -> int:
    """The baseline: the highest-scoring valid cell, ties broken at random."""
    choices = valid_cells(board, pouch[0], rules, fourways)
    best = max(points for _, points in choices)
    return rng.choice([cell for cell, points in choices if points == best])


class IshidoHints(Hinter):
    """The `hints` entry: the AI's cell for the tile in hand. A heuristic, so never proven."""

    def hint(self, state: IshidoState, budget: Budget) -> Result[Hint]:
        meter = Meter(budget)
        if state.over:
            return game_over(meter)
        cell = best_cell(state.board, state.pouch, state.params.rules, state.fourways)
        meter.nodes = len(state.valid)
        return meter.result(Hint(GRID.cell_name(cell)), BEST_FOUND,
                            "the AI's choice: it weighs what each cell leaves for the tiles "
                            "still to come")
