"""Online play under load: GAMES online games on two real server processes over one real
PostgreSQL database, each game with two players and two spectators on WebSockets, one player
and one spectator on each process, the players moving once a second (open loop).

Prints, per run: moves made (those of the first WARM_UP seconds not counted), p50/p99
from a move's acknowledgement (its HTTP answer) to the last of its game's four pages getting
the new position, updates missed, and the resident memory of each server (with its compute
worker).

Games are Trilobite 20x20 with lines of 20 and the columns played in turn: no one wins, so
every game lasts the whole run.

Usage: python bench/bench_online.py [--games 100] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets  # noqa: E402
from bench.bench_store import AsyncClient, percentile  # noqa: E402
from tests.servers import Server  # noqa: E402
from tests.services import throwaway_postgres  # noqa: E402

from gridgames.games.trilobite.game import COLUMN_NAMES  # noqa: E402

PARAMS = "width=20,height=20,line=20"
# The moves of the first seconds are not counted: each process reads every game afresh the
# first time the other one changes it, and opens its pool's threads.
WARM_UP = 2.0


class Game:
    def __init__(self, links: dict[str, str], servers: list[Server]) -> None:
        token = {k: v.split("link=")[1] for k, v in links.items()}
        a, b = servers
        self.players = [(a, token["you"]), (b, token["opponent"])]  # X on one, O on the other
        self.watch = token["watch"]
        self.pages = [(a, token["you"]), (b, token["opponent"]), (a, self.watch),
                      (b, self.watch)]
        self.seen: list[dict[int, float]] = [{} for _ in self.pages]  # version -> first seen


async def follow(game: Game, index: int, stop: asyncio.Event, ready: asyncio.Event) -> None:
    server, token = game.pages[index]
    async with websockets.connect(f"ws://127.0.0.1:{server.port}/api/v1/links/{token}/live",
                                  max_queue=None) as page:
        ready.set()
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(page.recv(), 0.5)
            except TimeoutError:
                continue
            message = json.loads(text)
            if message["type"] == "state":
                version = message["payload"]["version"]
                game.seen[index].setdefault(version, time.perf_counter())


async def play(game: Game, offset: float, seconds: float, acks: list) -> None:
    clients = [AsyncClient(server.port) for server, _ in game.players]
    start = time.perf_counter() + 1.0 + offset
    for number in range(int(seconds)):
        await asyncio.sleep(max(0.0, start + number - time.perf_counter()))
        turn = number % 2
        _, token = game.players[turn]
        status, version = await clients[turn].call_json(
            "POST", f"/api/v1/links/{token}/move", {"move": COLUMN_NAMES[number % 20]})
        if status == 200:
            acks.append((game, version, time.perf_counter()))
        else:
            print(f"move {number} of a game: HTTP {status}", file=sys.stderr)


async def run(games: list[Game], seconds: float) -> tuple[list[float], int, int, int]:
    stop = asyncio.Event()
    readies = [asyncio.Event() for _ in games for _ in range(4)]
    followers = [asyncio.create_task(follow(g, i, stop, readies[4 * n + i]))
                 for n, g in enumerate(games) for i in range(4)]
    await asyncio.gather(*(r.wait() for r in readies))
    acks: list = []
    await asyncio.gather(*(play(g, n / len(games), seconds, acks)
                           for n, g in enumerate(games)))
    await asyncio.sleep(1.0)  # the last updates arrive
    stop.set()
    await asyncio.gather(*followers)
    delays, missed, warming = [], 0, 0
    first = min(a[2] for a in acks)
    for game, version, acked in acks:
        if acked - first < WARM_UP:
            warming += 1
            continue
        # A page has the move once it has this version or a later one.
        seen = [min((t for v, t in pages.items() if v >= version), default=None)
                for pages in game.seen]
        if None in seen:
            missed += 1
            continue
        delays.append(max(0.0, max(seen) - acked))
        if os.environ.get("BENCH_DEBUG") and max(seen) - acked > 0.05:
            print(f"slow at {acked - first:.2f}s: {max(seen) - acked:.3f}s "
                  f"{[round(x - acked, 3) for x in seen]}", file=sys.stderr)
    return delays, missed, len(acks), warming


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    with throwaway_postgres(fsync=True) as pg:
        url = pg.create_database("online")
        servers = [Server(url, "--games-per-minute", "1000000") for _ in range(2)]
        try:
            games = []
            for _ in range(args.games):
                status, made = servers[0].call("POST", "/api/v1/sessions",
                                               {"game": "trilobite", "params": PARAMS})
                status, answer = servers[0].call(
                    "POST", f"/api/v1/sessions/{made['session']}/online", {"seat": 0})
                games.append(Game(answer["links"], servers))
            delays, missed, moves, warming = asyncio.run(run(games, args.seconds))
            rss = [server.rss_mb() for server in servers]
        finally:
            for server in servers:
                server.stop()
    print(f"online games={args.games} pages={4 * args.games} processes=2 moves={moves} "
          f"warm_up_moves={warming} "
          f"ack_to_last_page_p50_ms={percentile(delays, .5) * 1000:.1f} "
          f"p99_ms={percentile(delays, .99) * 1000:.1f} missed={missed} "
          f"rss_mb={'+'.join(f'{r:.0f}' for r in rss)}")


if __name__ == "__main__":
    main()
