from gridgames.games.twomino.rules import TwoMino

__all__ = ["TwoMino"]
