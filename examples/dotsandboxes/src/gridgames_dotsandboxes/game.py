"""Dots and Boxes: a board of rows x cols boxes drawn as a lattice of dots. Two players take
turns to draw one line between two adjacent dots; whoever draws the fourth side of a box
takes it and draws again. When every line is drawn, the player with more boxes wins; equal
counts are a draw.

A move names a line by its two dots, top or left dot first: `a1-b1` (the top line of the
top-left box), `a1-a2` (its left side). Dots are named as grid cells are (core/grid.py):
column letter, then row from the top.

The desc lists the lines in reading order, one row of dots at a time: the horizontal lines
of a row of dots (cols digits), then the vertical lines below it (cols + 1 digits), `1`
drawn and `0` not, rows joined by `/`. A new game has no line drawn; a desc may start with
lines drawn, as long as no box is complete (a box nobody took would belong to no one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from gridgames.core.envelope import Edge, Place, edge
from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.game import DRAW, ONGOING, WON, Game, Status, check_move_text
from gridgames.core.grid import Grid
from gridgames.core.params import Params, param
from gridgames.core.rng import Rng

PLAYERS = ("Red", "Blue")
UNDRAWN, GIVEN = -1, 2  # a line's drawer: -1 not drawn, 0 or 1 a player, 2 drawn at the start


@dataclass(frozen=True)
class DotsParams(Params):
    rows: int = param(3, lo=2, hi=8, help="rows of boxes")
    cols: int = param(3, lo=2, hi=8, help="columns of boxes")


@dataclass(frozen=True)
class Layout:
    """Where the lines and boxes of a board are: the same for every position of a size."""

    dots: tuple[tuple[int, int], ...]  # each line's two dots, lines in reading order
    names: tuple[str, ...]  # each line's move name
    index: Mapping[str, int]  # a move name's line
    sides: tuple[tuple[int, int, int, int], ...]  # each box's top, left, right, bottom
    boxes_of: tuple[tuple[int, ...], ...]  # each line's boxes: one on the border, two inside


@lru_cache(maxsize=64)  # one per board size: 7 x 7 sizes at most
def layout(rows: int, cols: int) -> Layout:
    dots = Grid(rows + 1, cols + 1)
    lines: list[tuple[int, int]] = []
    for r in range(rows + 1):
        lines.extend((dots.index(r, c), dots.index(r, c + 1)) for c in range(cols))
        if r < rows:
            lines.extend((dots.index(r, c), dots.index(r + 1, c)) for c in range(cols + 1))
    index = {pair: i for i, pair in enumerate(lines)}
    names = tuple(f"{dots.cell_name(a)}-{dots.cell_name(b)}" for a, b in lines)
    sides = []
    boxes_of: list[list[int]] = [[] for _ in lines]
    for r in range(rows):
        for c in range(cols):
            top_left, top_right = dots.index(r, c), dots.index(r, c + 1)
            bottom_left, bottom_right = dots.index(r + 1, c), dots.index(r + 1, c + 1)
            box = (index[top_left, top_right], index[top_left, bottom_left],
                   index[top_right, bottom_right], index[bottom_left, bottom_right])
            sides.append(box)
            for line in box:
                boxes_of[line].append(r * cols + c)
    return Layout(tuple(lines), names, MappingProxyType({n: i for i, n in enumerate(names)}),
                  tuple(sides), tuple(tuple(b) for b in boxes_of))


@dataclass(frozen=True)
class DotsState:
    params: DotsParams
    lines: tuple[int, ...]  # each line's drawer (UNDRAWN, 0, 1 or GIVEN), reading order
    boxes: tuple[int | None, ...]  # each box's owner, row by row
    to_move: int = 0
    last: int | None = None  # the line drawn last
    again: bool = False  # the last line took a box, so its player draws again

    @property
    def over(self) -> bool:
        return UNDRAWN not in self.lines

    def score(self, player: int) -> int:
        return self.boxes.count(player)


def line_name(params: DotsParams, line: int) -> str:
    return layout(params.rows, params.cols).names[line]


def line_edge(params: DotsParams, line: int) -> Edge:
    """The edge of the boxes' grid a line is (core/envelope.py)."""
    rows, cols = params.rows, params.cols
    (r1, c1), (r2, c2) = (divmod(dot, cols + 1) for dot in layout(rows, cols).dots[line])
    boxes = Grid(rows, cols)
    if r1 == r2:  # across: the top of the box below it, or the bottom of the last row's
        return edge(boxes, boxes.index(min(r1, rows - 1), c1), "N" if r1 < rows else "S")
    return edge(boxes, boxes.index(r1, min(c1, cols - 1)), "W" if c1 < cols else "E")


def sides_drawn(state: DotsState, box: int) -> int:
    sides = layout(state.params.rows, state.params.cols).sides[box]
    return sum(state.lines[line] != UNDRAWN for line in sides)


def boxes_closed_by(state: DotsState, line: int) -> int:
    """How many boxes drawing `line` (not drawn yet) would complete: 0, 1 or 2."""
    boxes = layout(state.params.rows, state.params.cols).boxes_of[line]
    return sum(sides_drawn(state, box) == 3 for box in boxes)


class DotsAndBoxes(Game):
    name = "dotsandboxes"
    title = "Dots and Boxes"
    summary = "Draw lines between dots; close a box to take it and draw again."
    rules = ("Red and Blue take turns to draw a line between two neighbouring dots; Red "
             "goes first. Drawing the fourth side of a box takes it, and the same player "
             "draws again. When every line is drawn, the player with more boxes wins.")
    params_type = DotsParams
    players = 2
    player_names = PLAYERS
    renderer = "dotsandboxes.js"
    sample_params = ("rows=2,cols=2", "rows=2,cols=5")

    def new_desc(self, params: DotsParams, rng: Rng) -> str:
        rows = []
        for r in range(params.rows + 1):
            rows.append("0" * params.cols)
            if r < params.rows:
                rows.append("0" * (params.cols + 1))
        return "/".join(rows)

    def new_state(self, params: DotsParams, desc: str) -> DotsState:
        rows, cols = params.rows, params.cols
        parts = desc.split("/") if isinstance(desc, str) else []
        widths = [cols if i % 2 == 0 else cols + 1 for i in range(2 * rows + 1)]
        if len(parts) != len(widths) or any(len(part) != width or set(part) - {"0", "1"}
                                            for part, width in zip(parts, widths, strict=False)):
            raise BadInput(f"a Dots and Boxes desc is {2 * rows + 1} rows of digits 0 or 1 "
                           f"joined by /, {cols} then {cols + 1} digits in turn")
        lines = tuple(GIVEN if ch == "1" else UNDRAWN for part in parts for ch in part)
        state = DotsState(params, lines, (None,) * (rows * cols))
        if any(sides_drawn(state, box) == 4 for box in range(rows * cols)):
            raise BadInput("a Dots and Boxes start has no complete box")
        return state

    def max_moves(self, params: DotsParams) -> int:
        return len(layout(params.rows, params.cols).dots)

    def legal_moves(self, state: DotsState) -> list[str]:
        return [line_name(state.params, line) for line, drawer in enumerate(state.lines)
                if drawer == UNDRAWN]

    def parse_line(self, params: DotsParams, move: str) -> int:
        """The line a move names; IllegalMove saying how lines are written."""
        line = layout(params.rows, params.cols).index.get(move.lower())
        if line is None:
            raise IllegalMove(f"{move!r} is not a line of this board: name two neighbouring "
                              "dots, top or left first, like a1-b1 or a1-a2")
        return line

    def apply(self, state: DotsState, move: str) -> DotsState:
        check_move_text(move)
        line = self.parse_line(state.params, move)
        if state.over:
            raise IllegalMove("every line is drawn: the game is over")
        if state.lines[line] != UNDRAWN:
            raise IllegalMove(f"{move} is already drawn")
        player = state.to_move
        lines = list(state.lines)
        lines[line] = player
        after = DotsState(state.params, tuple(lines), state.boxes)
        boxes = list(state.boxes)
        for box in layout(state.params.rows, state.params.cols).boxes_of[line]:
            if sides_drawn(after, box) == 4:
                boxes[box] = player
        took = boxes != list(state.boxes)
        return DotsState(state.params, tuple(lines), tuple(boxes),
                         player if took else 1 - player, line, took)

    def status(self, state: DotsState) -> Status:
        red, blue = state.score(0), state.score(1)
        tally = f"{PLAYERS[0]} {red} – {PLAYERS[1]} {blue}"
        if not state.over:
            mover = PLAYERS[state.to_move]
            turn = f"{mover} took a box: {mover} draws again" if state.again \
                else f"It's {mover}'s turn"
            return Status(ONGOING, f"{turn} · {tally}")
        if red == blue:
            return Status(DRAW, f"It's a draw, {red} boxes each")
        winner = 0 if red > blue else 1
        return Status(WON, f"{PLAYERS[winner]} wins, {max(red, blue)} boxes to "
                      f"{min(red, blue)}!", winner=winner)

    def current_player(self, state: DotsState) -> int | None:
        return None if state.over else state.to_move

    def text(self, state: DotsState) -> str:
        """Dots as +, drawn lines as --- and |, a taken box by its owner's initial."""
        rows, cols = state.params.rows, state.params.cols
        lines = layout(rows, cols).dots
        drawn = {pair for pair, drawer in zip(lines, state.lines, strict=True)
                 if drawer != UNDRAWN}
        dots = Grid(rows + 1, cols + 1)
        out = ["  " + "   ".join(dots.cell_name(c)[0] for c in range(cols + 1))]
        for r in range(rows + 1):
            row = ""
            for c in range(cols + 1):
                row += "+"
                if c < cols:
                    row += "---" if (dots.index(r, c), dots.index(r, c + 1)) in drawn else "   "
            out.append(f"{r + 1} {row}".rstrip())
            if r < rows:
                row = ""
                for c in range(cols + 1):
                    row += "|" if (dots.index(r, c), dots.index(r + 1, c)) in drawn else " "
                    if c < cols:
                        owner = state.boxes[r * cols + c]
                        row += f" {PLAYERS[owner][0]} " if owner is not None else "   "
                out.append(f"  {row}".rstrip())
        return "\n".join(out)

    def place(self, state: DotsState, move: str, grid: Grid) -> Place | None:
        """A line is an edge of the boxes' grid (the view's rows x cols): a box's top or
        left side, or its bottom or right side along the border."""
        return line_edge(state.params, self.parse_line(state.params, move))

    def own_view(self, state: DotsState) -> dict[str, Any]:
        params = state.params
        board = layout(params.rows, params.cols)
        dots = Grid(params.rows + 1, params.cols + 1)
        over = state.over
        return {
            "kind": "dotsandboxes",
            "rows": params.rows,
            "cols": params.cols,
            "players": list(PLAYERS),
            "to_move": None if over else state.to_move,
            "again": state.again,
            "scores": [state.score(0), state.score(1)],
            "boxes": list(state.boxes),
            # Each line with its two dots as [row, col]; `by` is who drew it (2: drawn at
            # the start, None: not drawn) and `legal` whether it may be drawn now.
            "lines": [{"move": name, "from": list(dots.row_col(a)), "to": list(dots.row_col(b)),
                       "by": None if drawer == UNDRAWN else drawer,
                       "legal": drawer == UNDRAWN and not over}
                      for name, (a, b), drawer in zip(board.names, board.dots, state.lines,
                                                      strict=True)],
            "last": None if state.last is None else line_name(params, state.last),
        }
