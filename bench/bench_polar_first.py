"""Polar's anytime search (anytime.anytime, what Solve, Hint and `polar solve` run) on levels
without a stored line: how soon the first line comes, and where the budget leaves it.

For each of the six original levels (the `original` pack without its stored lines) prints
`level first_pushes first_states first_cpu_s first_wall_s | pushes proven lower gap states`:
the width search's first line (CPU seconds of the one-core kernel, and wall seconds), then
what anytime.anytime over pushes gives in SECONDS (default 10) on one core. Then the expert
pack's first lines: how many, and the most states and CPU seconds one took.

Usage: python bench/bench_polar_first.py [SECONDS]
"""

from __future__ import annotations

import sys
import time

from gridgames.games.polar.anytime import anytime
from gridgames.games.polar.packs import builtin_pack
from gridgames.games.polar.solver import PUSHES, solve


def first_line(level) -> tuple[int | None, int, float, float]:
    """(pushes or None, states, CPU seconds, wall seconds) of the width search's first line."""
    cpu, wall = time.process_time(), time.monotonic()
    found = solve(level.board, level.penguin, PUSHES, width=True, max_seconds=120,
                  max_states=10**8)
    return (None if found.moves is None else found.pushes, found.expanded,
            time.process_time() - cpu, time.monotonic() - wall)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    originals = builtin_pack("original")
    first_line(originals[3])  # loads the compiled kernel before anything is timed
    print("level first_pushes first_states first_cpu_s first_wall_s | "
          f"pushes proven lower gap states ({seconds:g} s)")
    for number, level in enumerate(originals, 1):
        pushes, states, cpu, wall = first_line(level)
        found = anytime(level.board, level.penguin, PUSHES, max_seconds=seconds,
                        max_states=10**8)
        gap = found.pushes - found.lower_bound if found.moves is not None else "-"
        print(f"{number} {pushes} {states} {cpu:.2f} {wall:.2f} | {found.pushes} "
              f"{'yes' if found.optimal else 'no'} {found.lower_bound} {gap} "
              f"{found.expanded}", flush=True)
    runs = [first_line(level) for level in builtin_pack("expert")]
    solved = sum(pushes is not None for pushes, *_ in runs)
    print(f"expert: {solved}/{len(runs)} first lines; at most {max(r[1] for r in runs)} "
          f"states, {max(r[2] for r in runs):.2f} CPU s")


if __name__ == "__main__":
    main()
