"""The Trilobite opening book: exact scores, computed by our own solver, of the positions a
perfect player meets in the opening, so that its first moves need no search.

The book holds every child's score of each "book node" (a position of the opening tree of
a perfect side, with that side to move). A position and its mirror image share one key;
the keys are sorted and searched by bisection. Scores are the solver's (solver.py).
docs/machine-play.md ("The opening book's positions and build") says which
positions it holds.
"""

from __future__ import annotations

import json
import os
import threading
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gridgames.core.errors import BadInput
from gridgames.games.trilobite.bitboard import MAX_SCORE, Geometry, geometry

FORMAT = "gridgames-trilobite-book"
VERSION = 1
MAX_BOOK_BYTES = 256 * 1024 * 1024  # a book file larger than this is refused unread


def mirror(bits: int, g: Geometry) -> int:
    """The same bits with the columns in the opposite order."""
    column = (1 << g.h1) - 1
    out = 0
    for col in range(g.width):
        out |= ((bits >> (col * g.h1)) & column) << ((g.width - 1 - col) * g.h1)
    return out


def position_key(current: int, mask: int, g: Geometry) -> int:
    """One number for a position and its mirror image: the smaller of their keys
    (current + mask is unique to a position, Pons' encoding). The sum never carries from one
    column into the next (a column's stones are at most its height), so the mirror image's
    key is the key mirrored: one mirror instead of two."""
    key = current + mask
    return min(key, mirror(key, g))


def decode_key(key: int, g: Geometry) -> tuple[int, int, int]:
    """(current, mask, moves) of a key (one of the two mirror images)."""
    current = mask = 0
    whole = key + g.bottom  # each column: a 1 above its stones, then the mover's stones
    for col in range(g.width):
        bits = (whole >> (col * g.h1)) & ((1 << g.h1) - 1)
        height = bits.bit_length() - 1
        column_mask = ((1 << height) - 1) << (col * g.h1)
        mask |= column_mask
        current |= (bits << (col * g.h1)) & column_mask
    return current, mask, mask.bit_count()


def child_positions(current: int, mask: int, g: Geometry):
    """(column, child current, child mask, wins) for each column that is not full; `wins`
    when the move completes a line (the child is then not a position to look up)."""
    winning = g.winning_cells(current, mask)
    for col in range(g.width):
        if mask & g.tops[col]:
            continue
        move = (mask + g.bottoms[col]) & g.columns[col]
        yield col, current ^ mask, mask | move, bool(winning & move)


def column_values(score_of: Callable[[int, int], int | None], current: int, mask: int,
                  moves: int, g: Geometry) -> dict[int, int] | None:
    """Column -> score for the side to move, the children's scores read by `score_of`
    (current, mask); None when one of them is unknown."""
    values = {}
    for col, child, child_mask, wins in child_positions(current, mask, g):
        if wins:
            values[col] = win_score(moves, g)
        elif moves + 1 >= g.cells:
            values[col] = 0
        else:
            score = score_of(child, child_mask)
            if score is None:
                return None
            values[col] = -score
    return values


def win_score(moves: int, g: Geometry) -> int:
    """The score of the side to move when it wins with its next stone."""
    return (g.cells + 1 - moves) // 2


@dataclass
class Book:
    """Exact scores by position key, for one board shape. `depth`: how many plies of book
    nodes are complete (those with fewer stones than `depth`); `target`: the depth the
    builder was asked for (complete: depth == target + 1)."""

    width: int
    height: int
    line: int
    keys: np.ndarray  # uint64, sorted
    scores: np.ndarray  # int8
    depth: int = 0
    target: int = 0

    @property
    def g(self) -> Geometry:
        return geometry(self.width, self.height, self.line)

    def __len__(self) -> int:
        return len(self.keys)

    @classmethod
    def empty(cls, width: int, height: int, line: int, target: int = 0) -> Book:
        return cls(width, height, line, np.zeros(0, np.uint64), np.zeros(0, np.int8), 0, target)

    @classmethod
    def of_entries(cls, width: int, height: int, line: int, entries: dict[int, int],
                   depth: int, target: int) -> Book:
        keys = np.array(sorted(entries), dtype=np.uint64)
        scores = np.array([entries[int(k)] for k in keys], dtype=np.int8)
        return cls(width, height, line, keys, scores, depth, target)

    def entries(self) -> dict[int, int]:
        return dict(zip(self.keys.tolist(), self.scores.tolist(), strict=True))

    def score(self, current: int, mask: int) -> int | None:
        """The exact score of a position for the side to move, or None if not in the book."""
        if not len(self.keys):
            return None
        key = position_key(current, mask, self.g)
        at = int(np.searchsorted(self.keys, np.uint64(key)))
        if at < len(self.keys) and int(self.keys[at]) == key:
            return int(self.scores[at])
        return None

    def column_scores(self, current: int, mask: int, moves: int) -> list[int | None] | None:
        """Every column's score for the side to move (None where full), or None when one of
        them is not in the book."""
        values = column_values(self.score, current, mask, moves, self.g)
        if values is None:
            return None
        return [values.get(col) for col in range(self.width)]

    # --- the file ---

    def to_bytes(self) -> bytes:
        """The file: a JSON header line, then zlib of the key gaps and the scores."""
        gaps = np.diff(self.keys, prepend=np.uint64(0)).astype("<u8")
        body = zlib.compress(gaps.tobytes() + self.scores.astype(np.int8).tobytes(), 9)
        header = {"format": FORMAT, "version": VERSION, "width": self.width,
                  "height": self.height, "line": self.line, "entries": len(self.keys),
                  "depth": self.depth, "target": self.target}
        return json.dumps(header).encode() + b"\n" + body

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "the book") -> Book:
        """A book read back; BadInput (nothing loaded) when the file is not one."""
        head, _, body = data.partition(b"\n")
        try:
            header = json.loads(head.decode())
            if not isinstance(header, dict) or header.get("format") != FORMAT or \
                    header.get("version") != VERSION:
                raise ValueError("not a gridgames Trilobite book of this version")
            width, height, line = (int(header[k]) for k in ("width", "height", "line"))
            count, depth, target = (int(header[k]) for k in ("entries", "depth", "target"))
            geometry(width, height, line)
            if not (width * (height + 1) <= 64 and count >= 0 and 0 <= depth <= target + 1):
                raise ValueError("impossible header values")
            stream = zlib.decompressobj()
            raw = stream.decompress(body, 9 * count + 1)
            if not stream.eof or stream.unused_data:
                raise ValueError("the entries are cut short or followed by something else")
            if len(raw) != 9 * count:
                raise ValueError(f"{len(raw)} bytes of entries for {count} entries")
        except (ValueError, KeyError, TypeError, OverflowError, RecursionError, zlib.error) as err:
            raise BadInput(f"{where} is not a valid book: {err}") from None
        keys = np.cumsum(np.frombuffer(raw[:8 * count], dtype="<u8"), dtype=np.uint64)
        scores = np.frombuffer(raw[8 * count:], dtype=np.int8).copy()
        if count and (np.any(keys[1:] <= keys[:-1]) or np.abs(scores).max() > MAX_SCORE):
            raise BadInput(f"{where} is not a valid book: keys out of order or bad scores")
        return cls(width, height, line, keys, scores, depth, target)

    def save(self, path: Path) -> None:
        """Written whole to a file beside it, then renamed: an interrupted save leaves the
        previous book as it was."""
        spare = path.with_name(path.name + ".part")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            spare.write_bytes(self.to_bytes())
            os.replace(spare, path)
        except OSError as err:
            raise BadInput(f"cannot write the book {path}: {err.strerror or err}") from None

    @classmethod
    def load(cls, path: Path) -> Book:
        try:
            if path.exists() and not path.is_file():  # a directory, or /dev/zero: no end
                raise BadInput(f"{path} is not a book file")
            size = path.stat().st_size
            if size > MAX_BOOK_BYTES:
                raise BadInput(f"{path} is larger than {MAX_BOOK_BYTES // 2**20} MB")
            with path.open("rb") as file:
                data = file.read()
        except OSError as err:
            raise BadInput(f"cannot read {path}: {err.strerror}") from None
        return cls.from_bytes(data, str(path))


def book_name(width: int, height: int, line: int) -> str:
    return f"{width}x{height}-{line}.book"


PACKAGE_BOOKS = Path(__file__).resolve().parent / "books"


def user_books() -> Path:
    """Where `gridgames trilobite book build` puts a book by default, and where the game
    also looks: the user's data directory."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("gridgames")) / "books"


class BookShelf:
    """The books of the board shapes asked for, loaded once each (a user's own book, built
    with `book build`, before the one that ships with the package). A shape with no book
    gets an empty one. At most `shapes` books are kept."""

    def __init__(self, folders: list[Path] | None = None, shapes: int = 4) -> None:
        self.folders = folders if folders is not None else [user_books(), PACKAGE_BOOKS]
        self.shapes = shapes
        self._books: dict[tuple[int, int, int], Book] = {}
        self._lock = threading.Lock()

    def get(self, width: int, height: int, line: int) -> Book:
        key = (width, height, line)
        with self._lock:
            book = self._books.get(key)
            if book is None:
                book = self._find(width, height, line)
                if len(self._books) >= self.shapes:
                    self._books.pop(next(iter(self._books)))
                self._books[key] = book
            return book

    def _find(self, width: int, height: int, line: int) -> Book:
        for folder in self.folders:
            path = folder / book_name(width, height, line)
            if path.is_file():
                try:
                    book = Book.load(path)
                except BadInput:
                    continue  # a damaged user book must not stop the game: search instead
                if (book.width, book.height, book.line) == (width, height, line):
                    return book
        return Book.empty(width, height, line)


def describe(book: Book) -> str:
    """One line: shape, entries, depth and size."""
    size = len(book.to_bytes())
    done = (f"complete (book nodes of up to {book.target} stones)"
            if book.depth > book.target else
            f"partial: book nodes complete up to {book.depth - 1} stones of {book.target}")
    return (f"{book.width}x{book.height} line {book.line}: {len(book):,} positions, {done}, "
            f"{size:,} bytes")
