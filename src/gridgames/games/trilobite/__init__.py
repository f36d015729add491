"""Trilobite as a plugin: the rules (game.py) with the AI levels (ai.py), the exact analysis
of every column (solver.py, the opening book first: book.py) and `gridgames trilobite ...`
(commands.py). `make_game` is what the `gridgames.games` entry point loads."""

from gridgames.core.capabilities import HintsFromAi
from gridgames.core.stones_encoding import StonesEncoding
from gridgames.games.trilobite.ai import TrilobiteAi
from gridgames.games.trilobite.book import BookShelf
from gridgames.games.trilobite.commands import TrilobiteCommands
from gridgames.games.trilobite.game import Trilobite
from gridgames.games.trilobite.solver import SolverPool, TrilobiteAnalyzer


def make_game() -> Trilobite:
    game = Trilobite()
    analyzer = TrilobiteAnalyzer(SolverPool(), BookShelf())
    ai = TrilobiteAi(analyzer)
    return game.replaced(ai=ai, analyzer=analyzer, hints=HintsFromAi(ai, game.position),
                         commands=TrilobiteCommands(),
                         encoding=StonesEncoding(game, columns=True))


__all__ = ["Trilobite", "make_game"]
