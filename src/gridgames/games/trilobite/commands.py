"""`gridgames trilobite solve`: exact scores of positions read one per line."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from gridgames.core.capabilities import Commands
from gridgames.core.errors import BadInput
from gridgames.core.progress import progress
from gridgames.games.trilobite.game import TrilobiteParams
from gridgames.games.trilobite.solver import analyze, make_solver, parse_moves

MAX_INPUT = 64 * 1024 * 1024  # characters of positions read from standard input


class TrilobiteCommands(Commands):
    def register(self, sub: argparse._SubParsersAction) -> None:
        parser = sub.add_parser("trilobite", help="Trilobite: the exact solver")
        commands = parser.add_subparsers(dest="trilobite_command", metavar="COMMAND",
                                         required=True, parser_class=type(parser))
        p = commands.add_parser(
            "solve", help="read positions (move strings like 4453, one per line) on standard "
            "input; print 'position score' (positive: the side to move wins, larger sooner)")
        p.add_argument("--params", default="", help="board: width=7,height=6,line=4 (defaults)")
        p.add_argument("--weak", action="store_true", help="only win (1) / draw (0) / loss (-1)")
        p.add_argument("--analyze", action="store_true", help="print the score of every column")
        p.add_argument("--memory", type=float, default=64.0, help="table size in MB (default 64)")
        p.add_argument("--engine", default="auto", help="auto (compiled when possible), fast, "
                       "python")
        p.set_defaults(run=cmd_solve)


def cmd_solve(args: argparse.Namespace, out: TextIO) -> None:
    """Every good line is scored; each bad one is reported on stderr as `line N: reason`, and
    the command fails at the end when there was one."""
    params = TrilobiteParams.parse(args.params)
    if not 0.01 <= args.memory <= 16384:
        raise BadInput("--memory must be from 0.01 to 16384 MB")
    solver = make_solver(params.width, params.height, params.line, args.memory, args.engine)
    text = sys.stdin.read(MAX_INPUT + 1)
    if len(text) > MAX_INPUT:
        raise BadInput(f"standard input is larger than {MAX_INPUT} characters")
    lines = text.splitlines()
    bad = 0
    for number, raw in enumerate(progress(lines, len(lines), "positions"), 1):
        words = raw.split()
        if not words:
            continue
        position = words[0]  # anything after it (a benchmark set's score) is ignored
        try:
            current, mask, moves = parse_moves(solver.g, position)
        except BadInput as err:
            print(f"line {number}: {position[:40]!r}: {err}", file=sys.stderr)
            bad += 1
            continue
        if args.analyze:
            scores = analyze(solver, current, mask, moves, args.weak)
            shown = " ".join("-" if s is None else str(s) for s in scores)
            print(f"{position} {shown}", file=out, flush=True)
        else:
            print(f"{position} {solver.solve(current, mask, moves, args.weak)}", file=out,
                  flush=True)
    if bad:
        raise BadInput(f"{bad} line(s) were not positions of this board (see above)")
