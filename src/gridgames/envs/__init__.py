"""Environments for learning agents, thin adapters over the engines (no rule lives here):

- `StonesEnv` (twoplayer.py): PettingZoo AEC environments for tic-tac-toe and Trilobite;
- `PuzzleEnv` (puzzles.py): Gymnasium environments for Polar, 2mino and Ishido;
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
from gridgames.envs.twoplayer import StonesEnv

__all__ = ["PuzzleEnv", "StonesEnv", "VsAiEnv"]
