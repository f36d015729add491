"""Memory bounded by configuration: the real server (SQLite, one compute worker) with
`--memory-mb`, driven with 5,000 new games and the analysis of 50 Trilobite board shapes;
the resident memory of the server and its compute workers together stays under the bound.
(bench/bench_store.py drives the full sizes: 100,000 games, 500 shapes, 1 MB saves.)"""

from __future__ import annotations

import http.client
import itertools
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.servers import Server

pytestmark = pytest.mark.slow

BOUND_MB = 1500
GAMES = 5_000
SHAPES = list(itertools.product(range(4, 14), range(4, 9)))  # 10 widths x 5 heights


# A tenth of a second a shape is time enough for a search to spread over its solver's table:
# with the solvers' pool left unbounded, the 50 tables go past the bound.
@pytest.fixture
def server(tmp_path):
    server = Server(str(tmp_path / "games.db"), "--memory-mb", str(BOUND_MB),
                    "--compute-workers", "1", "--think-seconds", "0.1",
                    "--games-per-minute", "1000000", warm=True)
    yield server
    server.stop()


def test_memory_stays_under_the_configured_bound(server):
    # One kept-alive connection a thread, as a browser does: a new connection a request
    # spent a third of this test's time on connecting, not on the games.
    connections = threading.local()

    def create(number: int) -> int:
        if not hasattr(connections, "one"):
            connections.one = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        game = ("tictactoe", "trilobite", "polar")[number % 3]
        connections.one.request("POST", "/api/v1/sessions",
                                json.dumps({"game": game, "seed": str(number)}),
                                {"Content-Type": "application/json"})
        answer = connections.one.getresponse()
        answer.read()
        return answer.status

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(create, range(GAMES)))
    assert statuses.count(201) == GAMES
    after_games = server.rss_mb()

    analysed = 0
    for width, height in SHAPES:
        status, game = server.call("POST", "/api/v1/sessions", {
            "game": "trilobite", "params": f"width={width},height={height},line=4"})
        assert status == 201, game
        sid = game["session"]
        for move in ("1", "2"):
            server.call("POST", f"/api/v1/sessions/{sid}/move", {"move": move})
        status, answer = server.call("GET", f"/api/v1/sessions/{sid}/analysis")
        assert status == 200, answer
        analysed += 1
        assert answer["result"]["status"] in ("proven", "best found", "none within budget")
    after_shapes = server.rss_mb()
    assert analysed == len(SHAPES) == 50
    print(f"rss after {GAMES} games: {after_games:.0f} MB; after 50 shapes: "
          f"{after_shapes:.0f} MB; bound {BOUND_MB} MB")
    assert after_games < BOUND_MB and after_shapes < BOUND_MB
    assert server.call("GET", "/readyz")[0] == 200  # and it still serves
