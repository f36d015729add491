"""`gridgames trilobite solve`: exact scores of positions read one per line."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from gridgames.core.capabilities import Commands, Subcommands, command_group
from gridgames.core.errors import BadInput
from gridgames.core.progress import progress
from gridgames.core.words import count
from gridgames.games.trilobite.analyzer import analyze, make_solver
from gridgames.games.trilobite.game import TrilobiteParams
from gridgames.games.trilobite.solver import parse_moves

if TYPE_CHECKING:
    from gridgames.games.trilobite.book import Book

MAX_INPUT = 64 * 1024 * 1024  # characters of positions read from standard input


class TrilobiteCommands(Commands):
    def register(self, sub: Subcommands) -> None:
        commands = command_group(sub, "trilobite", "Trilobite: the exact solver")
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

        steps = command_group(commands, "book", "the opening book: build, verify, info", "STEP")
        b = steps.add_parser("build", help="build or extend a book with our solver (resumes "
                             "where an earlier build stopped)")
        b.add_argument("--params", default="", help="board: width=7,height=6,line=4 (defaults)")
        b.add_argument("--depth", type=int, required=True,
                       help="book nodes up to this many stones")
        b.add_argument("--out", default=None, help="the book file (default: the user's data "
                       "directory, where the game looks for it)")
        b.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                       help="processes (default: every core)")
        b.add_argument("--memory", type=float, default=1024.0,
                       help="table size in MB per process (default 1024)")
        b.set_defaults(run=cmd_book_build)
        v = steps.add_parser("verify", help="re-solve a random sample of a book's entries")
        v.add_argument("--params", default="", help="board: width=7,height=6,line=4 (defaults)")
        v.add_argument("--book", default=None, help="the book file (default: the one the game "
                       "uses for this board)")
        v.add_argument("--sample", type=int, default=20, help="entries to re-solve (default 20)")
        v.add_argument("--seed", default="verify", help="which entries (default 'verify')")
        v.set_defaults(run=cmd_book_verify)
        i = steps.add_parser("info", help="what a book holds")
        i.add_argument("--params", default="", help="board: width=7,height=6,line=4 (defaults)")
        i.add_argument("--book", default=None, help="the book file (default: the one the game "
                       "uses for this board)")
        i.set_defaults(run=cmd_book_info)


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
        raise BadInput(f"{count(bad, 'line')} {'was' if bad == 1 else 'were'} not positions "
                       "of this board (see above)")


def cmd_book_build(args: argparse.Namespace, out: TextIO) -> None:
    from gridgames.games.trilobite.book import book_name, describe, user_books
    from gridgames.games.trilobite.bookbuild import Builder

    params = TrilobiteParams.parse(args.params)
    if not 0 <= args.depth <= params.width * params.height - 1:
        raise BadInput("--depth must be from 0 to the number of cells less one")
    if not 1 <= args.workers <= 256:
        raise BadInput("--workers must be from 1 to 256")
    if not 1 <= args.memory <= 16384:
        raise BadInput("--memory must be from 1 to 16384 MB")
    path = Path(args.out) if args.out else \
        user_books() / book_name(params.width, params.height, params.line)
    _check_writable(path)
    builder = Builder(params.width, params.height, params.line, args.depth, path,
                      args.workers, args.memory,
                      say=lambda text: print(text, file=sys.stderr, flush=True))
    try:
        book = builder.run()
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    print(f"{path}: {describe(book)}", file=out)


def _check_writable(path: Path) -> None:
    """A book that cannot be written is refused now, not after the first ply's work."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path.parent).close()
    except OSError as err:
        raise BadInput(f"cannot write the book {path}: {err.strerror or err}") from None


def _the_book(args: argparse.Namespace) -> Book:
    from gridgames.games.trilobite.book import Book, BookShelf

    params = TrilobiteParams.parse(args.params)
    if args.book:
        return Book.load(Path(args.book))
    book = BookShelf().get(params.width, params.height, params.line)
    if not len(book):
        raise BadInput(f"no book for {params.width}x{params.height} line {params.line}")
    return book


def cmd_book_verify(args: argparse.Namespace, out: TextIO) -> None:
    from gridgames.games.trilobite.bookbuild import verify

    if not 1 <= args.sample <= 1_000_000:
        raise BadInput("--sample must be from 1 to 1000000")
    book = _the_book(args)
    wrong = verify(book, args.sample, args.seed,
                   say=lambda text: print(text, file=sys.stderr, flush=True))
    checked = min(args.sample, len(book))
    print(f"{checked - wrong} of {checked} sampled entries agree with the solver", file=out)
    if wrong:
        raise BadInput(f"{wrong} entries of the book differ from the solver")


def cmd_book_info(args: argparse.Namespace, out: TextIO) -> None:
    from gridgames.games.trilobite.book import describe
    from gridgames.games.trilobite.bookbuild import lines_done

    book = _the_book(args)
    lines = lines_done(book) if book.depth <= book.target else ""
    print(describe(book) + (f"; {lines}" if lines else ""), file=out)
