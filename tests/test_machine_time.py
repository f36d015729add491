"""Machine play on a page, by default (issue 32): every AI move and hint answers within 2 s on
the largest board the settings offer; "perfect" is offered only where it proves its moves in
that time, and a link or saved game naming it elsewhere still loads; the home page's previews
come from games prepared ahead, not from the compute pool; a server starts its compute
workers with itself."""

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gridgames.compute.demo import demo_moves, shipped_moves
from gridgames.registry import default_games
from gridgames.web.config import ServerConfig
from tests.conftest import make_app
from tests.servers import Server, cpu_seconds, process_tree

GAMES = default_games()
PAGE_SECONDS = 2.0  # the most a player waits for an AI move or a hint, by default
LARGEST = "width=20,height=20,line=4"  # the most cells, and the most windows to evaluate


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("machine-time") / "games.db")
    with TestClient(app, raise_server_exceptions=True) as client:
        yield client


def levels(client, params: str) -> list[str]:
    answer = client.get("/api/v1/games/trilobite/ai-levels", params={"params": params})
    assert answer.status_code == 200, answer.text
    return answer.json()["levels"]


def test_the_default_think_time_is_a_page_s_wait():
    assert ServerConfig().think_seconds == PAGE_SECONDS


@pytest.mark.slow  # seconds of searching on the largest boards
def test_ai_moves_and_hints_on_the_largest_board_answer_within_2_s(client):
    """Each answer's own clock says at most 2 s, or else its worker waited for a core most of
    that time: the workers run at the lowest priority, and with four test runs on two cores
    one answer's clock said 3.8 s. The CPU time the worker spent on each stays within 2 s."""
    compute = client.app.state.compute
    game = client.post("/api/v1/sessions", json={"game": "trilobite", "params": LARGEST,
                                                 "seats": ["person", "perfect"]}).json()
    sid = game["session"]
    assert game["seats"] == ["person", "hard"]  # the strongest offered on this board
    # The worker starts (and loads its kernels) with a first, quick job, not timed.
    assert client.post(f"/api/v1/sessions/{sid}/ai", json={"level": "easy"}).status_code == 200
    for ask in (lambda: client.post(f"/api/v1/sessions/{sid}/ai", json={"level": "perfect"}),
                lambda: client.get(f"/api/v1/sessions/{sid}/hint"),
                lambda: client.post(f"/api/v1/sessions/{sid}/ai")):
        before = sum(cpu_seconds(pid) for pid in compute.pids())
        answer = ask()
        assert answer.status_code == 200, answer.text
        spent = sum(cpu_seconds(pid) for pid in compute.pids()) - before
        result = answer.json()["result"]
        assert spent <= PAGE_SECONDS, (spent, result)
        assert result["seconds"] <= PAGE_SECONDS or spent < result["seconds"] / 2, \
            (spent, result)
        assert not result["proven"] and "best found" in result["words"]


def test_perfect_is_offered_only_where_it_proves_its_moves_in_time(client):
    card = next(c for c in client.get("/api/v1/games").json() if c["name"] == "trilobite")
    assert card["ai_levels"] == ["easy", "medium", "hard", "perfect"]  # 7x6: the book
    assert levels(client, "") == card["ai_levels"]
    assert levels(client, "width=7,height=3,line=7") == card["ai_levels"]  # 21 cells
    for big in ("width=10,height=10,line=5", LARGEST, "width=6,height=4,line=6",
                "width=7,height=6,line=5"):
        assert levels(client, big) == ["easy", "medium", "hard"], big
    answer = client.get("/api/v1/games/trilobite/ai-levels",
                        params={"params": "width=99"})
    assert answer.status_code == 400
    tictactoe = client.get("/api/v1/games/tictactoe/ai-levels").json()
    assert tictactoe == {"levels": ["random", "easy", "perfect"], "default": "easy"}


def test_a_game_naming_perfect_on_a_big_board_still_loads_and_plays(client):
    """Links and saved games from before name "perfect" anywhere: accepted, as the strongest
    level offered there; a seat already stored as "perfect" still plays."""
    game = client.post("/api/v1/sessions", json={
        "id": "trilobite:width=10,height=10,line=5:" + "/".join(["10"] * 10),
        "moves": ["5"], "seats": ["perfect", "person"]}).json()
    assert game["seats"] == ["hard", "person"]
    assert game["ai_levels"] == ["easy", "medium", "hard"]
    sid = game["session"]
    seated = client.put(f"/api/v1/sessions/{sid}/seats", json={"seats": ["person", "perfect"]})
    assert seated.json()["seats"] == ["person", "hard"]
    small = client.post("/api/v1/sessions", json={"game": "trilobite",
                                                  "seats": ["person", "perfect"]}).json()
    assert small["seats"] == ["person", "perfect"] and "perfect" in small["ai_levels"]


def test_previews_come_from_games_prepared_ahead(client):
    """No preview is played by the compute pool: each is the shipped moves, replayed."""
    compute = client.app.state.compute
    before = compute.stats()["finished"]
    for name, game in GAMES.items():
        views = client.get(f"/api/v1/games/{name}/demo").json()["views"]
        assert len(views) == len(shipped_moves()[name]) + 1 > 3, name
        assert views[0] == game.view(game.new_state(game.params_type(), views_start(name)))
    after = compute.stats()["finished"]
    assert after.get(("demo", "ok"), 0) == before.get(("demo", "ok"), 0)


def views_start(name: str) -> str:
    from gridgames.compute.demo import DEMO_SEED
    from gridgames.session import Session

    return Session.new(name, "", seed=DEMO_SEED, games=GAMES).desc


def test_the_shipped_previews_are_what_the_machine_plays():
    """previews.json is prepared ahead: after a change to a game's start, rules or machine
    play, `python -m gridgames.compute.demo` writes it again."""
    assert shipped_moves() == {name: demo_moves(game, GAMES) for name, game in GAMES.items()}


@pytest.mark.slow  # a real server and its compute worker
def test_a_fresh_server_paints_previews_at_once_and_starts_its_workers(tmp_path: Path):
    """A server started as a person starts it: the previews take it well under 1 s of CPU
    altogether (0.12 s of wall time on a quiet machine; with four test runs on two cores the
    server waits for a core), while its compute workers start beside it, before any job."""
    server = Server(str(tmp_path / "games.db"), "--compute-workers", "1", warm=True)
    try:
        began, cpu = time.monotonic(), cpu_seconds(server.process.pid)
        for name in GAMES:
            status, answer = server.call("GET", f"/api/v1/games/{name}/demo")
            assert status == 200 and len(answer["views"]) > 3
        assert cpu_seconds(server.process.pid) - cpu < 0.5
        assert time.monotonic() - began < 10
        deadline = time.monotonic() + 30
        while not _workers(server.process.pid):
            assert time.monotonic() < deadline, "no compute worker started"
            time.sleep(0.1)
    finally:
        server.stop()


def _workers(pid: int) -> list[int]:
    """The processes under pid that multiprocessing spawned (its compute workers)."""
    found = []
    for child in process_tree(pid)[1:]:
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            found.append(child)
    return found
