"""Does every Trilobite AI move come back within the page's budget, on every board the page
offers? Each AI level plays a few moves from a few openings on each board, through the code a
compute worker runs (compute.jobs.Worker.run, the job the page's AI move sends, with the
page's Budget), or with --pool through the server's compute pool itself (a worker process at
the lowest priority: on a machine busy with other work it waits its turn, as on the server).

The boards are read from the game's code: the default, the samples, the smallest, the largest
the compiled solver takes at the default width and at the default height (and the first with
its longest line, where the solver is slowest), the first past it at each, and the largest
board with the default line and with the longest line.

Standard output: per board, the compiled solver's speed (nodes a second of one search, where
it takes the board: a page's time cap is turned into nodes at the speed measured in the
search itself); then per board and level: moves timed, p50 and max seconds per move, the
page's budget, moves proven / best found, and moves over the budget.

With --perfect-boards it measures instead the rule of where the page offers the perfect
level (games/trilobite/ai.py, PERFECT_CELLS): the CPU seconds of the perfect level's move on
the empty board (its hardest: the whole game ahead) of every board of up to PERFECT_CELLS + 4
cells, every line, slowest first, and whether the rule offers the level there.

Usage: python bench/bench_trilobite_budget.py [--openings N] [--moves N] [--boards SUBSTR]
  [--levels a,b] [--think-seconds S] [--pool] [--no-analysis] [--perfect-boards]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

from gridgames.compute.jobs import Job, Worker
from gridgames.compute.pool import SERVER, ComputePool
from gridgames.core.result import PROVEN, Budget
from gridgames.core.rng import Rng
from gridgames.games.trilobite import make_game
from gridgames.games.trilobite.ai import PERFECT, PERFECT_CELLS
from gridgames.games.trilobite.analyzer import compiled_fits, make_solver
from gridgames.games.trilobite.game import Trilobite, TrilobiteParams
from gridgames.games.trilobite.solver import Solver, parse_moves
from gridgames.web.api import WORK_SHARE
from gridgames.web.config import ServerConfig

SPEED_NODES = 3_000_000  # one search of this many nodes times the compiled solver


def offered_boards() -> list[TrilobiteParams]:
    """Representative boards of those the settings offer (the params' bounds), no copy of
    them: see the module's docstring."""
    bounds = {f.name: (f.metadata["lo"], f.metadata["hi"], f.default)
              for f in dataclasses.fields(TrilobiteParams)}
    (w_lo, w_hi, width), (h_lo, h_hi, height), (l_lo, _, line) = (
        bounds["width"], bounds["height"], bounds["line"])

    def board(w: int, h: int, n: int = line) -> TrilobiteParams:
        return TrilobiteParams(w, h, max(l_lo, min(n, max(w, h))))

    tallest = max(h for h in range(h_lo, h_hi + 1) if compiled_fits(width, h))
    widest = max(w for w in range(w_lo, w_hi + 1) if compiled_fits(w, height))
    boards = [TrilobiteParams(), *(TrilobiteParams.parse(p) for p in Trilobite.sample_params),
              board(w_lo, h_lo), board(width, tallest), board(widest, height),
              board(width, tallest, max(width, tallest)),
              board(width, tallest + 1), board(widest + 1, height), board(w_hi, h_hi),
              board(w_hi, h_hi, max(w_hi, h_hi))]
    return list(dict.fromkeys(boards))  # in order, each once


def name(params: TrilobiteParams) -> str:
    return f"{params.width}x{params.height} line {params.line}"


def openings(game: Trilobite, params: TrilobiteParams, count: int) -> list:
    """The empty board, then positions after a few seeded random moves (still undecided)."""
    start = game.new_state(params, game.new_desc(params, Rng("budget")))
    found = [start]
    for index in range(1, count):
        rng, state = Rng(f"opening {index}"), start
        for _ in range(2 * index):
            moves = game.legal_moves(state)
            after = game.apply(state, rng.choice(moves))
            if game.status(after).over:
                break
            state = after
        found.append(state)
    return found


def compiled_speed(params: TrilobiteParams) -> float | None:
    """Nodes a second of one cut search of the empty board (None: not the compiled solver)."""
    if not compiled_fits(params.width, params.height):
        return None
    solver = make_solver(params.width, params.height, params.line)
    if isinstance(solver, Solver):  # no numba here
        return None
    empty = parse_moves(solver.g, "")
    solver.solve(*empty, budget=1000)  # loads the compiled code
    start, began = solver.nodes, time.monotonic()
    solver.solve(*empty, budget=SPEED_NODES)
    return (solver.nodes - start) / (time.monotonic() - began)


class Runner:
    """Runs one AI job as the page's AI move does: in this process through Worker.run, or
    through a real compute pool."""

    def __init__(self, pool: bool) -> None:
        self.worker = self.pool = None
        if pool:
            self.pool = ComputePool(workers=1, memory_mb=ServerConfig().compute_memory_mb)
            # The worker starts (and loads its compiled code) before anything is timed.
            self.pool.submit(Job("new_desc", "trilobite", seed="warm"), SERVER, "warm",
                             120).result()
        else:
            self.worker = Worker((), None, 0)

    def run(self, job: Job, seconds: float):
        began = time.monotonic()
        if self.pool is None:
            found = self.worker.run(job)
        else:
            found = self.pool.submit(job, SERVER, "bench", seconds).result()
        return found, time.monotonic() - began

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()


class Row:
    """One line of the table: the moves (or analyses) timed on a board at a level."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.proven = self.found = self.over = 0

    def add(self, result, spent: float, seconds: float):
        self.times.append(spent)
        self.proven += result.status == PROVEN
        self.found += result.status != PROVEN
        self.over += spent > seconds
        return result

    def print(self, board: str, level: str, seconds: float) -> float:
        times = self.times
        print(f"{board:<18} {level:<8} {len(times):>5} {statistics.median(times):>7.2f} "
              f"{max(times):>7.2f} {seconds:>7g} {self.proven:>6} {self.found:>6} "
              f"{self.over:>5}", flush=True)
        return max(times)


def perfect_boards(game: Trilobite, seconds: float) -> None:
    """The perfect level's first move on each small board, in CPU seconds, slowest first."""
    rows = []
    for width in range(3, PERFECT_CELLS + 5):
        for height in range(3, (PERFECT_CELLS + 4) // width + 1):
            for line in range(3, max(width, height) + 1):
                params = TrilobiteParams(width, height, line)
                state = game.new_state(params, game.new_desc(params, Rng("empty")))
                game.ai.choose(state, PERFECT, Rng("load"), Budget(nodes=1000))
                began = time.process_time()
                found = game.ai.choose(state, PERFECT, Rng("perfect"), Budget(seconds=seconds))
                rows.append((time.process_time() - began, params, found.status,
                             PERFECT in game.ai.offered(params)))
    print(f"{'board':<18} {'cells':>5} {'cpu s':>7} {'status':<11} offered")
    for spent, params, status, offered in sorted(rows, key=lambda row: -row[0]):
        print(f"{name(params):<18} {params.width * params.height:>5} {spent:>7.2f} "
              f"{status:<11} {'yes' if offered else 'no'}")
    slowest = max((row for row in rows if row[3]), key=lambda row: row[0])
    print(f"slowest where offered: {name(slowest[1])}, {slowest[0]:.2f} s of CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openings", type=int, default=2)
    parser.add_argument("--moves", type=int, default=2, help="AI moves from each opening")
    parser.add_argument("--boards", default="", help="only boards whose name holds this")
    parser.add_argument("--levels", default="", help="comma-separated (default: all)")
    parser.add_argument("--think-seconds", type=float, default=ServerConfig().think_seconds)
    parser.add_argument("--pool", action="store_true", help="through a real compute pool")
    parser.add_argument("--no-analysis", dest="analysis", action="store_false",
                        help="skip the analysis of each opening")
    parser.add_argument("--perfect-boards", action="store_true",
                        help="measure where the perfect level is offered, nothing else")
    args = parser.parse_args()
    game = make_game()
    if args.perfect_boards:
        perfect_boards(game, args.think_seconds * WORK_SHARE["ai"])
        return
    levels = args.levels.split(",") if args.levels else list(game.ai.levels)
    seconds = args.think_seconds * WORK_SHARE["ai"]  # the page's AI budget (web/api.py)
    budget = Budget(seconds=seconds)
    boards = [b for b in offered_boards() if args.boards in name(b)]
    runner = Runner(args.pool)
    print(f"page budget per AI move: {seconds:g} s; {args.openings} openings x {args.moves} "
          f"moves per board and level; {'compute pool' if args.pool else 'Worker.run'}")
    print("compiled solver speed (one search of the empty board):")
    for params in boards:
        speed = compiled_speed(params)
        where = "Python solver" if speed is None else f"{speed / 1e6:.1f} M nodes/s"
        print(f"  {name(params):<18} {where}", flush=True)
    print(f"{'board':<18} {'level':<8} {'moves':>5} {'p50 s':>7} {'max s':>7} {'budget':>7} "
          f"{'proven':>6} {'found':>6} {'over':>5}")
    worst = slowest_analysis = 0.0
    try:
        for params in boards:
            starts = openings(game, params, args.openings)
            for level in levels:
                row = Row()
                for index, start in enumerate(starts):
                    state = start
                    for move in range(args.moves):
                        job = Job("ai", game.name, state, budget, level=level,
                                  seed=f"{index}.{move}")
                        result = row.add(*runner.run(job, seconds), seconds)
                        state = game.apply(state, result.value)
                        if game.status(state).over:
                            break
                worst = max(worst, row.print(name(params), level, seconds))
            if args.analysis:  # the page's analysis (key y) of each opening, same budget
                row = Row()
                for start in starts:
                    row.add(*runner.run(Job("analysis", game.name, start, budget), seconds),
                            seconds)
                slowest_analysis = max(slowest_analysis,
                                       row.print(name(params), "analysis", seconds))
    finally:
        runner.close()
    print(f"slowest move: {worst:.2f} s, slowest analysis: {slowest_analysis:.2f} s, "
          f"against a budget of {seconds:g} s")


if __name__ == "__main__":
    main()
