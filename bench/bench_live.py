"""Live pages in a crowd: the real `gridgames serve` (SQLite) as a subprocess; from a process
of its own, a burst of idle WebSockets watching one game (spread over loopback addresses,
CLIENTS_PER_ADDRESS each, as pages from many clients would come), opened as fast as they
open with 200 under way at a time, while from this process 50 other games each move once a
second (open loop, timed from when each move was due: the burst's own work does not delay
this process's clock).

Prints, per run: the burst's size and how long it took to open; the server process's memory
(RSS, its compute worker not counted) before, with every page open, and after they closed,
and the memory an idle page costs;
move latency p50/p95/p99 (and the worst) while the burst came and while the pages were
held; and what the pages got (each must get the watched game's first position).

Usage: python bench/bench_live.py [--pages 2000] [--runs 1] [--games 50] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.servers import Server  # noqa: E402

from bench_store import (  # noqa: E402
    WALK,
    AsyncClient,
    new_games,
    percentile,
    rss_kb,
    what_held_the_server,
)

CLIENTS_PER_ADDRESS = 40  # under the server's default share of a client (50)


async def moves_meanwhile(port: int, sids: list[str], until: asyncio.Event,
                          latencies: list[float]) -> None:
    """Each game moves once a second until `until` is set; each move's latency, from when it
    was due, goes to `latencies` as it comes."""
    async def play(index: int, sid: str, start: float) -> None:
        me = AsyncClient(port)
        second = 0
        while not until.is_set():
            at = start + second + index / len(sids)
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            status = await me.call("POST", f"/api/v1/sessions/{sid}/move",
                                   {"move": WALK[second % 2]})
            if status != 200:
                raise RuntimeError(f"a move answered {status}")
            latencies.append(time.perf_counter() - at)
            second += 1

    start = time.perf_counter() + 0.2
    await asyncio.gather(*(play(i, sid, start) for i, sid in enumerate(sids)))


def summary(name: str, latencies: list[float]) -> str:
    ms = [x * 1000 for x in latencies]
    return (f"{name}_moves={len(ms)} {name}_p50_ms={percentile(ms, .5):.1f} "
            f"{name}_p95_ms={percentile(ms, .95):.1f} {name}_p99_ms={percentile(ms, .99):.1f} "
            f"{name}_max_ms={max(ms, default=0):.1f}")


def burst(url: str, pages: int, opened: object, close: object, report: object) -> None:
    """A process of its own: open the pages, say how it went, hold them until told."""
    import websockets

    async def run() -> None:
        async def page(number: int):
            address = f"127.0.0.{2 + number // CLIENTS_PER_ADDRESS}"
            socket = await websockets.connect(url, local_addr=(address, 0), max_size=2**20,
                                              ping_interval=None)
            first = json.loads(await socket.recv())
            return socket, first["type"] == "state"

        started = time.perf_counter()
        held = []
        for first in range(0, pages, 200):
            held += await asyncio.gather(*(page(n) for n in range(first, min(pages,
                                                                            first + 200))))
        report.put((sum(ok for _, ok in held), time.perf_counter() - started))
        opened.set()
        await asyncio.to_thread(close.wait)
        await asyncio.gather(*(socket.close() for socket, _ in held))

    asyncio.run(run())


async def crowd(server: Server, pages: int, games: int, hold_seconds: float) -> str:
    port = server.port
    watched = await asyncio.to_thread(new_games, port, 1)
    status, answer = await asyncio.to_thread(server.call, "POST",
                                             f"/api/v1/sessions/{watched[0]}/watch")
    url = f"ws://127.0.0.1:{port}/api/v1/links/{answer['watch'].split('link=')[1]}/live"
    sids = await asyncio.to_thread(new_games, port, games)
    await asyncio.sleep(2.0)  # settled: the first moves' caches warm
    before = rss_kb(server) / 1024

    stop, latencies = asyncio.Event(), []
    mover = asyncio.ensure_future(moves_meanwhile(port, sids, stop, latencies))
    await asyncio.sleep(2.0)
    steady = len(latencies)  # the moves before the burst are not counted
    context = multiprocessing.get_context("spawn")
    opened, close, report = context.Event(), context.Event(), context.Queue()
    crowd_process = context.Process(target=burst, args=(url, pages, opened, close, report))
    crowd_process.start()
    await asyncio.to_thread(opened.wait, 300)
    got_first, burst_seconds = report.get(timeout=10)
    during_burst = latencies[steady:]
    inside = await asyncio.to_thread(what_held_the_server, port)
    await asyncio.sleep(hold_seconds)
    with_pages = rss_kb(server) / 1024
    holding = latencies[steady + len(during_burst):]
    stop.set()
    await mover
    close.set()
    await asyncio.to_thread(crowd_process.join, 60)
    await asyncio.sleep(3.0)
    after = rss_kb(server) / 1024
    per_page_kb = (with_pages - before) * 1024 / pages
    return (f"pages={pages} got_first={got_first} "
            f"burst_s={burst_seconds:.1f} rss_before_mb={before:.0f} "
            f"rss_with_pages_mb={with_pages:.0f} rss_after_close_mb={after:.0f} "
            f"per_idle_page_kb={per_page_kb:.1f} {summary('burst', during_burst)} "
            f"{summary('held', holding)} burst: {inside}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10, help="pages held this long")
    args = parser.parse_args()
    p99s = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            server = Server(str(Path(folder) / "g.db"), "--games-per-minute", "1000000",
                            "--live-pages", str(args.pages + 100))
            try:
                line = asyncio.run(crowd(server, args.pages, args.games, args.seconds))
            finally:
                server.stop()
        print(line, flush=True)
        p99s.append(float(line.split("burst_p99_ms=")[1].split()[0]))
    if args.runs > 1:
        print(f"runs={args.runs} median_burst_p99_ms={statistics.median(p99s):.1f} "
              f"max_burst_p99_ms={max(p99s):.1f}")


if __name__ == "__main__":
    main()
