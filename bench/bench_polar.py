"""Polar solver on the six original levels (../shared/data/polar/original-levels.txt).

Prints one line per level and objective:
`level objective solved moves pushes proven states seconds`.

Usage: python bench/bench_polar.py [SECONDS] [--moves]
  SECONDS: time limit per level (default 60); --moves also searches shortest in moves
  (level 1 takes about 3 minutes).
"""

from __future__ import annotations

import sys
from pathlib import Path

from gridgames.games.polar.levels import read_original
from gridgames.games.polar.solver import MOVES, PUSHES, solve

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "polar"


def main() -> None:
    seconds = float(next((a for a in sys.argv[1:] if not a.startswith("--")), 60))
    objectives = [PUSHES, MOVES] if "--moves" in sys.argv else [PUSHES]
    levels = read_original((DATA / "original-levels.txt").read_text(encoding="utf-8"))
    for number, level in enumerate(levels, 1):
        for objective in objectives:
            found = solve(level.board, level.penguin, objective, max_seconds=seconds,
                          max_states=100_000_000)
            solved = found.moves is not None
            moves = len(found.moves) if solved else "-"
            pushes = found.pushes if solved else "-"
            print(f"{number} {objective} {'yes' if solved else 'no'} {moves} {pushes} "
                  f"{'yes' if found.optimal else 'no'} {found.expanded} {found.seconds:.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
