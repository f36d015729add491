"""The store's SQL, written once for SQLite and PostgreSQL (the backends differ only in how
they connect, open a transaction and mark parameters).

A game is a row of `games` and its moves are rows of `moves` (one per ply), so a move writes
one row and deletes the redo tail, whatever the length of the game. Every change is written
only over the version it was computed from: `UPDATE ... WHERE version = ?` touches no row
when another process wrote first, and the caller reads the game again (Conflict).

A database that cannot be used raises Unavailable (records.py) from any operation; the store
keeps the count of each reason and the time each transaction took (`stats`), and answers the
readiness probe (`check`) with a read and a write that changes nothing.
"""

from __future__ import annotations

import json
import os
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from gridgames.core.errors import BadInput
from gridgames.core.stats import Counts, Histograms
from gridgames.store.lobby import LobbyStore
from gridgames.store.records import (
    DISK_FULL,
    Conflict,
    GameRecord,
    Link,
    NotFound,
    Unavailable,
)
from gridgames.store.schema import LATEST, MIGRATIONS

Cursor = Any  # a DB-API cursor
DEFAULT_TIMEOUT = 1.0  # seconds a connection, a pool or a write lock is waited for
CHECK_EVERY = 1.0  # seconds a readiness answer is kept (a probe flood writes nothing more)
CHECK_TIMEOUT = 0.5  # seconds the probe waits for a connection or the lock (it answers in 1)
# The probe writes this much: a write of a few bytes can fit in the space a failed write left
# in SQLite's WAL on a full disk, while every move that needs a new page is refused.
CHECK_BYTES = 64 * 1024
# A write refused for a full disk this recently keeps the store unready even when the probe's
# write fits (a nearly full disk takes some writes and not others); a write that succeeds
# clears it. Other refusals (the server gone, read-only) are the probe's to judge.
RECENT_FAILURE = 10.0


class StoreStats:
    """How the database answers: each transaction's time by kind (read, write), and the
    failures by reason."""

    def __init__(self) -> None:
        self.seconds = Histograms()
        self.failures = Counts()


class SqlStore(LobbyStore, ABC):
    placeholder = "?"
    shared = False  # whether several server processes may use this store at once
    url: str

    def __init__(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.timeout = timeout
        self.stats = StoreStats()
        self._corrupt: Unavailable | None = None  # corruption does not heal: kept
        self._write_failed: tuple[float, Unavailable] | None = None
        self._checked: tuple[float, Unavailable | None] = (float("-inf"), None)
        self._check_lock = threading.Lock()

    @abstractmethod
    def _transaction(self, timeout: float | None = None) -> AbstractContextManager[Cursor]:
        """The backend's writing transaction (see `transaction`); `timeout` instead of the
        store's own."""

    def _reading(self) -> AbstractContextManager[Cursor]:
        """The backend's reading transaction (see `reading`); a backend may run these beside
        the writer."""
        return self._transaction()

    @contextmanager
    def transaction(self, timeout: float | None = None) -> Iterator[Cursor]:
        """A cursor inside one writing transaction: committed when the block ends, rolled
        back when it raises. Unavailable when the database cannot take it (within `timeout`,
        by default the store's)."""
        started = time.perf_counter()
        try:
            with self._transaction(timeout) as cur:
                yield cur
            self._write_failed = None
        except Unavailable as err:
            if err.reason == DISK_FULL:
                self._write_failed = (time.monotonic(), err)
            raise
        finally:
            self.stats.seconds.observe(("write",), time.perf_counter() - started)

    @contextmanager
    def reading(self) -> Iterator[Cursor]:
        """A cursor inside one transaction that only reads."""
        started = time.perf_counter()
        try:
            with self._reading() as cur:
                yield cur
        finally:
            self.stats.seconds.observe(("read",), time.perf_counter() - started)

    def failed(self, err: Exception) -> Exception:
        """A backend's error on its way out: Unavailable is counted by reason (and a corrupt
        file remembered); the error is returned for the backend to raise."""
        if isinstance(err, Unavailable):
            self.stats.failures.add((err.reason,))
            if "corrupt" in err.reason:
                self._corrupt = err
        return err

    def check(self) -> None:
        """For the readiness probe: raises Unavailable with the reason when the database
        cannot be read and written now (a write refused for a full disk in the last
        RECENT_FAILURE seconds, or the probe's own write of CHECK_BYTES, at most once a
        CHECK_EVERY; a file found corrupt stays unready)."""
        with self._check_lock:
            at, found = self._checked
            if time.monotonic() - at >= CHECK_EVERY:
                failed = self._write_failed
                try:
                    if self._corrupt is not None:
                        raise self._corrupt
                    if failed is not None and time.monotonic() - failed[0] < RECENT_FAILURE:
                        raise failed[1]
                    with self.transaction(min(self.timeout, CHECK_TIMEOUT)) as cur:
                        self._run(cur, "DELETE FROM health")
                        self._run(cur, "INSERT INTO health (id, filler) VALUES (1, ?)",
                                  (os.urandom(CHECK_BYTES),))  # random: not compressed
                    found = None
                except Unavailable as err:
                    found = err
                self._checked = (time.monotonic(), found)
        if found is not None:
            raise found

    @abstractmethod
    def close(self) -> None: ...

    @property
    def where(self) -> str:
        """Where the games are kept, for the server's start line (no password)."""
        return self.url

    def _sql(self, text: str) -> str:
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def _run(self, cur: Cursor, text: str, args: tuple = ()) -> Cursor:
        cur.execute(self._sql(text), args)
        return cur

    # --- schema ---

    def migrate(self) -> None:
        """Create the schema, or bring it up to date (each step in its own transaction)."""
        with self.transaction() as cur:
            self._run(cur, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER "
                      "NOT NULL)")
            row = self._run(cur, "SELECT version FROM schema_version").fetchone()
            if row is None:
                self._run(cur, "INSERT INTO schema_version VALUES (0)")
        while (at := self.schema_version()) < LATEST:
            with self.transaction() as cur:
                for statement in MIGRATIONS[at]:
                    self._run(cur, statement)
                self._run(cur, "UPDATE schema_version SET version = ?", (at + 1,))
        if self.schema_version() > LATEST:
            raise BadInput(f"the database's schema is version {self.schema_version()}, newer "
                           f"than this program's {LATEST}: run the gridgames that wrote it, or "
                           "a newer one")

    def schema_version(self) -> int:
        with self.transaction() as cur:
            return int(self._run(cur, "SELECT version FROM schema_version").fetchone()[0])

    # --- games ---

    def create(self, record: GameRecord) -> GameRecord:
        now = time.time()
        record.version, record.created_at, record.updated_at = 1, now, now
        with self.transaction() as cur:
            self._run(cur, "INSERT INTO games (id, game, params, start_desc, seed, cursor, "
                      "move_count, seats, extra, version, created_at, updated_at) VALUES "
                      "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      (record.id, record.game, record.params, record.desc, record.seed,
                       record.cursor, len(record.moves), json.dumps(record.seats),
                       json.dumps(record.extra), record.version, now, now))
            self._insert_moves(cur, record.id, record.moves, 0)
        return record

    def load(self, game_id: str) -> GameRecord:
        with self.reading() as cur:
            row = self._run(cur, "SELECT game, params, start_desc, seed, cursor, seats, "
                            "extra, version, created_at, updated_at FROM games WHERE id = ?",
                            (game_id,)).fetchone()
            if row is None:
                raise _missing(game_id)
            moves = [m for (m,) in self._run(cur, "SELECT move FROM moves WHERE game_id = ? "
                                             "ORDER BY ply", (game_id,)).fetchall()]
        game, params, desc, seed, cursor, seats, extra, version, created, updated = row
        return GameRecord(game_id, game, params, desc, seed, moves, cursor, json.loads(seats),
                          json.loads(extra), version, created, updated)

    def version(self, game_id: str) -> int:
        with self.reading() as cur:
            row = self._run(cur, "SELECT version FROM games WHERE id = ?",
                            (game_id,)).fetchone()
        if row is None:
            raise _missing(game_id)
        return int(row[0])

    def update(self, record: GameRecord, first_changed: int, stored_moves: int | None = None
               ) -> int:
        """Write record over the version it was read at; the moves from ply first_changed on
        are replaced (stored_moves, when known, is how many the database holds: a move added
        at the end then deletes nothing). Returns the new version; Conflict when another
        write came first."""
        now = time.time()
        with self.transaction() as cur:
            written = self._run(cur, "UPDATE games SET cursor = ?, move_count = ?, seats = ?, "
                                "extra = ?, version = version + 1, updated_at = ? "
                                "WHERE id = ? AND version = ?",
                                (record.cursor, len(record.moves), json.dumps(record.seats),
                                 json.dumps(record.extra), now, record.id,
                                 record.version)).rowcount
            if written != 1:
                if self._run(cur, "SELECT version FROM games WHERE id = ?",
                             (record.id,)).fetchone() is None:
                    raise _missing(record.id)
                raise Conflict("the game was changed meanwhile by another request: it has "
                               "been read again, try once more")
            if stored_moves is None or first_changed < stored_moves:
                self._run(cur, "DELETE FROM moves WHERE game_id = ? AND ply >= ?",
                          (record.id, first_changed))
            self._insert_moves(cur, record.id, record.moves[first_changed:], first_changed)
        record.version += 1
        record.updated_at = now
        return record.version

    def _insert_moves(self, cur: Cursor, game_id: str, moves: list[str], first: int) -> None:
        if moves:
            cur.executemany(self._sql("INSERT INTO moves (game_id, ply, move) VALUES (?, ?, ?)"),
                            [(game_id, ply, move) for ply, move in enumerate(moves, first)])

    def delete_idle(self, idle_seconds: float) -> int:
        """Remove games nobody has changed for idle_seconds; how many went."""
        with self.transaction() as cur:
            return self._run(cur, "DELETE FROM games WHERE updated_at < ?",
                             (time.time() - idle_seconds,)).rowcount

    def count(self) -> int:
        with self.reading() as cur:
            return int(self._run(cur, "SELECT COUNT(*) FROM games").fetchone()[0])

    # --- links (online play) ---

    def add_links(self, game_id: str, links: list[tuple[str, int]]) -> None:
        """New links (token, seat) to a game."""
        with self.transaction() as cur:
            cur.executemany(self._sql("INSERT INTO links (token, game_id, seat) VALUES "
                                      "(?, ?, ?)"), [(t, game_id, seat) for t, seat in links])

    def link(self, token: str) -> Link:
        with self.reading() as cur:
            row = self._run(cur, "SELECT game_id, seat, seen_at, connected FROM links WHERE "
                            "token = ?", (token,)).fetchone()
        if row is None:
            raise NotFound("no game has this link (a game nobody plays for a while is "
                           "removed, and its links with it)")
        return Link(token, row[0], int(row[1]), row[2], bool(row[3]))

    def links_of(self, game_id: str) -> list[Link]:
        with self.reading() as cur:
            rows = self._run(cur, "SELECT token, seat, seen_at, connected FROM links WHERE "
                             "game_id = ? ORDER BY seat, token", (game_id,)).fetchall()
        return [Link(t, game_id, int(seat), seen, bool(on)) for t, seat, seen, on in rows]

    def seen(self, tokens: list[str], connected: bool) -> None:
        """The pages holding these links are there (or have just gone): now."""
        if tokens:
            with self.transaction() as cur:
                cur.executemany(self._sql("UPDATE links SET seen_at = ?, connected = ? WHERE "
                                          "token = ?"),
                                [(time.time(), int(connected), t) for t in tokens])

    def move_links(self, old_id: str, new_id: str) -> None:
        """A rematch: the links of one game go to the next, the seats swapped."""
        with self.transaction() as cur:
            self._run(cur, "UPDATE links SET game_id = ?, seat = CASE WHEN seat >= 0 THEN 1 - "
                      "seat ELSE seat END WHERE game_id = ?", (new_id, old_id))

    # --- daily puzzles ---

    def daily(self, day: str, puzzle: str) -> str | None:
        """The start kept for a daily puzzle, or None when none was made yet."""
        with self.reading() as cur:
            row = self._run(cur, "SELECT start_desc FROM dailies WHERE day = ? AND puzzle = ?",
                            (day, puzzle)).fetchone()
        return None if row is None else str(row[0])

    def keep_daily(self, day: str, puzzle: str, desc: str) -> str:
        """Keep a daily puzzle's start unless one is kept already (another request or
        process made it first); the one kept, which every caller then plays."""
        with self.transaction() as cur:
            self._run(cur, "INSERT INTO dailies (day, puzzle, start_desc, created_at) "
                      "VALUES (?, ?, ?, ?) ON CONFLICT (day, puzzle) DO NOTHING",
                      (day, puzzle, desc, time.time()))
            row = self._run(cur, "SELECT start_desc FROM dailies WHERE day = ? AND "
                            "puzzle = ?", (day, puzzle)).fetchone()
        return str(row[0])

    @abstractmethod
    def notify(self, game_id: str) -> None:
        """Tell every server process that this game changed (PostgreSQL's notifications; an
        SQLite store has one process, which knows already)."""

    @abstractmethod
    def listen(self, deliver: Callable[[str | None], None], stop: threading.Event) -> None:
        """Call deliver(game_id) for each game a process (this one too) changed, and
        deliver(None) each time listening (re)starts, since news may have been missed, until
        stop is set; with SQLite there is nothing to listen to."""

    def ids(self) -> Iterator[str]:
        with self.reading() as cur:
            rows = self._run(cur, "SELECT id FROM games ORDER BY updated_at").fetchall()
        return (game_id for (game_id,) in rows)


def _missing(game_id: str) -> NotFound:
    return NotFound(f"no game {game_id[:40]!r} on this server (games nobody plays for a while "
                    "are removed)")
