"""Ishido: the tiles, the board and the rules, in that order, under two rule sets: `seed`
(the source's, docs/rules/ishido.md) and `classic` (the 1990 game's).

A tile is a colour and an image, each 0..5, numbered `colour * 6 + image` and written as two
digits (`03`). The board is 8 x 12 cells; the pouch's first six tiles start on it and the
rest are placed one at a time. Scoring: `placement_points`; classic rules also score 4-ways
(FOURWAY_BONUS) and the tiles left at the end (END_BONUS). Moves name the cell for the next
tile: column letter a-l, then row 1-8 from the top.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from gridgames.core.bits import bits
from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.game import LOST, ONGOING, WON, Game, Status, check_move_text
from gridgames.core.grid import Grid
from gridgames.core.params import Params, param
from gridgames.core.rng import Rng
from gridgames.core.words import count

# --- tiles ---

COLOURS = 6
IMAGES = 6
KINDS = COLOURS * IMAGES  # 36 distinct tiles
COPIES = 2
POUCH_SIZE = KINDS * COPIES  # 72
OPENING = 6  # tiles on the board at the start
ALL_KINDS = (1 << KINDS) - 1

SEED, CLASSIC = "seed", "classic"


def colour(tile: int) -> int:
    return tile // IMAGES


def image(tile: int) -> int:
    return tile % IMAGES


def code(tile: int) -> str:
    return f"{colour(tile)}{image(tile)}"


def parse_pouch(desc: str) -> tuple[int, ...]:
    """The desc is the whole pouch in order, two digits a tile; the first six start on the
    board. BadInput unless it is 72 tiles, every tile twice, the first six unique in colour
    and in image (the source's guarantee that the first tile can always be placed)."""
    if not isinstance(desc, str) or len(desc) != 2 * POUCH_SIZE or not desc.isascii() \
            or not desc.isdigit():
        raise BadInput(f"an Ishido desc is {POUCH_SIZE} tiles of two digits (colour 0-5, "
                       f"image 0-5): {2 * POUCH_SIZE} digits")
    tiles = []
    for i in range(0, len(desc), 2):
        c, s = int(desc[i]), int(desc[i + 1])
        if c >= COLOURS or s >= IMAGES:
            raise BadInput(f"tile {i // 2 + 1} ({desc[i:i + 2]}): colour and image are 0-5")
        tiles.append(c * IMAGES + s)
    for kind in range(KINDS):
        if tiles.count(kind) != COPIES:
            raise BadInput(f"tile {code(kind)} appears {tiles.count(kind)} times, not twice")
    opening = tiles[:OPENING]
    if len({colour(t) for t in opening}) != COLOURS or len({image(t) for t in opening}) != IMAGES:
        raise BadInput("the first six tiles must show every colour and every image once")
    return tuple(tiles)


def format_pouch(tiles: tuple[int, ...] | list[int]) -> str:
    return "".join(code(t) for t in tiles)


def make_pouch(rng: Rng) -> list[int]:
    """Every tile twice, shuffled, then the opening six brought to the front."""
    return opening_first(rng.shuffled([kind for _ in range(COPIES) for kind in range(KINDS)]))


def opening_first(shuffled: list[int]) -> list[int]:
    """The source's loop over the shuffled tiles: walking them, a tile
    whose colour and image are both unseen joins `head`, any other joins `tail`, until all six
    colours and images are seen; the pouch is head + tail + the rest. The source conses onto
    head and tail (Racket lists), so both come out in reverse order of the walk: so do ours."""
    head: list[int] = []
    tail: list[int] = []
    colours, images = set(range(COLOURS)), set(range(IMAGES))
    walked = 0
    while walked < len(shuffled) and (colours or images):
        tile = shuffled[walked]
        walked += 1
        if colour(tile) in colours and image(tile) in images:
            head.insert(0, tile)
            colours.discard(colour(tile))
            images.discard(image(tile))
        else:
            tail.insert(0, tile)
    return head + tail + shuffled[walked:]


@lru_cache(maxsize=64)  # 36 tiles: bounded by the game
def matches(tile: int) -> int:
    """Kinds sharing a colour or an image with tile, as a bitmask over the 36 kinds."""
    mask = 0
    for kind in range(KINDS):
        if colour(kind) == colour(tile) or image(kind) == image(tile):
            mask |= 1 << kind
    return mask


@lru_cache(maxsize=1 << 17)  # sorted neighbour tuples: ~180k at most
def allowed_kinds(neighbours: tuple[int, ...], rules: str) -> int:
    """Bitmask of the kinds that may be placed next to these neighbour tiles (sorted tuple).

    Both rule sets: at least one neighbour, and every neighbour matches in colour or image.
    Classic ("Ishido: The Way of Stones", 1990) also wants, with 2 or 3 neighbours, at least
    one colour match and one image match, and with 4 at least two of each (an identical twin
    counts on both sides)."""
    if not neighbours:
        return 0
    mask = ALL_KINDS
    for tile in neighbours:
        mask &= matches(tile)
    if rules == SEED or len(neighbours) == 1:
        return mask
    need = 2 if len(neighbours) == 4 else 1
    out = 0
    for kind in bits(mask):
        by_colour = sum(colour(t) == colour(kind) for t in neighbours)
        by_image = sum(image(t) == image(kind) for t in neighbours)
        if by_colour >= need and by_image >= need:
            out |= 1 << kind
    return out


# --- the board ---

ROWS, COLS = 8, 12
GRID = Grid(ROWS, COLS)
EMPTY = -1
# (column, row) of the six opening tiles, in pouch order (the source's `initial-locations`).
OPENING_CELLS = tuple(GRID.index(row, col)
                      for col, row in ((0, 0), (11, 0), (5, 3), (6, 4), (0, 7), (11, 7)))
NEIGHBOURS = tuple(GRID.neighbours4(cell) for cell in range(GRID.size))
EDGE = frozenset(c for c in range(GRID.size)
                 if c // COLS in (0, ROWS - 1) or c % COLS in (0, COLS - 1))
FOURWAY_BONUS = (25, 50, 100, 200, 400, 600, 800, 1000, 5000, 10000, 25000, 50000)
END_BONUS = {0: 1000, 1: 500, 2: 100}  # classic: tiles left at the end -> bonus


def neighbour_tiles(board: Sequence[int], cell: int) -> tuple[int, ...]:
    """The tiles orthogonally next to cell, sorted (the key of tiles.allowed_kinds)."""
    near = [board[n] for n in NEIGHBOURS[cell] if board[n] != EMPTY]
    near.sort()
    return tuple(near)


def placement_points(rules: str, cell: int, neighbours: int, fourways_before: int) -> int:
    """Points for a placement next to `neighbours` tiles (the end bonus aside)."""
    base = 1 << (neighbours - 1)
    if rules == SEED:
        return base
    if cell in EDGE:
        return 0
    points = base << fourways_before
    if neighbours == 4:
        points += FOURWAY_BONUS[min(fourways_before, len(FOURWAY_BONUS) - 1)]
    return points


# --- the rules ---

@dataclass(frozen=True)
class IshidoParams(Params):
    rules: str = param(SEED, choices=(SEED, CLASSIC),
                       help="seed: the blog's rules; classic: the 1990 game's", label="Rules",
                       choice_labels={SEED: "Match colour or image",
                                      CLASSIC: "Classic: the 1990 game's stricter matches"})


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


def valid_cells(board: Sequence[int], tile: int, rules: str,
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
    rules = ("Place the next tile from the pouch on an empty cell next to at least one tile. "
             "Every neighbour must share its colour or its image (classic rules: with two or "
             "more neighbours, one shares the colour and another the image). More neighbours "
             "score more; a tile with four neighbours is a 4-way and scores big. The game ends "
             "when the pouch is empty (a win) or the next tile fits nowhere.")
    score_order = "higher"
    score_unit = "points"
    params_type = IshidoParams
    renderer = "ishido.js"
    order = 30
    sample_params = ("rules=classic",)

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
        # The end keeps the source's words ("Game Over. You Win!", "Game Over") and says the
        # score, and for a loss why and how many tiles were left.
        left = len(state.pouch)
        score = count(state.score, "point")
        if state.fourways:
            score += f", {count(state.fourways, 'four-way')}"
        if not left:
            return Status(WON, f"Game Over. You Win! {score}", score=state.score)
        if not state.valid:
            return Status(LOST, f"Game Over: the next tile fits nowhere. {score}, "
                          f"{count(left, 'tile')} left", score=state.score)
        return Status(ONGOING, f"Score {state.score} · {count(left, 'tile')} left",
                      score=state.score)

    def text(self, state: IshidoState) -> str:
        lines = ["   " + " ".join(f"{c:>2}" for c in "abcdefghijkl")]
        for r in range(ROWS):
            row = state.board[r * COLS:(r + 1) * COLS]
            lines.append(f"{r + 1:>2} " + " ".join(".." if t == EMPTY else code(t) for t in row))
        nxt = "none" if state.next_tile is None else code(state.next_tile)
        lines.append(f"next {nxt}  score {state.score}  4-ways {state.fourways}  "
                     f"tiles left {len(state.pouch)}  (tiles: colour digit, image digit)")
        return "\n".join(lines)

    def own_view(self, state: IshidoState) -> dict[str, Any]:
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
