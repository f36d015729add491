"""PostgreSQL: several server processes, on one machine or many, over one database, through
psycopg 3 and its connection pool. Every transaction runs on a pooled connection; the rows'
versions keep concurrent writers from losing each other's changes (sql.py).

A connection is checked before each use (a server restarted leaves the pool's connections
dead), and a transaction waits at most the store's timeout for one: while the server is down
or refuses writes, every operation raises Unavailable at once or within the timeout (HTTP
503), and the pool reconnects by itself when the server comes back."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from gridgames.core.errors import BadInput
from gridgames.store.records import CHANGED_MEANWHILE, DISK_FULL, Conflict, Unavailable
from gridgames.store.sql import DEFAULT_TIMEOUT, Cursor, SqlStore

POOL_SIZE = 8  # connections of one server process, all opened at start (a burst
# of requests then finds them ready)
# LISTEN/NOTIFY: the ID of a game that changed, or the players with news in the lobby
# (web/live.py, LOBBY)
CHANNEL = "gridgames"
# libpq counts a connection's timeout in whole seconds, and takes 2 s at least.
MIN_CONNECT_SECONDS = 2


class PostgresStore(SqlStore):
    lock_rows = " FOR UPDATE"
    share_rows = " FOR KEY SHARE"
    placeholder = "%s"
    shared = True

    def __init__(self, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool

        super().__init__(timeout)
        self.url = url
        self._connect_seconds = max(MIN_CONNECT_SECONDS, round(timeout))
        try:  # one connection first: its error says why (the pool's only says it timed out)
            psycopg.connect(url, connect_timeout=5).close()
        except (psycopg.Error, OSError) as err:
            raise BadInput(f"cannot reach the PostgreSQL database {self.where}: "
                           f"{_first_line(err)}") from None
        try:
            self._pool = ConnectionPool(url, min_size=POOL_SIZE, max_size=POOL_SIZE, open=True,
                                        timeout=timeout, check=ConnectionPool.check_connection,
                                        kwargs={"connect_timeout": self._connect_seconds})
            self._pool.wait(timeout=10)
            self.migrate()
        except BadInput:  # a schema newer than ours: it says so itself
            self._pool.close()
            raise
        except (psycopg.Error, OSError, Exception) as err:
            if hasattr(self, "_pool"):
                self._pool.close()
            raise BadInput(f"cannot reach the PostgreSQL database {self.where}: "
                           f"{_first_line(err)}") from None

    @property
    def where(self) -> str:
        return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", self.url)  # no password

    @contextmanager
    def _transaction(self, timeout: float | None = None) -> Iterator[Cursor]:
        import psycopg

        try:
            with self._pool.connection(timeout) as conn, conn.transaction(), \
                    conn.cursor() as cur:
                yield cur
        except (psycopg.OperationalError, psycopg.InterfaceError) as err:
            raise self.failed(Unavailable(_reason(err))) from None
        except psycopg.errors.ReadOnlySqlTransaction:
            raise self.failed(Unavailable("the database is read-only")) from None
        except psycopg.IntegrityError:  # another transaction took the key, or removed a row
            raise Conflict(CHANGED_MEANWHILE) from None  # this one refers to, first

    def migrate(self) -> None:
        """Several processes may start at once: the first to take the lock migrates."""
        with self.transaction() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(7240511)")
            super().migrate()

    def notify(self, game_id: str) -> None:
        with self.transaction() as cur:
            cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, game_id))

    def listen(self, deliver: Callable[[str | None], None], stop: threading.Event) -> None:
        """PostgreSQL's own notification channel, on a connection of its own (reconnected
        when it drops)."""
        import psycopg

        while not stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True,
                                     connect_timeout=self._connect_seconds) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    deliver(None)  # news may have been missed while not listening
                    while not stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            deliver(note.payload)
            except psycopg.Error:
                stop.wait(0.5)

    def close(self) -> None:
        self._pool.close()


def _reason(err: BaseException) -> str:
    """What the operator and the player are told of a connection's failure."""
    from psycopg_pool import PoolTimeout

    if isinstance(err, PoolTimeout):
        return "the database cannot be reached"
    text = _first_line(err).lower()
    if "no space" in text or "disk full" in text:
        return DISK_FULL
    if "shutting down" in text or "terminat" in text or "closed" in text or \
            "connection" in text:
        return "the database cannot be reached"
    return f"the database fails ({_first_line(err)[:80]})"


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
