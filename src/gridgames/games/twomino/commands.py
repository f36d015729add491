"""`gridgames twomino ...`: solve and grade puzzles, export to Simon Tatham's Dominosa."""

from __future__ import annotations

import argparse
from typing import TextIO

from gridgames.core.errors import BadInput
from gridgames.games.twomino.board import SYMBOLS, layout
from gridgames.games.twomino.dominosa import to_dominosa
from gridgames.games.twomino.solver import Puzzle, count_solutions, deduce
from gridgames.session import Session


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("twomino", help="2mino puzzles: solve, grade, export")
    commands = parser.add_subparsers(dest="twomino_command", metavar="COMMAND", required=True,
                                     parser_class=type(parser))
    p = commands.add_parser("solve", help="print the solution and the grade of a puzzle")
    p.add_argument("id", help="a 2mino game ID or a Dominosa ID (n:desc)")
    p.set_defaults(run=cmd_solve)
    p = commands.add_parser("export", help="print the Dominosa ID of a 2mino board")
    p.add_argument("id")
    p.set_defaults(run=cmd_export)


def _state(text: str):
    session = Session.from_id(text)
    if session.game.name != "twomino":
        raise BadInput(f"{text[:40]!r} is not a 2mino puzzle")
    return session.state


def cmd_solve(args: argparse.Namespace, out: TextIO) -> None:
    state = _state(args.id)
    puzzle = Puzzle.of(state.n, state.symbols, state.locked)
    count, first = count_solutions(puzzle, limit=2)
    if count == 0:
        print("no solution", file=out)
        return
    lay = layout(state.n)
    partner = {}
    for p in first:
        a, b = puzzle.cells_of(p)
        partner[a], partner[b] = b, a
    print(_drawing(state, partner, lay), file=out)
    if count > 1:
        print("not unique (this is one of several solutions)", file=out)
        return
    result = deduce(state.n, state.symbols, state.locked)
    grade = result.grade if result.solved else "beyond hard (needs techniques we lack)"
    print(f"unique; grade: {grade}", file=out)


def _drawing(state, partner: dict[int, int], lay) -> str:
    """Symbols with the dominoes drawn: `-` joins a horizontal pair, `|` a vertical one."""
    cols = lay.grid.cols
    lines = []
    for r in range(lay.grid.rows):
        row, under = "", ""
        for c in range(cols):
            cell = r * cols + c
            row += SYMBOLS[state.symbols[cell]]
            if c + 1 < cols:
                row += "-" if partner.get(cell) == cell + 1 else " "
            under += ("|" if partner.get(cell) == cell + cols else " ") + " "
        lines.append(row)
        if r + 1 < lay.grid.rows:
            lines.append(under.rstrip())
    return "\n".join(lines)


def cmd_export(args: argparse.Namespace, out: TextIO) -> None:
    state = _state(args.id)
    print(to_dominosa(state.n, state.symbols), file=out)
