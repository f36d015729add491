"""Building the opening book (book.py) with our own solver: deterministic, resumable, on
every core.

The build walks the two opening trees (one per colour) ply by ply, solving the children the
book is missing, the lines strong players meet first. A partial book is valid and is
continued by the next build; the content does not depend on the order of the work or the
number of processes. docs/machine-play.md ("The opening book's positions and build")
describes the walk.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridgames.core.errors import BadInput
from gridgames.core.progress import progress
from gridgames.core.words import count as count_words
from gridgames.games.trilobite.bitboard import Geometry, geometry
from gridgames.games.trilobite.book import Book, child_positions, column_values, position_key

Position = tuple[int, int, int]  # current, mask, moves
# A position of a tree, with how many of the other side's moves on the way were off its best
# (or not known to be best): 0 on the lines two perfect players play.
Node = tuple[Position, int]


def children_values(book_entries: dict[int, int], node: Position,
                    g: Geometry) -> dict[int, int] | None:
    """Column -> score for the side to move at `node`, or None if a child is missing."""
    return column_values(lambda current, mask: book_entries.get(position_key(current, mask, g)),
                         *node, g)


def _follow(nodes: dict[int, Node], g: Geometry,
            strays: Callable[[Position], dict[int, int]]) -> dict[int, Node]:
    """The next ply: the children (not ended by the move) of each node in the columns
    `strays` gives (column -> 1 when the move is off the mover's best, else 0), one per
    mirror pair, each with the fewest moves off the best that reach it."""
    out: dict[int, Node] = {}
    for key in sorted(nodes):
        node, strayed = nodes[key]
        current, mask, moves = node
        columns = strays(node)
        for col, child, child_mask, wins in child_positions(current, mask, g):
            if col in columns and not wins and moves + 1 < g.cells:
                child_key = position_key(child, child_mask, g)
                count = strayed + columns[col]
                if child_key not in out or count < out[child_key][1]:
                    out[child_key] = ((child, child_mask, moves + 1), count)
    return out


def next_work(book_entries: dict[int, int], g: Geometry, depth: int
              ) -> tuple[int, int, list[list[Position]]] | None:
    """(ply, strays, families): the children to solve next, on the lines with the fewest
    moves off the best (`strays`) that still miss some; None when the book is complete."""
    for strays in range(depth + 2):  # depth + 1 strays: every line
        ply, families, _ = walk(book_entries, g, depth, strays)
        if families:
            return ply, strays, families
    return None


def lines_done(book: Book) -> str:
    """Which lines are complete to the book's target depth, in words ('' when not even the
    lines of two perfect players are)."""
    entries, g = book.entries(), book.g
    done = None
    for strays in range(book.target + 2):
        if walk(entries, g, book.target, strays)[1]:
            break
        done = strays
    if done is None or done > book.target:
        return ""
    which = "the lines of two perfect players" if done == 0 else \
        f"the lines with at most {count_words(done, 'move')} off the best"
    return f"{which} are complete to book nodes of {book.target} stones"


def walk(book_entries: dict[int, int], g: Geometry, depth: int, strays: int | None = None
         ) -> tuple[int, list[list[Position]], int]:
    """(plies complete, the children to solve next, book nodes seen), on the lines with at
    most `strays` moves off the best (None: all). The children come in families, one per
    book node (a child two nodes share is in the first one's): siblings share most of their
    subtrees, so one process solving a family in a row with one table does a third of the
    work of solving them apart (measured on the 7 children of 4435: 11 s against 32 s).
    Plies complete is depth + 1 when nothing is missing."""
    root: dict[int, Node] = {0: ((0, 0, 0), 0)}
    trees = [dict(root), dict(root)]  # colour 0's tree, colour 1's
    seen = 0
    for ply in range(depth + 1):
        perfect = ply % 2  # the colour to move at this ply
        families: list[list[Position]] = []
        claimed: set[int] = set()
        # The lines strong players meet first: a partial ply is worth most there.
        for key in sorted(trees[perfect], key=lambda k: (trees[perfect][k][1], k)):
            (current, mask, moves), _ = trees[perfect][key]
            seen += 1
            family = []
            for _, child, child_mask, wins in child_positions(current, mask, g):
                child_key = position_key(child, child_mask, g)
                if not wins and moves + 1 < g.cells and child_key not in book_entries \
                        and child_key not in claimed:
                    claimed.add(child_key)
                    family.append((child, child_mask, moves + 1))
            if family:
                families.append(family)
        if families:
            return ply, families, seen

        def best(node: Position) -> set[int]:
            values = children_values(book_entries, node, g) or {}
            top = max(values.values(), default=None)
            return {col for col, v in values.items() if v == top}

        def off_best(node: Position) -> dict[int, int]:
            top = best(node)
            return {col: int(col not in top) for col in range(g.width)}

        trees[perfect] = _follow(trees[perfect], g, lambda node: dict.fromkeys(best(node), 0))
        other = 1 - perfect
        trees[other] = _follow(trees[other], g, off_best)
        if strays is not None:
            trees[other] = {key: node for key, node in trees[other].items()
                            if node[1] <= strays}
    return depth + 1, [], seen


def _interrupt(*_) -> None:
    raise KeyboardInterrupt


def _worker(shape: tuple[int, int, int], memory_mb: float, tasks, answers) -> None:
    """A build process: solves families of positions from `tasks`, one after the other with
    one table, until it gets None, or its parent is gone (killed outright: the queue holds
    a whole ply's work nobody would read)."""
    from gridgames.games.trilobite.analyzer import make_solver

    parent = os.getppid()
    try:
        solver = make_solver(*shape, memory_mb=memory_mb)
    except BadInput:  # no memory for the table: the parent sees this process end, says why
        return
    while os.getppid() == parent and (family := tasks.get()) is not None:
        for position in family:
            answers.put((position, solver.solve(*position)))


class Builder:
    """Builds or extends the book at `path` to `depth` with `workers` processes, each with a
    table of `memory_mb`. `say` gets one line per event."""

    def __init__(self, width: int, height: int, line: int, depth: int, path: Path,
                 workers: int, memory_mb: float, save_seconds: float = 60.0,
                 say: Callable[[str], None] = print) -> None:
        self.g = geometry(width, height, line)
        self.shape = (width, height, line)
        self.depth, self.path, self.workers = depth, path, workers
        self.memory_mb, self.save_seconds, self.say = memory_mb, save_seconds, say
        self.entries: dict[int, int] = {}
        if path.exists():
            book = Book.load(path)
            if (book.width, book.height, book.line) != self.shape:
                raise BadInput(f"{path} is a book for {book.width}x{book.height} line "
                               f"{book.line}, not {width}x{height} line {line}")
            self.entries = book.entries()
            say(f"resuming: {len(self.entries):,} positions in {path}")

    def book(self) -> Book:
        done, _, _ = walk(self.entries, self.g, self.depth)
        return Book.of_entries(*self.shape, self.entries, done, self.depth)

    def save(self) -> Book:
        book = self.book()
        book.save(self.path)
        return book

    def run(self) -> Book:
        """Until the book is complete to `depth`; an interruption (Ctrl+C, or `kill`'s
        SIGTERM) saves first and stops the worker processes."""
        if threading.current_thread() is not threading.main_thread():
            return self._run()
        # SIGTERM's default ends this process at once and leaves the workers solving on.
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            return self._run()
        finally:
            signal.signal(signal.SIGTERM, previous)

    def _run(self) -> Book:
        ctx = multiprocessing.get_context("spawn")
        tasks, answers = ctx.Queue(), ctx.Queue()
        procs = [ctx.Process(target=_worker, args=(self.shape, self.memory_mb, tasks, answers),
                             daemon=True) for _ in range(self.workers)]
        for proc in procs:
            proc.start()
        try:
            while (work := next_work(self.entries, self.g, self.depth)) is not None:
                ply, strays, families = work
                count = sum(len(family) for family in families)
                lines = ("every line" if strays > self.depth else
                         "the lines of two perfect players" if strays == 0 else
                         f"lines with at most {count_words(strays, 'move')} off the best")
                self.say(f"ply {ply} ({lines}): {count:,} positions to solve")
                self._solve_all(families, tasks, answers, ply, procs)
                self.save()
        except KeyboardInterrupt:
            book = self.save()
            self.say(f"interrupted: {len(book):,} positions saved in {self.path}; run the "
                     "same command again to go on")
            raise
        finally:
            for proc in procs:
                proc.kill()
            # The rest of the ply's work may still be queued, more than the pipe holds: at
            # exit the queue would wait for ever for a reader. Nobody needs it (the book is
            # saved).
            tasks.cancel_join_thread()
        return self.save()

    def _solve_all(self, families: list[list[Position]], tasks, answers, ply: int,
                   procs: list) -> None:
        for family in families:
            tasks.put(family)
        total = sum(len(family) for family in families)
        last_save = time.monotonic()
        for _ in progress(range(total), total, f"ply {ply}"):
            (current, mask, _), score = _answer(answers, procs)
            self.entries[position_key(current, mask, self.g)] = score
            if time.monotonic() - last_save > self.save_seconds:
                self.save()
                last_save = time.monotonic()


def _answer(answers, procs: list) -> Any:
    """The next answer; BadInput when a build process has ended without giving it (no
    memory for its table, or killed), where waiting would last for ever."""
    while True:
        try:
            return answers.get(timeout=1.0)
        except queue.Empty:
            if not all(proc.is_alive() for proc in procs):
                raise BadInput("a build process ended early (not enough memory for its "
                               "table? try a smaller --memory)") from None


def verify(book: Book, sample: int, seed: str, memory_mb: float = 256.0,
           say: Callable[[str], None] = print) -> int:
    """Re-solves `sample` entries drawn by `seed` with a fresh table each; the number that
    differ from the book."""
    from gridgames.core.rng import Rng
    from gridgames.games.trilobite.analyzer import make_solver
    from gridgames.games.trilobite.book import decode_key

    solver = make_solver(book.width, book.height, book.line, memory_mb=memory_mb)
    rng = Rng(seed)
    picks = sorted({rng.below(len(book)) for _ in range(min(sample, len(book)))})
    wrong = 0
    for at in progress(picks, len(picks), "verify"):
        current, mask, moves = decode_key(int(book.keys[at]), book.g)
        solver.reset()
        score = solver.solve(current, mask, moves)
        if score != int(book.scores[at]):
            wrong += 1
            say(f"position {int(book.keys[at])}: book {int(book.scores[at])}, solver {score}")
    return wrong
