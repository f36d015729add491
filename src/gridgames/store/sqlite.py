"""SQLite: one file, one server process. WAL journal with synchronous=FULL: a commit is on
disk before the answer goes out, and readers do not wait for the writer."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from gridgames.core.errors import BadInput
from gridgames.store.schema import LATEST
from gridgames.store.sql import Cursor, SqlStore

CHECKPOINT_SECONDS = 0.5
WRITER_CHECKPOINT_PAGES = 20_000  # about 80 MB of WAL


class SQLiteStore(SqlStore):
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self.url = str(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # One connection shared by the server's threads, used under a lock: SQLite
            # writes one at a time anyway.
            self._db = sqlite3.connect(self.path, isolation_level=None,
                                       check_same_thread=False, timeout=30)
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
            self.migrate()
        except (sqlite3.Error, OSError) as err:
            raise BadInput(f"cannot open the SQLite database {self.path}: {err}") from None
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoints, daemon=True,
                                              name="sqlite-checkpoint")
        self._checkpointer.start()

    def _checkpoints(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                             timeout=30)
        try:
            while not self._stop.wait(CHECKPOINT_SECONDS):
                try:  # PASSIVE: copies what it can without waiting for readers or writers
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    continue  # the writer's own checkpoint is the fallback
        finally:
            db.close()

    @contextmanager
    def transaction(self) -> Iterator[Cursor]:
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            else:
                cur.execute("COMMIT")
            finally:
                cur.close()

    @contextmanager
    def reading(self) -> Iterator[Cursor]:
        """Reads run beside the writer: in WAL mode a reader sees the last commit and never
        waits for a write in progress."""
        db = getattr(self._readers, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                 timeout=30)
            self._readers.db = db
            with self._lock:
                self._opened.append(db)
        cur = db.cursor()
        cur.execute("BEGIN")
        try:
            yield cur
        finally:
            cur.execute("COMMIT")
            cur.close()

    def notify(self, game_id: str) -> None:
        return  # one process: the hub delivers at once

    def listen(self, deliver: Callable[[str], None], stop: threading.Event) -> None:
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
        copy = sqlite3.connect(target)
        try:
            with self._lock:
                self._db.backup(copy)
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
