"""`gridgames polar ...`: solve levels, generate levels, convert level files."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import TextIO

from gridgames.core.errors import BadInput
from gridgames.core.rng import Rng
from gridgames.games.polar.generator import difficulty, generate
from gridgames.games.polar.levels import (
    Level,
    builtin_pack,
    load_levels,
    stge_encode,
    stge_to_hex,
    write_pack,
)
from gridgames.games.polar.solver import MOVES, PUSHES, Solution, solve


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("polar", help="Polar levels: solve, generate, convert")
    commands = parser.add_subparsers(dest="polar_command", metavar="COMMAND", required=True,
                                     parser_class=type(parser))
    p = commands.add_parser("solve", help="solve levels and print the moves")
    p.add_argument("--levels", help="a level file (pack, original-levels text, STGE binary or "
                   "hex); the built-in levels when omitted")
    p.add_argument("--level", type=int, help="only this level (1-based)")
    p.add_argument("--objective", default=MOVES, choices=(MOVES, PUSHES),
                   help="shortest in moves (default) or fewest pushes")
    p.add_argument("--seconds", type=float, default=60.0, help="time limit per level")
    p.add_argument("--search", default="auto", choices=("auto", "astar", "width"),
                   help="astar: proven shortest when it finishes; width: best-first width "
                   "search over pushes, fast, then looking for fewer pushes until the time is "
                   "up (proven when none are left); auto (default): A* for up to half the "
                   "time, then the width search")
    p.add_argument("--weight", type=float, default=1.0,
                   help="A* only, above 1: faster, solutions not proven shortest")
    p.set_defaults(run=cmd_solve)

    p = commands.add_parser("generate", help="make new solvable levels, easiest first")
    p.add_argument("--seed", default="polar")
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--min-pushes", type=int, default=3, help="fewest pushes of the first level")
    p.add_argument("--hardest", type=int, help="fewest pushes of the last level (the target "
                   "rises evenly from --min-pushes)")
    p.set_defaults(run=cmd_generate)

    p = commands.add_parser("convert", help="print levels in another format")
    p.add_argument("--levels", required=True)
    p.add_argument("--to", default="pack", choices=("pack", "hex", "stge"))
    p.add_argument("--level", type=int)
    p.set_defaults(run=cmd_convert)


def _pick(levels: tuple[Level, ...] | list[Level], number: int | None) -> list[Level]:
    if number is None:
        return list(levels)
    if not 1 <= number <= len(levels):
        raise BadInput(f"--level must be from 1 to {len(levels)}")
    return [levels[number - 1]]


def cmd_solve(args: argparse.Namespace, out: TextIO) -> None:
    levels = load_levels(args.levels) if args.levels else builtin_pack()
    numbers = range(1, len(levels) + 1) if args.level is None else [args.level]
    if not 0 < args.seconds <= 86400:
        raise BadInput("--seconds must be above 0 and at most a day")
    if not 1 <= args.weight <= 100:
        raise BadInput("--weight must be from 1 to 100")
    for number, level in zip(numbers, _pick(levels, args.level), strict=True):
        found = _solve_level(level, args)
        name = level.name or f"level {number}"
        if found.moves is None:
            why = "no solution" if found.complete else f"not solved within {args.seconds:g} s"
            print(f"{number} {name}: {why} ({found.expanded} states)", file=out)
            continue
        proof = (f"proven fewest {args.objective}" if found.optimal
                 else "not proven shortest")
        print(f"{number} {name}: {''.join(found.moves)}", file=out)
        print(f"  {len(found.moves)} moves, {found.pushes} pushes; {proof}; "
              f"{found.expanded} states, {found.seconds:.1f} s", file=out)


def _solve_level(level: Level, args: argparse.Namespace) -> Solution:
    def search(objective: str, width: bool, seconds: float) -> Solution:
        return solve(level.board, level.penguin, objective, weight=args.weight, width=width,
                     max_seconds=seconds, max_states=200_000_000, improve=True)

    if args.search != "auto":
        return search(args.objective, args.search == "width", args.seconds)
    first = search(args.objective, False, args.seconds / 2)
    if first.moves is not None or first.complete:
        return first
    second = search(PUSHES, True, args.seconds - first.seconds)
    return replace(second, expanded=first.expanded + second.expanded,
                   seconds=first.seconds + second.seconds)


def cmd_generate(args: argparse.Namespace, out: TextIO) -> None:
    if not 1 <= args.count <= 500:
        raise BadInput("--count must be from 1 to 500")
    rng = Rng(args.seed)
    hardest = args.hardest if args.hardest is not None else args.min_pushes
    if not 1 <= args.min_pushes <= hardest <= 30:
        raise BadInput("pushes: 1 <= --min-pushes <= --hardest <= 30")
    made = []
    for number in range(args.count):
        target = args.min_pushes + (hardest - args.min_pushes) * number // max(1, args.count - 1)
        item = generate(rng, target)
        made.append(item)
        print(f"generated {number + 1}/{args.count}: {item.pushes} pushes", file=sys.stderr)
    made.sort(key=difficulty)
    levels = []
    for number, item in enumerate(made, 1):
        info = {"pushes": str(item.pushes),
                "best": f"{item.moves}{'' if item.moves_optimal else '+'}",
                "solution": "".join(item.solution)}
        levels.append(Level(f"Ice {number}", item.level.board, item.level.penguin,
                            item.level.hearts, info))
    title = (f"gridgames polar generate --seed {args.seed} --count {args.count} "
             f"--min-pushes {args.min_pushes} --hardest {hardest}")
    print(write_pack(levels, title), file=out)


def cmd_convert(args: argparse.Namespace, out: TextIO) -> None:
    levels = _pick(load_levels(args.levels), args.level)
    if args.to == "pack":
        print(write_pack(levels), file=out)
        return
    if len(levels) != 1:
        raise BadInput("STGE holds one level: choose it with --level")
    if args.to == "hex":
        print(stge_to_hex(levels[0]), file=out)
    else:
        out.flush()
        sys.stdout.buffer.write(stge_encode(levels[0]))
