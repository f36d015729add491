"""Text from outside that is kept: a seed, params, a move, a name. Python strings can hold
what no database and no UTF-8 file can (a lone surrogate, which arrives through JSON's
`\\ud800` escapes or undecodable command-line bytes; a NUL character, which PostgreSQL's text
columns refuse), so such text is refused where it comes in, with the name of the field."""

from __future__ import annotations

from typing import Any

from gridgames.core.errors import BadInput


def check_text(value: Any, what: str) -> str:
    """`value` unchanged, or BadInput naming `what` when a store could not keep it (or it is
    not a string at all)."""
    if not isinstance(value, str):
        raise BadInput(f"{what} must be a string")
    if "\x00" in value:
        raise BadInput(f"{what} contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput(f"{what} is not valid text (a lone surrogate or undecodable bytes)"
                       ) from None
    return value
