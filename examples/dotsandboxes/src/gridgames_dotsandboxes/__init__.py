"""Dots and Boxes as a gridgames plugin: the rules (game.py) with heuristic AI levels
(ai.py); hints are the careful level's line. `make_game` is what the `gridgames.games` entry
point loads."""

from gridgames.core.capabilities import HintsFromAi
from gridgames_dotsandboxes.ai import DotsAi, position_key
from gridgames_dotsandboxes.game import DotsAndBoxes


def make_game() -> DotsAndBoxes:
    game = DotsAndBoxes()
    ai = DotsAi(game)
    return game.replaced(ai=ai, hints=HintsFromAi(ai, position_key))


__all__ = ["DotsAndBoxes", "make_game"]
