"""Tic-tac-toe as a plugin: the rules (game.py) with the AI (ai.py); hints are the perfect
AI's move; learning agents see it as the other stone games (core/stones_encoding.py).
`make_game` is what the `gridgames.games` entry point loads."""

from gridgames.core.capabilities import HintsFromAi
from gridgames.core.stones_encoding import StonesEncoding
from gridgames.games.tictactoe.ai import TicTacToeAi
from gridgames.games.tictactoe.game import TicTacToe


def make_game() -> TicTacToe:
    game = TicTacToe()
    ai = TicTacToeAi(game)
    return game.replaced(ai=ai, hints=HintsFromAi(ai, game.position),
                         encoding=StonesEncoding(game))


__all__ = ["TicTacToe", "make_game"]
