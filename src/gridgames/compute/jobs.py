"""What a compute worker does: one job of machine play on a game state, within a budget.

A job names the game and carries the state (pickled: states are plain frozen dataclasses),
so a worker needs no database and no session. Each worker process builds the registry once,
with the server's level files, and owns the games' caches (bounded, like everything).
"""

from __future__ import annotations

import json
import os
import resource
from dataclasses import dataclass, field
from typing import Any

from gridgames.core.errors import BadInput
from gridgames.core.result import Budget, Result
from gridgames.core.rng import Rng

WORK = ("ai", "hint", "solve", "solution", "check", "analysis", "new_desc", "demo", "daily")
SOLUTION_STEPS = 2000  # positions of a solution drawn for a page to step through
# A job's search ends this share of its seconds early, and at least ANSWER_RESERVE_SECONDS:
# the answer itself must reach the page within the budget (a search stops only at its next
# look at the clock, the compiled solver's nodes only estimate its seconds, then it answers).
# With the page's 2 s, 5% alone (0.1 s) left Trilobite moves up to 0.3 s over on a busy
# machine (bench/bench_trilobite_budget.py).
ANSWER_RESERVE = 0.05
ANSWER_RESERVE_SECONDS = 0.25
# Machine play on a position: the job's work -> the game's capability entry, its method, and
# what a person calls it.
CAPABILITY = {"ai": ("ai", "choose", "AI player"), "hint": ("hints", "hint", "hints"),
              "solve": ("solver", "solve", "solver"), "solution": ("solver", "solve", "solver"),
              "check": ("checker", "check", "checker"),
              "analysis": ("analyzer", "analyze", "analysis")}


def capability(game: Any, work: str) -> Any:
    """The game's entry for a kind of machine play; BadInput when it has none."""
    entry, _, words = CAPABILITY[work]
    found = getattr(game, entry)
    if found is None:
        raise BadInput(f"{game.title} has no {words}")
    return found


@dataclass(frozen=True)
class Job:
    work: str  # one of WORK
    game: str
    state: Any = None
    budget: Budget = field(default_factory=Budget)
    level: str = ""  # ai
    seed: str = ""  # ai: ties; new_desc: the start; daily: the date (YYYY-MM-DD)
    params: str = ""  # new_desc


def small_pages() -> None:
    """No transparent huge pages for this process's arrays (NumPy asks for them on large
    ones): faulting them in makes the kernel compact memory, moving pages of other processes
    too, which stalled the server's moves for tens of ms whenever a solver's tables grew.
    NumPy reads the variable when it is imported, so this runs first in a worker process
    (spawned: a fresh interpreter, which has not imported NumPy)."""
    os.environ["NUMPY_MADVISE_HUGEPAGE"] = "0"


def lower_priority(nice: int) -> None:
    """Below the server: moves and reads come first. On Linux the worker runs only when no
    ordinary process wants the CPU (SCHED_IDLE); elsewhere it is niced."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(nice)


class Worker:
    """The compute side of one worker process (created in the process itself)."""

    def __init__(self, levels: tuple[str, ...], memory_mb: int | None, nice: int) -> None:
        small_pages()
        if nice:
            lower_priority(nice)
        if memory_mb:  # a job that needs more fails alone (MemoryError), the server lives on
            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        from gridgames.compute.warm import warm_games
        from gridgames.registry import default_games

        self.games, _ = default_games().with_level_files(levels)
        warm_games(self.games.values())  # compiled kernels load (or compile) now, not in a job

    def run(self, job: Job) -> Any:
        game = self.games.get_game(job.game)
        if job.work == "new_desc":
            return game.new_desc(game.parse_params(job.params), Rng(job.seed))
        if job.work == "daily":  # a daily puzzle's start that takes seconds to make
            from gridgames.daily import make_start

            return make_start(job.game, job.seed)
        if job.work == "demo":
            from gridgames.compute.demo import demo_views

            return demo_views(game, self.games)
        entry = capability(game, job.work)
        budget = job.budget
        if budget.seconds is not None:
            reserve = max(budget.seconds * ANSWER_RESERVE,
                          min(ANSWER_RESERVE_SECONDS, budget.seconds / 4))
            budget = budget.capped(budget.seconds - reserve)
        if job.work == "ai":
            return entry.choose(job.state, job.level, Rng(job.seed), budget)
        found: Result[Any] = getattr(entry, CAPABILITY[job.work][1])(job.state, budget)
        if job.work == "solution":
            return found, solution_steps(game, job.state, found.value or [])
        return found


def solution_steps(game: Any, state: Any, moves: list[str]) -> str:
    """The positions of a solution, for a page to step through (the first SOLUTION_STEPS):
    as JSON text, made here so that the server only passes it on (drawing a few thousand
    positions, and encoding them, would hold the server's interpreter for tens of ms)."""
    steps = []
    for move in moves[:SOLUTION_STEPS]:
        state = game.apply(state, move)
        steps.append({"move": move, "view": game.view(state),
                      "status": game.status(state).message})
    return json.dumps(steps, separators=(",", ":"))
