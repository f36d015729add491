"""Ishido players: the AI behind Hint and autoplay, and the greedy baseline.

The AI knows which tiles are still in the pouch but not their order, and scores each valid
cell for the tile in hand by what the placement leaves behind: the cells left for each kind
to come, the dead cells, and (lightly) the points. Near the end of a classic game it checks
that choice by playing the rest of the pouch out in a few orders of its own (rollouts).
docs/machine-play.md ("Ishido's AI") has the terms.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

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
    placement_points,
    valid_cells,
)

# Cost of one tile to come whose kind has this many cells where it could go (index capped).
RISK = (60.0, 12.0, 4.0, 1.6, 0.7, 0.3, 0.15, 0.08, 0.04)
RISK_AT = tuple(RISK[min(s, len(RISK) - 1)] for s in range(GRID.size + 1))  # for any support
POINTS_WEIGHT = {SEED: 0.15, CLASSIC: 0.05}
DEAD_COST = {SEED: 3.0, CLASSIC: 6.0}  # per dead cell on the board after the placement
SLACK_COST = 25.0  # per missing cell of slack below SLACK_WANTED, squared
SLACK_WANTED = 4
# The rollouts: from ROLLOUT_FROM tiles to come, the AI checks its choice by playing the rest
# of the pouch out ROLLOUTS times (the same shuffled orders for every cell it tries) with the
# heuristic; if some fail, it tries the heuristic's next best cells, up to ROLLOUT_CELLS of
# them, and keeps the one that clears the most orders (the first, on a tie). Classic games
# are lost by holes made 10 to 20 tiles before the end; under seed rules the heuristic alone
# clears every deal of the bench (2000), so there the rollouts would only cost time.
ROLLOUT_FROM = {SEED: 0, CLASSIC: 20}
ROLLOUTS = 4
ROLLOUT_CELLS = 4


@lru_cache(maxsize=1 << 16)  # options, their changes and the live kinds of a game
def kinds_in(mask: int) -> tuple[int, ...]:
    """The kinds in a mask, as a tuple: the planner's loops run over them millions of times."""
    return tuple(bits(mask))


def shift_support(support: list[int], before: int, after: int) -> None:
    """A cell's options went from `before` to `after` (kind masks): the kinds it no longer
    takes lose it as a place to go, those it now takes gain it."""
    for k in kinds_in(before & ~after):
        support[k] -= 1
    for k in kinds_in(after & ~before):
        support[k] += 1


class Planner:
    """A position seen as cell options and per-kind support, for scoring placements.

    `draw` and `place` keep it up to date move by move, for the rollouts."""

    def __init__(self, board: Sequence[int], rules: str, to_come: Sequence[int]) -> None:
        self.board = list(board)
        self.rules = rules
        self.counts = [0] * KINDS
        for tile in to_come:
            self.counts[tile] += 1
        self.live_kinds = sum(1 << k for k in range(KINDS) if self.counts[k])
        self.tiles_to_come = len(to_come)
        self.options = [0] * GRID.size  # kinds allowed on each empty cell that has a neighbour
        self.touching = [False] * GRID.size  # empty cells with a neighbour
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
                self.touching[cell] = True
                for k in kinds_in(mask):
                    self.support[k] += 1
                self.dead += not mask & self.live_kinds

    def copy(self) -> Planner:
        twin = object.__new__(Planner)
        twin.__dict__.update(self.__dict__)
        for name in ("board", "counts", "options", "touching", "support"):
            setattr(twin, name, getattr(self, name)[:])
        return twin

    def value(self, cell: int, tile: int, points: int) -> float:
        """How good it is to put `tile` (the one in hand, not in to_come) on `cell`."""
        support = self.support[:]
        live = self.live_kinds
        dead = self.dead
        old = self.options[cell]
        shift_support(support, old, 0)
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
                shift_support(support, before, after)
                was_dead = bool(before) and not before & live
                dead += (not after & live) - was_dead
        finally:
            board[cell] = EMPTY
        risk = 0.0
        counts = self.counts
        for k in kinds_in(live):
            risk += counts[k] * RISK_AT[support[k]]
        slack = (self.empty - 1 - dead) - self.tiles_to_come
        shortfall = max(0, SLACK_WANTED - slack)
        return (points * POINTS_WEIGHT[self.rules] - risk - dead * DEAD_COST[self.rules]
                - SLACK_COST * shortfall * shortfall)

    def choices(self, tile: int, fourways: int) -> list[tuple[int, int]]:
        """valid_cells(board, tile, ...) read from the options kept here."""
        bit = 1 << tile
        return [(cell, placement_points(self.rules, cell, self.neighbours(cell), fourways))
                for cell, options in enumerate(self.options) if options & bit]

    def neighbours(self, cell: int) -> int:
        board = self.board
        return len([n for n in NEIGHBOURS[cell] if board[n] != EMPTY])

    def draw(self, tile: int) -> None:
        """Take tile out of the tiles to come: it is now the one in hand."""
        self.counts[tile] -= 1
        self.tiles_to_come -= 1
        if not self.counts[tile]:
            gone = 1 << tile
            self.live_kinds &= ~gone
            live = self.live_kinds
            # The cells that only this kind could still take are dead now.
            self.dead += len([o for o in self.options if o & gone and not o & live])

    def place(self, cell: int, tile: int) -> None:
        """Put the drawn tile on cell (a valid one); the same updates as value's."""
        live = self.live_kinds
        old = self.options[cell]
        shift_support(self.support, old, 0)
        self.dead -= not old & live
        self.options[cell] = 0
        self.touching[cell] = False
        self.empty -= 1
        board = self.board
        board[cell] = tile
        for near in NEIGHBOURS[cell]:
            if board[near] != EMPTY:
                continue
            before = self.options[near]
            was_dead = self.touching[near] and not before & live
            after = allowed_kinds(neighbour_tiles(board, near), self.rules)
            self.options[near] = after
            self.touching[near] = True
            shift_support(self.support, before, after)
            self.dead += (not after & live) - was_dead

    def pick(self, tile: int, choices: Sequence[tuple[int, int]]) -> int:
        """The heuristic's cell among (cell, points) choices for the tile in hand."""
        # Ties go to the lower cell index, so a hint is the same every time.
        return max(choices, key=lambda cp: (self.value(cp[0], tile, cp[1]), -cp[0]))[0]


def best_cell(board: Sequence[int], pouch: Sequence[int], rules: str, fourways: int,
              rollouts: bool = True) -> int:
    """The AI's cell for pouch[0]; the rest of the pouch is used only as a multiset.
    Without rollouts: the heuristic's cell (the bench compares the two)."""
    tile, rest = pouch[0], pouch[1:]
    choices = valid_cells(board, tile, rules, fourways)
    planner = Planner(board, rules, rest)
    if not rollouts or len(rest) > ROLLOUT_FROM[rules] or len(choices) == 1:
        return planner.pick(tile, choices)
    ranked = sorted(choices, key=lambda cp: (-planner.value(cp[0], tile, cp[1]), cp[0]))
    # The orders are drawn from the position itself (board and multiset, never the pouch's
    # real order): the same position gets the same choice.
    rng = Rng(f"{tuple(board)} {sorted(rest)}")  # a list or a tuple: the same seed
    orders = [rng.shuffled(sorted(rest)) for _ in range(ROLLOUTS)]
    best, best_clears = ranked[0][0], -1
    for cell, _ in ranked[:ROLLOUT_CELLS]:
        clears = sum(rollout(planner.copy(), fourways, tile, cell, order) for order in orders)
        if clears > best_clears:
            best, best_clears = cell, clears
        if clears == ROLLOUTS:
            break
    return best


def rollout(planner: Planner, fourways: int, tile: int, cell: int,
            order: Sequence[int]) -> bool:
    """Whether the heuristic places every tile of `order` (the planner's tiles to come, in
    the order they come) after `tile` goes on `cell`."""
    while True:
        fourways += planner.neighbours(cell) == 4  # the later points double
        planner.place(cell, tile)
        if planner.tiles_to_come == 0:
            return True
        tile = order[len(order) - planner.tiles_to_come]
        planner.draw(tile)
        choices = planner.choices(tile, fourways)
        if not choices:
            return False
        cell = planner.pick(tile, choices)


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
                            "still to come, and near the end of a classic game plays them out")
