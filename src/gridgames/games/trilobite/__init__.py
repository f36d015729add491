from gridgames.games.trilobite.rules import Trilobite

__all__ = ["Trilobite"]
