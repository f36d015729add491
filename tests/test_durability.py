"""Games survive: the real server as a subprocess, on a real SQLite file, killed with SIGKILL
right after an acknowledged move, started again on the same file. Every acknowledged move of
every game is there, with the undo/redo history."""

from __future__ import annotations

import pytest

from tests.servers import Server

pytestmark = pytest.mark.slow  # every test starts the real server, some twice


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.db")


def new_game(server, **body):
    status, answer = server.call("POST", "/api/v1/sessions", body)
    assert status == 201, answer
    return answer["session"]


def test_acknowledged_changes_survive_kill_9(db):
    server = Server(db)
    games = {
        new_game(server, game="tictactoe"): ["b2", "a1", "c3"],
        new_game(server, game="trilobite", params="width=9,height=7,line=5"): list("4455667"),
        new_game(server, game="polar", params="level=1"): list("RRRDLUL"),
        new_game(server, game="twomino", params="n=4", seed="k"): ["a1-b1", "b2-c2", "clear"],
    }
    expected = {}
    for ply in range(7):  # the games' moves interleaved, as players would send them
        for sid, moves in games.items():
            if ply < len(moves):
                status, answer = server.call("POST", f"/api/v1/sessions/{sid}/move",
                                             {"move": moves[ply]})
                assert status == 200, answer
                expected[sid] = answer
    tail = next(iter(games))  # one game ends with an undo, so it has a redo tail
    status, expected[tail] = server.call("POST", f"/api/v1/sessions/{tail}/undo")
    assert status == 200
    last = list(games)[1]
    status, expected[last] = server.call("POST", f"/api/v1/sessions/{last}/move", {"move": "1"})
    assert status == 200
    server.kill()  # right after the last acknowledged change

    again = Server(db)
    try:
        for sid, before in expected.items():
            status, now = again.call("GET", f"/api/v1/sessions/{sid}")
            assert status == 200, now
            for key in ("moves", "cursor", "can_undo", "can_redo", "view", "status", "id"):
                assert now[key] == before[key], (sid, key)
        status, save = again.call("GET", f"/api/v1/sessions/{tail}/save")
        assert save["moves"] == ["b2", "a1", "c3"] and save["cursor"] == 2  # the redo tail
        status, redone = again.call("POST", f"/api/v1/sessions/{tail}/redo")
        assert status == 200 and redone["moves"] == ["b2", "a1", "c3"]
    finally:
        again.stop()


def test_a_stopped_server_drains_and_keeps_everything(db):
    server = Server(db)
    sid = new_game(server, game="tictactoe")
    assert server.call("POST", f"/api/v1/sessions/{sid}/move", {"move": "a1"})[0] == 200
    output = server.stop()  # SIGTERM: a clean stop
    assert server.process.returncode == 0, output
    again = Server(db)
    try:
        assert again.call("GET", f"/api/v1/sessions/{sid}")[1]["moves"] == ["a1"]
    finally:
        again.stop()


def test_the_start_line_says_where_it_listens_and_keeps_games(db):
    server = Server(db)
    output = server.stop()
    first = output.splitlines()[0]
    assert f"listening on 127.0.0.1:{server.port}" in first and f"games kept in {db}" in first
    assert "GET /readyz 200" in output  # one log line per request


def test_workers_above_one_need_postgresql(db):
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "gridgames", "serve", "--db", db,
                             "--workers", "2", "--no-browser"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip().endswith("an SQLite database is served by one process")


def test_a_database_that_cannot_be_opened_stops_the_server_at_once(tmp_path):
    import subprocess
    import sys

    (tmp_path / "file").write_text("x")
    result = subprocess.run([sys.executable, "-m", "gridgames", "serve", "--db",
                             str(tmp_path / "file" / "games.db"), "--no-browser"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "cannot open the SQLite database" in result.stderr


def test_idle_games_are_removed_by_the_server(db):
    import time

    server = Server(db)
    sid = new_game(server, game="tictactoe")
    server.stop()
    time.sleep(1.1)
    again = Server(db, "--keep-days", "0.00001")  # 0.86 s: the sweep at start removes it
    try:
        status, answer = again.call("GET", f"/api/v1/sessions/{sid}")
        assert status == 404 and "removed" in answer["error"]
    finally:
        again.stop()


def test_health_endpoints(db):
    server = Server(db)
    try:
        assert server.call("GET", "/healthz") == (200, {"status": "ok"})
        status, ready = server.call("GET", "/readyz")
        assert status == 200 and ready["database"] == db
    finally:
        server.stop()


def test_db_backup_and_restore_commands(db, tmp_path):
    import subprocess
    import sys

    server = Server(db)
    sid = new_game(server, game="tictactoe")
    server.call("POST", f"/api/v1/sessions/{sid}/move", {"move": "b2"})

    def gridgames(*args):
        return subprocess.run([sys.executable, "-m", "gridgames", *args], capture_output=True,
                              text=True, timeout=60)

    backup = gridgames("db", "backup", str(tmp_path / "copy.db"), "--db", db)  # while in use
    assert backup.returncode == 0 and "backed up 1 games" in backup.stdout
    server.stop()
    fresh = str(tmp_path / "other" / "games.db")
    restored = gridgames("db", "restore", str(tmp_path / "copy.db"), "--db", fresh)
    assert restored.returncode == 0 and "restored 1 games" in restored.stdout
    again = Server(fresh)
    try:
        assert again.call("GET", f"/api/v1/sessions/{sid}")[1]["moves"] == ["b2"]
    finally:
        again.stop()
    bad = gridgames("db", "restore", str(tmp_path / "nothing.db"), "--db", fresh)
    assert bad.returncode == 2 and "no such backup file" in bad.stderr


def test_an_online_game_and_its_links_survive_kill_9(db):
    server = Server(db)
    sid = new_game(server, game="tictactoe")
    links = server.call("POST", f"/api/v1/sessions/{sid}/online", {"seat": 0})[1]["links"]
    x, o = (links[k].split("link=")[1] for k in ("you", "opponent"))
    assert server.call("POST", f"/api/v1/links/{x}/move", {"move": "b2"})[0] == 200
    assert server.call("POST", f"/api/v1/links/{o}/offer", {"kind": "draw"})[0] == 200
    server.kill()
    again = Server(db)
    try:
        seen = again.call("GET", f"/api/v1/links/{o}")[1]
        assert seen["moves"] == ["b2"] and seen["online"]["you"] == 1
        assert seen["online"]["offer"]["kind"] == "draw"
        assert again.call("POST", f"/api/v1/links/{x}/move", {"move": "a1"})[0] == 409  # O's turn
        assert again.call("POST", f"/api/v1/links/{o}/move", {"move": "a1"})[0] == 200
    finally:
        again.stop()
