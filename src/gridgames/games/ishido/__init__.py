"""Ishido as a plugin: the rules (game.py) with the AI's hints (ai.py) and `gridgames ishido
autoplay` (commands.py). `make_game` is what the `gridgames.games` entry point loads."""

from gridgames.games.ishido.ai import IshidoHints
from gridgames.games.ishido.commands import IshidoCommands
from gridgames.games.ishido.encoding import IshidoEncoding
from gridgames.games.ishido.game import Ishido


def make_game() -> Ishido:
    return Ishido(hints=IshidoHints(), commands=IshidoCommands(), encoding=IshidoEncoding())


__all__ = ["Ishido", "make_game"]
