"""Ishido, from the seed `000_25e6ec847822079f.txt` (Racket), plus the classic 1990 rules.

An 8 x 12 board and a pouch of 72 tiles (tiles.py). The first six tiles of the pouch start on
the board at (column, row) (0,0), (11,0), (5,3), (6,4), (0,7), (11,7); the rest are placed one
at a time, the head of the pouch first. A tile goes on an empty cell with at least one
orthogonal neighbour when every neighbour matches it in colour or image (classic rules ask
more, see tiles.allowed_kinds). The game is won when the pouch is empty and lost when the next
tile has no valid cell.

Scoring. Seed rules: 1, 2, 4, 8 points for 1, 2, 3, 4 neighbours. Classic rules: placements on
the outer edge score 0; inside, 1/2/4/8, doubled once for every 4-way made before; a 4-way
(four neighbours) also earns the next bonus of FOURWAY_BONUS; at the end, 1000 points when
every tile was placed, 500 with one left, 100 with two. 4-ways are counted in both rule sets.

Moves name the cell for the next tile: column letter a-l, then row 1-8 from the top.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gridgames.core.errors import IllegalMove
from gridgames.core.game import LOST, ONGOING, WON, Game, Status, check_move_text
from gridgames.core.params import Params, param
from gridgames.core.rng import Rng
from gridgames.games.ishido.ai import best_cell
from gridgames.games.ishido.board import (
    COLS,
    EMPTY,
    END_BONUS,
    GRID,
    OPENING_CELLS,
    ROWS,
    neighbour_tiles,
    placement_points,
)
from gridgames.games.ishido.tiles import (
    CLASSIC,
    KINDS,
    OPENING,
    POUCH_SIZE,
    SEED,
    allowed_kinds,
    code,
    format_pouch,
    make_pouch,
    parse_pouch,
)


@dataclass(frozen=True)
class IshidoParams(Params):
    rules: str = param(SEED, choices=(SEED, CLASSIC),
                       help="seed: the blog's rules; classic: the 1990 game's")


@dataclass(frozen=True)
class IshidoState:
    params: IshidoParams
    board: tuple[int, ...]  # tile per cell, EMPTY where none
    pouch: tuple[int, ...]  # tiles still to place, the next one first
    score: int = 0
    fourways: int = 0
    last: int | None = None
    # The next tile's valid cells and the points each would give (derived, kept for speed).
    valid: tuple[tuple[int, int], ...] = field(default=(), compare=False)

    @property
    def next_tile(self) -> int | None:
        return self.pouch[0] if self.pouch else None

    @property
    def over(self) -> bool:
        return not self.pouch or not self.valid


def valid_cells(board: tuple[int, ...], tile: int, rules: str,
                fourways: int) -> tuple[tuple[int, int], ...]:
    """(cell, points) for every cell where `tile` may go, in cell order."""
    out = []
    for cell in range(GRID.size):
        if board[cell] != EMPTY:
            continue
        near = neighbour_tiles(board, cell)
        if allowed_kinds(near, rules) >> tile & 1:
            out.append((cell, placement_points(rules, cell, len(near), fourways)))
    return tuple(out)


def make_state(params: IshidoParams, board: tuple[int, ...], pouch: tuple[int, ...],
               score: int = 0, fourways: int = 0, last: int | None = None) -> IshidoState:
    """A state with its derived fields filled in (and the classic end bonus when it is over)."""
    return _with_valid(IshidoState(params, board, pouch, score, fourways, last))


def _with_valid(state: IshidoState) -> IshidoState:
    tile = state.next_tile
    valid = () if tile is None else valid_cells(state.board, tile, state.params.rules,
                                                state.fourways)
    state = IshidoState(state.params, state.board, state.pouch, state.score, state.fourways,
                        state.last, valid)
    if state.over and state.params.rules == CLASSIC:
        bonus = END_BONUS.get(len(state.pouch), 0)
        state = IshidoState(state.params, state.board, state.pouch, state.score + bonus,
                            state.fourways, state.last, valid)
    return state


class Ishido(Game):
    name = "ishido"
    title = "Ishido"
    summary = "Place 72 tiles so every neighbour shares a colour or an image. 4-ways score big."
    params_type = IshidoParams
    can_hint = True
    sample_params = ("rules=classic",)
    cli_module = "gridgames.games.ishido.commands"

    def new_desc(self, params: IshidoParams, rng: Rng) -> str:
        return format_pouch(make_pouch(rng))

    def new_state(self, params: IshidoParams, desc: str) -> IshidoState:
        tiles = parse_pouch(desc)
        board = [EMPTY] * GRID.size
        for cell, tile in zip(OPENING_CELLS, tiles[:OPENING], strict=True):
            board[cell] = tile
        return make_state(params, tuple(board), tiles[OPENING:])

    def max_moves(self, params: IshidoParams) -> int:
        return POUCH_SIZE - OPENING

    def legal_moves(self, state: IshidoState) -> list[str]:
        return [GRID.cell_name(cell) for cell, _ in state.valid]

    def move_order(self, move: str) -> Any:
        return GRID.parse_cell(move)

    def apply(self, state: IshidoState, move: str) -> IshidoState:
        check_move_text(move)
        if state.over:
            raise IllegalMove("the game is over")
        try:
            cell = GRID.parse_cell(move)
        except ValueError as err:
            raise IllegalMove(f"{move!r} is not a cell of the board (a1 to l8)") from err
        points = dict(state.valid).get(cell)
        if points is None:
            raise IllegalMove(self._why_not(state, cell))
        near = len(neighbour_tiles(state.board, cell))
        board = list(state.board)
        board[cell] = state.pouch[0]
        fourways = state.fourways + (near == 4)
        return make_state(state.params, tuple(board), state.pouch[1:], state.score + points,
                          fourways, cell)

    def _why_not(self, state: IshidoState, cell: int) -> str:
        name = GRID.cell_name(cell)
        if state.board[cell] != EMPTY:
            return f"{name} already has a tile"
        if not neighbour_tiles(state.board, cell):
            return f"{name} has no neighbour: a tile must touch another"
        if state.params.rules == CLASSIC and allowed_kinds(
                neighbour_tiles(state.board, cell), SEED) >> state.pouch[0] & 1:
            return (f"{name}: classic rules need matches by both colour and image "
                    "(two of each for a 4-way)")
        return f"{name}: every neighbour must share the tile's colour or image"

    def status(self, state: IshidoState) -> Status:
        left = len(state.pouch)
        if not left:
            return Status(WON, "Game Over. You Win!", score=state.score)
        if not state.valid:
            return Status(LOST, "Game Over", score=state.score)
        return Status(ONGOING, f"Score {state.score} · {left} tiles left", score=state.score)

    def text(self, state: IshidoState) -> str:
        lines = ["   " + " ".join(f"{c:>2}" for c in "abcdefghijkl")]
        for r in range(ROWS):
            row = state.board[r * COLS:(r + 1) * COLS]
            lines.append(f"{r + 1:>2} " + " ".join(".." if t == EMPTY else code(t) for t in row))
        nxt = "none" if state.next_tile is None else code(state.next_tile)
        lines.append(f"next {nxt}  score {state.score}  4-ways {state.fourways}  "
                     f"tiles left {len(state.pouch)}  (tiles: colour digit, image digit)")
        return "\n".join(lines)

    def view(self, state: IshidoState) -> dict[str, Any]:
        counts = [0] * KINDS
        for tile in state.pouch:
            counts[tile] += 1
        return {
            "kind": "ishido",
            "rows": ROWS,
            "cols": COLS,
            "rules": state.params.rules,
            "cells": [None if t == EMPTY else t for t in state.board],
            "next": state.next_tile,
            "valid": [{"cell": c, "move": GRID.cell_name(c), "points": p}
                      for c, p in state.valid],
            "score": state.score,
            "fourways": state.fourways,
            "tiles_left": len(state.pouch),
            "pouch_counts": counts,  # the next tile included
            "last": state.last,
        }

    def hint(self, state: IshidoState) -> str | None:
        """The AI's choice: it knows which tiles are left, not their order."""
        if state.over:
            return None
        return GRID.cell_name(best_cell(state.board, state.pouch, state.params.rules,
                                        state.fourways))
