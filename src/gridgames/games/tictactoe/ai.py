"""Tic-tac-toe's AI levels.

random: any legal move; easy: looks two plies ahead (takes a win, blocks a loss); perfect: a
search of the whole game tree (core/search.py), so its move is proven best: it never loses
and wins whenever a win is forced. The whole game has 5,478 positions, so the tree's memo is
bounded by the game itself; it belongs to this object and is filled under its lock.
"""

from __future__ import annotations

import threading

from gridgames.core.capabilities import AiPlayer
from gridgames.core.game import Game
from gridgames.core.result import BEST_FOUND, PROVEN, Budget, Meter, Result, game_over
from gridgames.core.rng import Rng
from gridgames.core.search import Minimax
from gridgames.core.stones import StoneState

NOTES = {"random": "picked any legal move",
         "easy": "looked two moves ahead"}


class TicTacToeAi(AiPlayer):
    levels = ("random", "easy", "perfect")

    def __init__(self, game: Game) -> None:
        self.game = game
        self._lock = threading.Lock()
        self._search = {"easy": Minimax(game, 2), "perfect": Minimax(game, None)}

    @property
    def default_level(self) -> str:
        return "easy"

    def choose(self, state: StoneState, level: str, rng: Rng, budget: Budget) -> Result[str]:
        self.check_level(level)
        meter = Meter(budget)
        legal = self.game.legal_moves(state)
        if not legal:
            return game_over(meter)
        if level == "random":
            return meter.result(rng.choice(legal), BEST_FOUND, NOTES[level])
        with self._lock:
            move = self._search[level].choose(state, rng)
        if level == "perfect":
            return meter.result(move, PROVEN)
        return meter.result(move, BEST_FOUND, NOTES[level])
