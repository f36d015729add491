"""PostgreSQL: several server processes, on one machine or many, over one database, through
psycopg 3 and its connection pool. Every transaction runs on a pooled connection; the rows'
versions keep concurrent writers from losing each other's changes (sql.py)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from gridgames.core.errors import BadInput
from gridgames.store.sql import Cursor, SqlStore

POOL_SIZE = 8  # connections of one server process, all opened at start (a burst
# of requests then finds them ready)
CHANNEL = "gridgames"  # LISTEN/NOTIFY: the ID of a game that changed


class PostgresStore(SqlStore):
    placeholder = "%s"
    shared = True

    def __init__(self, url: str) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool

        self.url = url
        try:  # one connection first: its error says why (the pool's only says it timed out)
            psycopg.connect(url, connect_timeout=5).close()
        except (psycopg.Error, OSError) as err:
            raise BadInput(f"cannot reach the PostgreSQL database {self.where}: "
                           f"{_first_line(err)}") from None
        try:
            self._pool = ConnectionPool(url, min_size=POOL_SIZE, max_size=POOL_SIZE, open=True,
                                        timeout=10, kwargs={"connect_timeout": 5})
            self._pool.wait(timeout=10)
            self.migrate()
        except (psycopg.Error, OSError, Exception) as err:
            if hasattr(self, "_pool"):
                self._pool.close()
            raise BadInput(f"cannot reach the PostgreSQL database {self.where}: "
                           f"{_first_line(err)}") from None

    @property
    def where(self) -> str:
        return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", self.url)  # no password

    @contextmanager
    def transaction(self) -> Iterator[Cursor]:
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            yield cur

    def migrate(self) -> None:
        """Several processes may start at once: the first to take the lock migrates."""
        with self.transaction() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(7240511)")
            super().migrate()

    def notify(self, game_id: str) -> None:
        with self.transaction() as cur:
            cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, game_id))

    def listen(self, deliver: Callable[[str], None], stop: threading.Event) -> None:
        """PostgreSQL's own notification channel, on a connection of its own (reconnected
        when it drops)."""
        import psycopg

        while not stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            deliver(note.payload)
            except psycopg.Error:
                stop.wait(1.0)

    def close(self) -> None:
        self._pool.close()


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
