"""Several server processes over one real PostgreSQL database: moves of the same games sent
to both processes in turn, and at the same time, are all kept, in order; none is lost."""

from __future__ import annotations

import threading

import pytest

from tests.servers import Server

# Server processes over a real PostgreSQL server. One worker runs the module, so the pair of
# servers below starts once (`--dist loadgroup`, as `make test` runs).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("postgres-servers")]


@pytest.fixture(scope="module")
def two_servers(postgres_server):
    """Two server processes over one database, shared by the module's tests: each test plays
    games of its own, so what another test left in the database is never among them."""
    import secrets

    url = postgres_server.create_database("t_" + secrets.token_hex(6))
    first = Server(url)
    second = Server(url)
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


def test_online_players_on_two_processes_see_each_others_moves(two_servers):
    """The players' pages on different processes: each move reaches the other's live
    connection through PostgreSQL's notifications, in well under a second."""
    import asyncio
    import concurrent.futures
    import json

    import websockets

    a, b = two_servers
    sid = a.call("POST", "/api/v1/sessions", {"game": "tictactoe"})[1]["session"]
    links = a.call("POST", f"/api/v1/sessions/{sid}/online", {"seat": 0})[1]["links"]
    x, o = (links[k].split("link=")[1] for k in ("you", "opponent"))

    async def play() -> list[float]:
        waits = []
        async with websockets.connect(f"ws://127.0.0.1:{a.port}/api/v1/links/{x}/live") as on_a, \
                websockets.connect(f"ws://127.0.0.1:{b.port}/api/v1/links/{o}/live") as on_b:
            for page in (on_a, on_b):
                json.loads(await page.recv())
            for number, (server, token, other) in enumerate(
                    [(a, x, on_b), (b, o, on_a), (a, x, on_b), (b, o, on_a), (a, x, on_b)]):
                move = ("a1", "b1", "a2", "b2", "a3")[number]
                status, _ = await asyncio.to_thread(
                    server.call, "POST", f"/api/v1/links/{token}/move", {"move": move})
                assert status == 200
                acknowledged = asyncio.get_running_loop().time()
                while True:  # presence news may come first
                    seen = json.loads(await asyncio.wait_for(other.recv(), 5))
                    if len(seen["payload"]["moves"]) == number + 1:
                        break
                waits.append(asyncio.get_running_loop().time() - acknowledged)
            assert seen["payload"]["status"]["message"] == "X wins!"
        return waits

    # In a thread of its own: a browser test before this one on the same worker leaves
    # Playwright's event loop running in the main thread, where asyncio.run() is refused.
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        waits = thread.submit(asyncio.run, play()).result()
    assert len(waits) == 5 and max(waits) < 2.0  # bench/bench_online.py measures it properly
    assert b.call("GET", f"/api/v1/links/{o}")[1]["moves"] == ["a1", "b1", "a2", "b2", "a3"]


def test_a_dailys_first_requests_on_two_processes_get_one_level(two_servers):
    """Polar's daily level, asked of both processes at once before either made it: each
    process's pool makes it, the first stored is kept, and both answer with that one."""
    answers = {}

    def ask(server):
        answers[server.port] = server.call("GET", "/api/v1/daily/2026-11-21/polar")

    threads = [threading.Thread(target=ask, args=(server,)) for server in two_servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    (status_a, a), (status_b, b) = answers.values()
    assert status_a == status_b == 200 and a["id"] == b["id"] and a["id"].startswith("polar::")


def _player(server, name):
    status, made = server.call("POST", "/api/v1/players", {"name": name})
    assert status == 201, made
    return {"Authorization": f"Bearer {made['secret']}"}


def test_a_seek_is_paired_once_across_two_processes(two_servers):
    """Two players accept one seek at the same moment on different processes: one gets the
    game, the other a clear refusal; the seeker's look on the first process finds it, and
    the rated result reaches both processes."""
    a, b = two_servers
    ann, bob, cy = _player(a, "Ann"), _player(b, "Bob"), _player(a, "Cy")
    status, made = a.call("POST", "/api/v1/seeks", {"game": "tictactoe", "seat": "first"}, ann)
    assert status == 201, made
    answers = []

    def accept(server, who):
        answers.append(server.call("POST", f"/api/v1/seeks/{made['seek']['id']}/accept",
                                   None, who))

    threads = [threading.Thread(target=accept, args=pair) for pair in ((b, bob), (a, cy))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(status for status, _ in answers)[0] == 200, answers
    assert sorted(status for status, _ in answers)[1] in (404, 409), answers
    winner_link = next(body["link"] for status, body in answers if status == 200)
    paired = a.call("GET", "/api/v1/lobby", None, ann)[1]["paired"]
    assert paired and b.call("POST", f"/api/v1/links/{paired['link']}/resign")[0] == 200
    for server in (a, b):
        shown = server.call("GET", f"/api/v1/links/{winner_link}")[1]["online"]["players"]
        assert shown[1]["rating_after"] > 1500 > shown[0]["rating_after"]


def test_a_bot_plays_a_person_through_its_event_stream(two_servers, tmp_path):
    """examples/lobby_bot.py with a ConnectX agent of its own, on one process; the person
    challenges it on the other (the bot takes the challenge from its event stream) and plays
    to the end."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    a, b = two_servers
    agent = tmp_path / "agent.py"
    agent.write_text("def agent(observation, configuration):\n"
                     "    columns = configuration.columns\n"
                     "    return next(c for c in range(columns) if observation.board[c] == 0)\n")
    bot = subprocess.Popen(
        [sys.executable, str(Path(__file__).parents[1] / "examples" / "lobby_bot.py"),
         "--server", f"http://127.0.0.1:{a.port}", "--name", "Kaggler", "--params",
         "width=3,height=3,line=3", "--connectx", str(agent), "--casual"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        person = _player(b, "Person")
        deadline = time.monotonic() + 30
        while not (seeks := b.call("GET", "/api/v1/lobby", None, person)[1]["seeks"]):
            assert time.monotonic() < deadline, "the bot never sought a game"
            time.sleep(0.2)
        assert seeks[0]["player"] == "Kaggler" and seeks[0]["bot"] and not seeks[0]["rated"]
        status, made = b.call("POST", "/api/v1/seeks", {
            "game": "trilobite", "params": "width=3,height=3,line=3", "opponent": "Kaggler",
            "rated": False}, person)
        assert status == 201, made
        while not (game := b.call("GET", "/api/v1/lobby", None, person)[1]["paired"]):
            assert time.monotonic() < deadline, "the bot never took the challenge"
            time.sleep(0.2)
        while not (now := b.call("GET", f"/api/v1/links/{game['link']}")[1])["status"]["over"]:
            assert time.monotonic() < deadline + 30, "the game did not end"
            if now["to_move"] == now["online"]["you"]:  # the person: the last column free
                b.call("POST", f"/api/v1/links/{game['link']}/move",
                       {"move": now["legal_moves"][-1]})
            time.sleep(0.1)
        assert now["online"]["players"][1 - now["online"]["you"]]["name"] == "Kaggler"
        said = bot.communicate(timeout=15)[0]
    finally:
        bot.kill()
    assert bot.returncode == 0 and "game 1:" in said and now["status"]["message"] in said, said


def test_a_game_on_time_is_ended_once_by_either_process(two_servers):
    """Both processes look for games out of time: the game ends once, rated once."""
    import time

    from gridgames.store import open_store
    from tests.test_clocks import age

    a, b = two_servers
    ann, bob = _player(a, "Clockann"), _player(b, "Clockbob")
    made = a.call("POST", "/api/v1/seeks", {"game": "tictactoe", "seat": "first",
                                            "clock": {"kind": "move", "seconds": 10}}, ann)[1]
    link = b.call("POST", f"/api/v1/seeks/{made['seek']['id']}/accept", None, bob)[1]["link"]
    store = open_store(a.db)
    try:
        age(store, store.link(link).game_id, 11)
    finally:
        store.close()
    deadline = time.monotonic() + 10
    while "rating_after" not in (now := b.call("GET", f"/api/v1/links/{link}")[1])["online"][
            "players"][0]:
        assert time.monotonic() < deadline, now["status"]
        time.sleep(0.1)
    assert now["status"]["message"] == "O wins: X ran out of time"
    for server, who in ((a, "Clockann"), (b, "Clockbob")):
        assert server.call("GET", f"/api/v1/players/{who}")[1]["ratings"][0]["games"] == 1


def test_news_in_the_lobby_wakes_the_players_event_streams_in_every_process(postgres_url):
    """Two processes' live hubs over one database: news for a player announced by one (a
    challenge, a seek paired) wakes that player's event streams waiting in the other at once
    (LISTEN/NOTIFY), not at their next look, and no other player's."""
    import asyncio

    from gridgames.store import open_store
    from gridgames.web.live import Hub

    def hub() -> Hub:
        return Hub(open_store(postgres_url), lambda *_: None, lambda *_: None)

    async def run() -> None:
        here, there = hub(), hub()
        here.start()
        there.start()
        try:
            bot, other = there.follow("bot-id"), there.follow("other-id")
            assert await bot.news(bot.mark, 30)  # listening now: news may have been missed
            since, others = bot.mark, other.mark
            waiting = asyncio.create_task(bot.news(since, 30))
            await asyncio.sleep(0.1)
            await asyncio.to_thread(here.lobby_news, ["bot-id"])
            assert await asyncio.wait_for(waiting, 10)
            assert not await other.news(others, 0.5)  # another player: not woken
            assert not await bot.news(bot.mark, 0.5)  # nothing more announced
        finally:
            here.stop()
            there.stop()
            here.store.close()
            there.store.close()

    asyncio.run(run())
