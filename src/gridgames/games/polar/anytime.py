"""The anytime search behind Solve, Hint and `polar solve`: a line fast, then the rest of
the budget to prove it fewest or find a better one (solver.solve runs each part).
"""

from __future__ import annotations

import time
from dataclasses import replace

from gridgames.games.polar import reference
from gridgames.games.polar.board import MOUNTAIN
from gridgames.games.polar.solver import KERNEL_MOUNTAINS, PUSHES, Solution, solve

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
        reference.search(board, penguin, PUSHES, FALLBACK_WEIGHT, states, seconds)
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
