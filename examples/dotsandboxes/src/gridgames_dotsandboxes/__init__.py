"""Dots and Boxes as a gridgames plugin: the rules (game.py) with heuristic AI levels
(ai.py), hints (the careful level's line) and what a learning agent sees (encoding.py).
`make_game` is what the `gridgames.games` entry point loads."""

from gridgames.core.capabilities import HintsFromAi
from gridgames_dotsandboxes.ai import DotsAi, position_key
from gridgames_dotsandboxes.encoding import DotsEncoding
from gridgames_dotsandboxes.game import DotsAndBoxes


def make_game() -> DotsAndBoxes:
    game = DotsAndBoxes()
    ai = DotsAi(game)
    return game.replaced(ai=ai, hints=HintsFromAi(ai, position_key), encoding=DotsEncoding())


__all__ = ["DotsAndBoxes", "make_game"]
