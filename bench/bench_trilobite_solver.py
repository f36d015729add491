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
span: the solve of one position, table reset before it. The two take turns on a set, a
block of at most 50 positions or about 50 ms of our work at a time, so that other work on
the machine weighs on both alike even on the sets that take a few milliseconds in all (a
switch leaves the caches to the other). Both run on one CPU (the bench's last allowed one;
--any-cpu lets the system place them): where the two may land on different cores, a short
solve finds the caches warm or cold as the system happened to place it, and Test_L3_R1's
ratio wandered 0.82-1.24 over six runs; on one CPU each turn starts with what the other
left, and five runs agree within 0.05.

Usage: python bench/bench_trilobite_solver.py [--sets A,B] [--limit N] [--limit-hard N]
  [--random N] [--seed S] [--reference PATH] [--any-cpu]
  --limit N: first N positions of each set (default all 1000);
  --limit-hard N: of Test_L1_R3, whose positions take seconds each (default 20; the
    comparison in docs/machine-play.md uses 50; 0 = all);
  --random N: after the sets, one more set "randomN": N positions of 7x6 reached by 8 to 20
    uniformly random moves, none of which ends the game (the same N positions for a given
    --seed, default 1). Their scores are not known in advance: with --reference, a score
    on which the two solvers disagree counts as wrong for ours. `--sets "" --random 300`
    runs that set alone.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from gridgames.core.progress import progress
from gridgames.games.trilobite.game import COLUMN_NAMES
from gridgames.games.trilobite.solver import parse_moves

DATA = Path(__file__).resolve().parents[1] / "data" / "connect4"
SETS = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]
TURN_SECONDS = 0.05  # the two solvers take turns on a set, about this long each at most,
TURN_POSITIONS = 50  # and this many positions at most
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
    parser.add_argument("--random", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", metavar="PATH", default=None)
    parser.add_argument("--any-cpu", action="store_true")
    args = parser.parse_args()
    if not args.any_cpu and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})  # the reference inherits it
    if args.reference and not Path(args.reference).is_file():
        parser.error(f"--reference: no such file {args.reference}")

    start = time.perf_counter()
    from gridgames.games.trilobite.fastsolver import FastSolver

    solver = FastSolver(7, 6, 4, memory_mb=64)
    current, mask, moves = parse_moves(solver.g, "4453")
    solver.solve(current, mask, moves)
    print(f"# first call (compile or cache load): {time.perf_counter() - start:.2f} s",
          file=sys.stderr)

    sets = [(name, None) for name in args.sets.split(",") if name]
    if args.random:
        sets.append((f"random{args.random}", random_rows(solver.g, args.random, args.seed)))
    for name, rows in sets:
        if rows is None:
            rows = [r.split() for r in (DATA / name).read_text().splitlines() if r.strip()]
            limit = args.limit_hard if name == "Test_L1_R3" else args.limit
            if limit:
                rows = rows[:limit]
        positions = [(parse_moves(solver.g, m), None if s is None else int(s))
                     for m, s in rows]
        found_scores = []
        ours, theirs = Totals(), Totals()
        other = Reference(args.reference) if args.reference else None
        first, turn = 0, 0.0
        for index, ((current, mask, moves), expected) in enumerate(
                progress(positions, len(positions), name)):
            solver.reset()
            tic = time.perf_counter()
            score = solver.solve(current, mask, moves)
            took = time.perf_counter() - tic
            ours.add(took, solver.nodes, expected is not None and score != expected)
            found_scores.append(score)
            turn += took
            if other and (turn >= TURN_SECONDS or index + 1 - first >= TURN_POSITIONS
                          or index == len(positions) - 1):
                block = rows[first:index + 1]
                for i, ((_, right), (found, nodes, us)) in enumerate(
                        zip(block, other.solve(block), strict=True), first):
                    if right is None:  # a random position: the two must agree
                        ours.wrong += found != found_scores[i]
                    theirs.add(us / 1e6, nodes, right is not None and found != int(right))
                first, turn = index + 1, 0.0
        n = len(positions)
        mean_us, mean_nodes = ours.seconds / n * 1e6, ours.nodes / n
        line = f"{name} {mean_us:.1f} {mean_nodes:.0f}"
        if other:
            other.close()
            ref_us_here, ref_nodes_here = theirs.seconds / n * 1e6, theirs.nodes / n
            line += (f" reference {ref_us_here:.1f} {ref_nodes_here:.0f} ratio_time "
                     f"{mean_us / ref_us_here:.2f} ratio_nodes {mean_nodes / ref_nodes_here:.2f}")
            if theirs.wrong:
                line += f" reference_wrong {theirs.wrong}"
        print(line, flush=True)
        if name not in REFERENCE:
            print(f"# {name}: {n} positions, {ours.wrong} wrong", file=sys.stderr, flush=True)
            continue
        ref_us, ref_nodes = REFERENCE[name]
        print(f"# {name}: {n} positions, {ours.wrong} wrong; reference {ref_us} us x 1.6 = "
              f"{ref_us * 1.6:.1f} us here, {ref_nodes} nodes; ratio ours/reference "
              f"{mean_us / (ref_us * 1.6):.2f} (time), {mean_nodes / ref_nodes:.2f} (nodes); "
              f"{mean_us * 1000 / max(mean_nodes, 1):.0f} ns per node", file=sys.stderr,
              flush=True)


def random_rows(g, count: int, seed: int) -> list[tuple[str, None]]:
    """`count` move strings of 8 to 20 random moves, none of which ends the game (a move
    that would complete a line is never drawn), each with an unknown score."""
    rng = random.Random(seed)
    rows = []
    while len(rows) < count:
        length = rng.randint(8, 20)
        current = mask = 0
        text = ""
        while len(text) < length:
            playable = []
            for col in range(g.width):
                spot = (mask + (1 << (col * g.h1))) & g.columns[col]
                if spot and not g.winning_cells(current, mask) & spot:
                    playable.append((col, spot))
            if not playable:
                break
            col, spot = rng.choice(playable)
            current ^= mask
            mask |= spot
            text += COLUMN_NAMES[col]
        if len(text) == length:
            rows.append((text, None))
    return rows


class Totals:
    def __init__(self) -> None:
        self.seconds, self.nodes, self.wrong = 0.0, 0, 0

    def add(self, seconds: float, nodes: int, wrong: bool) -> None:
        self.seconds += seconds
        self.nodes += nodes
        self.wrong += wrong


class Reference:
    """The reference solver, one process for a whole set, fed a block of positions at a
    time: each answer line is `moves score nodes microseconds`."""

    def __init__(self, path: str) -> None:
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)

    def solve(self, rows: list[list[str]]) -> list[tuple[int, int, int]]:
        """(score, nodes, microseconds) per position."""
        self.process.stdin.write("".join(f"{moves}\n" for moves, _ in rows))
        self.process.stdin.flush()
        answers = []
        for moves, _ in rows:
            words = self.process.stdout.readline().split()
            if len(words) != 4 or words[0] != moves:
                raise SystemExit(f"the reference did not answer {moves!r}: {words}")
            answers.append((int(words[1]), int(words[2]), int(words[3])))
        return answers

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


if __name__ == "__main__":
    main()
