"""Bad input at the API's edge, on a real SQLite file and a real PostgreSQL server: text no
store can keep (a NUL, which PostgreSQL's text columns refuse; a lone surrogate, which no
UTF-8 encoding has) in a save file, a new game's seed, params, ID, moves or seats, a move, a
solution: a 400 naming the field, and nothing stored. Machine play on a finished game answers
without a 5xx."""

import json
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from gridgames.web.app import create_app
from gridgames.web.config import ServerConfig
from tests.conftest import make_app

API = "/api/v1"
# check_text's words, and pydantic's for a lone surrogate in a body it parses itself
UNSTORABLE = ("contains a NUL character", "is not valid text", "as a unicode string")


# PostgreSQL's cases make a database each (a second): `make test` runs them, `make check`
# the SQLite ones.
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def client(request, tmp_path):
    if request.param == "sqlite":
        app = make_app(tmp_path / "games.db", compute_workers=1)
    else:
        app = create_app(ServerConfig(db=request.getfixturevalue("postgres_url"),
                                      access_log=False, compute_workers=1))
    # A crash answers 500 here (rather than raising in the test): the status is the check.
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def post(client, path, body):
    """JSON with ASCII escapes: a lone surrogate travels as the text `\\ud800`."""
    return client.post(API + path, content=json.dumps(body),
                       headers={"Content-Type": "application/json"})


def stored(client):
    return client.app.state.rooms.store.count()


def refused(answer, field):
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert field in error and any(words in error for words in UNSTORABLE), error


def new(client, **body):
    answer = post(client, "/sessions", body)
    assert answer.status_code == 201, answer.text
    return answer.json()


@pytest.mark.parametrize("bad", ["\ud800", "a\x00b"])
def test_a_save_file_with_unstorable_text_is_refused_and_nothing_stored(client, bad):
    made = {game: new(client, game=game, seed="s1") for game in ("trilobite", "twomino")}
    made["trilobite"] = post(client, f"/sessions/{made['trilobite']['session']}/move",
                             {"move": "4"}).json()
    games = stored(client)
    for session in made.values():  # 2mino's start is generated from the seed first
        save = client.get(f"{API}/sessions/{session['session']}/save").json()
        for field in ("seed", "desc", "params", "game"):
            refused(post(client, "/sessions/load", {**save, field: save[field] + bad}),
                    f"save file: '{field}'")
    save = client.get(f"{API}/sessions/{made['trilobite']['session']}/save").json()
    refused(post(client, "/sessions/load", {**save, "moves": ["4" + bad]}), "move 1")
    assert stored(client) == games


@pytest.mark.parametrize("bad", ["\ud800", "a\x00b"])
def test_a_new_game_with_unstorable_text_is_refused_and_nothing_stored(client, bad):
    start = new(client, game="trilobite")["id"]
    games = stored(client)
    for body, field in [({"game": "trilobite", "seed": bad}, "seed"),
                        ({"game": "twomino", "seed": bad}, "seed"),
                        ({"game": "trilobite", "params": f"width=5{bad}"}, "params"),
                        ({"game": f"trilobite{bad}"}, "game"),
                        ({"id": f"trilobite:#{bad}"}, "id"),
                        ({"id": start, "moves": ["4", f"4{bad}"]}, "moves"),
                        ({"game": "tictactoe", "seats": ["person", f"easy{bad}"]}, "seats")]:
        refused(post(client, "/sessions", body), field)
    assert stored(client) == games


@pytest.mark.parametrize("bad", ["\ud800", "a\x00b"])
def test_unstorable_text_in_a_game_changes_nothing(client, bad):
    game = new(client, game="tictactoe", seats=["person", "person"])
    sid = game["session"]
    post(client, f"/sessions/{sid}/move", {"move": "a1"})
    before = client.get(f"{API}/sessions/{sid}").json()
    refused(post(client, f"/sessions/{sid}/move", {"move": f"b2{bad}"}), "move")
    answer = client.put(f"{API}/sessions/{sid}/seats", content=json.dumps(
        {"seats": ["person", bad]}), headers={"Content-Type": "application/json"})
    refused(answer, "seats")
    polar = new(client, game="polar")["session"]
    refused(post(client, f"/sessions/{polar}/solve", {"moves": ["L", f"U{bad}"]}), "moves")
    assert client.get(f"{API}/sessions/{sid}").json() == before
    assert client.get(f"{API}/sessions/{polar}").json()["moves"] == []


def test_a_hint_on_a_solved_polar_level_is_no_server_error(client):
    """The compute worker raised IndexError on a level without hearts (a 503)."""
    sid = new(client, game="polar", params="level=1")["session"]
    solution = client.get(f"{API}/sessions/{sid}/solution").json()["moves"]
    post(client, f"/sessions/{sid}/solve", {"moves": solution})
    assert client.get(f"{API}/sessions/{sid}").json()["status"]["kind"] == "won"
    answer = client.get(f"{API}/sessions/{sid}/hint")
    assert answer.status_code in (200, 409), answer.text  # 409: refused as the game is over
    assert answer.status_code == 409 or answer.json()["hint"] is None


@pytest.mark.parametrize("bad", ["\ud800", "a\x00b"])
def test_unstorable_text_in_the_level_editor_is_refused(client, bad):
    refused(post(client, "/games/polar/levels/draft", {"draft": {"desc": bad}}), "desc")
    desc = "/".join(["P.+..H" + "." * 18] + ["." * 24] * 3)
    text = quote(bad, errors="surrogatepass")  # a lone surrogate: bytes no UTF-8 decodes
    for field, params in [("desc", f"desc={text}"), ("name", f"desc={quote(desc)}&name={text}")]:
        answer = client.get(f"{API}/games/polar/levels/file?{params}")
        assert answer.status_code == 400, answer.text
        assert field in answer.json()["error"], answer.text
