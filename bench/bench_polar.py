"""Polar solver on the six original levels (the game's `original` pack).

Prints one line per level and search:
`level search objective solved moves pushes proven states seconds`
- astar pushes: A* over pushes (proven fewest pushes when it finishes);
- width pushes: the best-first width search, its first solution (not proven shortest);
- improve pushes: the same search going on for fewer pushes until the time is up (proven
  fewest pushes when nothing cheaper is left);
- astar moves (with --moves): A* over moves, proven shortest in moves when it finishes.

Usage: python bench/bench_polar.py [SECONDS] [--moves] [--engine python]
  SECONDS: time limit per level and search (default 60).
"""

from __future__ import annotations

import sys

from gridgames.core.progress import progress
from gridgames.games.polar.packs import builtin_pack
from gridgames.games.polar.solver import MOVES, PUSHES, solve


def main() -> None:
    args = sys.argv[1:]
    engine = args[args.index("--engine") + 1] if "--engine" in args else "fast"
    seconds = float(next((a for a in args if a[0].isdigit()), 60))
    searches = [("astar", PUSHES), ("width", PUSHES), ("improve", PUSHES)]
    if "--moves" in args:
        searches.append(("astar", MOVES))
    if engine != "fast":
        searches = [s for s in searches if s[0] == "astar"]
    levels = builtin_pack("original")
    print("level search objective solved moves pushes proven states seconds")
    jobs = [(n, level, search) for n, level in enumerate(levels, 1) for search in searches]
    for number, level, (search, objective) in progress(jobs, len(jobs), "searches"):
        found = solve(level.board, level.penguin, objective,
                      width=search in ("width", "improve"), improve=search == "improve",
                      max_seconds=seconds, max_states=200_000_000, engine=engine)
        solved = found.moves is not None
        moves = len(found.moves) if solved else "-"
        pushes = found.pushes if solved else "-"
        print(f"{number} {search} {objective} {'yes' if solved else 'no'} {moves} {pushes} "
              f"{'yes' if found.optimal else 'no'} {found.expanded} {found.seconds:.1f}",
              flush=True)


if __name__ == "__main__":
    main()
