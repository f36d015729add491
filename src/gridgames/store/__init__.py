"""Where games are kept: a database, the truth for every game a server has acknowledged.

SQLite (a file in the user's data directory) by default, PostgreSQL for several processes or
machines. `open_store(url)` takes a path, `sqlite:///path` or `postgresql://...`.
"""

from __future__ import annotations

import os
from pathlib import Path

from gridgames.core.errors import BadInput
from gridgames.store.records import (
    SPECTATOR,
    Conflict,
    GameRecord,
    Link,
    NotFound,
    Unavailable,
)
from gridgames.store.sql import DEFAULT_TIMEOUT, SqlStore

__all__ = ["SPECTATOR", "Conflict", "GameRecord", "Link", "NotFound", "SqlStore", "Unavailable",
           "default_db", "open_store"]

ENV = "GRIDGAMES_DB"


def default_db() -> str:
    """GRIDGAMES_DB, or games.db in the user's data directory (platform-appropriate)."""
    if os.environ.get(ENV):
        return os.environ[ENV]
    from platformdirs import user_data_dir

    return str(Path(user_data_dir("gridgames", appauthor=False)) / "games.db")


def open_store(url: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> SqlStore:
    """The store at url (default: default_db()); BadInput in one line, saying which database
    and why, when it cannot be opened or reached. `timeout`: seconds an operation waits for a
    connection or the write lock before it gives up (Unavailable)."""
    url = url or default_db()
    if url.startswith(("postgresql://", "postgres://")):
        from gridgames.store.postgres import PostgresStore

        return PostgresStore(url, timeout)
    from gridgames.store.sqlite import SQLiteStore

    path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else url
    if "://" in path:
        raise BadInput(f"--db: {url[:80]!r} is neither a file path, sqlite:///PATH nor "
                       "postgresql://...")
    return SQLiteStore(path, timeout)
