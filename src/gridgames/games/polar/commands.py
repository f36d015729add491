"""`gridgames polar ...`: solve, verify, generate and convert levels."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any, TextIO

from gridgames.core.capabilities import Commands, Subcommands, command_group
from gridgames.core.errors import BadInput
from gridgames.core.progress import progress
from gridgames.core.result import PROVEN, Budget
from gridgames.core.rng import Rng
from gridgames.core.words import count
from gridgames.games.polar.board import DIRECTIONS, HEART
from gridgames.games.polar.game import line_pushes, play
from gridgames.games.polar.generator import Generated, Target, difficulty, generate
from gridgames.games.polar.packs import (
    DEFAULT_PACK,
    PACKS,
    Level,
    builtin_pack,
    load_levels,
    stge_encode,
    stge_to_hex,
    write_pack,
)
from gridgames.games.polar.solver import MOVES, PUSHES, Solution, solve


class PolarCommands(Commands):
    def register(self, sub: Subcommands) -> None:
        commands = command_group(sub, "polar", "Polar levels: solve, verify, generate, convert")
        p = commands.add_parser("solve", help="solve levels and print the moves")
        _level_choice(p)
        p.add_argument("--objective", default=MOVES, choices=(MOVES, PUSHES),
                       help="fewest moves (default; every step counts) or fewest pushes")
        p.add_argument("--seconds", type=float, default=60.0, help="time limit per level")
        p.add_argument("--search", default="auto", choices=("auto", "astar", "width"),
                       help="astar: proven fewest when it finishes; width: best-first width "
                       "search over pushes, fast, then looking for fewer pushes until the "
                       "time is up (proven fewest pushes when none are left); auto "
                       "(default): the width search's first line, then A* for half the "
                       "time left to prove it, then fewer pushes with the rest")
        p.add_argument("--weight", type=float, default=1.0,
                       help="with --search astar, above 1: faster, solutions not proven "
                       "fewest")
        p.add_argument("--states", type=int, default=200_000_000,
                       help="states the searches may expand per level, in all (the answer "
                       "then depends on it, not on the machine, when --seconds is ample)")
        p.add_argument("--json", action="store_true", help="one JSON object per level")
        p.set_defaults(run=cmd_solve)

        p = commands.add_parser("verify", help="replay a solution through the rules and "
                                "print its moves and pushes")
        _level_choice(p)
        p.add_argument("moves", help="the solution: U, D, L, R letters")
        p.set_defaults(run=cmd_verify)

        p = commands.add_parser("generate", help="make new levels with a proven fewest "
                                "pushes, easiest first (a level pack on standard output)")
        p.add_argument("--seed", default="polar", help="the same seed gives the same levels")
        p.add_argument("--count", type=int, default=20)
        p.add_argument("--min-pushes", type=int, default=3,
                       help="fewest pushes of the first level, at least")
        p.add_argument("--hardest", type=int, help="fewest pushes of the last level, at "
                       "least (the target rises evenly from --min-pushes)")
        p.add_argument("--hearts", type=int, help="hearts on every level (default: 1 to 3)")
        p.add_argument("--bombs", type=int, help="bombs on every level (default: 0 to 2)")
        p.add_argument("--states", type=int, default=100_000, help="per candidate board: "
                       "the states its proof may expand (beyond: the board is dropped)")
        p.add_argument("--name", default="Ice", help="levels are named NAME 1, NAME 2, ...")
        p.add_argument("--jobs", type=int, default=1, help="processes (the levels do not "
                       "depend on it)")
        p.set_defaults(run=cmd_generate)

        p = commands.add_parser("convert", help="print levels in another format")
        p.add_argument("--levels", required=True, metavar="PATH")
        p.add_argument("--to", default="pack", choices=("pack", "hex", "stge"))
        p.add_argument("--level", type=int)
        p.set_defaults(run=cmd_convert)


def _level_choice(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pack", default=None, choices=tuple(PACKS),
                   help=f"a built-in pack (default {DEFAULT_PACK})")
    p.add_argument("--levels", metavar="PATH", help="a level file instead (pack, "
                   "original-levels text, STGE binary or hex)")
    p.add_argument("--level", type=int, help="only this level (1-based)")


def _chosen(args: argparse.Namespace) -> list[tuple[int, Level]]:
    if args.levels and args.pack:
        raise BadInput("give --pack or --levels, not both")
    levels = load_levels(args.levels) if args.levels else builtin_pack(args.pack or DEFAULT_PACK)
    if args.level is None:
        return list(enumerate(levels, 1))
    if not 1 <= args.level <= len(levels):
        raise BadInput(f"--level must be from 1 to {len(levels)}")
    return [(args.level, levels[args.level - 1])]


def cmd_solve(args: argparse.Namespace, out: TextIO) -> None:
    if not 0 < args.seconds <= 86400:
        raise BadInput("--seconds must be above 0 and at most a day")
    if not 1 <= args.weight <= 100:
        raise BadInput("--weight must be from 1 to 100")
    if args.weight != 1 and args.search != "astar":
        raise BadInput("--weight is for --search astar")
    if args.states < 1:
        raise BadInput("--states must be at least 1")
    chosen = _chosen(args)
    game = args.registry.get_game("polar")
    for number, level in progress(chosen, len(chosen), "levels"):
        found, proved, lower = _solve_level(level, args, game)
        report = _report(number, level, found, proved, lower, args.objective)
        if args.json:
            print(json.dumps(report), file=out, flush=True)
        elif report["moves"] is None:
            print(f"{number} {report['name']}: {report['words']} ({found.expanded} states)",
                  file=out, flush=True)
        else:
            first = f" (a first line in {found.first_seconds:.1f} s)" \
                if found.first_seconds >= 0 and not report["proven"] else ""
            print(f"{number} {report['name']}: {report['moves']}", file=out)
            print(f"  {report['move_count']} moves, {report['pushes']} pushes; "
                  f"{report['words']}; {found.expanded} states, {found.seconds:.1f} s{first}",
                  file=out, flush=True)


def _report(number: int, level: Level, found: Solution, proved: str | None, lower: int,
            objective: str) -> dict[str, Any]:
    """What `polar solve` says of one level. `proven` is true only when a finished search
    proved the fewest of the objective asked for; `lower_bound` is what the searches proved
    no solution goes below (in the objective's units), and `gap` how far the best line found
    may still be from the fewest."""
    proven = found.moves is not None and proved == objective
    value = None if found.moves is None else \
        (found.pushes if objective == PUSHES else len(found.moves))
    if proven:
        lower = value
    gap = None if value is None else value - lower
    if found.moves is None:
        words = "no solution (proven)" if found.complete else \
            f"none within {found.seconds:.1f} s" + (f", at least {lower} {objective}"
                                                    if lower else "")
    elif proven:
        words = f"proven fewest {objective}"
    else:
        words = (f"proven fewest {proved}, best found for {objective}" if proved is not None
                 else f"best found in {found.seconds:.1f} s, the fewest {objective} not proven")
        if lower:
            words += f"; proven at least {lower} {objective}, gap {gap}"
        else:
            words += f"; no lower bound on the {objective} proven"
    return {"level": number, "name": level.name or f"level {number}", "objective": objective,
            "moves": None if found.moves is None else "".join(found.moves),
            "move_count": None if found.moves is None else len(found.moves),
            "pushes": None if found.moves is None else found.pushes,
            "proven": proven, "proven_objective": proved,
            "lower_bound": lower, "gap": gap,
            "status": "proven" if proven else
            ("best found" if found.moves is not None else "none within budget"),
            "words": words, "states": found.expanded, "seconds": round(found.seconds, 3),
            "first_line_seconds": None if found.first_seconds < 0 else
            round(found.first_seconds, 3)}


def _solve_level(level: Level, args: argparse.Namespace,
                 game: Any) -> tuple[Solution, str | None, int]:
    """The solution, the objective its search proved fewest (None: nothing proven), and the
    proven lower bound for the objective asked for (0: none known). The default search is
    the game's Solve (`game.solver`, anytime.anytime) with --states and --seconds as its
    Budget, A* over pushes on both cores."""
    def search(objective: str, width: bool, seconds: float, known_lower: int = 0) -> Solution:
        return solve(level.board, level.penguin, objective, weight=args.weight, width=width,
                     max_seconds=seconds, max_states=args.states, improve=True,
                     known_lower=known_lower, engine="parallel")

    stored = line_pushes(level, level.info.get("solution", ""))
    if args.search == "auto" and args.objective == PUSHES and stored is not None:
        return _prove_stored(level, stored, args.seconds, args.states)
    if args.search != "auto":
        objective = PUSHES if args.search == "width" else args.objective
        found = search(objective, args.search == "width", args.seconds)
        lower = found.lower_bound if objective == args.objective else 0
        return found, objective if found.optimal else None, lower
    state = game.new_state(game.parse_params(""), level.desc())
    result = game.solver.solve(state, Budget(nodes=args.states, seconds=args.seconds),
                               objective=args.objective, engine="parallel")
    extra = result.extra
    found = Solution(result.value, extra.get("pushes", 0), result.nodes, result.proven,
                     result.status == PROVEN, result.seconds, extra.get("lower_bound", 0),
                     first_seconds=extra.get("first_line_seconds", -1.0))
    proved = args.objective if result.proven and result.value is not None else \
        PUSHES if extra.get("pushes_proven") else None
    return found, proved, found.lower_bound


def _prove_stored(level: Level, pushes: int, seconds: float,
                  states: int) -> tuple[Solution, str | None, int]:
    """A level with a stored line of `pushes` pushes (a pack's best known): A* over pushes on
    both cores, for the whole budget, looks only for shorter lines. Ending without one proves
    the stored line fewest; a shorter one it finds is fewest itself."""
    found = solve(level.board, level.penguin, PUSHES, max_seconds=seconds,
                  max_states=states, below=pushes, engine="parallel")
    if found.moves is not None:
        return found, PUSHES, found.pushes
    moves = list(level.info["solution"])
    line = replace(found, moves=moves, pushes=pushes, optimal=found.complete,
                   lower_bound=pushes if found.complete else found.lower_bound)
    return line, PUSHES if found.complete else None, line.lower_bound


def cmd_verify(args: argparse.Namespace, out: TextIO) -> None:
    """Replay the moves through the game's rules (game.play), one by one."""
    chosen = _chosen(args)
    if len(chosen) != 1:
        raise BadInput("choose the level with --level")
    number, level = chosen[0]
    moves = args.moves.strip().upper()
    if not moves or any(m not in DIRECTIONS for m in moves):
        raise BadInput("a solution is a string of U, D, L and R")
    board, penguin, hearts = level.board, level.penguin, level.hearts
    pushes = 0
    for index, move in enumerate(moves, 1):
        if hearts == 0:
            raise BadInput(f"the level is solved after move {index - 1}: the rest is extra")
        after, at, hearts, _ = play(board, penguin, hearts, move)
        if after == board and at == penguin:
            raise BadInput(f"move {index} ({move}) changes nothing: not a solution")
        pushes += at == penguin  # the penguin stayed: it pushed something
        board, penguin = after, at
    if hearts:
        left = board.count(HEART)
        raise BadInput(f"not a solution: {count(left, 'heart')} still out after "
                       f"{count(len(moves), 'move')}")
    print(f"{number} {level.name or f'level {number}'}: solved in {len(moves)} moves, "
          f"{pushes} pushes", file=out)


def cmd_generate(args: argparse.Namespace, out: TextIO) -> None:
    hardest = args.hardest if args.hardest is not None else args.min_pushes
    _check_generate(args, hardest)
    targets = [Target(args.min_pushes + (hardest - args.min_pushes) * number
                      // max(1, args.count - 1), args.hearts, args.bombs, args.states)
               for number in range(args.count)]
    # Each level has its own random stream, so the levels do not depend on --jobs.
    seeds = [f"{args.seed}/{number}" for number in range(1, args.count + 1)]
    start, cpu_start = time.monotonic(), time.process_time()
    if args.jobs == 1:
        made = [generate(Rng(seed), target) for seed, target in
                progress(zip(seeds, targets, strict=True), args.count, "levels")]
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            made = list(progress(pool.map(_generate_seeded, seeds, targets), args.count,
                                 "levels"))
    cpu = time.process_time() - cpu_start
    if args.jobs > 1:
        cpu += sum(item.cpu_seconds for item in made)  # the workers' time
    made.sort(key=difficulty)
    levels = []
    for number, item in enumerate(made, 1):
        info = {"pushes": str(item.pushes),
                "best": f"{item.moves}{'' if item.moves_optimal else '+'}",
                "solution": "".join(item.solution)}
        levels.append(Level(f"{args.name} {number}", item.level.board, item.level.penguin,
                            item.level.hearts, info))
    command = (f"gridgames polar generate --seed {args.seed} --count {args.count} "
               f"--min-pushes {args.min_pushes} --hardest {hardest} --states {args.states}"
               + (f" --hearts {args.hearts}" if args.hearts is not None else "")
               + (f" --bombs {args.bombs}" if args.bombs is not None else "")
               + (f" --name {args.name}" if args.name != "Ice" else ""))
    spread = Counter(item.pushes for item in made)
    print(f"# Made by: {command}\n"
          f"# {sum(item.candidates for item in made)} candidate boards tried, "
          f"{time.monotonic() - start:.0f} s ({cpu:.0f} CPU s); fewest pushes: "
          + ", ".join(f"{pushes} x{n}" for pushes, n in sorted(spread.items())), file=out)
    print(write_pack(levels, command), file=out)


def _check_generate(args: argparse.Namespace, hardest: int) -> None:
    if not 1 <= args.count <= 500:
        raise BadInput("--count must be from 1 to 500")
    if not 1 <= args.min_pushes <= hardest <= 30:
        raise BadInput("pushes: 1 <= --min-pushes <= --hardest <= 30")
    if args.hearts is not None and not 1 <= args.hearts <= 8:
        raise BadInput("--hearts must be from 1 to 8")
    if args.bombs is not None and not 0 <= args.bombs <= 8:
        raise BadInput("--bombs must be from 0 to 8")
    if not 1_000 <= args.states <= 50_000_000:
        raise BadInput("--states must be from 1000 to 50000000")
    if not 1 <= args.jobs <= 64:
        raise BadInput("--jobs must be from 1 to 64")


def _generate_seeded(seed: str, target: Target) -> Generated:
    return generate(Rng(seed), target)


def cmd_convert(args: argparse.Namespace, out: TextIO) -> None:
    levels = load_levels(args.levels)
    if args.level is not None:
        if not 1 <= args.level <= len(levels):
            raise BadInput(f"--level must be from 1 to {len(levels)}")
        levels = [levels[args.level - 1]]
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
