"""Sets of small integers kept as the bits of a Python int (cells, tile kinds, placements)."""

from __future__ import annotations

from collections.abc import Iterator


def bits(mask: int) -> Iterator[int]:
    """The members of a bit set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
