"""Simon Tatham's Dominosa IDs, read and written.

His descriptive ID is `n:desc`: numbers 0..n (so our N = n + 1) on a board n+2 wide and n+1
high, cells row by row, each one digit or `[k]` for k >= 10. Our board (N+1 rows x N
columns) is his transposed: our cell (row r, column c) is his (row c, column r). Transposing
keeps every adjacency, so solutions and reasoning carry over. His solutions write each cell as
L/R (left/right half of a horizontal domino) or T/B (top/bottom of a vertical one).
"""

from __future__ import annotations

import re

from gridgames.core.capabilities import ForeignIds
from gridgames.core.errors import BadInput
from gridgames.games.twomino.layout import MAX_N, MIN_N, SYMBOLS, layout

_ID = re.compile(r"(\d{1,2}):((?:\d|\[\d{1,2}\])+)")


def parse_dominosa(text: str) -> tuple[int, tuple[int, ...]]:
    """(N, our symbols row by row) from a Dominosa ID; BadInput when it is not one."""
    match = _ID.fullmatch(text.strip())
    if not match:
        raise BadInput("a Dominosa ID is n:desc, like 6:35260464...")
    top = int(match[1])
    n = top + 1
    if not MIN_N <= n <= MAX_N:
        raise BadInput(f"Dominosa n must be from {MIN_N - 1} to {MAX_N - 1}, not {top}")
    values = [int(v) for v in re.findall(r"\[(\d+)\]|(\d)", match[2]) for v in [v[0] or v[1]]]
    width, height = top + 2, top + 1
    if len(values) != width * height:
        raise BadInput(f"a Dominosa board for n={top} has {width * height} cells, not "
                       f"{len(values)}")
    if max(values) > top:
        raise BadInput(f"Dominosa numbers go up to n={top}, not {max(values)}")
    lay = layout(n)
    symbols = [0] * lay.grid.size
    for row in range(height):
        for col in range(width):
            symbols[col * lay.grid.cols + row] = values[row * width + col]
    return n, tuple(symbols)


def to_dominosa(n: int, symbols: tuple[int, ...]) -> str:
    lay = layout(n)
    top = n - 1
    out = []
    for row in range(top + 1):  # his rows are our columns
        for col in range(top + 2):
            value = symbols[col * lay.grid.cols + row]
            out.append(str(value) if value < 10 else f"[{value}]")
    return f"{top}:{''.join(out)}"


def dominosa_solution(n: int, letters: str) -> list[tuple[int, int]]:
    """His L/R/T/B solution as our dominoes (cell pairs)."""
    top = n - 1
    width, height = top + 2, top + 1
    if len(letters) != width * height or set(letters) - set("LRTB"):
        raise BadInput("a Dominosa solution is one of L, R, T, B per cell")
    cols = layout(n).grid.cols
    ours = []
    for index, letter in enumerate(letters):
        row, col = divmod(index, width)
        if letter in "LT":
            other = (row, col + 1) if letter == "L" else (row + 1, col)
            a, b = col * cols + row, other[1] * cols + other[0]
            ours.append((min(a, b), max(a, b)))
    return ours


def our_id(text: str) -> str | None:
    """Our game ID for a Dominosa ID, or None when text is not one."""
    if not _ID.fullmatch(text.strip()):
        return None
    n, symbols = parse_dominosa(text)
    return f"twomino:n={n}:{''.join(SYMBOLS[s] for s in symbols)}.0"


class DominosaIds(ForeignIds):
    """The `foreign_ids` entry: Simon Tatham's Dominosa IDs read as 2mino games."""

    def convert(self, text: str) -> str | None:
        return our_id(text)
