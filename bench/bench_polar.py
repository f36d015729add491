"""Polar solver on the six original levels (the game's `original` pack).

Prints one line per level and search:
`level search objective solved moves pushes proven lower states seconds memory_mb`
- astar pushes / astar moves: A* over pushes (walking free) / over moves on one core (the
  kernel, fastsolver.py), proven fewest when it finishes; when the time is up, `lower` is
  the lower bound it proved (the least cost + bound among the states it had still to open),
  `memory_mb` its arrays at their largest;
- astar2 pushes: the same A* over pushes on both cores (parallel.py, what `polar solve`
  runs); its seconds are wall-clock seconds (its CPU seconds are about twice that), its
  memory the states it holds and its tables;
- width pushes: the best-first width search, its first solution (not proven shortest);
- improve pushes: the same search going on for fewer pushes until the time is up (proven
  fewest pushes when nothing cheaper is left).

The A* rows drive the kernel's Search directly (as solver.solve does), so the same script
measures an older checkout too: `PYTHONPATH=OLD/src python bench/bench_polar.py --astar`.
Their time limit and seconds are the process's CPU time, so a busy shared machine gives the
same states and bounds (wall time halved them while a book build ran on both cores).

Usage: python bench/bench_polar.py [SECONDS] [--astar] [--levels 1,3] [--only astar2]
  SECONDS: time limit per level and search (default 60); --astar: the A* rows only;
  --only: one kind of row (astar, astar2, astar-moves, width, improve).
"""

from __future__ import annotations

import sys
import time

from gridgames.core.progress import progress
from gridgames.games.polar import fastsolver as fast
from gridgames.games.polar import parallel
from gridgames.games.polar.analysis import NEVER
from gridgames.games.polar.packs import builtin_pack
from gridgames.games.polar.solver import MOVES, PUSHES, solve

try:
    from gridgames.games.polar.rules import NEXT
except ImportError:  # an older checkout (see above) had it as solver._NXT
    from gridgames.games.polar.solver import _NXT as NEXT


def astar(level, objective: str, seconds: float) -> tuple[str, int | str, int, int, float, float]:
    """(proven, value or '-', lower bound, states expanded, seconds, memory in MB)."""
    start = time.process_time()
    search = fast.Search(bytes(level.board), level.penguin, objective == PUSHES)
    status = fast.RUNNING
    while time.process_time() - start < seconds:
        if status == fast.FULL:
            search.grow()
        status = search.run(NEXT, 4, NEVER, 20_000)
        if status in (fast.SOLVED, fast.EXHAUSTED):
            break
    took = time.process_time() - start
    memory = sum(a.nbytes for a in vars(search).values() if hasattr(a, "nbytes")) / 2**20
    expanded = int(search.meta[fast.EXPANDED])
    if status == fast.SOLVED:
        goal = int(search.meta[fast.GOAL])
        value = int(search.cost[goal])
        return "yes", value, value, expanded, took, memory
    lower = int(search.heap_key[0]) >> fast.G_BITS >> 2 if search.meta[fast.HEAP_N] else 0
    return "no", "-", lower, expanded, took, memory


def astar2(level, seconds: float) -> tuple[str, int | str, int, int, float, float]:
    """A* over pushes on both cores: (proven, pushes or '-', lower bound, states expanded,
    wall seconds, memory in MB)."""
    start = time.monotonic()
    search = parallel.ParallelSearch(bytes(level.board), level.penguin, NEXT, 12 << 30)
    status = search.run(NEXT, NEVER, lambda: seconds - (time.monotonic() - start), 1 << 62)
    took = time.monotonic() - start
    memory = search.nbytes() / 2**20
    if status == parallel.SOLVED:
        value = len(search.pushes(search.goal))
        return "yes", value, value, search.expanded, took, memory
    return "no", "-", search.lowest_open(), search.expanded, took, memory


def main() -> None:
    args = sys.argv[1:]
    seconds = float(next((a for a in args if a[0].isdigit() and "," not in a), 60))
    numbers = (list(map(int, args[args.index("--levels") + 1].split(",")))
               if "--levels" in args else list(range(1, 7)))
    searches = [("astar", PUSHES), ("astar2", PUSHES), ("astar", MOVES)]
    if "--astar" not in args:
        searches += [("width", PUSHES), ("improve", PUSHES)]
    if "--only" in args:
        kinds = {"astar": ("astar", PUSHES), "astar2": ("astar2", PUSHES),
                 "astar-moves": ("astar", MOVES), "width": ("width", PUSHES),
                 "improve": ("improve", PUSHES)}
        searches = [kinds[args[args.index("--only") + 1]]]
    levels = builtin_pack("original")
    print("level search objective solved moves pushes proven lower states seconds memory_mb")
    jobs = [(n, levels[n - 1], search) for n in numbers for search in searches]
    for number, level, (search, objective) in progress(jobs, len(jobs), "searches"):
        if search == "astar2":
            proven, value, lower, expanded, took, memory = astar2(level, seconds)
            print(f"{number} astar2 pushes {proven} - {value} {proven} {lower} {expanded} "
                  f"{took:.1f} {memory:.0f}", flush=True)
            continue
        if search == "astar":
            proven, value, lower, expanded, took, memory = astar(level, objective, seconds)
            moves = value if objective == MOVES else "-"
            pushes = value if objective == PUSHES else "-"
            print(f"{number} astar {objective} {proven} {moves} {pushes} {proven} {lower} "
                  f"{expanded} {took:.1f} {memory:.0f}", flush=True)
            continue
        found = solve(level.board, level.penguin, objective, width=True,
                      improve=search == "improve", max_seconds=seconds,
                      max_states=200_000_000)
        solved = found.moves is not None
        print(f"{number} {search} {objective} {'yes' if solved else 'no'} "
              f"{len(found.moves) if solved else '-'} {found.pushes if solved else '-'} "
              f"{'yes' if found.optimal else 'no'} {found.lower_bound} {found.expanded} "
              f"{found.seconds:.1f} {found.memory_bytes / 2**20:.0f}", flush=True)


if __name__ == "__main__":
    main()
