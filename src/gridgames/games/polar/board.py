"""The Polar board: 24 columns x 4 rows, tile codes as in the original 'STGE' resources
(docs/rules/polar.md), the source's tile classes, and one character per tile for text.
"""

from __future__ import annotations

from gridgames.core.grid import Grid

ROWS, COLS = 4, 24
GRID = Grid(ROWS, COLS)

# The original game's codes (the source decodes them from level 1).
EMPTY, TREE, MOUNTAIN, HOUSE, ICE, HEART, BOMB = range(7)
EDGE = -1  # outside the board: the source's <edge>, a fixed blocking tile
NAMES = {EMPTY: "empty", TREE: "tree", MOUNTAIN: "mountain", HOUSE: "house", ICE: "ice block",
         HEART: "heart", BOMB: "bomb", EDGE: "edge"}

# The source's classes: walkable (the penguin may stand there), movable, fixed.
WALKABLE = frozenset({EMPTY, TREE})
MOVABLE = frozenset({ICE, HEART, BOMB})
FIXED = frozenset({MOUNTAIN, HOUSE, EDGE})

# Text: one character a tile; the penguin is P on an empty cell, p on a tree.
CHARS = {EMPTY: ".", TREE: "T", MOUNTAIN: "M", HOUSE: "H", ICE: "I", HEART: "+", BOMB: "B"}
CODES = {ch: code for code, ch in CHARS.items()}
PENGUIN_ON = {"P": EMPTY, "p": TREE}

DIRECTIONS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}


# Each direction's next cell from every cell (None past the edge), worked out once: the
# reference solver's bounds ask for millions of steps, and GRID.step does arithmetic each time.
_NEXT_CELL = {direction: tuple(GRID.step(cell, delta) for cell in range(GRID.size))
              for direction, delta in DIRECTIONS.items()}


def step(cell: int, direction: str) -> int | None:
    """The next cell in a direction, or None past the edge."""
    return _NEXT_CELL[direction][cell]
