"""The rules of Polar, from the seed `002_1e813132e21882de.txt` (Dylan).

The seed's three generic functions are the rules, kept here as three methods with the same
dispatch (first matching case wins, most specific first):

- push_tile (the penguin moves towards a tile): walkable (empty, tree): the penguin steps
  there. Movable (ice, heart, bomb): collide it with the tile beyond; the penguin stays.
  Fixed (mountain, house, edge): nothing.
- collide (a movable meets the next tile): empty: slide. Ice against anything blocking:
  crushed. Heart against a house: the heart is gone and the count goes down. Bomb against a
  mountain: both gone. Any other meeting: nothing.
- slide (a movable moving on): onto an empty cell (the blog's `<movable>` here is a typo for
  `<empty>`, as its prose says): it moves there and slides on. Ice that slid and meets
  anything blocking: it just stops. Anything else that slid: collide, as if pushed.
"""

from __future__ import annotations

from typing import Any

from gridgames.games.polar.board import (
    BOMB,
    EDGE,
    EMPTY,
    HEART,
    HOUSE,
    ICE,
    MOUNTAIN,
    MOVABLE,
    WALKABLE,
    step,
)

Event = tuple[Any, ...]


class _Model:
    """The seed's mutable model, used inside one move: a board, the penguin, the count, and
    what happened (events, for the page's animations)."""

    def __init__(self, board: tuple[int, ...], penguin: int, hearts: int) -> None:
        self.board = list(board)
        self.penguin = penguin
        self.hearts = hearts
        self.events: list[Event] = []

    def tile(self, cell: int | None) -> int:
        return EDGE if cell is None else self.board[cell]

    def push_tile(self, direction: str) -> None:
        target = step(self.penguin, direction)
        tile = self.tile(target)
        if tile in WALKABLE:
            self.events.append(("walk", self.penguin, target))
            self.penguin = target
        elif tile in MOVABLE:
            beyond = step(target, direction)
            self.collide(direction, target, tile, beyond, self.tile(beyond))
        # fixed (mountain, house, edge): nothing

    def collide(self, direction: str, pos: int, tile: int, next_pos: int | None,
                next_tile: int) -> None:
        if next_tile == EMPTY:
            self.slide(direction, pos, tile, next_pos, next_tile)
        elif tile == ICE:
            self.board[pos] = EMPTY
            self.events.append(("crush", pos))
        elif tile == HEART and next_tile == HOUSE:
            self.board[pos] = EMPTY
            self.hearts -= 1
            self.events.append(("home", pos, next_pos))
        elif tile == BOMB and next_tile == MOUNTAIN:
            self.board[pos] = EMPTY
            self.board[next_pos] = EMPTY
            self.events.append(("boom", pos, next_pos))
        else:
            self.events.append(("bump", pos, -1 if next_pos is None else next_pos))

    def slide(self, direction: str, pos: int, tile: int, next_pos: int | None,
              next_tile: int) -> None:
        if next_tile == EMPTY:
            self.board[next_pos] = tile
            self.board[pos] = EMPTY
            self._note_slide(tile, pos, next_pos)
            beyond = step(next_pos, direction)
            self.slide(direction, next_pos, tile, beyond, self.tile(beyond))
        elif tile == ICE:
            pass  # an ice block that slid into something just stops
        else:
            self.collide(direction, pos, tile, next_pos, next_tile)

    def _note_slide(self, tile: int, start: int, end: int) -> None:
        last = self.events[-1] if self.events else None
        if last and last[0] == "slide" and last[3] == start:
            self.events[-1] = ("slide", tile, last[2], end)
        else:
            self.events.append(("slide", tile, start, end))


def play(board: tuple[int, ...], penguin: int, hearts: int,
         direction: str) -> tuple[tuple[int, ...], int, int, tuple[Event, ...]]:
    """One move by the seed's rules: (board, penguin, hearts, events) afterwards."""
    model = _Model(board, penguin, hearts)
    model.push_tile(direction)
    return tuple(model.board), model.penguin, model.hearts, tuple(model.events)
