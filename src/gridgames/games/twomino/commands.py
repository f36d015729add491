"""`gridgames twomino ...`: solve, grade and generate puzzles, export to Simon Tatham's
Dominosa."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from gridgames.core.capabilities import Commands, Subcommands, command_group
from gridgames.core.errors import BadInput
from gridgames.core.ids import GameId
from gridgames.core.progress import progress
from gridgames.core.rng import Rng
from gridgames.games.twomino.dominosa import to_dominosa
from gridgames.games.twomino.layout import SYMBOLS, layout
from gridgames.games.twomino.solver import Puzzle, count_solutions, deduce


class TwoMinoCommands(Commands):
    def register(self, sub: Subcommands) -> None:
        commands = command_group(sub, "twomino", "2mino puzzles: solve, grade, generate, export")
        p = commands.add_parser("solve", help="print the solution and the grade of a puzzle")
        p.add_argument("id", help="a 2mino game ID or a Dominosa ID (n:desc)")
        p.set_defaults(run=cmd_solve)
        p = commands.add_parser("export", help="print the Dominosa ID of a 2mino board")
        p.add_argument("id")
        p.set_defaults(run=cmd_export)
        p = commands.add_parser("generate", help="print the game IDs of new puzzles")
        p.add_argument("--params", default="gen=unique",
                       help="n=..,gen=unique|seed,level=trivial|basic|hard|extreme")
        p.add_argument("--count", type=int, default=1, help="how many (default 1)")
        p.add_argument("--seed", default="twomino", help="puzzle i uses seed SEED-i")
        p.set_defaults(run=cmd_generate)


def _state(args: argparse.Namespace) -> Any:
    game, state = GameId.parse(args.id, args.registry).start_state(args.registry)
    if game.name != "twomino":
        raise BadInput(f"{args.id[:40]!r} is not a 2mino puzzle")
    return state


def cmd_solve(args: argparse.Namespace, out: TextIO) -> None:
    state = _state(args)
    puzzle = Puzzle.of(state.n, state.symbols, state.locked)
    count, first = count_solutions(puzzle, limit=2)
    if count == 0:
        print("no solution", file=out)
        return
    partner = {}
    for p in first:
        a, b = puzzle.cells_of(p)
        partner[a], partner[b] = b, a
    print(_drawing(state, partner), file=out)
    if count > 1:
        print("not unique (this is one of several solutions)", file=out)
        return
    result = deduce(state.n, state.symbols, state.locked)
    grade = result.grade if result.solved else "beyond extreme (needs techniques we lack)"
    print(f"unique; grade: {grade}", file=out)


def _drawing(state: Any, partner: dict[int, int]) -> str:
    """Symbols with the dominoes drawn: `-` joins a horizontal pair, `|` a vertical one."""
    grid = layout(state.n).grid
    lines = []
    for r in range(grid.rows):
        row, under = "", ""
        for c in range(grid.cols):
            cell = r * grid.cols + c
            row += SYMBOLS[state.symbols[cell]]
            if c + 1 < grid.cols:
                row += "-" if partner.get(cell) == cell + 1 else " "
            under += ("|" if partner.get(cell) == cell + grid.cols else " ") + " "
        lines.append(row)
        if r + 1 < grid.rows:
            lines.append(under.rstrip())
    return "\n".join(lines)


def cmd_export(args: argparse.Namespace, out: TextIO) -> None:
    state = _state(args)
    print(to_dominosa(state.n, state.symbols), file=out)


def cmd_generate(args: argparse.Namespace, out: TextIO) -> None:
    if not 1 <= args.count <= 10_000:
        raise BadInput("--count must be from 1 to 10000")
    game = args.registry.get_game("twomino")
    params = game.parse_params(args.params)
    for index in progress(range(args.count), args.count, "puzzles"):
        desc = game.new_desc(params, Rng(f"{args.seed}-{index}"))
        print(GameId(game.name, params.format(), desc=desc).format(), file=out, flush=True)
