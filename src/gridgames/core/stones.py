"""Two-player games where players take turns putting a stone on a grid cell and the first to
make a line of a given length wins (tic-tac-toe, Trilobite): the shared state, position codec,
win check, status, text and view. A game says which cells may be taken and how moves name them.

The position string (the desc) is FEN-like: rows from the top joined by `/`, `x` and `o` for
stones, a number for a run of empty cells. The empty 3x3 board is `3/3/3`.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from dataclasses import dataclass
from typing import Any

from gridgames.core.envelope import Cell
from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.game import DRAW, ONGOING, WON, Game, Status, check_move_text
from gridgames.core.grid import Grid
from gridgames.core.lines import any_line, winning_line
from gridgames.core.params import Params
from gridgames.core.rng import Rng

EMPTY = 0
STONE_CHARS = ".xo"  # cell value -> character; player p owns stones of value p + 1
MAX_DESC = 2000
DRAW_MESSAGE = "It's a Draw"  # the tic-tac-toe source's words (docs/rules/tictactoe.md)


@dataclass(frozen=True)
class StoneState:
    params: Params
    grid: Grid
    cells: tuple[int, ...]  # EMPTY, or p + 1 for player p
    to_move: int  # 0 or 1
    last: int | None = None  # cell of the last move
    line: tuple[int, ...] = ()  # the winning line, once there is one

    @property
    def winner(self) -> int | None:
        return self.cells[self.line[0]] - 1 if self.line else None

    @property
    def full(self) -> bool:
        return EMPTY not in self.cells

    @property
    def over(self) -> bool:
        return bool(self.line) or self.full


def encode_position(grid: Grid, cells: tuple[int, ...]) -> str:
    rows = []
    for r in range(grid.rows):
        text, empties = "", 0
        for value in cells[r * grid.cols:(r + 1) * grid.cols]:
            if value == EMPTY:
                empties += 1
                continue
            text += (str(empties) if empties else "") + STONE_CHARS[value]
            empties = 0
        rows.append(text + (str(empties) if empties else ""))
    return "/".join(rows)


def decode_position(grid: Grid, desc: str) -> tuple[int, ...]:
    if not isinstance(desc, str) or len(desc) > MAX_DESC:
        raise BadInput("a position is a string of rows like 3/1x1/o2")
    rows = desc.split("/")
    if len(rows) != grid.rows:
        raise BadInput(f"position has {len(rows)} rows; this board has {grid.rows}")
    cells: list[int] = []
    for number, row in enumerate(rows, 1):
        tokens = re.findall(r"\d+|.", row.lower())
        out: list[int] = []
        for token in tokens:
            if token.isdigit():
                out.extend([EMPTY] * min(int(token), grid.cols + 1))
            elif token in "xo":
                out.append(STONE_CHARS.index(token))
            else:
                raise BadInput(f"position row {number} has {token!r}: use x, o or a number")
        if len(out) != grid.cols:
            raise BadInput(f"position row {number} has {len(out)} cells, not {grid.cols}")
        cells.extend(out)
    return tuple(cells)


class StoneGame(Game):
    players = 2
    player_names = ("X", "O")

    # --- what a game says ---

    @abstractmethod
    def grid_of(self, params: Params) -> Grid: ...

    @abstractmethod
    def line_length(self, params: Params) -> int: ...

    @abstractmethod
    def cell_of_move(self, state: StoneState, move: str) -> int:
        """The cell `move` takes; IllegalMove when it names none or that one is not free."""

    @abstractmethod
    def move_of_cell(self, state: StoneState, cell: int) -> str: ...

    @abstractmethod
    def playable_cells(self, state: StoneState) -> list[int]:
        """Cells the player to move may take (the game is ongoing)."""

    def check_position(self, grid: Grid, cells: tuple[int, ...]) -> None:
        """Game-specific rules for a set-up position (gravity); BadInput when broken."""

    # --- the shared protocol ---

    def new_desc(self, params: Params, rng: Rng) -> str:
        grid = self.grid_of(params)
        return encode_position(grid, (EMPTY,) * grid.size)

    def new_state(self, params: Params, desc: str) -> StoneState:
        grid = self.grid_of(params)
        cells = decode_position(grid, desc)
        xs, os = cells.count(1), cells.count(2)
        if xs not in (os, os + 1):
            raise BadInput(f"position has {xs} x and {os} o: X moves first, so x must equal "
                           "o or be one more")
        self.check_position(grid, cells)
        if any_line(grid, cells, self.line_length(params)):
            raise BadInput("position already has a winning line")
        return StoneState(params, grid, cells, to_move=xs - os)

    def max_moves(self, params: Params) -> int:
        return self.grid_of(params).size

    def legal_moves(self, state: StoneState) -> list[str]:
        if state.over:
            return []
        return sorted(self.move_of_cell(state, c) for c in self.playable_cells(state))

    def apply(self, state: StoneState, move: str) -> StoneState:
        check_move_text(move)
        if state.line:
            raise IllegalMove(f"the game is over: {self.player_names[state.winner]} won")
        if state.full:
            raise IllegalMove("the game is over: the board is full")
        cell = self.cell_of_move(state, move)
        cells = list(state.cells)
        cells[cell] = state.to_move + 1
        cells_t = tuple(cells)
        line = winning_line(state.grid, cells_t, cell, self.line_length(state.params))
        return StoneState(state.params, state.grid, cells_t, 1 - state.to_move, cell, line)

    def current_player(self, state: StoneState) -> int | None:
        return None if state.over else state.to_move

    def status(self, state: StoneState) -> Status:
        if state.line:
            return Status(WON, f"{self.player_names[state.winner]} wins!", winner=state.winner)
        if state.full:
            return Status(DRAW, DRAW_MESSAGE)
        return Status(ONGOING, f"It's {self.player_names[state.to_move]}'s turn")

    def position(self, state: StoneState) -> str:
        """The current position as a desc (to share or analyse it as a new start)."""
        return encode_position(state.grid, state.cells)

    def place(self, state: StoneState, move: str, grid: Grid) -> Cell:
        """A stone's move acts on the cell the stone lands in."""
        return Cell(self.cell_of_move(state, move))

    def own_view(self, state: StoneState) -> dict[str, Any]:
        over = state.over
        return {
            "kind": "stones",
            "rows": state.grid.rows,
            "cols": state.grid.cols,
            "cells": [STONE_CHARS[v] for v in state.cells],
            "to_move": None if over else state.to_move,
            "last": state.last,
            "line": list(state.line),
            "line_length": self.line_length(state.params),
            # The page never decides legality: it may only send these moves.
            "targets": [] if over else [
                {"move": self.move_of_cell(state, c), "cell": c}
                for c in self.playable_cells(state)],
        }

    def board_text(self, state: StoneState, col_labels: list[str],
                   row_labels: list[str]) -> str:
        """The board as rows of dots and stones (each player's initial: X and O, R and Y), with
        labels above and to the left."""
        grid = state.grid
        width = max(len(label) for label in col_labels)
        pad = max((len(label) for label in row_labels), default=0)
        head = " " * (pad + 1 if pad else 0) + " ".join(lbl.rjust(width) for lbl in col_labels)
        lines = [head.rstrip()]
        for r in range(grid.rows):
            row = state.cells[r * grid.cols:(r + 1) * grid.cols]
            marks = " ".join((self.player_names[v - 1][0] if v else ".").rjust(width) for v in row)
            lines.append((row_labels[r].rjust(pad) + " " if pad else "") + marks)
        return "\n".join(lines)
