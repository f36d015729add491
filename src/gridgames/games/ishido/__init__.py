from gridgames.games.ishido.rules import Ishido

__all__ = ["Ishido"]
