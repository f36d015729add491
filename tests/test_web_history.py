"""A game's past and clock through the API: replaying any recorded position, continuing from
one (undoably), a solution shown step by step before it is applied, the elapsed time kept
with the game across a restart of the server; bad input gets a clear 400/404 and changes
nothing."""

import pytest
from fastapi.testclient import TestClient

from gridgames.session import Session
from tests.conftest import make_app


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(tmp_path / "games.db")) as client:
        yield client


def new(client, **body):
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def api_get(client, path):
    return client.get(f"/api/v1/sessions/{path}")


def test_every_recorded_position_is_drawn_by_the_server(client):
    game = new(client, id="tictactoe::3/3/3", moves=["a1", "b2", "c3"])
    sid = game["session"]
    assert game["positions"] == 3
    for ply in range(4):
        shown = api_get(client, f"{sid}/positions/{ply}").json()
        expected = Session.from_id("tictactoe::3/3/3", ["a1", "b2", "c3"][:ply])
        assert shown["view"] == expected.game.view(expected.state)
        assert shown["move"] == (["a1", "b2", "c3"][ply - 1] if ply else None)
        assert shown["status"] == expected.status().message
        assert (shown["ply"], shown["positions"], shown["cursor"]) == (ply, 3, 3)
    # The redo tail is part of the game's past too.
    client.post(f"/api/v1/sessions/{sid}/undo")
    assert api_get(client, f"{sid}/positions/3").json()["move"] == "c3"
    assert api_get(client, sid).json()["version"] == game["version"] + 1  # only the undo


@pytest.mark.parametrize("ply, status, words", [
    ("4", 400, "no position 4"), ("-1", 400, "no position -1"), ("x", 400, "ply"),
    ("1.5", 400, "ply"),
])
def test_a_position_that_is_not_there(client, ply, status, words):
    game = new(client, id="tictactoe::3/3/3", moves=["a1", "b2", "c3"])
    answer = api_get(client, f"{game['session']}/positions/{ply}")
    assert answer.status_code == status and words in answer.json()["error"]
    missing = api_get(client, "nosuchgame12345/positions/0")
    assert missing.status_code == 404 and "no game" in missing.json()["error"]


def test_continue_from_an_earlier_position_and_undo_it(client):
    sid = new(client, id="trilobite::7/7/7/7/7/7", moves=["4", "4", "5", "3"])["session"]
    earlier = api_get(client, f"{sid}/positions/2").json()
    jumped = client.post(f"/api/v1/sessions/{sid}/jump", json={"ply": 2}).json()
    assert jumped["view"] == earlier["view"] and jumped["moves"][-1] == "!jump 4 4"
    assert jumped["positions"] == 5 and jumped["can_undo"]
    played = client.post(f"/api/v1/sessions/{sid}/move", json={"move": "1"}).json()
    assert played["moves"] == ["4", "4", "5", "3", "!jump 4 4", "1"]
    client.post(f"/api/v1/sessions/{sid}/undo")
    back = client.post(f"/api/v1/sessions/{sid}/undo").json()
    assert back["moves"] == ["4", "4", "5", "3"]  # Undo returns to where the jump came from
    # The save file replays the jump marker and the game reads back the same.
    loaded = Session.from_dict(api_get(client, f"{sid}/save").json())
    assert loaded.history == ["4", "4", "5", "3", "!jump 4 4", "1"]


@pytest.mark.parametrize("body, words", [
    ({"ply": 4}, "current position already"),
    ({"ply": 9}, "no position 9"),
    ({"ply": -1}, "ply"),
    ({"ply": "2"}, "ply"),
    ({"ply": True}, "ply"),
    ({}, "ply"),
    ({"ply": 1, "extra": 1}, "extra"),
])
def test_bad_jumps_change_nothing(client, body, words):
    game = new(client, id="trilobite::7/7/7/7/7/7", moves=["4", "4", "5", "3"])
    answer = client.post(f"/api/v1/sessions/{game['session']}/jump", json=body)
    assert answer.status_code == 400 and words in answer.json()["error"]
    after = api_get(client, game["session"]).json()
    assert (after["moves"], after["version"]) == (game["moves"], game["version"])


def test_the_clock_is_kept_with_the_game_and_never_goes_back(client):
    sid = new(client, game="polar")["session"]
    assert api_get(client, sid).json()["clock_ms"] == 0
    assert client.put(f"/api/v1/sessions/{sid}/clock",
                      json={"elapsed_ms": 65_000}).json() == {"clock_ms": 65_000}
    assert client.put(f"/api/v1/sessions/{sid}/clock",
                      json={"elapsed_ms": 1_000}).json() == {"clock_ms": 65_000}
    assert api_get(client, sid).json()["clock_ms"] == 65_000


@pytest.mark.parametrize("body", [
    {"elapsed_ms": -1}, {"elapsed_ms": "5"}, {"elapsed_ms": 1.5}, {"elapsed_ms": True},
    {"elapsed_ms": 10**15}, {}, {"elapsed_ms": 5, "more": 1},
])
def test_a_bad_clock_changes_nothing(client, body):
    game = new(client, game="polar")
    answer = client.put(f"/api/v1/sessions/{game['session']}/clock", json=body)
    assert answer.status_code == 400 and answer.json()["error"]
    after = api_get(client, game["session"]).json()
    assert (after["clock_ms"], after["version"]) == (0, game["version"])
    missing = client.put("/api/v1/sessions/nosuchgame12345/clock", json={"elapsed_ms": 5})
    assert missing.status_code == 404


def test_the_clock_survives_a_restart_of_the_server(tmp_path):
    path = tmp_path / "games.db"
    with TestClient(make_app(path)) as first:
        sid = new(first, game="twomino", params="n=4,gen=unique,level=basic",
                  seed="clock")["session"]
        first.put(f"/api/v1/sessions/{sid}/clock", json={"elapsed_ms": 42_500})
    with TestClient(make_app(path)) as second:
        assert api_get(second, sid).json()["clock_ms"] == 42_500


def test_a_solution_is_shown_step_by_step_then_applied(client):
    game = new(client, game="twomino", params="n=4,gen=unique,level=basic", seed="steps")
    sid = game["session"]
    shown = api_get(client, f"{sid}/solution").json()
    moves = shown["moves"]
    assert moves and [step["move"] for step in shown["steps"]] == moves
    assert shown["start"] == game["view"] and shown["result"]["words"]
    assert shown["steps"][-1]["view"]["won"] and not shown["steps"][0]["view"]["won"]
    after = api_get(client, sid).json()
    assert (after["moves"], after["version"]) == ([], game["version"])  # nothing applied
    solved = client.post(f"/api/v1/sessions/{sid}/solve", json={"moves": moves}).json()
    assert solved["status"]["kind"] == "won" and solved["moves"] == [" ".join(["!solve", *moves])]
    assert client.post(f"/api/v1/sessions/{sid}/undo").json()["moves"] == []


@pytest.mark.parametrize("moves, status", [
    (["a1-a2", "zz"], 409), ([], 400), (["!restart"], 409), ("a1-a2", 400), ([5], 400),
])
def test_a_bad_solution_changes_nothing(client, moves, status):
    game = new(client, game="twomino", params="n=4,gen=unique,level=basic", seed="steps")
    answer = client.post(f"/api/v1/sessions/{game['session']}/solve", json={"moves": moves})
    assert answer.status_code == status and answer.json()["error"]
    after = api_get(client, game["session"]).json()
    assert (after["moves"], after["version"]) == ([], game["version"])


def test_games_say_how_to_play_and_which_score_is_better(client):
    cards = {card["name"]: card for card in client.get("/api/v1/games").json()}
    assert all(card["rules"] for card in cards.values())
    assert cards["polar"]["score_order"] == "lower" and cards["ishido"]["score_order"] == "higher"
    assert cards["tictactoe"]["score_order"] is None
