"""Lights Out as a gridgames plugin: the rules (game.py) with a solver and hints
(solver.py). `make_game` is what the `gridgames.games` entry point loads."""

from gridgames_lightsout.game import LightsOut
from gridgames_lightsout.solver import LightsOutSolver


def make_game() -> LightsOut:
    solver = LightsOutSolver()
    return LightsOut(solver=solver, hints=solver)


__all__ = ["LightsOut", "make_game"]
