"""2mino puzzle generation time, per board size and level, over fixed seeds, beside Simon
Tatham's Dominosa generator run in the same benchmark run.

Prints one line per case: N, level, puzzles, our mean CPU ms a puzzle, the mean hint bars
and the share of hint-free puzzles; with `--reference`, his mean CPU ms a puzzle for the
same size and grade, and the ratio ours / his (below 1: ours is faster). Our N symbols is
his n = N - 1 ("maximum number on dominoes"); his grades Trivial/Basic/Hard/Extreme are our
levels (docs/rules/twomino.md). Times are CPU seconds of the process (his: getrusage's user
time around each generation, as his front end prints it with --time-generation).

Our unique generator first tries random boards without given bars; when none of its budget
of boards has the asked grade it locks a few hint bars where its solver is stuck (the share
of hint-free puzzles is printed); his puzzles never have given bars.

The reference is his puzzle collection's GTK front end for Dominosa, taken by path, built
outside this repository from his public source (https://www.chiark.greenend.org.uk/~sgtatham/puzzles/,
or the git mirror github.com/chrisboyle/sgtpuzzles, branch `upstream`), for example:

    apt-get install libgtk-3-dev cmake
    cmake -S puzzles -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -t dominosa

Its `--generate COUNT PARAMS --time-generation` makes COUNT puzzles and prints each one's
time; no display is needed. A case of his longer than `--reference-cap` seconds is cut
there: its mean is then over the puzzles made by then, marked "cut", and its ratio "~"
(an estimate: the puzzle it was making took longer than the cap left); with none made,
his mean is over the cap (">") and the ratio under ours / the cap ("<").

Our generator's compiled kernel is loaded (or compiled) before any timing.

Usage: python bench/bench_twomino.py [--count 20] [--sizes 5,7,9,13] [--levels ...]
                                     [--reference PATH] [--reference-cap 120]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import time

from gridgames.core.progress import progress
from gridgames.core.rng import Rng
from gridgames.games.twomino.board import hint_bars, shuffled
from gridgames.games.twomino.generator import TwoMinoGenerator, unique_puzzle
from gridgames.games.twomino.layout import LEVELS

GRADE = {"trivial": "t", "basic": "b", "hard": "h", "extreme": "e"}  # his params' letters
TIMED = re.compile(r"^\S+ \S+: ([0-9.]+)$")  # "Dominosa <seed>: <seconds>"


def ours_unique(n: int, level: str, count: int) -> tuple[float, float, float]:
    """(mean CPU ms, mean hint bars, hint-free share) over `count` seeded puzzles."""
    start = time.process_time()
    bars = free = 0
    for i in progress(range(count), count, f"N={n} {level}"):
        locked = unique_puzzle(n, level, Rng(f"bench-{n}-{level}-{i}")).locked
        bars += len(locked)
        free += not locked
    return (time.process_time() - start) / count * 1000, bars / count, free / count


def ours_seeded(n: int, count: int) -> tuple[float, float]:
    """The source's shuffle with its hint bars: (mean CPU ms, mean hint bars)."""
    start = time.process_time()
    bars = 0
    for i in range(count):
        rng = Rng(f"bench-seed-{n}-{i}")
        bars += len(hint_bars(shuffled(n, rng), rng))
    return (time.process_time() - start) / count * 1000, bars / count


def reference_version(path: str) -> str:
    found = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    return " ".join(found.stdout.split()) or "(no version printed)"


def theirs(path: str, n: int, level: str, count: int, cap: float) -> tuple[float, int, bool]:
    """(his mean CPU ms, puzzles made, cut by the cap) for `count` puzzles of our N and
    level, his generator seeded at random as his front end does."""
    params = f"{n - 1}d{GRADE[level]}"
    with subprocess.Popen([path, "--generate", str(count), params, "--time-generation"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as run:
        try:
            output, _ = run.communicate(timeout=cap)
            cut = False
        except subprocess.TimeoutExpired:
            run.kill()
            output, _ = run.communicate()
            cut = True
    times = [float(m[1]) for line in output.splitlines() if (m := TIMED.match(line.strip()))]
    if not times:
        return float("nan"), 0, cut
    return sum(times) / len(times) * 1000, len(times), cut


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles a case (default 20)")
    parser.add_argument("--sizes", default="5,7,9,13", help="N values (default 5,7,9,13)")
    parser.add_argument("--levels", default=",".join(LEVELS), help="levels (default all)")
    parser.add_argument("--reference", help="Tatham's Dominosa binary (see above)")
    parser.add_argument("--reference-cap", type=float, default=120.0,
                        help="seconds for one case of his (default 120)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    levels = [level for level in args.levels.split(",") if level]
    for level in levels:
        if level not in GRADE:
            parser.error(f"unknown level {level!r}: one of {', '.join(GRADE)}")
    TwoMinoGenerator().warm()
    if args.reference:
        print(f"reference: {args.reference}: {reference_version(args.reference)}")
    print("N level puzzles ours_ms hint_bars hint_free" + ("  his_ms his_puzzles ratio"
                                                         if args.reference else ""))
    for n in sizes:
        ms, bars = ours_seeded(n, args.count)
        print(f"{n} seed {args.count} {ms:.2f} {bars:.1f} 0.00  (the source's shuffle)")
        for level in levels:
            ms, bars, free = ours_unique(n, level, args.count)
            line = f"{n} {level} {args.count} {ms:.1f} {bars:.1f} {free:.2f}"
            if args.reference:
                his, made, cut = theirs(args.reference, n, level, args.count,
                                        args.reference_cap)
                if made:
                    line += (f"  {his:.1f} {made}{' cut' if cut else ''} "
                             f"{'~' if cut else ''}{ms / his:.3g}")
                else:  # not one puzzle within the cap: his mean is longer than the cap
                    cap_ms = args.reference_cap * 1000
                    line += f"  >{cap_ms:.0f} 0 cut <{ms / cap_ms:.3g}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
