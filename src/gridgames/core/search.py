"""Plain, obviously correct game-tree search over the game protocol, for small games.

It is the perfect player of tic-tac-toe and the reference that faster solvers are tested
against. Values are from the side to move: a win is WIN minus the plies until it happens (so
sooner is better), a loss the negative of that, a draw or an unfinished horizon 0.
"""

from __future__ import annotations

from typing import Any

from gridgames.core.game import Game
from gridgames.core.rng import Rng

WIN = 1000


def _toward_zero(value: int) -> int:
    """A value seen one ply later: a win or loss one ply further away."""
    return value - 1 if value > 0 else value + 1 if value < 0 else 0


class Minimax:
    """Exact negamax with a memo of (state, depth) -> value. States must be hashable."""

    def __init__(self, game: Game, depth: int | None = None) -> None:
        self.game = game
        self.depth = depth  # plies to look ahead; None searches to the end
        self.memo: dict[tuple[Any, int | None], int] = {}

    def value(self, state: Any, depth: int | None = None) -> int:
        if depth is None:
            depth = self.depth
        key = (state, depth)
        if key in self.memo:
            return self.memo[key]
        status = self.game.status(state)
        if status.over:
            # The player who just moved made the game end: a win for them or a draw.
            result = 0 if status.winner is None else -WIN
        elif depth == 0:
            result = 0
        else:
            below = None if depth is None else depth - 1
            result = max(-_toward_zero(self.value(self.game.apply(state, m), below))
                         for m in self.game.legal_moves(state))
        self.memo[key] = result
        return result

    def move_values(self, state: Any) -> dict[str, int]:
        """The value of each legal move for the player making it."""
        below = None if self.depth is None else self.depth - 1
        return {m: -_toward_zero(self.value(self.game.apply(state, m), below))
                for m in self.game.legal_moves(state)}

    def choose(self, state: Any, rng: Rng) -> str:
        """A best move, picked at random among equals so that games vary."""
        values = self.move_values(state)
        best = max(values.values())
        return rng.choice([m for m, v in values.items() if v == best])
