"""Files read from outside (level files, save files): size-limited before they are read."""

from __future__ import annotations

from pathlib import Path

from gridgames.core.errors import BadInput

MAX_FILE = 1024 * 1024  # 1 MB: larger than any level pack or save file we write


def read_limited(path: str | Path, what: str = "file", limit: int = MAX_FILE) -> bytes:
    """The file's bytes; BadInput with a clear reason when it cannot be read or holds more
    than `limit` bytes. Reads at most limit + 1 bytes, so /dev/zero or a huge file costs
    nothing."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except IsADirectoryError:
        raise BadInput(f"{path} is a directory, not a {what}") from None
    except OSError as err:
        raise BadInput(f"cannot read {path}: {err.strerror or err}") from err
    if len(data) > limit:
        raise BadInput(f"{path} is larger than {limit // 1024} KB: not a {what}")
    return data
