"""Polar: look for a shorter line near a known one, from the positions along it.

Replays a winning line (the pack's stored one, or --line) and, from the position after each
of its first K pushes (latest first), searches over pushes (one core) for a winning suffix
of fewer pushes than the line has left: plain A* (--search astar: ending without one proves
no shorter line passes through that position) or the improving width search (width: no
proof, reaches further). A suffix found is joined to the prefix, replayed by the rules and
printed; with --all the search goes on from the other positions. Per position it prints K,
the bound there, what the search says, states and seconds.

Usage: python bench/polar_shortcut.py [--level 6] [--from K] [--to K] [--search width]
       [--seconds S] [--states N] [--line MOVES] [--all]
"""

from __future__ import annotations

import argparse
import time

from gridgames.games.polar.analysis import push_bound
from gridgames.games.polar.game import line_pushes, play
from gridgames.games.polar.packs import builtin_pack
from gridgames.games.polar.solver import PUSHES, solve


def positions(level, moves: str) -> list[tuple[bytes, int, str]]:
    """(board, penguin, moves so far) after each push of the line; [0] is the start."""
    board, penguin, hearts = level.board, level.penguin, level.hearts
    out = [(bytes(board), penguin, "")]
    for i, move in enumerate(moves):
        board, at, hearts, _ = play(board, penguin, hearts, move)
        if at == penguin:
            out.append((bytes(board), at, moves[:i + 1]))
        penguin = at
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pack", default="original")
    p.add_argument("--level", type=int, default=6)
    p.add_argument("--line", help="the line to start from (default: the pack's stored one)")
    p.add_argument("--from", dest="first", type=int, help="latest K (default: the last)")
    p.add_argument("--to", dest="last", type=int, default=0, help="earliest K")
    p.add_argument("--search", default="astar", choices=("astar", "width"))
    p.add_argument("--seconds", type=float, default=60.0, help="per position")
    p.add_argument("--states", type=int, default=20_000_000, help="per position")
    p.add_argument("--all", action="store_true", help="go on after a shorter line")
    args = p.parse_args()
    level = builtin_pack(args.pack)[args.level - 1]
    line = args.line or level.info["solution"]
    total = line_pushes(level, line)
    if total is None:
        raise SystemExit("the line does not win")
    steps = positions(level, line)
    print(f"level {args.level}: line of {total} pushes, {len(line)} moves; {args.search}")
    first = total - 1 if args.first is None else args.first
    for k in range(first, args.last - 1, -1):
        board, penguin, prefix = steps[k]
        left = total - k
        start = time.monotonic()
        found = solve(board, penguin, PUSHES, max_states=args.states,
                      max_seconds=args.seconds, width=args.search == "width",
                      improve=args.search == "width", below=left)
        seconds = time.monotonic() - start
        if found.moves is not None:
            whole = prefix + "".join(found.moves)
            print(f"K={k}: suffix of {found.pushes} < {left}: line of "
                  f"{line_pushes(level, whole)} pushes, {len(whole)} moves "
                  f"({found.expanded} states, {seconds:.1f} s)\n{whole}", flush=True)
            if not args.all:
                return
            continue
        words = f"none below {left} (proven)" if found.complete else \
            f"none found, at least {found.lower_bound} of {left}" if args.search == "astar" \
            else f"none found below {left}"
        print(f"K={k}: bound {push_bound(board, penguin)}, {words} "
              f"({found.expanded} states, {seconds:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
