"""The server under load, on SQLite and PostgreSQL: the real `gridgames serve` as a subprocess,
driven over HTTP from this process.

Modes (all by default):
- closed: GAMES games played at once, each sending its next move as soon as the last is
  answered, for SECONDS: the most moves a second, and move latency p50/p99;
- open: GAMES games each making one move a second (open loop: a move is due at its time
  whether or not the server kept up; latency is measured from the time it was due):
  moves a second, p50/p95/p99, errors;
- rss: the server's memory (RSS) after RSS_GAMES games of RSS_MOVES moves each were played
  through it, and after one game was loaded from a save of about 1 MB.

Games are Polar level 1 with the penguin walking right and left: every move is legal, none
ends the game, and each is one stored change.

Usage: python bench/bench_store.py [--db sqlite,postgresql] [--mode closed,open,rss]
  [--games 200] [--seconds 20] [--rss-games 10000] [--rss-moves 200]
Prints one line per database and mode.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.servers import Server  # noqa: E402
from tests.services import throwaway_postgres  # noqa: E402

from gridgames.core.progress import progress  # noqa: E402

WALK = ("R", "L")


class Client:
    """One keep-alive HTTP connection (one per driver thread)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body: object = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body)
        self.conn.request(method, path, body=data,
                          headers={"Content-Type": "application/json"})
        answer = self.conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")


_local = threading.local()


def client(port: int) -> Client:
    if getattr(_local, "port", None) != port:
        _local.client, _local.port = Client(port), port
    return _local.client


def new_games(port: int, count: int) -> list[str]:
    with ThreadPoolExecutor(16) as pool:
        made = pool.map(lambda _: client(port).call("POST", "/api/v1/sessions", {
            "game": "polar", "params": "level=1"})[1]["session"], range(count))
        return list(made)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def move(port: int, sid: str, number: int) -> tuple[float, int]:
    started = time.perf_counter()
    status, _ = client(port).call("POST", f"/api/v1/sessions/{sid}/move",
                                  {"move": WALK[number % 2]})
    return time.perf_counter() - started, status


def closed_loop(port: int, games: int, seconds: float) -> str:
    sids = new_games(port, games)
    latencies: list[float] = []
    errors = 0
    stop = time.perf_counter() + seconds
    lock = threading.Lock()

    def play(sid: str) -> None:
        nonlocal errors
        number = 0
        while time.perf_counter() < stop:
            took, status = move(port, sid, number)
            number += 1
            with lock:
                latencies.append(took)
                errors += status != 200

    with ThreadPoolExecutor(games) as pool:
        list(pool.map(play, sids))
    rate = len(latencies) / seconds
    return (f"closed games={games} moves_per_s={rate:.0f} p50_ms="
            f"{percentile(latencies, .5) * 1000:.1f} p99_ms={percentile(latencies, .99) * 1000:.1f}"
            f" errors={errors}")


def open_loop(port: int, games: int, seconds: float, threads: int = 64) -> str:
    """Each game moves once a second, the games' moves spread over the second."""
    sids = new_games(port, games)
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    start = time.perf_counter() + 0.5
    due = sorted((start + second + index / games, sid, second)
                 for second in range(int(seconds)) for index, sid in enumerate(sids))

    def send(job: tuple[float, str, int]) -> None:
        nonlocal errors
        at, sid, number = job
        delay = at - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        _, status = move(port, sid, number)
        with lock:
            latencies.append(time.perf_counter() - at)  # from when it was due
            errors += status != 200

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(send, due))
    took = time.perf_counter() - start
    return (f"open games={games} moves_per_s={len(latencies) / took:.0f} p50_ms="
            f"{percentile(latencies, .5) * 1000:.1f} p95_ms={percentile(latencies, .95) * 1000:.1f}"
            f" p99_ms={percentile(latencies, .99) * 1000:.1f} errors={errors}")


def rss_kb(server: Server) -> int:
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines()
                    if line.startswith("VmRSS:")))


def memory(server: Server, games: int, moves: int) -> str:
    port = server.port
    before = rss_kb(server)
    for first in progress(range(0, games, 100), (games + 99) // 100, "games"):
        sids = new_games(port, min(100, games - first))
        with ThreadPoolExecutor(16) as pool:
            list(pool.map(lambda sid: [move(port, sid, n) for n in range(moves)], sids))
    after_games = rss_kb(server)
    from gridgames.session import Session

    session = Session.new("polar", "level=1", seed="big")
    for number in range(20_000):
        session.play(WALK[number % 2])
    data = session.to_dict()
    data["moves"][-1] = "!solve " + " ".join(["R", "L"] * 40_000)  # a long recorded solve
    save = json.dumps(data)
    status, _ = client(port).call("POST", "/api/v1/sessions/load", json.loads(save))
    after_load = rss_kb(server)
    return (f"rss games={games} moves_each={moves} start_mb={before / 1024:.0f} "
            f"after_games_mb={after_games / 1024:.0f} save_kb={len(save) // 1024} "
            f"load_status={status} after_load_mb={after_load / 1024:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default="sqlite,postgresql")
    parser.add_argument("--mode", default="closed,open,rss")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rss-games", type=int, default=10_000)
    parser.add_argument("--rss-moves", type=int, default=200)
    args = parser.parse_args()
    for db in args.db.split(","):
        with ExitStack() as stack:
            if db == "sqlite":
                url = str(Path(stack.enter_context(tempfile.TemporaryDirectory())) / "g.db")
            else:
                pg = stack.enter_context(throwaway_postgres(fsync=True))
                url = pg.create_database("bench")
            for mode in args.mode.split(","):
                server = Server(url, "--keep-days", "30")
                try:
                    if mode == "closed":
                        line = closed_loop(server.port, args.games, args.seconds)
                    elif mode == "open":
                        line = open_loop(server.port, args.games, args.seconds)
                    else:
                        line = memory(server, args.rss_games, args.rss_moves)
                    print(f"{db} {line}", flush=True)
                finally:
                    server.stop()


if __name__ == "__main__":
    main()
