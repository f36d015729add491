"""SQLite: one file, one server process. WAL journal with synchronous=FULL: a commit is on
disk before the answer goes out, and readers do not wait for the writer.

When the file cannot be used (a full disk, a read-only file system, a corrupt page, a write
that waits longer than the store's timeout), the operation raises Unavailable with the reason
(HTTP 503): the transaction is rolled back, the connection stays usable, and the next
operation tries again, so the server heals by itself once the disk has room again. A corrupt
file is refused at start (`PRAGMA quick_check`), with the way to restore a backup."""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from gridgames.core.errors import BadInput
from gridgames.store.records import CHANGED_MEANWHILE, DISK_FULL, Conflict, Unavailable
from gridgames.store.schema import LATEST
from gridgames.store.sql import DEFAULT_TIMEOUT, Cursor, SqlStore

CHECKPOINT_SECONDS = 0.5
# A write waits its turn behind this process's other writes (a few ms each) at least this
# long before it is refused: only a disk that stopped answering holds them longer, and an
# overloaded moment must not turn into 503s.
WRITE_WAIT = 10.0
WRITER_CHECKPOINT_PAGES = 20_000  # about 80 MB of WAL
# SQLite's messages -> what the operator and the player are told (the first that matches).
REASONS = (
    ("disk is full", DISK_FULL),
    ("readonly", "the database is read-only"),
    ("malformed", "the database file is corrupt"),
    ("not a database", "the database file is corrupt"),
    ("locked", "the database is busy"),
    ("busy", "the database is busy"),
    ("i/o error", "the database's disk fails (I/O error)"),
    ("unable to open", "the database file cannot be opened"),
)


class SQLiteStore(SqlStore):
    def __init__(self, path: str | Path, timeout: float = DEFAULT_TIMEOUT) -> None:
        super().__init__(timeout)
        self.path = Path(path).expanduser()
        self.url = str(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # One connection shared by the server's threads, used under a lock: SQLite
            # writes one at a time anyway.
            self._db = self._connect()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            # The WAL is copied back into the database by a thread of its own (below), not
            # by whichever commit crosses the threshold: a move never waits for that copy.
            # The writer still does it past a large threshold, should the thread fall behind.
            self._db.execute(f"PRAGMA wal_autocheckpoint={WRITER_CHECKPOINT_PAGES}")
            self._lock = threading.Lock()
            self._readers = threading.local()  # each thread reads on its own connection
            self._opened: list[sqlite3.Connection] = []
            self._check_pages()
            self.migrate()
        except sqlite3.DatabaseError as err:
            if "database" in str(err) and ("not a" in str(err) or "malformed" in str(err)):
                raise self._corrupt_file(str(err)) from None
            raise BadInput(f"cannot open the SQLite database {self.path}: {err}") from None
        except (sqlite3.Error, OSError, Unavailable) as err:
            raise BadInput(f"cannot open the SQLite database {self.path}: {err}") from None
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoints, daemon=True,
                                              name="sqlite-checkpoint")
        self._checkpointer.start()

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                               timeout=self.timeout)

    def _check_pages(self) -> None:
        """A corrupt file is refused before the server says it is ready (SQLite finds bad
        pages only when a query reads them, and would answer errors for the games there)."""
        found = [row[0] for row in self._db.execute("PRAGMA quick_check(1)")]
        if found != ["ok"]:
            raise self._corrupt_file(found[0] if found else "no answer")

    def _corrupt_file(self, detail: str) -> BadInput:
        detail = " ".join(detail.replace("*", "").split())  # one line
        return BadInput(
            f"the SQLite database {self.path} is corrupt ({detail[:120]}): keep a copy of "
            f"it, then put back a backup with 'gridgames db restore BACKUP --db {self.path}' "
            "(docs/operations.md, Backups)")

    def _checkpoints(self) -> None:
        db = self._connect()
        try:
            while not self._stop.wait(CHECKPOINT_SECONDS):
                try:  # PASSIVE: copies what it can without waiting for readers or writers
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    continue  # the writer's own checkpoint is the fallback
        finally:
            db.close()

    @contextmanager
    def _transaction(self, timeout: float | None = None) -> Iterator[Cursor]:
        wait = max(self.timeout, WRITE_WAIT) if timeout is None else timeout
        if not self._lock.acquire(timeout=wait):
            raise self.failed(Unavailable(f"the database is busy: a write waited more than "
                                          f"{wait:g} s"))
        try:
            cur = self._db.cursor()
            try:
                cur.execute("BEGIN IMMEDIATE")
                yield cur
                cur.execute("COMMIT")
            except BaseException:
                self._roll_back()
                raise
            finally:
                cur.close()
        except sqlite3.Error as err:
            raise self.failed(self._reason(err)) from None
        finally:
            self._lock.release()

    def _roll_back(self) -> None:
        """After a failed statement or COMMIT: SQLite may have rolled back already (a full
        disk, an I/O error do), and a ROLLBACK then would fail and hide the first error."""
        if self._db.in_transaction:
            with suppress(sqlite3.Error):  # SQLite resets the connection itself
                self._db.execute("ROLLBACK")

    @contextmanager
    def _reading(self) -> Iterator[Cursor]:
        """Reads run beside the writer: in WAL mode a reader sees the last commit and never
        waits for a write in progress."""
        try:
            db = getattr(self._readers, "db", None)
            if db is None:
                db = self._connect()
                self._readers.db = db
                with self._lock:
                    self._opened.append(db)
            cur = db.cursor()
            try:
                cur.execute("BEGIN")
                yield cur
            finally:
                if db.in_transaction:
                    cur.execute("COMMIT")  # ends the read snapshot
                cur.close()
        except sqlite3.Error as err:
            raise self.failed(self._reason(err)) from None

    @staticmethod
    def _reason(err: sqlite3.Error) -> Exception:
        """Unavailable for what the file or its disk does; Conflict for a constraint a
        request met because another changed the rows first (a player deleted meanwhile);
        other errors (a misuse) are bugs and stay as they are."""
        if isinstance(err, sqlite3.IntegrityError):
            return Conflict(CHANGED_MEANWHILE)
        if not isinstance(err, sqlite3.OperationalError) and type(err) is not \
                sqlite3.DatabaseError:
            return err
        text = str(err).lower()
        reason = next((said for found, said in REASONS if found in text),
                      f"the database fails ({str(err)[:80]})")
        return Unavailable(reason)

    def notify(self, game_id: str) -> None:
        return  # one process: the hub delivers at once

    def listen(self, deliver: Callable[[str | None], None], stop: threading.Event) -> None:
        return

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join(timeout=10)
        with self._lock:
            for db in self._opened:
                db.close()
            self._db.close()

    def backup(self, target: str | Path) -> None:
        """A consistent copy of the database, taken while it is in use."""
        with self._lock:
            _copy(self._db, target)


def backup(source: str | Path, target: str | Path) -> int:
    """A consistent copy of the database file at source, taken while a server may be using
    it, without upgrading its schema or changing anything in it (a backup is taken with
    whatever program is at hand); how many games it holds."""
    db = sqlite3.connect(f"file:{Path(source)}?mode=ro", uri=True, timeout=DEFAULT_TIMEOUT)
    try:
        _copy(db, target)
        return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        db.close()


def _copy(db: sqlite3.Connection, target: str | Path) -> None:
    """SQLite's online backup into target, a file readable by its owner only (it holds
    every game's secret links)."""
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT, 0o600))
    copy = sqlite3.connect(target)
    try:
        db.backup(copy)
    finally:
        copy.close()


def restore(backup: str | Path, target: str | Path) -> int:
    """Put a backup in place of the database at target (the server must be stopped); how
    many games it holds. The backup is checked before anything is replaced."""
    backup, target = Path(backup), Path(target).expanduser()
    if not backup.is_file():
        raise BadInput(f"{backup}: no such backup file")
    try:  # read-only: a bad file is refused and left as it was
        check = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
        try:
            version = check.execute("SELECT version FROM schema_version").fetchone()[0]
            games = check.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        finally:
            check.close()
    except (sqlite3.Error, TypeError) as err:
        raise BadInput(f"{backup} is not a gridgames database: {err}") from None
    if version > LATEST:
        raise BadInput(f"{backup} comes from a newer gridgames (schema {version})")
    target.parent.mkdir(parents=True, exist_ok=True)
    for leftover in (Path(f"{target}-wal"), Path(f"{target}-shm")):
        leftover.unlink(missing_ok=True)
    partial = target.with_name(target.name + ".restoring")
    shutil.copyfile(backup, partial)
    partial.replace(target)
    return games
