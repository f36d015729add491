from gridgames.games.polar.rules import Polar

__all__ = ["Polar"]
