"""A search's answer (Solution), and the moves a list of pushes stands for: a search finds
pushes (the cell the penguin pushes from, the direction), the walks between them are found
afterwards. Also the penguin's walking in Python (by bit masks), which the reference search
uses.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from gridgames.games.polar import rules
from gridgames.games.polar.board import GRID, WALKABLE
from gridgames.games.polar.rules import ORDER

NEXT = rules.NEXT.tolist()  # rules.NEXT as lists of Python ints, for loops in Python
MOVES, PUSHES = "moves", "pushes"  # what a search counts
Push = tuple[int, int]  # (the cell the penguin pushes from, direction index in ORDER)


@dataclass(frozen=True)
class Solution:
    moves: list[str] | None  # None: no solution (proven when `complete`)
    pushes: int
    expanded: int  # states taken off the queue
    optimal: bool  # proven fewest of the objective searched (moves or pushes)
    complete: bool  # the search ran to its end (not stopped by a limit)
    seconds: float
    # Proven: no solution has fewer (of the objective searched) than this. A* stopped early
    # knows the smallest cost + bound among the states it had still to open; the value
    # itself when optimal; 0 when nothing is known.
    lower_bound: int = 0
    memory_bytes: int = 0  # the search's arrays (the compiled engine) at their largest
    # Set by `anytime`: the seconds and states its first line took (-1: none found), and
    # whether the line's pushes are proven fewest (also when moves were asked for).
    first_seconds: float = -1.0
    first_states: int = -1
    pushes_optimal: bool = False


def push(board: bytes, target: int, d: int) -> bytes | None:
    """The board after the penguin pushes the movable on `target` in direction ORDER[d]
    (rules.push), or None when nothing changes."""
    cells = rules.cells_of(board)
    events = rules.new_events()
    if not rules.moved(events, rules.push(cells, target, d, rules.NEXT, events)):
        return None
    return cells.tobytes()


# Walking by bit masks: cell i is bit i. A flood fill grows the reached set by shifting it one
# column or one row at a time; column masks stop it wrapping round the board's sides.
_ALL = (1 << GRID.size) - 1
_NOT_FIRST_COL = sum(1 << c for c in range(GRID.size) if c % GRID.cols)
_NOT_LAST_COL = sum(1 << c for c in range(GRID.size) if c % GRID.cols != GRID.cols - 1)
_WALKABLE_CHARS = bytes.maketrans(bytes(range(256)),
                                  bytes(ord("1") if b in WALKABLE else ord("0")
                                        for b in range(256)))


def walkable_mask(board: bytes) -> int:
    return int(board.translate(_WALKABLE_CHARS)[::-1], 2)


def walk_layers(board: bytes, start: int) -> list[int]:
    """Cells the penguin reaches from start, by walking distance: layers[k] holds the cells
    exactly k steps away (breadth-first by bit masks)."""
    free = walkable_mask(board)
    seen = frontier = 1 << start
    layers = [frontier]
    while True:
        grow = ((frontier << 1) & _NOT_FIRST_COL) | ((frontier >> 1) & _NOT_LAST_COL) \
            | (frontier << GRID.cols) | (frontier >> GRID.cols)
        frontier = grow & free & ~seen & _ALL
        if not frontier:
            return layers
        seen |= frontier
        layers.append(frontier)


def walk_path(board: bytes, start: int, goal: int) -> list[str]:
    """A shortest walk from start to goal as moves (the region must contain goal)."""
    came: dict[int, tuple[int, str]] = {start: (-1, "")}
    queue = deque([start])
    while queue and goal not in came:
        cell = queue.popleft()
        for d, ahead in enumerate(NEXT[cell]):
            if ahead >= 0 and ahead not in came and board[ahead] in WALKABLE:
                came[ahead] = (cell, ORDER[d])
                queue.append(ahead)
    path = []
    while goal != start:
        goal, move = came[goal]
        path.append(move)
    return path[::-1]


def replay_pushes(board: bytes, penguin: int, pushes: list[Push]) -> list[str] | None:
    """The moves of a push list (the shortest walk before each push), or None when some push
    cannot be made (its cell out of the penguin's reach, or nothing would move). Stops at
    the win, so pushes after it are dropped."""
    moves: list[str] = []
    for cell, d in pushes:
        if rules.won(board):
            break
        reach = 0
        for layer in walk_layers(board, penguin):
            reach |= layer
        target = NEXT[cell][d]
        if not reach >> cell & 1 or target < 0:
            return None
        after = push(board, target, d)
        if after is None:
            return None
        moves.extend(walk_path(board, penguin, cell))
        moves.append(ORDER[d])
        board, penguin = after, cell
    return moves if rules.won(board) else None


def moves_of_pushes(board: bytes, penguin: int, pushes: list[Push]) -> list[str]:
    moves = replay_pushes(board, penguin, pushes)
    assert moves is not None, "a search's own solution replays"
    return moves


def shorten(board: bytes, penguin: int, pushes: list[Push]) -> list[Push]:
    """Drop pushes a winning push list can do without: each push, then each pair of pushes,
    is left out in turn and kept out when the rest still wins (a best-first search often
    makes pushes it did not need). Repeats until nothing more can go."""
    def wins(candidate: list[Push]) -> bool:
        return replay_pushes(board, penguin, candidate) is not None

    changed = True
    while changed:
        changed = False
        for i in reversed(range(len(pushes))):
            if i < len(pushes) and wins(pushes[:i] + pushes[i + 1:]):
                pushes = pushes[:i] + pushes[i + 1:]
                changed = True
        if changed:
            continue
        for i in range(len(pushes)):
            for j in range(i + 1, len(pushes)):
                candidate = pushes[:i] + pushes[i + 1:j] + pushes[j + 1:]
                if wins(candidate):
                    pushes, changed = candidate, True
                    break
            if changed:
                break
    return pushes
