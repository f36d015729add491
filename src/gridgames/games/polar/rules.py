"""Polar's rules of a move (docs/rules/polar.md), written once, and the hearts they doom.

The game (game.play, with the events its page animates), the compiled searches (fastsolver,
parallel) and the readable reference search (reference.py) all run these functions: plain
loops over a uint8 array of the 96 cells, NEXT giving each cell's neighbour each way,
compiled with numba. Each move writes what happened as rows of `events`; a search passes a
small scratch array and only asks whether anything moved. The source's three rules
(push_tile, collide, slide; the first matching case wins) become `move` and `push`.
"""

# numba's disk cache keys a kernel by its own file only: after changing this one, delete
# the package's __pycache__ so that the kernels compile it again. The small tests
# (walkable, movable, ...) are inlined where called (inline="always"): called as functions
# from the kernels' inner loops they made the searches measurably slower.

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.games.polar.board import (
    BOMB,
    EMPTY,
    GRID,
    HEART,
    HOUSE,
    ICE,
    MOUNTAIN,
    TREE,
    step,
)

ORDER = "UDLR"  # direction d's letter; d ^ 1 is the opposite direction
# NEXT[cell, d]: the cell next to `cell` in direction ORDER[d], -1 past the edge.
NEXT = np.array([[-1 if (near := step(cell, d)) is None else near for d in ORDER]
                 for cell in range(GRID.size)], np.int16)
CELLS = GRID.size
OFF = 255  # the edge's tile in a push: a code no tile has, so it matches no rule but "else"

# An event is a row of EVENT_WIDTH int32: its kind, then the cells (and tile) it names;
# game.play turns rows into the page's tuples, (name, *row[1:1 + size]).
WALK, SLIDE, CRUSH, HOME, BOOM, BUMP = range(6)
EVENT_NAMES = ("walk", "slide", "crush", "home", "boom", "bump")
EVENT_SIZES = (2, 3, 1, 2, 2, 2)  # walk from, to; slide tile, start, end; crush cell; ...
EVENT_WIDTH = 4
MOST_EVENTS = 2  # a move makes at most a slide and what ends it


def new_events() -> np.ndarray:
    """Room for the events of one move."""
    return np.zeros((MOST_EVENTS, EVENT_WIDTH), np.int32)


@njit(cache=True, inline="always")
def _note(events, n, kind, a, b, c):
    """Write event n; returns n + 1, the events written so far."""
    events[n, 0] = kind
    events[n, 1] = a
    events[n, 2] = b
    events[n, 3] = c
    return n + 1


@njit(cache=True, inline="always")
def _tile(cells, at):
    return OFF if at < 0 else cells[at]


@njit(cache=True, inline="always")
def walkable(tile):
    """The penguin may stand on an empty cell or a tree (board.WALKABLE, compiled)."""
    return tile == EMPTY or tile == TREE


@njit(cache=True, inline="always")
def movable(tile):
    """An ice block, a heart or a bomb: the penguin pushes it (board.MOVABLE, compiled)."""
    return tile == ICE or tile == HEART or tile == BOMB


@njit(cache=True, inline="always")
def _goes(tile, next_tile):
    """A heart meets a house (it goes home) or a bomb a mountain (both go)."""
    return (tile == HEART and next_tile == HOUSE) or (tile == BOMB and next_tile == MOUNTAIN)


@njit(cache=True)
def move(cells, penguin, d, nxt, events):
    """One move in direction d (the source's push_tile): the penguin walks onto an empty
    cell or a tree, pushes an ice block, heart or bomb, or meets a fixed tile (a mountain, a
    house, the edge) and nothing happens. `cells` change in place. Returns the penguin's
    cell afterwards and the number of events written."""
    target = nxt[penguin, d]
    tile = _tile(cells, target)
    if walkable(tile):
        return np.int64(target), _note(events, 0, WALK, penguin, target, 0)
    if movable(tile):
        return np.int64(penguin), push(cells, target, d, nxt, events)
    return np.int64(penguin), 0


@njit(cache=True)
def push(cells, target, d, nxt, events):
    """The penguin pushes the movable on `target` in direction d (the source's collide and
    slide): in place, and returns the number of events written. A push that changes nothing
    leaves `cells` as they were and writes one BUMP (`moved` tells); `changes` tells before."""
    tile = cells[target]
    ahead = nxt[target, d]
    next_tile = _tile(cells, ahead)
    if next_tile == EMPTY:  # it slides on until the way is not empty
        pos = target
        while next_tile == EMPTY:
            cells[ahead] = tile
            cells[pos] = EMPTY
            pos = ahead
            ahead = nxt[pos, d]
            next_tile = _tile(cells, ahead)
        n = _note(events, 0, SLIDE, tile, target, pos)
        if tile == ICE:  # an ice block that slid into something just stops
            return n
        return _meet(cells, pos, tile, ahead, next_tile, events, n)
    if tile == ICE:  # pushed straight against something: crushed
        cells[target] = EMPTY
        return _note(events, 0, CRUSH, target, 0, 0)
    return _meet(cells, target, tile, ahead, next_tile, events, 0)


@njit(cache=True)
def _meet(cells, pos, tile, ahead, next_tile, events, n):
    """A heart or bomb on `pos` against a tile that is not empty (`ahead` -1: the edge): a
    heart goes into a house, a bomb blows up a mountain with itself, else it stays."""
    if not _goes(tile, next_tile):
        return _note(events, n, BUMP, pos, ahead, 0)
    cells[pos] = EMPTY
    if tile == BOMB:
        cells[ahead] = EMPTY
        return _note(events, n, BOOM, pos, ahead, 0)
    return _note(events, n, HOME, pos, ahead, 0)


@njit(cache=True, inline="always")
def moved(events, n):
    """Whether a push that wrote n events changed the board: all but a lone bump did."""
    return not (n == 1 and events[0, 0] == BUMP)


@njit(cache=True)
def changes(cells, target, d, nxt):
    """Whether `push` would change the board, without making it: the way is empty (it
    slides), or it is ice (crushed), or a heart meets a house or a bomb a mountain."""
    tile = cells[target]
    next_tile = _tile(cells, nxt[target, d])
    return next_tile == EMPTY or tile == ICE or _goes(tile, next_tile)


@njit(cache=True)
def hearts_left(cells):
    """The hearts still on the board; the level is won when none is (every heart home)."""
    n = 0
    for c in range(CELLS):
        if cells[c] == HEART:
            n += 1
    return n


def won(board: tuple[int, ...] | bytes) -> bool:
    """Every heart is home (hearts_left, for a board held as bytes or a tuple)."""
    cells = np.frombuffer(board, np.uint8) if isinstance(board, bytes) else \
        np.asarray(board, np.uint8)
    return hearts_left(cells) == 0


# --- the hearts that can never get home ---


@njit(cache=True)
def mark_bombable(cells, nxt, bombable):
    """bombable[c] = 1 for a mountain a bomb might one day meet: there is a bomb, and on
    some side of the mountain a cell a bomb can be on (not a tree or a house) with, beyond
    it, a cell the bomb can come from or the penguin push from (on the board, not a house).
    The other mountains stand for ever."""
    bombs = False
    for c in range(CELLS):
        bombable[c] = 0
        bombs = bombs or cells[c] == BOMB
    if not bombs:
        return
    for c in range(CELLS):
        if cells[c] != MOUNTAIN:
            continue
        for d in range(4):
            near = nxt[c, d]
            if near < 0 or cells[near] == TREE or cells[near] == HOUSE:
                continue
            far = nxt[near, d]
            if far >= 0 and cells[far] != HOUSE:
                bombable[c] = 1


@njit(cache=True)
def mark_dead(cells, nxt, dead):
    """dead[c] = 1 for a heart on c that can never reach a house, even if everything that
    can move or blow up got out of its way: only trees and lasting mountains stop it, and
    it is pushed from a cell on the board that is not a house or a lasting mountain.
    Returns how many hearts are dead (while one is, the level is lost)."""
    lasting = np.empty(CELLS, np.uint8)
    mark_bombable(cells, nxt, lasting)
    for c in range(CELLS):
        lasting[c] = cells[c] == MOUNTAIN and not lasting[c]
    home = np.zeros(CELLS, np.uint8)  # a heart here can get home
    changed = True
    while changed:  # a heart gets home straight into a house or by a cell that can
        changed = False
        for c in range(CELLS):
            if home[c] or cells[c] == TREE or cells[c] == HOUSE or lasting[c]:
                continue
            for d in range(4):
                stand = nxt[c, d ^ 1]
                if stand < 0 or cells[stand] == HOUSE or lasting[stand]:
                    continue
                at = nxt[c, d]
                while at >= 0 and cells[at] != TREE and not lasting[at]:
                    if cells[at] == HOUSE or home[at]:
                        home[c] = 1
                        changed = True
                        break
                    at = nxt[at, d]
                if home[c]:
                    break
    count = 0
    for c in range(CELLS):
        dead[c] = cells[c] == HEART and not home[c]
        count += dead[c]
    return count


def cells_of(board: tuple[int, ...] | list[int] | bytes) -> np.ndarray:
    """A board as the rules take it: a fresh uint8 array of its cells."""
    return np.array(board, np.uint8) if not isinstance(board, bytes | bytearray) else \
        np.frombuffer(board, np.uint8).copy()


def dead_hearts(board: tuple[int, ...] | list[int] | bytes) -> list[int]:
    """Hearts that can never reach a house (mark_dead): while there is one, the level is
    lost."""
    dead = np.zeros(CELLS, np.uint8)
    if not mark_dead(cells_of(board), NEXT, dead):
        return []
    return [int(c) for c in np.flatnonzero(dead)]


def bombable_mountains(board: tuple[int, ...] | list[int] | bytes) -> set[int]:
    """The mountains a bomb might one day meet (mark_bombable)."""
    bombable = np.zeros(CELLS, np.uint8)
    mark_bombable(cells_of(board), NEXT, bombable)
    return {int(c) for c in np.flatnonzero(bombable)}


assert CELLS < OFF  # cells and tiles fit in a byte, and no tile is OFF
