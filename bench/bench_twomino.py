"""2mino puzzle generation time, per board size, generator and level, over fixed seeds.

Prints one line per case: `N gen level puzzles mean_ms hint_bars_mean hint_free_share`, and
beside it the
reference time of Simon Tatham's C Dominosa generator on the same machine class (from
data/dominosa/README.md; his Trivial/Basic/Hard/Extreme grades, no hint bars) and
the ratio ours / his (below 1: ours is faster). His N=13 Hard and Extreme times are given
as "about 2 minutes" and "over 3 minutes", so those ratios are approximate (the second an
upper bound).
Note: our unique generator first tries random boards without given bars; when none of its
budget of boards has the asked grade it locks a few hint bars where its solver is stuck (the
share of hint-free puzzles is printed); his puzzles never have given bars.

Usage: python bench/bench_twomino.py [PUZZLES]   (default 20 per case)
"""

from __future__ import annotations

import sys
import time

from gridgames.core.progress import progress
from gridgames.core.rng import Rng
from gridgames.games.twomino.board import hint_bars, shuffled
from gridgames.games.twomino.generator import unique_puzzle
from gridgames.games.twomino.layout import LEVELS

REFERENCE_MS = {  # Tatham's generator, CPU ms per puzzle (data/dominosa/README.md)
    (7, "trivial"): 0.9, (7, "basic"): 2.4, (7, "hard"): 25, (7, "extreme"): 135,
    (13, "trivial"): 36, (13, "basic"): 31, (13, "hard"): 120_000, (13, "extreme"): 180_000,
}


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for n in (7, 13):
        start = time.process_time()
        bars = 0
        for i in range(count):
            rng = Rng(f"bench-seed-{n}-{i}")
            bars += len(hint_bars(shuffled(n, rng), rng))
        ms = (time.process_time() - start) / count * 1000
        print(f"{n} seed - {count} {ms:.2f} {bars / count:.1f} 0.00  (reference: none)")
        for level in LEVELS:
            start = time.process_time()
            bars = free = 0
            for i in progress(range(count), count, f"N={n} {level}"):
                locked = unique_puzzle(n, level, Rng(f"bench-{n}-{level}-{i}")).locked
                bars += len(locked)
                free += not locked
            ms = (time.process_time() - start) / count * 1000
            reference = REFERENCE_MS[(n, level)]
            print(f"{n} unique {level} {count} {ms:.1f} {bars / count:.1f} {free / count:.2f}  "
                  f"(Tatham: {reference:g} ms, ratio {ms / reference:.3g})", flush=True)


if __name__ == "__main__":
    main()
