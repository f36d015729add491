"""The reference search: A* in plain Python over pushes, the readable form of the compiled
kernel (fastsolver.run), which the tests check against it. It runs the same rules
(rules.push, through lines.push) and the bound of analysis.py and walking.py.
"""

from __future__ import annotations

import heapq
import time

from gridgames.games.polar.analysis import NEVER, push_bound
from gridgames.games.polar.board import MOVABLE
from gridgames.games.polar.lines import NEXT, PUSHES, Solution, moves_of_pushes, push, walk_layers
from gridgames.games.polar.rules import won
from gridgames.games.polar.walking import move_bound

MOVABLE_CODES = tuple(sorted(MOVABLE))


def search(board: tuple[int, ...] | bytes, penguin: int, objective: str, weight: float,
           max_states: int, max_seconds: float) -> Solution:
    """The reference A*. For MOVES a state is (board, cell the penguin pushed from). For
    PUSHES walking is free, so states whose penguins share a region are the same: they are
    merged when taken off the queue, keyed by the region's first cell."""
    start_time = time.monotonic()
    start = bytes(board)
    start_key = start + bytes([penguin])
    best_cost = {start_key: 0}
    parent: dict[bytes, tuple[bytes, int, int]] = {}  # key -> (parent key, from cell, dir)
    closed: set[bytes] = set()
    counter = 0
    def left(cells: bytes, at: int) -> int:  # the bound of the objective searched
        return push_bound(cells, at) if objective == PUSHES else move_bound(cells, at)

    bound = left(start, penguin)
    queue = [(weight * bound, 0, counter, start_key)] if bound < NEVER else []
    expanded = 0
    while queue:
        _, neg_cost, _, key = heapq.heappop(queue)
        cost = -neg_cost
        if best_cost.get(key, cost) < cost:
            continue  # a stale entry: reached more cheaply since
        cells, at = key[:-1], key[-1]
        if won(cells):
            return _found(key, parent, start_key, expanded, weight == 1.0, start_time, cost)
        layers = walk_layers(cells, at)
        if objective == PUSHES:
            reached = 0
            for layer in layers:
                reached |= layer
            merged = cells + (reached & -reached).bit_length().to_bytes(1, "little")
            if merged in closed:
                continue
            closed.add(merged)
        expanded += 1
        if expanded > max_states or time.monotonic() - start_time > max_seconds:
            lower = 0
            if weight == 1.0:  # A*: the least cost + bound still to open, this state's too
                lower = int(min([cost + left(cells, at)] + [queue[0][0]] * bool(queue)))
            return Solution(None, 0, expanded, False, False, time.monotonic() - start_time,
                            lower)
        for cell, target, d in _pushes(cells):
            walked = _distance(layers, cell)
            if walked is None:
                continue
            step_cost = 1 if objective == PUSHES else walked + 1
            after = push(cells, target, d)
            if after is None:
                continue
            rest = left(after, cell)
            if rest >= NEVER:
                continue  # a heart can no longer get home
            child = after + bytes([cell])
            child_cost = cost + step_cost
            if child_cost < best_cost.get(child, NEVER):
                best_cost[child] = child_cost
                parent[child] = (key, cell, d)
                counter += 1
                heapq.heappush(queue, (child_cost + weight * rest, -child_cost, counter, child))
    return Solution(None, 0, expanded, False, True, time.monotonic() - start_time)


def _pushes(cells: bytes):
    """(cell the penguin pushes from, the movable's cell, direction) for every movable and
    every direction whose pushing cell is on the board."""
    for code in MOVABLE_CODES:
        target = cells.find(code)
        while target >= 0:
            for d in range(4):
                behind = NEXT[target][d ^ 1]  # ORDER is U, D, L, R: d ^ 1 is the opposite
                if behind >= 0:
                    yield behind, target, d
            target = cells.find(code, target + 1)


def _distance(layers: list[int], cell: int) -> int | None:
    bit = 1 << cell
    for walked, layer in enumerate(layers):
        if layer & bit:
            return walked
    return None


def _found(key: bytes, parent: dict[bytes, tuple[bytes, int, int]], start_key: bytes,
           expanded: int, optimal: bool, start_time: float, cost: int) -> Solution:
    pushes = []
    while key != start_key:
        key, cell, d = parent[key]
        pushes.append((cell, d))
    board, penguin = start_key[:-1], start_key[-1]
    moves = moves_of_pushes(board, penguin, pushes[::-1])
    return Solution(moves, len(pushes), expanded, optimal, True, time.monotonic() - start_time,
                    cost if optimal else 0)
