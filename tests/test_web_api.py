"""The JSON API with FastAPI's test client: the server is the authority, bad input gets a 4xx
JSON error and leaves the game unchanged, nothing crashes."""

import json

import pytest
from fastapi.testclient import TestClient

from gridgames.registry import default_games
from gridgames.web.app import MAX_BODY
from tests.conftest import make_app

GAMES = default_games()


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(tmp_path / "games.db"), raise_server_exceptions=True) as client:
        yield client  # the app's lifespan runs: its compute workers end with the test


def new(client, **body):
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def move(client, sid, m):
    return client.post(f"/api/v1/sessions/{sid}/move", json={"move": m})


def test_pages_and_openapi(client):
    assert "gridgames" in client.get("/").text
    assert client.get("/play/trilobite").status_code == 200
    missing = client.get("/play/chess")
    assert missing.status_code == 404 and "no game called" in missing.text
    schema = client.get("/openapi.json").json()
    assert "/api/v1/sessions/{session_id}/move" in schema["paths"]
    assert client.get("/docs").status_code == 200
    assert client.get("/static/js/shell.js").status_code == 200


def test_games_and_demo(client):
    games = client.get("/api/v1/games").json()
    assert [g["name"] for g in games] == list(GAMES)
    views = client.get("/api/v1/games/trilobite/demo").json()["views"]
    assert len(views) > 3 and views[0]["cells"].count(".") == 42
    assert client.get("/api/v1/games/chess/demo").status_code == 404


def test_play_a_game_to_the_end(client):
    game = new(client, game="tictactoe")
    sid = game["session"]
    assert game["status"]["message"] == "It's X's turn"
    for m in ("a1", "b1", "a2", "b2"):
        assert move(client, sid, m).status_code == 200
    final = move(client, sid, "a3").json()
    assert final["status"] == {"kind": "won", "message": "X wins!", "winner": 0,
                               "score": None, "over": True}
    assert final["view"]["line"] == [0, 3, 6] and final["legal_moves"] == []
    after = move(client, sid, "c3")
    assert after.status_code == 409 and "over" in after.json()["error"]
    assert client.get(f"/api/v1/sessions/{sid}").json()["moves"] == ["a1", "b1", "a2", "b2", "a3"]


def test_undo_redo_restart(client):
    sid = new(client, id="trilobite::7/7/7/7/7/7", moves=["4", "4", "5"])["session"]
    assert client.post(f"/api/v1/sessions/{sid}/undo").json()["moves"] == ["4", "4"]
    assert client.post(f"/api/v1/sessions/{sid}/redo").json()["moves"] == ["4", "4", "5"]
    assert client.post(f"/api/v1/sessions/{sid}/redo").status_code == 400
    restarted = client.post(f"/api/v1/sessions/{sid}/restart").json()
    assert restarted["view"]["cells"].count(".") == 42 and restarted["can_undo"]
    assert client.post(f"/api/v1/sessions/{sid}/undo").json()["moves"] == ["4", "4", "5"]
    save = client.get(f"/api/v1/sessions/{sid}/save").json()
    assert save["moves"] == ["4", "4", "5", "!restart"] and save["cursor"] == 3


def test_person_against_the_ai(client):
    game = new(client, game="tictactoe", seats=["person", "perfect"])
    sid = game["session"]
    assert move(client, sid, "a1").status_code == 200
    out_of_turn = move(client, sid, "b1")
    assert out_of_turn.status_code == 409 and "AI plays O" in out_of_turn.json()["error"]
    answer = client.post(f"/api/v1/sessions/{sid}/ai", json={}).json()
    assert answer["ai_move"] == "b2"  # the only move that does not lose against a corner
    assert answer["moves"] == ["a1", "b2"] and answer["to_move"] == 0
    # Undo against the AI goes back to the person's turn: both moves.
    assert client.post(f"/api/v1/sessions/{sid}/undo").json()["moves"] == []
    assert client.post(f"/api/v1/sessions/{sid}/ai", json={"level": "godlike"}).status_code == 400


def test_ai_vs_ai_plays_to_the_end(client):
    sid = new(client, game="trilobite", params="width=5,height=4,line=3",
              seats=["easy", "medium"])["session"]
    for _ in range(25):
        answer = client.post(f"/api/v1/sessions/{sid}/ai")
        if answer.status_code == 409:
            break
        assert answer.status_code == 200
    assert client.get(f"/api/v1/sessions/{sid}").json()["status"]["over"]


def test_hint_and_seats(client):
    sid = new(client, id="tictactoe::3/3/3", moves=["a1", "a2", "b1", "b2"])["session"]
    assert client.get(f"/api/v1/sessions/{sid}/hint").json()["hint"] == "c1"
    changed = client.put(f"/api/v1/sessions/{sid}/seats", json={"seats": ["perfect", "person"]})
    assert changed.json()["seats"] == ["perfect", "person"]
    for bad in (["person"], ["person", "wizard"], "person", [1, 2]):
        response = client.put(f"/api/v1/sessions/{sid}/seats", json={"seats": bad})
        assert response.status_code == 400, bad
    assert client.get(f"/api/v1/sessions/{sid}").json()["seats"] == ["perfect", "person"]


def test_sessions_are_independent(client):
    a = new(client, game="tictactoe")["session"]
    b = new(client, game="tictactoe")["session"]
    move(client, a, "b2")
    assert client.get(f"/api/v1/sessions/{b}").json()["moves"] == []
    assert client.get(f"/api/v1/sessions/{a}").json()["moves"] == ["b2"]


def test_save_and_load(client):
    sid = new(client, id="tictactoe::3/3/3", moves=["a1", "b2"])["session"]
    save = client.get(f"/api/v1/sessions/{sid}/save").text
    loaded = client.post("/api/v1/sessions/load", content=save)
    assert loaded.status_code == 201 and loaded.json()["moves"] == ["a1", "b2"]
    assert client.post("/api/v1/sessions/load", content="{}").status_code == 400


@pytest.mark.parametrize("body, status, message", [
    ({"game": "chess"}, 404, "unknown game"),
    ({"game": "trilobite", "params": "width=99"}, 400, "width must be"),
    ({"id": "trilobite::7/7"}, 400, "rows"),
    ({"id": "tictactoe::3/3/3", "moves": ["a1", "a1"]}, 400, "move 2"),
    ({}, 400, "give a game"),
    ({"game": "tictactoe", "extra": 1}, 400, "extra"),
    ({"game": 5}, 400, "game"),
    ({"game": "tictactoe", "moves": ["a1"]}, 400, "moves need an id"),
    ({"game": "tictactoe", "seats": ["person"]}, 400, "seats"),
])
def test_bad_new_game_requests(client, body, status, message):
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == status
    assert message in response.json()["error"]


def test_bad_move_requests_change_nothing(client):
    sid = new(client, game="tictactoe")["session"]
    move(client, sid, "b2")
    before = client.get(f"/api/v1/sessions/{sid}").json()
    url = f"/api/v1/sessions/{sid}/move"
    cases = [
        (client.post(url, content="{not json", headers={"content-type": "application/json"}),
         400, "not valid JSON"),
        (client.post(url, json={}), 400, "move"),
        (client.post(url, json={"move": 3}), 400, "move"),
        (client.post(url, json={"move": "b2"}), 409, "already taken"),
        (client.post(url, json={"move": "zz"}), 409, "not a cell"),
        (client.post(url, json={"move": "x" * 65}), 400, "move"),
        (client.post(url, json=["b2"]), 400, ""),
        (client.post(url, content="x" * (MAX_BODY + 1)), 413, "larger than"),
    ]
    for response, status, message in cases:
        assert response.status_code == status, response.text
        assert message in response.json()["error"]
    assert client.get(f"/api/v1/sessions/{sid}").json() == before


def test_oversized_body_without_length_header(client):
    def chunks():
        for _ in range(MAX_BODY // 1000 + 2):
            yield b" " * 1000

    response = client.post("/api/v1/sessions", content=chunks(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_unknown_session_and_routes_are_404_json(client):
    for response in (client.get("/api/v1/sessions/nope"),
                     client.post("/api/v1/sessions/nope/move", json={"move": "a1"}),
                     client.post("/api/v1/sessions/nope/undo"),
                     client.get("/api/nothing")):
        assert response.status_code == 404
        assert "error" in response.json()


@pytest.mark.slow  # a second or more (make test runs it)
def test_no_request_crashes_the_server(client):
    """A spread of odd requests: every answer is a JSON 2xx/4xx, never a 500."""
    sid = new(client, game="trilobite")["session"]
    odd_bodies = [None, "", "null", "[]", '"text"', "1e999", '{"move": null}',
                  '{"move": "\\u0000"}', json.dumps({"move": "4" * 64}), "\xff\xfe"]
    paths = ["/api/v1/sessions", f"/api/v1/sessions/{sid}/move", f"/api/v1/sessions/{sid}/ai",
             f"/api/v1/sessions/{sid}/undo", f"/api/v1/sessions/{sid}/seats",
             "/api/v1/sessions/load"]
    for path in paths:
        for body in odd_bodies:
            for method in ("POST", "PUT"):
                response = client.request(method, path, content=body,
                                          headers={"content-type": "application/json"})
                assert response.status_code < 500, (method, path, body, response.text)
                response.json()


def test_puzzle_endpoints(client):
    """Hints with reasons, check, levels and solve for the puzzle games."""
    mino = new(client, game="twomino", params="n=4,gen=unique,level=basic", seed="api")
    sid = mino["session"]
    hint = client.get(f"/api/v1/sessions/{sid}/hint").json()
    assert hint["hint"] in mino["legal_moves"] and hint["why"]
    assert client.get(f"/api/v1/sessions/{sid}/check").json()["wrong"] == []
    solved = client.post(f"/api/v1/sessions/{sid}/solve").json()
    assert solved["status"]["kind"] == "won" and solved["view"]["won"]
    packs = client.get("/api/v1/games/polar/levels").json()
    assert [p["name"] for p in packs] == ["gridgames", "original", "expert"]
    assert packs[0]["levels"][0]["number"] == 1 and packs[0]["levels"][0]["best"] == "99"
    assert len(packs[1]["levels"]) == 6 and "Go Endo" in packs[1]["credit"]
    assert client.get("/api/v1/games/tictactoe/levels").status_code == 404
    ttt = new(client, game="tictactoe")["session"]
    assert client.get(f"/api/v1/sessions/{ttt}/check").status_code == 400
    assert client.post(f"/api/v1/sessions/{ttt}/solve").status_code == 400
    ishido = new(client, game="ishido", seed="api")
    hint = client.get(f"/api/v1/sessions/{ishido['session']}/hint").json()["hint"]
    assert hint in ishido["legal_moves"]
    placed = move(client, ishido["session"], hint).json()
    assert placed["view"]["tiles_left"] == 65


def test_dominosa_id_opens_a_2mino_game(client):
    game = new(client, id="3:30320112002132213310")
    assert game["game"] == "twomino" and game["view"]["n"] == 4


@pytest.mark.slow
def test_saves_up_to_a_megabyte_load(client):
    """A long Polar walk saved (about 120 KB, over the 64 KiB of other bodies) loads; a body
    over 1 MB is refused before it is read."""
    from gridgames.session import Session

    session = Session.new("polar", "level=1", seed="x")
    for move in ["R", "L"] * 10_000:
        session.play(move)
    save = session.save()
    assert 64 * 1024 < len(save) < 1024 * 1024
    loaded = client.post("/api/v1/sessions/load", content=save,
                         headers={"content-type": "application/json"})
    assert loaded.status_code == 201 and loaded.json()["cursor"] == 20_000
    huge = client.post("/api/v1/sessions/load", content=b"[" + b" " * (1024 * 1024) + b"]",
                       headers={"content-type": "application/json"})
    assert huge.status_code == 413
    other = client.post("/api/v1/sessions", content=b"{" + b" " * (64 * 1024) + b"}",
                        headers={"content-type": "application/json"})
    assert other.status_code == 413


def test_a_hint_on_a_finished_game_says_it_is_over(client):
    sid = new(client, game="tictactoe")["session"]
    for m in ("a1", "b1", "a2", "b2", "a3"):
        move(client, sid, m)
    answer = client.get(f"/api/v1/sessions/{sid}/hint")
    assert answer.status_code == 409 and "the game is over" in answer.json()["error"]
