"""Lower bounds on the fewest pushes of the original Polar levels, by the compact-state proof
search (src/gridgames/games/polar/proof.py): A* over pushes in layers by f = g + bound,
pruned at the bound being proven, exact keys of a few words, no parents.

For each level, one line per layer finished (every state with that f expanded, so the
level needs at least f + 1 pushes), then a summary:
`level bound proven fewest status stored expanded key_bits bytes_per_slot bytes_per_state
 slots search_mb peak_rss_mb wall_s cpu_s line`
- bound: the search proves "at least BOUND pushes" when it ends without a win below it;
- proven: what it proved (BOUND when it ended; the last layer finished plus one when the
  time or memory ran out); fewest: set when it found a win below BOUND (then proven fewest);
- bytes_per_state: the table's bytes and the open list's 4 bytes a state, by states stored;
- search_mb: the table and open list at their largest (as the A* rows of bench_polar.py
  count their arrays);
- peak_rss_mb: the process's peak resident memory (each level runs in a process of its own;
  about 160 MB of it is Python, numpy and the compiled kernels);
- line: the pushes of the level's stored line replayed (game.line_pushes): with proven equal
  to it, that line is proven fewest pushes.

Usage: python bench/bench_polar_proof.py [--levels 1,2,3,4] [--bound 5:28,6:29]
         [--seconds 3600] [--memory-gb 14] [--threads 1]
  --bound: LEVEL:B pairs (default: the level's proven pushes, else its stored line's);
  --seconds: wall seconds per level; --memory-gb: the cap on the table and open list (a
  table that cannot double within it fills to 90% and the search stops there);
  --threads: the search runs on one thread (only 1 is accepted).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time


def one(number: int, bound: int, seconds: float, memory_gb: float) -> None:
    from gridgames.games.polar import game, proof
    from gridgames.games.polar.packs import builtin_pack

    level = builtin_pack("original")[number - 1]
    line = level.info.get("solution")
    line_pushes = game.line_pushes(level, line) if line else None
    warm = builtin_pack("original")[0]
    proof.prove(warm.board, warm.penguin, 8)  # compiled (or loaded) before the clock starts
    cpu = time.process_time()

    def report(layer: proof.Layer) -> None:
        print(f"  level {number} layer f={layer.f} expanded {layer.expanded} "
              f"stored {layer.stored} wall {layer.seconds:.1f} s cpu "
              f"{time.process_time() - cpu:.1f} s rss {layer.rss / 2**20:.0f} MB "
              f"-> at least {layer.f + 1} pushes", flush=True)

    result = proof.prove(level.board, level.penguin, bound, max_seconds=seconds,
                         memory_cap=int(memory_gb * 2**30), report=report)
    status = "ended" if result.complete else f"stopped ({result.stopped})"
    print(f"level {number} bound {bound} proven {result.lower} "
          f"fewest {result.fewest if result.fewest is not None else '-'} {status} "
          f"stored {result.stored} expanded {result.expanded} key_bits {result.key_bits} "
          f"bytes_per_slot {8 * result.words} bytes_per_state {result.bytes_per_state:.1f} "
          f"slots {result.slots} search_mb {result.peak_arrays / 2**20:.0f} "
          f"peak_rss_mb {result.peak_rss / 2**20:.0f} "
          f"wall_s {result.seconds:.1f} cpu_s {time.process_time() - cpu:.1f} "
          f"line {line_pushes if line_pushes is not None else '-'}", flush=True)
    if result.complete and result.fewest is None and line_pushes == result.lower:
        print(f"level {number}: fewest pushes {line_pushes}, proven (the stored line has "
              f"{line_pushes}, none has fewer)", flush=True)


def default_bound(number: int) -> int:
    from gridgames.games.polar import game
    from gridgames.games.polar.packs import builtin_pack

    level = builtin_pack("original")[number - 1]
    if "pushes" in level.info:
        return int(level.info["pushes"])
    pushes = game.line_pushes(level, level.info["solution"])
    assert pushes is not None
    return pushes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1,2,3,4")
    parser.add_argument("--bound", default="")
    parser.add_argument("--seconds", type=float, default=3600.0)
    parser.add_argument("--memory-gb", type=float, default=14.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--one", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.threads != 1:
        parser.error("the proof search runs on one thread")
    if args.one:
        one(args.one[0], args.one[1], args.seconds, args.memory_gb)
        return
    bounds = dict(tuple(map(int, pair.split(":"))) for pair in args.bound.split(",") if pair)
    for number in map(int, args.levels.split(",")):
        bound = bounds.get(number) or default_bound(number)
        # A process a level: its peak resident memory is that level's.
        subprocess.run([sys.executable, __file__, "--one", str(number), str(bound),
                        "--seconds", str(args.seconds), "--memory-gb", str(args.memory_gb)],
                       check=True)


if __name__ == "__main__":
    main()
