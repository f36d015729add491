"""The server on its worst day, tried against the real server (`gridgames serve` as a
subprocess): the database goes away and comes back, turns read-only, its disk fills, its file
is corrupt; a live page never reads; connections come in a burst; headers lie; requests
arrive slowly. Each test asserts behaviour: status codes, Retry-After, nothing acknowledged
lost, other clients unaffected; never timings (bench/ measures those).

Polar level 1 with the penguin walking right and left is the game of choice: every move is
legal, none ends the game, and each is one stored change."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from contextlib import suppress

import pytest

from tests.conftest import IN_CI
from tests.servers import Server

pytestmark = pytest.mark.slow  # every test starts the real server (some PostgreSQL, Chromium)

WALK = ("R", "L")


def new_game(server: Server) -> str:
    status, answer = server.call("POST", "/api/v1/sessions", {"game": "polar",
                                                              "params": "level=1"})
    assert status == 201, answer
    return answer["session"]


def walk(server: Server, sid: str, played: list[str]) -> tuple[int, object, object]:
    """One more step; on 200 it is added to `played` (acknowledged)."""
    step = WALK[len(played) % 2]
    status, headers, answer = server.answer("POST", f"/api/v1/sessions/{sid}/move",
                                            {"move": step})
    if status == 200:
        played.append(step)
        assert answer["moves"] == played
    return status, headers, answer


def refused_now(status: int, headers, answer, words: str) -> None:
    """A 503 with Retry-After that says why."""
    assert status == 503, answer
    assert int(headers["Retry-After"]) >= 1
    assert words in answer["error"], answer


def wait_ready(server: Server, status: int = 200, seconds: float = 60) -> dict:
    """/readyz's answer once it is `status` (it is kept for a second between two probes)."""
    deadline = time.monotonic() + seconds
    while True:
        found, answer = server.call("GET", "/readyz")
        if found == status:
            return answer
        assert time.monotonic() < deadline, f"/readyz never said {status}"
        time.sleep(0.2)


def needs(reason: str) -> None:
    if IN_CI:
        pytest.fail(reason)
    pytest.skip(reason)


# --- the database ---


def test_postgresql_going_away_and_read_only_gives_503_and_heals():
    from tests.services import NoPostgres, throwaway_postgres

    try:
        context = throwaway_postgres()
        pg = context.__enter__()  # a server of its own: this test stops it
    except NoPostgres as err:
        needs(str(err))
    try:
        server = Server(pg.create_database("faults"))
        try:
            sid, played = new_game(server), []
            for _ in range(4):
                assert walk(server, sid, played)[0] == 200
            pg.stop()
            refused_now(*walk(server, sid, played), "cannot be reached")
            refused_now(*server.answer("GET", f"/api/v1/sessions/{sid}"), "cannot be reached")
            refused_now(*server.answer("POST", "/api/v1/sessions", {"game": "tictactoe"}),
                        "cannot be reached")
            status, _, ready = server.answer("GET", "/readyz")
            assert status == 503 and "cannot be reached" in ready["error"]
            pg.start()
            wait_ready(server)
            for _ in range(10):  # no error after it: the stale pooled connections are gone
                assert walk(server, sid, played)[0] == 200
                assert server.call("GET", f"/api/v1/sessions/{sid}")[1]["moves"] == played

            read_only(pg, True)
            refused_now(*walk(server, sid, played), "read-only")
            assert server.call("GET", f"/api/v1/sessions/{sid}")[0] == 200  # reads go on
            assert "read-only" in wait_ready(server, 503)["error"]
            read_only(pg, False)
            wait_ready(server)
            assert walk(server, sid, played)[0] == 200
            assert server.call("GET", f"/api/v1/sessions/{sid}")[1]["moves"] == played
        finally:
            server.stop()
    finally:
        context.__exit__(None, None, None)


def read_only(pg, on: bool) -> None:
    import psycopg

    with psycopg.connect(pg.dsn("postgres"), autocommit=True) as conn:
        conn.execute(f"ALTER SYSTEM SET default_transaction_read_only = {'on' if on else 'off'}")
        conn.execute("SELECT pg_reload_conf()")
    time.sleep(0.5)  # every session reads the reloaded configuration at its next command


@pytest.fixture
def small_disk(tmp_path):
    """A 3 MB file system of its own (tmpfs: CI runs as root)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(disk)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        needs(f"cannot mount a small tmpfs (needs root): {made.stderr.strip()}")
    yield disk
    subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def test_a_full_disk_refuses_writes_keeps_reads_and_heals(small_disk):
    db = str(small_disk / "games.db")
    server = Server(db)
    try:
        games = {new_game(server): [] for _ in range(3)}
        for sid, played in games.items():
            assert walk(server, sid, played)[0] == 200
        filler = fill(small_disk)
        refusals = 0
        for _ in range(3000):
            for sid, played in games.items():
                status, headers, answer = walk(server, sid, played)
                if status != 200:
                    refused_now(status, headers, answer, "disk is full")
                    refusals += 1
            if refusals >= 3:
                break
        assert refusals >= 3, "the disk never filled"
        for sid, played in games.items():  # reads still answer
            status, seen = server.call("GET", f"/api/v1/sessions/{sid}")
            assert status == 200 and seen["moves"] == played
        assert "disk is full" in wait_ready(server, 503)["error"]
        filler.unlink()
        for sid, played in games.items():  # heals by itself: no error after the room is back
            for _ in range(3):
                assert walk(server, sid, played)[0] == 200
        wait_ready(server)
    finally:
        server.kill()  # no clean stop: what was acknowledged must be on disk already
    again = Server(db)
    try:
        for sid, played in games.items():  # nothing acknowledged was lost
            assert again.call("GET", f"/api/v1/sessions/{sid}")[1]["moves"] == played
    finally:
        again.stop()


def fill(disk) -> object:
    """Fill the disk with a file (returned: deleting it makes room again); again, the room
    given back since."""
    filler = disk / "filler"
    with open(filler, "ab") as out, suppress(OSError):
        while True:
            out.write(b"\0" * 65536)
            out.flush()
    return filler


def refusing_for_good(server: Server, disk) -> tuple[object, sqlite3.Connection]:
    """Fill the disk until the database refuses writes, and keep it so: a reader holding a
    snapshot stops the background checkpoint from restarting the WAL (whose room the next
    writes would reuse), so every write needs room the disk has not. The filler is returned,
    and the reader to close."""
    sid, played = new_game(server), []
    assert walk(server, sid, played)[0] == 200  # the WAL holds a move the reader sees
    reader = sqlite3.connect(server.db)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM sqlite_master").fetchone()
    fill(disk)
    while walk(server, sid, played)[0] == 200:
        assert len(played) < 3000, "the disk never filled"
    return fill(disk), reader  # and what the refused write gave back


@pytest.mark.browser
def test_a_move_made_while_the_disk_is_full_goes_through_once_there_is_room(small_disk,
                                                                            page):
    from playwright.sync_api import expect

    server = Server(str(small_disk / "games.db"))
    try:
        page.goto(f"{server.base}/play/tictactoe?id=tictactoe::3/3/3&seats=person,person")
        expect(page.locator("#status-text")).to_have_text("It's X's turn")
        filler, reader = refusing_for_good(server, small_disk)
        page.locator('[data-cell="4"]').click()  # X in the centre, refused (503) for now
        expect(page.locator("#live")).to_have_text("reconnecting…")
        expect(page.locator("[data-stone]")).to_have_count(0)
        filler.unlink()
        reader.close()
        expect(page.locator("[data-stone]")).to_have_count(1, timeout=30_000)
        expect(page.locator("#live")).to_be_hidden()
        expect(page.locator("#status-text")).to_have_text("It's O's turn")
        page.reload()  # the server has it: once
        expect(page.locator("#status-text")).to_have_text("It's O's turn")
        expect(page.locator("[data-stone]")).to_have_count(1)
    finally:
        server.stop()


def test_a_corrupt_file_answers_503_then_is_refused_at_start_until_restored(tmp_path):
    db, backup = tmp_path / "games.db", tmp_path / "backup.db"
    server = Server(str(db), "--games-per-minute", "1000")
    try:
        games = [new_game(server) for _ in range(150)]
    finally:
        server.stop()
    assert gridgames("db", "backup", str(backup), "--db", str(db)).returncode == 0
    server = Server(str(db))  # it starts: the file is sound
    try:
        size = db.stat().st_size
        with open(db, "r+b") as data:  # pages past the schema's, garbled under the server
            data.seek(4 * 4096)
            data.write(os.urandom(size - 5 * 4096))
        statuses = {server.call("GET", f"/api/v1/sessions/{sid}")[0] for sid in games}
        assert 503 in statuses and statuses <= {200, 503}
        assert "corrupt" in wait_ready(server, 503)["error"]
    finally:
        server.stop()
    refused = gridgames("serve", "--no-browser", "--db", str(db))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "corrupt" in refused.stderr and "gridgames db restore" in refused.stderr
    assert gridgames("db", "restore", str(backup), "--db", str(db)).returncode == 0
    again = Server(str(db))
    try:
        assert {again.call("GET", f"/api/v1/sessions/{sid}")[0] for sid in games} == {200}
    finally:
        again.stop()


def gridgames(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridgames", *args], capture_output=True,
                          text=True, timeout=120)


# --- live pages ---


def run_async(coroutine):
    """asyncio in a thread of its own: a browser test before this one on the same worker
    leaves Playwright's loop running in the main thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def watch_token(server: Server, sid: str) -> str:
    status, answer = server.call("POST", f"/api/v1/sessions/{sid}/watch")
    assert status == 200, answer
    return answer["watch"].split("link=")[1]


def test_a_page_that_never_reads_is_dropped_and_slows_no_other(tmp_path):
    import websockets

    server = Server(str(tmp_path / "games.db"), "--client-timeout", "1")
    try:
        sid, played = new_game(server), []
        path = f"/api/v1/links/{watch_token(server, sid)}/live"
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.connect(("127.0.0.1", server.port))
        stuck.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n".encode())  # and never reads

        async def read(page, moves: int) -> int:
            """What a page that reads shows: messages until the last move is in."""
            while True:
                shown = json.loads(await asyncio.wait_for(page.recv(), 30))
                if len(shown.get("payload", {}).get("moves", ())) == moves:
                    await page.close()
                    return moves

        async def follow() -> list[int]:
            url = f"ws://127.0.0.1:{server.port}{path}"
            pages = [await websockets.connect(url) for _ in range(3)]
            readers = [asyncio.ensure_future(read(page, 800)) for page in pages]
            for _ in range(800):  # far more than the stuck page's buffers hold
                status = (await asyncio.to_thread(walk, server, sid, played))[0]
                assert status == 200
            return await asyncio.gather(*readers)

        assert run_async(follow()) == [800, 800, 800]  # every reader got the last move
        stuck.settimeout(20)
        try:
            while stuck.recv(65536):  # what the server sent before it gave up on it
                pass
            dropped = True  # the end of the stream
        except ConnectionResetError:
            dropped = True  # aborted
        except TimeoutError:
            dropped = False  # still held open
        stuck.close()
        assert dropped
    finally:
        server.stop()


def test_a_burst_of_connections_meets_the_limits_and_other_games_go_on(tmp_path):
    """Loopback addresses stand for clients (127.0.0.2, .3, ...): 30 pages each is the
    limit of a client, 90 of the server."""
    import websockets
    from websockets.exceptions import InvalidStatus

    server = Server(str(tmp_path / "games.db"), "--live-pages", "90",
                    "--live-pages-per-client", "30")
    try:
        watched, other, played = new_game(server), new_game(server), []
        url = f"ws://127.0.0.1:{server.port}/api/v1/links/{watch_token(server, watched)}/live"

        async def burst() -> None:
            async def page(client: int):
                return await websockets.connect(url, local_addr=(f"127.0.0.{client}", 0))

            async def refused(client: int) -> tuple[int, str, dict]:
                with pytest.raises(InvalidStatus) as caught:
                    await page(client)
                answer = caught.value.response
                return answer.status_code, answer.headers, json.loads(answer.body)

            held = await asyncio.gather(*(page(2) for _ in range(30)))
            status, headers, answer = await refused(2)  # 30 of its own already
            assert status == 429 and "30 live pages" in answer["error"]
            assert int(headers["Retry-After"]) >= 1
            assert headers["content-security-policy"]  # a refusal has the headers too
            for client in (3, 4):
                held += await asyncio.gather(*(page(client) for _ in range(30)))
                moved = await asyncio.to_thread(walk, server, other, played)
                assert moved[0] == 200  # another game's moves go on meanwhile
            status, headers, answer = await refused(5)  # the server is full
            assert status == 503 and int(headers["Retry-After"]) >= 1 and answer["error"]
            await held.pop().close()
            for _ in range(100):  # a place comes free for another client once it is gone
                try:
                    held.append(await page(5))
                    break
                except InvalidStatus:
                    await asyncio.sleep(0.1)
            for shown in held:
                assert json.loads(await asyncio.wait_for(shown.recv(), 30))["type"] == "state"
            await asyncio.gather(*(shown.close() for shown in held))
            assert len(held) == 90

        run_async(burst())
        assert server.call("GET", f"/api/v1/sessions/{other}")[1]["moves"] == played
    finally:
        server.stop()


# --- headers and requests that lie or dawdle ---


def test_forged_forwarded_headers_and_a_rematch_loop_meet_the_creation_limit(tmp_path):
    server = Server(str(tmp_path / "games.db"), "--games-per-minute", "1")  # a burst of 2
    try:
        def create(forwarded: str | None = None) -> int:
            headers = {"X-Forwarded-For": forwarded} if forwarded else None
            return server.call("POST", "/api/v1/sessions", {"game": "tictactoe"}, headers)[0]

        sid = server.call("POST", "/api/v1/sessions", {"game": "tictactoe"})[1]["session"]
        links = server.call("POST", f"/api/v1/sessions/{sid}/online", {"seat": 0})[1]["links"]
        x, o = (links[side].split("link=")[1] for side in ("you", "opponent"))
        assert server.call("POST", f"/api/v1/links/{x}/resign")[0] == 200
        assert server.call("POST", f"/api/v1/links/{x}/offer", {"kind": "rematch"})[0] == 200
        assert server.call("POST", f"/api/v1/links/{o}/reply",
                           {"kind": "rematch", "accept": True})[0] == 200  # the 2nd game
        assert create("198.51.100.7") == 429  # a header from no trusted proxy changes nothing
        assert create("198.51.100.7, 203.0.113.9") == 429
        assert server.call("POST", f"/api/v1/links/{o}/resign")[0] == 200
        assert server.call("POST", f"/api/v1/links/{o}/offer", {"kind": "rematch"})[0] == 200
        status, answer = server.call("POST", f"/api/v1/links/{x}/reply",
                                     {"kind": "rematch", "accept": True})
        assert status == 429 and "too many new games" in answer["error"]
    finally:
        server.stop()
    behind = Server(str(tmp_path / "games.db"), "--games-per-minute", "1",
                    "--trusted-proxy", "127.0.0.1")
    try:  # from a trusted proxy the header names the client
        for client in ("198.51.100.7", "198.51.100.8"):
            for expected in (201, 201, 429):
                assert behind.call("POST", "/api/v1/sessions", {"game": "tictactoe"},
                                   {"X-Forwarded-For": client})[0] == expected
    finally:
        behind.stop()


def test_slow_requests_are_answered_408_and_closed_while_others_are_served(tmp_path):
    server = Server(str(tmp_path / "games.db"), "--client-timeout", "1")
    try:
        def connect(first: bytes) -> socket.socket:
            slow = socket.create_connection(("127.0.0.1", server.port))
            slow.sendall(first)
            return slow

        half_sent = [connect(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no end
                     for _ in range(100)]
        silent = connect(b"")
        short_body = connect(b"POST /api/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Content-Type: application/json\r\nContent-Length: 100\r\n"
                             b"\r\n{\"game\"")
        for _ in range(5):  # meanwhile everyone else is served
            assert server.call("GET", "/healthz")[0] == 200
        for slow in [*half_sent, silent, short_body]:
            slow.settimeout(20)
            answer = b""
            with suppress(ConnectionResetError):
                while chunk := slow.recv(4096):
                    answer += chunk
            assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
            assert b"content-security-policy" in answer.lower()
            slow.close()
        assert server.call("GET", "/api/v1/games")[0] == 200
        garbled = connect(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n")
        answer = garbled.recv(4096)
        assert answer.startswith(b"HTTP/1.1 400") and b"content-security-policy" in answer
        garbled.close()
    finally:
        server.stop()


def test_a_refused_upgrade_is_a_json_403_with_the_headers_and_a_log_line(tmp_path):
    import websockets
    from websockets.exceptions import InvalidStatus

    server = Server(str(tmp_path / "games.db"))
    try:
        token = watch_token(server, new_game(server))

        async def refused():
            with pytest.raises(InvalidStatus) as caught:
                await websockets.connect(f"ws://127.0.0.1:{server.port}/api/v1/links/{token}"
                                         "/live", origin="http://evil.example")
            return caught.value.response

        answer = run_async(refused())
        assert answer.status_code == 403 and "another site" in json.loads(answer.body)["error"]
        assert "default-src 'self'" in answer.headers["content-security-policy"]
    finally:
        output = server.stop()
    assert "WS /api/v1/links/…/live 403" in output and token not in output
    assert "ERROR" not in output


def test_a_frame_over_the_limit_is_refused_unread_and_a_binary_one_too(tmp_path):
    import websockets
    from websockets.exceptions import ConnectionClosed

    server = Server(str(tmp_path / "games.db"))
    try:
        url = f"ws://127.0.0.1:{server.port}/api/v1/links/" \
              f"{watch_token(server, new_game(server))}/live"

        async def closed_by(message) -> int:
            page = await websockets.connect(url, max_size=2**20)
            await page.recv()  # the first position
            try:  # the server may close while the message is still being sent
                await page.send(message)
                while True:
                    await asyncio.wait_for(page.recv(), 30)
            except ConnectionClosed as closed:
                return closed.rcvd.code
            finally:
                await page.close()

        assert run_async(closed_by("x" * 16 * 1024 * 1024)) == 1009  # 16 MB: not read whole
        assert run_async(closed_by(b'{"type": "ping"}')) == 1003
        assert server.call("GET", "/readyz")[0] == 200  # and the server goes on
    finally:
        server.stop()
