"""Polar as a plugin: the game (game.py, on the rules in rules.py) and its level packs
(packs.py), with Solve and Hint (hints.py, on the solver in solver.py) and
`gridgames polar ...` (commands.py). `make_game` is what the `gridgames.games` entry point
loads."""

from gridgames.games.polar.commands import PolarCommands
from gridgames.games.polar.encoding import PolarEncoding
from gridgames.games.polar.game import Polar
from gridgames.games.polar.hints import PolarHints
from gridgames.games.polar.packs import PolarPacks


def make_game(packs: PolarPacks | None = None) -> Polar:
    packs = packs or PolarPacks()
    solver = PolarHints(known=packs.known_solutions())
    return Polar(levels=packs, solver=solver, hints=solver, commands=PolarCommands(),
                 encoding=PolarEncoding())


__all__ = ["Polar", "make_game"]
