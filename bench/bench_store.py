"""The server under load, on SQLite and PostgreSQL: the real `gridgames serve` as a subprocess,
driven over HTTP from this process.

Modes (all by default):
- closed: GAMES games played at once, each sending its next move as soon as the last is
  answered, for SECONDS: the most moves a second, and move latency p50/p99;
- open: GAMES games each making one move a second (open loop: a move is due at its time
  whether or not the server kept up; latency is measured from the time it was due):
  moves a second, p50/p95/p99, errors;
- compute: the open loop while 4 clients keep asking for machine play (Trilobite analysis,
  Polar solutions of the original levels, shown step by step as the page asks for them, and
  applied): move latency as in open, compute jobs done and refused (429/503, the documented
  answers of a full pool), other answers, and the memory of the server with its compute
  workers; with --runs N, N runs on fresh servers and the median of their p99s;
- rss: the server's memory (RSS) after RSS_GAMES games of RSS_MOVES moves each were played
  through it, and after one game was loaded from a save of about 1 MB;
- bound: the memory of the server and its compute workers under --memory-mb after the full
  sizes: BOUND_GAMES games created, BOUND_SHAPES Trilobite board shapes analysed,
  BOUND_SAVES saves of about 1 MB loaded.

Games are Polar level 1 with the penguin walking right and left: every move is legal, none
ends the game, and each is one stored change.

Usage: python bench/bench_store.py [--db sqlite,postgresql]
  [--mode closed,open,compute,rss,bound] [--games 200] [--seconds 20] [--runs 1]
  [--rss-games 10000]
  [--rss-moves 200] [--bound-games 100000] [--bound-shapes 500] [--bound-saves 20]
  [--memory-mb 4096] [--think-seconds 10]
Prints one line per database and mode.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

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


class AsyncClient:
    """One keep-alive HTTP/1.1 connection on asyncio: the open loop drives every game from
    one thread, so the driver's own threads do not delay the moves it measures."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def call(self, method: str, path: str, body: object = None) -> int:
        return (await self.request(method, path, body))[0]

    async def call_json(self, method: str, path: str, body: object = None
                        ) -> tuple[int, object]:
        """The status, and the answer's `version` (None when it has none)."""
        status, data = await self.request(method, path, body)
        answer = json.loads(data or b"null")
        return status, answer.get("version") if isinstance(answer, dict) else None

    async def request(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        if self.streams is None:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        data = b"" if body is None else json.dumps(body).encode()
        writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     f"application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode()
                     + data)
        status = int((await reader.readline()).split()[1])
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, await reader.readexactly(length)


def open_loop(port: int, games: int, seconds: float) -> str:
    """Each game moves once a second, the games' moves spread over the second; latency is
    measured from when a move was due."""
    sids = new_games(port, games)
    latencies: list[float] = []
    errors = 0

    async def play(index: int, sid: str, start: float) -> None:
        nonlocal errors
        me = AsyncClient(port)
        for second in range(int(seconds)):
            at = start + second + index / games
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            status = await me.call("POST", f"/api/v1/sessions/{sid}/move",
                                   {"move": WALK[second % 2]})
            latencies.append(time.perf_counter() - at)
            errors += status != 200

    async def run() -> float:
        start = time.perf_counter() + 0.5
        await asyncio.gather(*(play(index, sid, start) for index, sid in enumerate(sids)))
        return time.perf_counter() - start

    took = asyncio.run(run())
    return (f"open games={games} moves_per_s={len(latencies) / took:.0f} p50_ms="
            f"{percentile(latencies, .5) * 1000:.1f} p95_ms={percentile(latencies, .95) * 1000:.1f}"
            f" p99_ms={percentile(latencies, .99) * 1000:.1f} errors={errors}")


def ask_for_machine_play(port: int, number: int, stop: Any, answers: Any) -> None:
    """One client that keeps asking for machine play (Trilobite analysis, Polar solutions),
    with its own connection, waiting when refused; its answers' statuses go to `answers`."""
    me = Client(port)
    trilobite = me.call("POST", "/api/v1/sessions", {"game": "trilobite",
                                                     "seed": f"a{number}"})[1]["session"]
    for column in "4453"[: 2 + number % 3]:
        me.call("POST", f"/api/v1/sessions/{trilobite}/move", {"move": column})
    polar = me.call("POST", "/api/v1/sessions", {
        "game": "polar", "params": f"pack=original,level={number % 6 + 1}"})[1]["session"]
    turn = 0
    while not stop.is_set():
        if turn % 3 == 0:
            status, _ = me.call("GET", f"/api/v1/sessions/{trilobite}/analysis")
        elif turn % 3 == 1:  # Solve on the page: the steps first, with a view each
            status, _ = me.call("GET", f"/api/v1/sessions/{polar}/solution")
        else:
            status, _ = me.call("POST", f"/api/v1/sessions/{polar}/solve")
            if status == 200:  # back to the start, so that the next one solves again
                me.call("POST", f"/api/v1/sessions/{polar}/undo")
        answers.put(status)
        if status in (429, 503):
            stop.wait(1.0)  # as the page does after Retry-After
        turn += 1


def compute_load(server: Server, games: int, seconds: float, askers: int = 4) -> str:
    """The open loop while `askers` clients keep asking for machine play, from processes of
    their own (so that they do not slow this process's timing of the moves)."""
    context = multiprocessing.get_context("fork")
    stop, answers = context.Event(), context.Queue()
    clients = [context.Process(target=ask_for_machine_play, daemon=True,
                               args=(server.port, n, stop, answers)) for n in range(askers)]
    for process in clients:
        process.start()
    time.sleep(3.0)  # their games made and their first questions asked: the steady state
    line = open_loop(server.port, games, seconds)
    rss = server.rss_mb()
    inside = what_held_the_server(server.port)
    stop.set()
    for process in clients:
        process.join(timeout=120)
    counted: Counter[int] = Counter()
    while not answers.empty():
        counted[answers.get()] += 1
    refused = counted[429] + counted[503]
    other = sum(count for status, count in counted.items() if status not in (200, 429, 503))
    return (f"compute {line} askers={askers} jobs_done={counted[200]} "
            f"jobs_refused={refused} jobs_other={other} rss_mb={rss:.0f} {inside}")


def what_held_the_server(port: int) -> str:
    """From the server's /metrics: how late its event loop ran (p99, max bucket), its garbage
    collections (count and total seconds by generation), and its database writes (p99)."""
    import urllib.request

    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30).read()
    buckets: dict[tuple[str, str], list[tuple[float, float]]] = {}
    sums: dict[tuple[str, str], float] = {}
    for line in text.decode().splitlines():
        if line.startswith("#"):
            continue
        name, _, number = line.rpartition(" ")
        family, _, labels = name.partition("{")
        labels = labels.rstrip("}")
        bound = next((p.split('"')[1] for p in labels.split(",") if p.startswith("le=")), None)
        rest = ",".join(p for p in labels.split(",") if not p.startswith("le="))
        if family.endswith("_bucket") and bound is not None:
            buckets.setdefault((family[:-7], rest), []).append(
                (float("inf") if bound == "+Inf" else float(bound), float(number)))
        elif family.endswith("_sum"):
            sums[(family[:-4], rest)] = float(number)

    def bound_of(key: tuple[str, str], share: float) -> str:
        counts = buckets.get(key, [])
        total = counts[-1][1] if counts else 0
        found = next((b for b, n in counts if n >= share * total), 0.0) if total else 0.0
        return f"{found * 1000:g}"

    lag = ("gridgames_loop_lag_seconds", "")
    write = ("gridgames_store_seconds", 'kind="write"')
    collections = " ".join(
        f"gc{rest.split(chr(34))[1]}={int(counts[-1][1])}/{sums[(family, rest)] * 1000:.0f}ms"
        for (family, rest), counts in sorted(buckets.items())
        if family == "gridgames_gc_seconds")
    return (f"loop_lag_p99_ms<={bound_of(lag, .99)} loop_lag_max_ms<={bound_of(lag, 1.0)} "
            f"write_p99_ms<={bound_of(write, .99)} {collections}")


def bound(server: Server, games: int, shapes: int, saves: int, memory_mb: int) -> str:
    """Memory of the server and its compute workers after the full sizes: `games` games
    created, `shapes` Trilobite board shapes analysed, `saves` saves of about 1 MB loaded."""
    port = server.port
    for first in progress(range(0, games, 1000), (games + 999) // 1000, "games"):
        new_games(port, min(1000, games - first))
    after_games = server.rss_mb()
    # 613 shapes: every board size with lines of 3, and from 4x4 up with lines of 4.
    sizes = [(w, h, line) for line in (3, 4) for w in range(line, 21) for h in range(line, 21)]
    analysed: Counter[int] = Counter()
    for width, height, line in progress(sizes[:shapes], min(shapes, len(sizes)), "shapes"):
        status, game = client(port).call("POST", "/api/v1/sessions", {
            "game": "trilobite", "params": f"width={width},height={height},line={line}"})
        status, _ = client(port).call("GET", f"/api/v1/sessions/{game['session']}/analysis")
        analysed[status] += 1
    after_shapes = server.rss_mb()
    save = big_save()
    loaded = Counter(client(port).call("POST", "/api/v1/sessions/load", json.loads(save))[0]
                     for _ in range(saves))
    after_saves = server.rss_mb()
    return (f"bound memory_mb={memory_mb} games={games} after_games_mb={after_games:.0f} "
            f"shapes={shapes} analysed={dict(analysed)} after_shapes_mb={after_shapes:.0f} "
            f"saves={saves} save_kb={len(save) // 1024} loaded={dict(loaded)} "
            f"after_saves_mb={after_saves:.0f}")


def big_save() -> str:
    """The longest Polar game the rules allow (20,000 moves, the last a recorded solve), as
    a save padded with spaces to just under the 1 MB the load endpoint takes."""
    from gridgames.session import MAX_HISTORY, Session

    session = Session.new("polar", "level=1", seed="big")
    for number in range(MAX_HISTORY - 1000):
        session.play(WALK[number % 2])
    data = session.to_dict()
    data["moves"][-1] = "!solve " + " ".join(["R", "L"] * 500)
    text = json.dumps(data)
    return text + " " * (1024 * 1024 - 100 - len(text))


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
    save = big_save()
    status, _ = client(port).call("POST", "/api/v1/sessions/load", json.loads(save))
    after_load = rss_kb(server)
    return (f"rss games={games} moves_each={moves} start_mb={before / 1024:.0f} "
            f"after_games_mb={after_games / 1024:.0f} save_kb={len(save) // 1024} "
            f"load_status={status} after_load_mb={after_load / 1024:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default="sqlite,postgresql")
    parser.add_argument("--mode", default="closed,open,compute,rss,bound")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--runs", type=int, default=1,
                        help="runs of each mode, each on a fresh server (compute: the median "
                        "p99 too)")
    parser.add_argument("--rss-games", type=int, default=10_000)
    parser.add_argument("--rss-moves", type=int, default=200)
    parser.add_argument("--bound-games", type=int, default=100_000)
    parser.add_argument("--bound-shapes", type=int, default=500)
    parser.add_argument("--bound-saves", type=int, default=20)
    parser.add_argument("--memory-mb", type=int, default=4096)
    parser.add_argument("--think-seconds", type=float, default=10.0,
                        help="the server's cap on one analysis (bound mode: 500 of them)")
    args = parser.parse_args()
    for db in args.db.split(","):
        with ExitStack() as stack:
            if db == "sqlite":
                url = str(Path(stack.enter_context(tempfile.TemporaryDirectory())) / "g.db")
            else:
                pg = stack.enter_context(throwaway_postgres(fsync=True))
                url = pg.create_database("bench")
            for mode in args.mode.split(","):
                p99s = []
                for _ in range(args.runs):
                    line = run_mode(url, mode, args)
                    print(f"{db} {line}", flush=True)
                    p99s += [float(word.split("=")[1]) for word in line.split()
                             if word.startswith("p99_ms=")]
                if args.runs > 1 and p99s:
                    print(f"{db} {mode} runs={args.runs} median_p99_ms="
                          f"{sorted(p99s)[len(p99s) // 2]:.1f} max_p99_ms={max(p99s):.1f}",
                          flush=True)


def run_mode(url: str, mode: str, args: argparse.Namespace) -> str:
    server = Server(url, "--keep-days", "30", "--games-per-minute", "1000000",
                    "--memory-mb", str(args.memory_mb), "--think-seconds",
                    str(args.think_seconds))
    try:
        if mode == "closed":
            return closed_loop(server.port, args.games, args.seconds)
        if mode == "open":
            return open_loop(server.port, args.games, args.seconds)
        if mode == "compute":
            return compute_load(server, args.games, args.seconds)
        if mode == "bound":
            return bound(server, args.bound_games, args.bound_shapes, args.bound_saves,
                         args.memory_mb)
        return memory(server, args.rss_games, args.rss_moves)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
