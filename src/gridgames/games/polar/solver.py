"""The Polar solver: A* over pushes, with walking folded into the cost.

A search state is the board plus the cell the penguin last pushed from; its successors are
the pushes the penguin can make from anywhere in its walkable region, each costing its walk
plus one move. The heuristic is analysis.push_bound (plus walking.move_bound when counting
moves). Objective PUSHES counts pushes only and merges states whose penguin regions are the
same. `weight` > 1 gives a faster best-first search whose solutions are not proven
shortest; `solve` reports which. `anytime` finds a line first, then proves or betters it.
docs/machine-play.md ("Polar's solver") explains it.
"""

from __future__ import annotations

import heapq
import os
import time
from collections import deque
from dataclasses import dataclass, replace

import numpy as np

from gridgames.games.polar.analysis import NEVER, push_bound
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
from gridgames.games.polar.walking import move_bound

ORDER = "UDLR"
NEXT = tuple(tuple(-1 if (n := step(c, d)) is None else n for d in ORDER)
             for c in range(GRID.size))
OFF_BOARD = 255  # stands for the edge in the fast push below
MOVABLE_CODES = (ICE, HEART, BOMB)
MOVES, PUSHES = "moves", "pushes"
KERNEL_MOUNTAINS = 62  # the compiled engine keys the mountains standing in 64 bits
_NXT = np.array(NEXT, dtype=np.int16)


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
    """The board after the penguin pushes the movable on `target` in direction ORDER[d], or
    None when nothing changes. Same outcome as physics.play (tested against it)."""
    cells = bytearray(board)
    tile = cells[target]
    ahead = NEXT[target][d]
    next_tile = OFF_BOARD if ahead < 0 else cells[ahead]
    pos = target
    if next_tile == EMPTY:  # collide -> slide until something blocks
        while next_tile == EMPTY:
            cells[ahead] = tile
            cells[pos] = EMPTY
            pos = ahead
            ahead = NEXT[pos][d]
            next_tile = OFF_BOARD if ahead < 0 else cells[ahead]
        if tile != ICE:  # ice that slid just stops
            _meet(cells, pos, tile, ahead, next_tile)
        return bytes(cells)
    if tile == ICE:
        cells[target] = EMPTY  # pushed straight against something: crushed
        return bytes(cells)
    return bytes(cells) if _meet(cells, target, tile, ahead, next_tile) else None


def _meet(cells: bytearray, pos: int, tile: int, ahead: int, next_tile: int) -> bool:
    if tile == HEART and next_tile == HOUSE:
        cells[pos] = EMPTY
        return True
    if tile == BOMB and next_tile == MOUNTAIN:
        cells[pos] = EMPTY
        cells[ahead] = EMPTY
        return True
    return False


# Walking by bit masks: cell i is bit i. A flood fill grows the reached set by shifting it one
# column or one row at a time; column masks stop it wrapping round the board's sides.
_ALL = (1 << GRID.size) - 1
_NOT_FIRST_COL = sum(1 << c for c in range(GRID.size) if c % GRID.cols)
_NOT_LAST_COL = sum(1 << c for c in range(GRID.size) if c % GRID.cols != GRID.cols - 1)
_WALKABLE_CHARS = bytes.maketrans(bytes(range(256)),
                                  bytes(ord("1") if b in (EMPTY, TREE) else ord("0")
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
            if ahead >= 0 and ahead not in came and board[ahead] in (EMPTY, TREE):
                came[ahead] = (cell, ORDER[d])
                queue.append(ahead)
    path = []
    while goal != start:
        goal, move = came[goal]
        path.append(move)
    return path[::-1]


def solve(board: tuple[int, ...] | bytes, penguin: int, objective: str = MOVES,
          weight: float = 1.0, max_states: int = 3_000_000,
          max_seconds: float = 120.0, engine: str = "fast", width: bool = False,
          improve: bool = False, known_lower: int = 0, below: int = 0) -> Solution:
    """A* from a position, counting moves (walking + pushes) or pushes only, by the compiled
    kernel on one core (engine "fast", fastsolver.py), plain A* over pushes on both cores
    (engine "parallel", parallel.py: for the command line; the server's compute workers
    already keep both cores busy, where its threads would only wait for each other; other
    searches asked of it run on one core) or the reference below (engine "python").
    `width`: a best-first width search instead (kernel only): no proof, but it finds
    solutions A* cannot reach in time (see fastsolver.run). With `improve` it goes on after
    each solution, for one with fewer pushes, until the time is up; when nothing cheaper is
    left the last one is proven fewest pushes, as it is when it reaches `known_lower` (a
    lower bound on the pushes proven before, by an A* that stopped early). `below` (plain
    A* over pushes only): look only for lines of fewer pushes than that, as when a line of
    `below` pushes is known (the improving width search too); a search that ends with none
    has proven there is none. `anytime` below puts these together."""
    board = bytes(board)
    if engine not in ("fast", "parallel", "python"):
        raise ValueError(f"unknown engine {engine!r}: fast, parallel or python")
    compiled = engine != "python" and board.count(MOUNTAIN) <= KERNEL_MOUNTAINS
    exact_pushes = objective == PUSHES and weight == 1.0 and not width
    if below and not (compiled and (exact_pushes or (width and objective == PUSHES))):
        raise ValueError("`below` is for A* or the width search over pushes, compiled")
    if compiled and HEART not in board:
        return Solution([], 0, 0, True, True, 0.0)
    if compiled and push_bound(board, penguin) >= NEVER:  # lost already: no search needed
        return Solution(None, 0, 0, False, True, 0.0)
    if compiled and engine == "parallel" and exact_pushes:
        return _solve_parallel(board, penguin, max_states, max_seconds, below)
    if compiled:
        return _solve_fast(board, penguin, objective, weight, max_states, max_seconds, width,
                           improve and width, known_lower, below)
    if width:
        raise ValueError("the width search needs the compiled engine and at most 62 mountains")
    return _solve_python(board, penguin, objective, weight, max_states, max_seconds)


# Of the seconds, at most, for the first line (the page's 2 s hint leaves it 1.6 s); A* has
# the rest when it finds none, for a lower bound.
FIRST_SHARE = 0.8
ASTAR_SHARE = 0.5  # of what is left after the first line: A*'s, to prove; then improving
FALLBACK_WEIGHT = 3.0  # the Python search's first line, beyond the kernel's 62 mountains


def anytime(board: tuple[int, ...] | bytes, penguin: int, objective: str = PUSHES,
            max_states: int = 3_000_000, max_seconds: float = 20.0,
            engine: str = "fast") -> Solution:
    """A line fast, then the rest of the budget to prove it or better it. First the width
    search over pushes (weighted A* in Python when the kernel cannot take the board), then
    A* for the objective (proves fewest, or a lower bound), then the improving width search
    below the line. `optimal`: fewest of the objective; `pushes_optimal`: fewest pushes;
    `lower_bound`: proven, in the objective's units; `first_seconds`: when a line was had."""
    start_time = time.monotonic()
    board = bytes(board)
    compiled = engine != "python" and board.count(MOUNTAIN) <= KERNEL_MOUNTAINS

    def left(share: float = 1.0) -> tuple[int, float]:  # (states, seconds) for the next part
        seconds = max(0.0, max_seconds - (time.monotonic() - start_time))
        return max(1, max_states - spent), share * seconds

    spent = 0
    states, seconds = left(FIRST_SHARE)
    first = solve(board, penguin, PUSHES, width=True, max_states=states,
                  max_seconds=seconds) if compiled else \
        _solve_python(board, penguin, PUSHES, FALLBACK_WEIGHT, states, seconds)
    spent += first.expanded
    if first.moves is None and first.complete:  # every branch ran out: there is none
        return replace(first, seconds=time.monotonic() - start_time)
    found = first.moves is not None
    first_seconds = time.monotonic() - start_time if found else -1.0
    best = replace(first, optimal=False, lower_bound=0, first_seconds=first_seconds,
                   first_states=spent if found else -1)
    # A*: a line it finds is fewest; one over pushes looks only below the line's pushes.
    states, seconds = left(ASTAR_SHARE if found else 1.0)
    below = first.pushes if found and objective == PUSHES and compiled else 0
    proof = solve(board, penguin, objective, max_states=states, max_seconds=seconds,
                  engine=engine, below=below)
    spent += proof.expanded
    lower = max(proof.lower_bound, 0)
    if proof.moves is not None:
        return replace(proof, expanded=spent, seconds=time.monotonic() - start_time,
                       first_seconds=first_seconds if found else time.monotonic() - start_time,
                       first_states=best.first_states if found else spent,
                       pushes_optimal=objective == PUSHES)
    if not found:
        return replace(proof, expanded=spent, seconds=time.monotonic() - start_time)
    if proof.complete:  # nothing below the line's pushes
        return replace(best, optimal=True, pushes_optimal=True, lower_bound=best.pushes,
                       expanded=spent, seconds=time.monotonic() - start_time)
    if compiled:  # the rest: fewer pushes, down to A*'s bound when counting pushes
        states, seconds = left()
        better = solve(board, penguin, PUSHES, width=True, improve=True,
                       known_lower=lower if objective == PUSHES else 0, below=best.pushes,
                       max_states=states, max_seconds=seconds)
        spent += better.expanded
        fewest = better.pushes if better.optimal else \
            best.pushes if better.moves is None and better.complete else -1
        if better.moves is not None and (objective == PUSHES
                                         or len(better.moves) < len(best.moves)):
            best = replace(best, moves=better.moves, pushes=better.pushes)
        best = replace(best, pushes_optimal=best.pushes == fewest)
        if objective == PUSHES and best.pushes_optimal:
            lower = best.pushes
    return replace(best, optimal=objective == PUSHES and best.pushes_optimal,
                   lower_bound=lower, expanded=spent, seconds=time.monotonic() - start_time)


def _solve_fast(start: bytes, penguin: int, objective: str, weight: float, max_states: int,
                max_seconds: float, width: bool, improve: bool = False,
                known_lower: int = 0, below: int = 0) -> Solution:
    from gridgames.games.polar import fastsolver as fast

    start_time = time.monotonic()
    search = fast.Search(start, penguin, objective == PUSHES or improve, width)
    weight4 = max(4, round(4 * weight))
    exact = weight4 == 4 and not width  # plain A*: the heap's order proves lower bounds
    best: list[Push] | None = None
    status = fast.RUNNING
    while True:
        if status == fast.FULL:
            search.grow()
        expanded = int(search.meta[fast.EXPANDED])
        if expanded >= max_states or time.monotonic() - start_time > max_seconds:
            break
        # Slices of 20,000, the last one cut to the states left: a state budget is exact.
        status = search.run(_NXT, weight4, NEVER, min(20_000, max_states - expanded),
                            len(best) if best else below)
        if status == fast.SOLVED:
            pushes = search.pushes(int(search.meta[fast.GOAL]))
            if not exact:
                pushes = shorten(start, penguin, pushes)
            if best is None or len(pushes) < len(best):
                best = pushes
            if not improve or len(best) <= known_lower:
                break
            status = fast.RUNNING  # go on below the new limit
        elif status == fast.EXHAUSTED:
            break
    expanded = int(search.meta[fast.EXPANDED])
    seconds = time.monotonic() - start_time
    complete = status in (fast.SOLVED, fast.EXHAUSTED)
    if best is None:  # exhausted: every branch ran out, no solution (also for width)
        lower = search.lowest_open() if exact and not complete else below if complete else 0
        return Solution(None, 0, expanded, False, complete, seconds, lower, search.nbytes())
    # Proven: plain A*; or an improving search that ran out below its best, or reached a
    # lower bound proven before.
    optimal = exact or (improve and (status == fast.EXHAUSTED or len(best) <= known_lower))
    moves = moves_of_pushes(start, penguin, best)
    value = len(best) if objective == PUSHES or improve else len(moves)
    return Solution(moves, len(best), expanded, optimal, True, time.monotonic() - start_time,
                    value if optimal else 0, search.nbytes())


def _solve_parallel(start: bytes, penguin: int, max_states: int, max_seconds: float,
                    below: int = 0) -> Solution:
    """Plain A* over pushes on both cores (parallel.py): proven fewest pushes when it ends.
    Its states take at most half the machine's memory (the search then ends unfinished,
    with the lower bound it reached)."""
    from gridgames.games.polar import parallel

    with parallel.ONE_AT_A_TIME:
        parallel.warm(_NXT)  # compiled before the clock starts
        start_time = time.monotonic()
        search = parallel.ParallelSearch(start, penguin, _NXT, _half_the_memory())
        status = search.run(_NXT, NEVER, lambda: max_seconds - (time.monotonic() - start_time),
                            max_states, below)
    seconds = time.monotonic() - start_time
    if status == parallel.SOLVED:
        pushes = search.pushes(search.goal)
        moves = moves_of_pushes(start, penguin, pushes)
        return Solution(moves, len(pushes), search.expanded, True, True, seconds, len(pushes),
                        search.nbytes())
    complete = status == parallel.EXHAUSTED  # every branch ran out: no solution (below)
    lower = below if complete else search.lowest_open()
    return Solution(None, 0, search.expanded, False, complete, seconds, lower, search.nbytes())


def _half_the_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):
        return 4 << 30


def _solve_python(board: tuple[int, ...] | bytes, penguin: int, objective: str, weight: float,
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
        if HEART not in cells:
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


Push = tuple[int, int]  # (the cell the penguin pushes from, direction index in ORDER)


def replay_pushes(board: bytes, penguin: int, pushes: list[Push]) -> list[str] | None:
    """The moves of a push list (the shortest walk before each push), or None when some push
    cannot be made (its cell out of the penguin's reach, or nothing would move). Stops at
    the win, so pushes after it are dropped."""
    moves: list[str] = []
    for cell, d in pushes:
        if HEART not in board:
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
    return moves if HEART not in board else None


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


assert GRID.size < OFF_BOARD  # cells and tiles fit in a byte
