"""Progress bars for long commands: on standard error, and only when it is a terminal (a
script or a pipe reading our output sees nothing extra)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], total: int | None = None, what: str = "") -> Iterator[T]:
    """`items` with a bar (count, rate, time left) while they are consumed."""
    if not sys.stderr.isatty():
        yield from items
        return
    from tqdm import tqdm

    yield from tqdm(items, total=total, desc=what or None, unit="", file=sys.stderr,
                    leave=False, dynamic_ncols=True)
