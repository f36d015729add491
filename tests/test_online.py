"""Online play through the API, with the test client's WebSockets: seats are secret links,
the server enforces the turn, takebacks, draws, resigning, claims and rematches follow the
rules of online play (web/online.py), live pages get every change, and wrong tokens, moves out of
turn, messages of the wrong shape and cross-origin upgrades are refused, changing nothing."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.conftest import make_app

API = "/api/v1"


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(tmp_path / "games.db", claim_seconds=1.0)) as client:
        yield client


def token_of(url):
    return url.split("link=")[1]


def online_game(client, game="trilobite", params="width=5,height=4,line=3", seat=0):
    sid = client.post(f"{API}/sessions", json={"game": game, "params": params}).json()["session"]
    answer = client.post(f"{API}/sessions/{sid}/online", json={"seat": seat})
    assert answer.status_code == 200, answer.text
    links = answer.json()["links"]
    return sid, token_of(links["you"]), token_of(links["opponent"]), token_of(links["watch"])


def until(page, wanted, limit=10):
    """The first message the page gets that `wanted` accepts (presence news may come
    between)."""
    for _ in range(limit):
        message = json.loads(page.receive_text())
        if wanted(message):
            return message
    raise AssertionError("the page never got it")


def post(client, token, action, body=None):
    return client.post(f"{API}/links/{token}/{action}", json=body)


def test_seats_are_secret_links_and_the_turn_is_enforced(client):
    sid, x, o, watch = online_game(client)
    assert len({x, o, watch, sid}) == 4 and all(len(t) >= 22 for t in (x, o, watch))
    assert post(client, o, "move", {"move": "1"}).status_code == 409  # X moves first
    assert post(client, x, "move", {"move": "1"}).json()["moves"] == ["1"]
    refused = post(client, x, "move", {"move": "2"})
    assert refused.status_code == 409 and "Yellow's turn" in refused.json()["error"]
    assert post(client, watch, "move", {"move": "2"}).status_code == 409
    for wrong in ("nope", "x" * 30, o[:-1] + ("A" if o[-1] != "A" else "B")):
        assert client.get(f"{API}/links/{wrong}").status_code == 404
        assert post(client, wrong, "move", {"move": "2"}).status_code == 404
    # The session ID no longer changes an online game, and a spectator never sees it.
    for path in ("move", "undo", "restart", "ai"):
        body = {"move": "2"} if path == "move" else None
        assert client.post(f"{API}/sessions/{sid}/{path}", json=body).status_code in (400, 409)
    seen = client.get(f"{API}/links/{watch}").json()
    assert seen["session"] is None and seen["legal_moves"] == [] and seen["online"]["you"] is None
    assert client.get(f"{API}/links/{o}").json()["online"]["you"] == 1
    assert client.get(f"{API}/links/{o}").json()["moves"] == ["1"]  # nothing else changed


def test_takeback_draw_resign_and_rematch(client):
    _, x, o, _ = online_game(client)
    post(client, x, "move", {"move": "1"})
    post(client, o, "move", {"move": "2"})
    assert post(client, o, "reply", {"kind": "takeback", "accept": True}).status_code == 409
    post(client, x, "offer", {"kind": "takeback"})
    assert post(client, x, "offer", {"kind": "draw"}).status_code == 409  # one at a time
    assert post(client, x, "reply", {"kind": "takeback", "accept": True}).status_code == 409
    back = post(client, o, "reply", {"kind": "takeback", "accept": True}).json()
    assert back["moves"] == [] and back["to_move"] == 0  # X's move and O's reply undone
    post(client, x, "move", {"move": "3"})
    post(client, o, "offer", {"kind": "draw"})
    post(client, x, "move", {"move": "3"})  # not Red's turn...
    declined = post(client, x, "reply", {"kind": "draw", "accept": False}).json()
    assert declined["online"]["offer"] is None and not declined["status"]["over"]
    post(client, o, "move", {"move": "3"})  # a move withdraws nothing open; it plays
    post(client, o, "offer", {"kind": "draw"})
    assert post(client, x, "reply", {"kind": "draw", "accept": True}).json()["status"] == {
        "kind": "draw", "message": "Draw agreed", "winner": None, "score": None, "over": True}
    assert post(client, x, "move", {"move": "1"}).status_code == 409
    assert post(client, x, "resign").status_code == 409  # over already
    post(client, o, "offer", {"kind": "rematch"})
    fresh = post(client, x, "reply", {"kind": "rematch", "accept": True}).json()
    assert fresh["moves"] == [] and fresh["online"]["you"] == 1  # sides swapped
    assert fresh["online"]["round"] == 2
    assert client.get(f"{API}/links/{o}").json()["online"]["you"] == 0
    post(client, o, "move", {"move": "2"})  # O's link now plays X, first
    resigned = post(client, x, "resign").json()
    assert resigned["status"]["message"] == "Red wins: Yellow resigned"


@pytest.mark.slow  # a second or more (make test runs it)
def test_a_claim_needs_the_opponent_gone_long_enough(client):
    _, x, o, _ = online_game(client)
    refused = post(client, x, "claim")
    assert refused.status_code == 409 and "gone" in refused.json()["error"]
    with client.websocket_connect(f"{API}/links/{o}/live") as page:
        json.loads(page.receive_text())
        # Presence is written in batches (a fraction of a second): wait for O to show.
        until(page, lambda m: m["payload"]["online"]["players"][1]["connected"])
        assert client.get(f"{API}/links/{x}").json()["online"]["players"][1]["connected"]
        assert post(client, x, "claim").status_code == 409  # O is here
    # The server marks O gone when its end of the socket closes, a moment after ours (later
    # on a loaded machine), so wait for that, then for claim_seconds=1 of absence.
    deadline = time.monotonic() + 15
    while True:
        gone = client.get(f"{API}/links/{x}").json()["online"]["players"][1]
        if (not gone["connected"] and gone["gone_for"] >= 1) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert not gone["connected"] and gone["gone_for"] >= 1
    claimed = post(client, x, "claim").json()
    assert claimed["status"]["message"] == "Red wins: Yellow left the game"


def test_live_pages_get_every_change_and_catch_up(client):
    _, x, o, watch = online_game(client)
    with client.websocket_connect(f"{API}/links/{watch}/live") as page:
        first = json.loads(page.receive_text())
        assert first["type"] == "state" and first["payload"]["moves"] == []
        post(client, x, "move", {"move": "1"})
        seen = until(page, lambda m: m["payload"]["moves"] == ["1"])["payload"]
        assert seen["version"] > first["payload"]["version"]
        version = seen["version"]
    post(client, o, "move", {"move": "2"})  # while the page is away
    with client.websocket_connect(f"{API}/links/{watch}/live") as page:
        page.send_text(json.dumps({"type": "hello", "version": version}))
        caught = until(page, lambda m: m["type"] == "state")
        assert caught["payload"]["moves"] == ["1", "2"]  # the move made while away
        page.send_text(json.dumps({"type": "ping"}))
        until(page, lambda m: m == {"type": "pong"})


@pytest.mark.parametrize("message", [
    "not json", "[]", '{"type": "move", "move": "1"}', '{"type": "hello"}',
    '{"type": "hello", "version": "3"}', '{"type": "hello", "version": true}',
    "[" * 1000,
])
def test_messages_of_the_wrong_shape_are_refused(client, message):
    _, x, _, _ = online_game(client)
    with client.websocket_connect(f"{API}/links/{x}/live") as page:
        json.loads(page.receive_text())
        page.send_text(message)
        answer = until(page, lambda m: m["type"] == "error")
        assert answer["error"]
        page.send_text(json.dumps({"type": "ping"}))  # the connection stays
        until(page, lambda m: m == {"type": "pong"})
    assert client.get(f"{API}/links/{x}").json()["moves"] == []


def test_a_deeply_nested_message_never_reaches_the_json_parser(monkeypatch):
    """Refused by counting its brackets: parsed, it would run into the recursion limit,
    where a garbage collection running at that depth fails too (pytest caught its
    finalizers' errors once, in the test above)."""
    from gridgames.web import live

    assert live._parse('{"type": "hello", "version": 3}') == {"type": "hello", "version": 3}
    monkeypatch.setattr(live.json, "loads", lambda text: pytest.fail("parsed " + text[:10]))
    for deep in ("[" * 1000, "{" * 9, '{"type": "ping", "x": [[[[[[[[]]]]]]]]}'):
        assert live._parse(deep) == "a message is a JSON object"


@pytest.mark.parametrize("send, code", [
    (lambda page: page.send_text("[" * 5000), 1009),  # over the size a message may have
    (lambda page: page.send_text(json.dumps({"type": "hello", "version": 1,
                                             "pad": "x" * 2000})), 1009),
    (lambda page: page.send_bytes(b'{"type": "ping"}'), 1003),  # text messages only
])
def test_oversized_and_binary_messages_close_the_connection(client, send, code):
    _, x, _, _ = online_game(client)
    with client.websocket_connect(f"{API}/links/{x}/live") as page:
        json.loads(page.receive_text())
        send(page)
        with pytest.raises(WebSocketDisconnect) as closed:
            until(page, lambda m: False)
        assert closed.value.code == code
    assert client.get(f"{API}/links/{x}").json()["moves"] == []


def test_a_wrong_link_and_another_site_are_refused_at_the_socket(client):
    _, x, _, _ = online_game(client)
    with client.websocket_connect(f"{API}/links/{'A' * 22}/live") as page:
        answer = json.loads(page.receive_text())
        assert answer["type"] == "error" and "no game" in answer["error"]
        with pytest.raises(WebSocketDisconnect):
            page.receive_text()
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            f"{API}/links/{x}/live", headers={"origin": "http://evil.example"}) as page:
        page.receive_text()


def test_only_two_player_games_go_online_and_any_game_can_be_watched(client):
    sid = client.post(f"{API}/sessions", json={"game": "polar"}).json()["session"]
    assert client.post(f"{API}/sessions/{sid}/online", json={}).status_code == 400
    watch = token_of(client.post(f"{API}/sessions/{sid}/watch").json()["watch"])
    again = token_of(client.post(f"{API}/sessions/{sid}/watch").json()["watch"])
    assert watch == again  # one spectators' link per game
    with client.websocket_connect(f"{API}/links/{watch}/live") as page:
        json.loads(page.receive_text())
        client.post(f"{API}/sessions/{sid}/move", json={"move": "R"})  # the owner plays on
        seen = until(page, lambda m: m["payload"]["moves"] == ["R"])["payload"]
        assert seen["session"] is None
    assert post(client, watch, "move", {"move": "L"}).status_code == 409
    assert client.get(f"{API}/sessions/{sid}").json()["moves"] == ["R"]


@pytest.mark.parametrize("action, body", [
    ("offer", {"kind": "surrender"}), ("offer", {}), ("offer", {"kind": 3}),
    ("reply", {"kind": "draw"}), ("reply", {"kind": "draw", "accept": "yes"}),
    ("move", {"move": ["1"]}), ("offer", {"kind": "draw", "extra": 1}),
])
def test_bad_bodies_get_a_clear_400_and_change_nothing(client, action, body):
    _, x, _, _ = online_game(client)
    before = client.get(f"{API}/links/{x}").json()
    answer = post(client, x, action, body)
    assert answer.status_code == 400 and answer.json()["error"], answer.text
    assert client.get(f"{API}/links/{x}").json()["version"] == before["version"]


@pytest.mark.slow  # a second or more (make test runs it)
def test_no_machine_help_while_an_online_game_is_played(client):
    """Hints, analysis, solutions and AI moves are refused for an online game in progress,
    through its session ID (the link pages have none); once it ends they open."""
    sid, x, o, _ = online_game(client, game="trilobite", params="width=5,height=4,line=3")
    post(client, x, "move", {"move": "3"})
    for method, path in (("GET", "hint"), ("GET", "analysis"), ("POST", "ai")):
        refused = client.request(method, f"{API}/sessions/{sid}/{path}")
        assert refused.status_code == 409, (path, refused.text)
        assert "played online" in refused.json()["error"]
    assert client.get(f"{API}/links/{o}").json()["moves"] == ["3"]  # nothing changed
    post(client, o, "resign")
    scores = client.get(f"{API}/sessions/{sid}/analysis")  # the game is over: help opens
    assert scores.status_code == 200 and len(scores.json()["scores"]) == 5


def test_a_rematch_counts_as_a_new_game(tmp_path):
    app = make_app(tmp_path / "games.db", games_per_minute=1, games_burst=2)
    with TestClient(app) as limited:
        _, x, o, _ = online_game(limited, game="tictactoe", params="")  # the 1st game
        post(limited, x, "resign")
        post(limited, x, "offer", {"kind": "rematch"})
        assert post(limited, o, "reply", {"kind": "rematch", "accept": True}
                    ).status_code == 200  # the 2nd
        post(limited, x, "resign")
        post(limited, x, "offer", {"kind": "rematch"})
        refused = post(limited, o, "reply", {"kind": "rematch", "accept": True})
        assert refused.status_code == 429 and "too many new games" in refused.json()["error"]
        assert limited.get(f"{API}/links/{o}").json()["online"]["offer"]["kind"] == "rematch"
