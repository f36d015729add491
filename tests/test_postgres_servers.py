"""Several server processes over one real PostgreSQL database: moves of the same games sent
to both processes in turn, and at the same time, are all kept, in order; none is lost."""

from __future__ import annotations

import threading

import pytest

from tests.servers import Server


@pytest.fixture
def two_servers(postgres_url):
    first = Server(postgres_url)
    second = Server(postgres_url)
    yield first, second
    first.stop()
    second.stop()


def test_alternating_moves_through_two_processes(two_servers):
    """Three games, their moves sent in turn to one process and the other."""
    a, b = two_servers
    games = {}
    for params in ("width=9,height=7,line=5", "width=7,height=6,line=4", "width=5,height=5,line=3"):
        status, game = a.call("POST", "/api/v1/sessions", {"game": "trilobite", "params": params})
        assert status == 201, game
        games[game["session"]] = list("123451234512")[:int(params[6]) + 3]
    sent = 0
    for ply in range(max(len(m) for m in games.values())):
        for sid, moves in games.items():
            if ply < len(moves):
                server = (a, b)[sent % 2]
                sent += 1
                status, answer = server.call("POST", f"/api/v1/sessions/{sid}/move",
                                             {"move": moves[ply]})
                assert status == 200, answer
                assert answer["moves"] == moves[:ply + 1]
    for sid, moves in games.items():
        undo = b.call("POST", f"/api/v1/sessions/{sid}/undo")[1]
        assert undo["moves"] == moves[:-1] and undo["can_redo"]
        for server in (a, b):  # both processes see the same game, redo tail included
            seen = server.call("GET", f"/api/v1/sessions/{sid}")[1]
            assert seen["moves"] == moves[:-1] and seen["can_redo"]


def test_concurrent_moves_through_two_processes_lose_nothing(two_servers):
    a, b = two_servers
    sid = a.call("POST", "/api/v1/sessions", {"game": "polar", "params": "level=1"})[1]["session"]
    acknowledged: list[list[str]] = []
    lock = threading.Lock()

    def player(server, move):
        for _ in range(12):
            status, answer = server.call("POST", f"/api/v1/sessions/{sid}/move", {"move": move})
            if status == 200:
                with lock:
                    acknowledged.append(answer["moves"])
            else:  # refused by the rules or by a change that met another: nothing changed
                assert status == 409, answer

    threads = [threading.Thread(target=player, args=(server, move))
               for server in (a, b) for move in ("D", "U")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    final = b.call("GET", f"/api/v1/sessions/{sid}")[1]["moves"]
    assert len(final) == len(acknowledged) > 0  # every acknowledged move, once
    for moves in acknowledged:  # each answer is the history at the time of its own move
        assert final[:len(moves)] == moves
    assert a.call("GET", f"/api/v1/sessions/{sid}")[1]["moves"] == final


def test_workers_option_runs_several_processes(postgres_url):
    server = Server(postgres_url, "--workers", "2")
    try:
        sid = server.call("POST", "/api/v1/sessions", {"game": "tictactoe"})[1]["session"]
        for move in ("a1", "b1", "a2", "b2"):
            assert server.call("POST", f"/api/v1/sessions/{sid}/move", {"move": move})[0] == 200
        final = server.call("POST", f"/api/v1/sessions/{sid}/move", {"move": "a3"})[1]
        assert final["status"]["message"] == "X wins!"
        assert final["moves"] == ["a1", "b1", "a2", "b2", "a3"]
    finally:
        output = server.stop()
    assert "with 2 processes" in output.splitlines()[0]
    assert "games kept in postgresql://" in output.splitlines()[0]
