"""2mino as a plugin: the rules (game.py) with the unique-puzzle generator (generator.py), the
solver, hints and checks (solver.py), Simon Tatham's Dominosa IDs (dominosa.py) and
`gridgames twomino ...` (commands.py). `make_game` is what the `gridgames.games` entry point
loads."""

from gridgames.games.twomino.commands import TwoMinoCommands
from gridgames.games.twomino.dominosa import DominosaIds
from gridgames.games.twomino.encoding import TwoMinoEncoding
from gridgames.games.twomino.game import TwoMino
from gridgames.games.twomino.generator import TwoMinoGenerator
from gridgames.games.twomino.solver import TwoMinoSolver


def make_game() -> TwoMino:
    solver = TwoMinoSolver()
    return TwoMino(generator=TwoMinoGenerator(), solver=solver, hints=solver, checker=solver,
                   foreign_ids=DominosaIds(), commands=TwoMinoCommands(),
                   encoding=TwoMinoEncoding())


__all__ = ["TwoMino", "make_game"]
