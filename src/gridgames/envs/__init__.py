"""Environments for learning agents, thin adapters over the engines (no rule lives here, and
no game is named: a game's view and its optional `encoding` capability say it all):

- `TwoPlayerEnv` (twoplayer.py): PettingZoo AEC environments for the two-player games;
- `PuzzleEnv` (puzzles.py): Gymnasium environments for the one-player games;
- `VsAiEnv` (opponents.py): a two-player game as a Gymnasium environment against one of the
  game's AI levels.

They need the optional extra: `pip install gridgames[rl]` (Gymnasium and PettingZoo); the
base install does not pull them. docs/python-api.md shows them in use.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as err:  # say how to get them, not just what is missing
    raise ImportError(f"gridgames.envs needs Gymnasium and PettingZoo ({err.name} is "
                      "missing): pip install 'gridgames[rl]'") from err

from gridgames.envs.opponents import VsAiEnv
from gridgames.envs.puzzles import PuzzleEnv
from gridgames.envs.twoplayer import TwoPlayerEnv

__all__ = ["PuzzleEnv", "TwoPlayerEnv", "VsAiEnv"]
