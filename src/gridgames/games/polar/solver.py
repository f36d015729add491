"""The Polar solver: A* over pushes, with walking folded into the cost.

A search state is the board plus the cell the penguin last pushed from; its successors are
the pushes the penguin can make from anywhere in its walkable region, each costing its walk
plus one move. The heuristic is analysis.push_bound (plus walking.move_bound when counting
moves). Objective PUSHES counts pushes only and merges states whose penguin regions are the
same. `weight` > 1 gives a faster best-first search whose solutions are not proven
shortest; `solve` reports which, and runs the search by the compiled kernel on one core
(fastsolver.py), on both cores (parallel.py) or in plain Python (reference.py). A search's
pushes become moves in lines.py; anytime.py finds a line first, then proves or betters it.
docs/machine-play.md ("Polar's solver") explains it.
"""

from __future__ import annotations

import os
import time

from gridgames.games.polar import reference
from gridgames.games.polar.analysis import NEVER, push_bound
from gridgames.games.polar.board import MOUNTAIN
from gridgames.games.polar.lines import MOVES, PUSHES, Push, Solution, moves_of_pushes, shorten
from gridgames.games.polar.rules import NEXT, won

KERNEL_MOUNTAINS = 62  # the compiled engine keys the mountains standing in 64 bits


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
    if compiled and won(board):
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
    return reference.search(board, penguin, objective, weight, max_states, max_seconds)


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
        status = search.run(NEXT, weight4, NEVER, min(20_000, max_states - expanded),
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
        parallel.warm(NEXT)  # compiled before the clock starts
        start_time = time.monotonic()
        search = parallel.ParallelSearch(start, penguin, NEXT, _half_the_memory())
        status = search.run(NEXT, NEVER, lambda: max_seconds - (time.monotonic() - start_time),
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
