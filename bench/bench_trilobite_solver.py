"""The exact Trilobite solver on Pascal Pons' six Connect-4 benchmark sets, optionally side
by side with a reference solver in the same run.

Standard output: one line per set, `set mean_us mean_nodes` (mean time and nodes per
position, the table reset between positions); with --reference, the reference's mean time
and nodes follow, and the ratios ours/reference. Standard error: the first call's compile
(or cache load) time, and our figures beside the published ones (his machine; about 1.6x
slower per node than ours).

--reference PATH: a solver binary that reads one move sequence a line on standard input and
answers `moves score nodes microseconds` a line, resetting its table before each position
and using no opening book: Pascal Pons' solver at its commit 514a128 ("Part12: Add lower
bound to transposition table") does exactly this. Build it by hand outside this repository
(git clone, git checkout 514a128, make) and give the path to its `c4solver`; nothing of it
is kept here. Each set runs whole in one process of each solver, and both time the same
span: the solve of one position, table reset before it.

Usage: python bench/bench_trilobite_solver.py [--sets A,B] [--limit N] [--limit-hard N]
  [--reference PATH]
  --limit N: first N positions of each set (default all 1000);
  --limit-hard N: of Test_L1_R3, whose positions take seconds each (default 20; the
    comparison in the README uses 50; 0 = all).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from gridgames.core.progress import progress
from gridgames.games.trilobite.solver import parse_moves

DATA = Path(__file__).resolve().parents[1] / "data" / "connect4"
SETS = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]
REFERENCE = {  # published mean time (us) and nodes per position, no opening book
    "Test_L3_R1": (4.6, 51), "Test_L2_R1": (37, 450), "Test_L2_R2": (3200, 39900),
    "Test_L1_R1": (255, 3300), "Test_L1_R2": (97000, 1201000),
    "Test_L1_R3": (5500000, 65920000),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--limit-hard", type=int, default=20)
    parser.add_argument("--reference", metavar="PATH", default=None)
    args = parser.parse_args()
    if args.reference and not Path(args.reference).is_file():
        parser.error(f"--reference: no such file {args.reference}")

    start = time.perf_counter()
    from gridgames.games.trilobite.fastsolver import FastSolver

    solver = FastSolver(7, 6, 4, memory_mb=64)
    current, mask, moves = parse_moves(solver.g, "4453")
    solver.solve(current, mask, moves)
    print(f"# first call (compile or cache load): {time.perf_counter() - start:.2f} s",
          file=sys.stderr)

    for name in args.sets.split(","):
        rows = [r.split() for r in (DATA / name).read_text().splitlines() if r.strip()]
        limit = args.limit_hard if name == "Test_L1_R3" else args.limit
        if limit:
            rows = rows[:limit]
        positions = [(parse_moves(solver.g, m), int(s)) for m, s in rows]
        total_time, total_nodes, wrong = 0.0, 0, 0
        for (current, mask, moves), expected in progress(positions, len(positions), name):
            solver.reset()
            tic = time.perf_counter()
            score = solver.solve(current, mask, moves)
            total_time += time.perf_counter() - tic
            total_nodes += solver.nodes
            wrong += score != expected
        n = len(positions)
        mean_us, mean_nodes = total_time / n * 1e6, total_nodes / n
        line = f"{name} {mean_us:.1f} {mean_nodes:.0f}"
        if args.reference:
            ref_us_here, ref_nodes_here, ref_wrong = reference(args.reference, rows)
            line += (f" reference {ref_us_here:.1f} {ref_nodes_here:.0f} ratio_time "
                     f"{mean_us / ref_us_here:.2f} ratio_nodes {mean_nodes / ref_nodes_here:.2f}")
            if ref_wrong:
                line += f" reference_wrong {ref_wrong}"
        print(line, flush=True)
        ref_us, ref_nodes = REFERENCE[name]
        print(f"# {name}: {n} positions, {wrong} wrong; reference {ref_us} us x 1.6 = "
              f"{ref_us * 1.6:.1f} us here, {ref_nodes} nodes; ratio ours/reference "
              f"{mean_us / (ref_us * 1.6):.2f} (time), {mean_nodes / ref_nodes:.2f} (nodes); "
              f"{mean_us * 1000 / max(mean_nodes, 1):.0f} ns per node", file=sys.stderr,
              flush=True)


def reference(path: str, rows: list[list[str]]) -> tuple[float, float, int]:
    """The reference solver over the same positions, in one process: mean microseconds and
    nodes per position, and how many scores differ from the set's."""
    text = "".join(f"{moves}\n" for moves, _ in rows)
    answer = subprocess.run([path], input=text, capture_output=True, text=True, check=True)
    out = [line.split() for line in answer.stdout.splitlines() if line.strip()]
    if len(out) != len(rows):
        raise SystemExit(f"the reference answered {len(out)} lines for {len(rows)} positions")
    wrong = sum(int(o[1]) != int(expected) for o, (_, expected) in zip(out, rows, strict=True))
    return (sum(int(o[3]) for o in out) / len(out), sum(int(o[2]) for o in out) / len(out),
            wrong)


if __name__ == "__main__":
    main()
