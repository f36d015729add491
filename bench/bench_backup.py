"""Backups of an SQLite database as docs/operations.md describes them: `gridgames db backup`
while the real server runs and a player keeps moving, then the backup checked and put back
with `gridgames db restore`.

The database is filled with GAMES games of 40 moves each (written straight into the schema
the program made, in one transaction: only the size matters here).

Usage: python bench/bench_backup.py [--games 100000]
Prints the database's size, the backup's time, the moves' slowest answer before and during
it, and the times of the check and the restore.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.servers import Server  # noqa: E402

from gridgames.store.sqlite import SQLiteStore  # noqa: E402

MOVES = 40


def fill(path: Path, games: int) -> None:
    SQLiteStore(path).close()  # the schema, as the program makes it
    now = time.time()
    with sqlite3.connect(path) as db:
        for _ in range(games):
            gid = secrets.token_urlsafe(16)
            db.execute("INSERT INTO games VALUES (?, 'trilobite', 'width=7,height=6,line=4', "
                       "'7/7/7/7/7/7', NULL, ?, ?, ?, '{}', 1, ?, ?)",
                       (gid, MOVES, MOVES, json.dumps(["person", "ai"]), now, now))
            db.executemany("INSERT INTO moves VALUES (?, ?, ?)",
                           [(gid, ply, str(random.randint(1, 7))) for ply in range(MOVES)])


def slowest_move(server: Server, stop: threading.Event) -> tuple[int, float]:
    """A player moving and taking back as fast as answers come: changes, slowest (s)."""
    sid = server.call("POST", "/api/v1/sessions",
                      {"game": "tictactoe", "seats": ["person", "person"]})[1]["session"]
    count, worst = 0, 0.0
    while not stop.is_set():
        for path, body in ((f"/api/v1/sessions/{sid}/move", {"move": "a1"}),
                           (f"/api/v1/sessions/{sid}/undo", None)):
            started = time.perf_counter()
            status, _ = server.call("POST", path, body)
            assert status == 200, status
            worst = max(worst, time.perf_counter() - started)
            count += 1
    return count, worst


def timed_moves(server: Server, seconds: float, during: object = None) -> tuple[int, float]:
    stop, result = threading.Event(), []
    player = threading.Thread(target=lambda: result.append(slowest_move(server, stop)))
    player.start()
    time.sleep(0.5)
    if during is not None:
        during()
    time.sleep(seconds)
    stop.set()
    player.join()
    return result[0]


def gridgames(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gridgames", *args], check=True,
                   capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="gridgames-backup-"))
    db, backup = home / "games.db", home / "backup.db"
    fill(db, args.games)  # about 3 KB a game
    print(f"database: {args.games} games of {MOVES} moves, {db.stat().st_size / 1e6:.0f} MB")

    server = Server(str(db))
    try:
        count, worst = timed_moves(server, 3)
        print(f"moves without a backup: {count} in 3.5 s, slowest {worst * 1000:.0f} ms")
        took: list[float] = []
        count, worst = timed_moves(
            server, 3, lambda: took.append(gridgames("db", "backup", str(backup), "--db",
                                                     str(db))))
        print(f"backup while serving: {took[0]:.1f} s, {backup.stat().st_size / 1e6:.0f} MB; "
              f"moves meanwhile: {count}, slowest {worst * 1000:.0f} ms")
    finally:
        server.stop()

    started = time.perf_counter()
    with sqlite3.connect(f"file:{backup}?mode=ro", uri=True) as check:
        verdict = check.execute("PRAGMA integrity_check").fetchone()[0]
    print(f"integrity_check of the backup: {verdict}, "
          f"{time.perf_counter() - started:.1f} s")
    took = gridgames("db", "restore", str(backup), "--db", str(db))
    print(f"restore (server stopped): {took:.1f} s")
    shutil.rmtree(home)


if __name__ == "__main__":
    main()
