"""Safe by default: security headers on every answer, no state-changing request from another
site, only the game's own moves from outside, unguessable session IDs, game creation limited
per client (behind a trusted proxy only), and every 4xx listed in the OpenAPI description."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from tests.conftest import make_app

API = "/api/v1"


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(tmp_path / "games.db")) as client:
        yield client


def new(client, **body):
    answer = client.post(f"{API}/sessions", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()["session"]


def test_every_answer_carries_the_security_headers(client):
    sid = new(client, game="tictactoe")
    for answer in (client.get("/"), client.get("/play/polar"), client.get("/static/js/shell.js"),
                   client.get(f"{API}/sessions/{sid}"), client.get(f"{API}/sessions/nope"),
                   client.post(f"{API}/sessions/{sid}/move", json={"move": "zz"}),
                   client.get("/docs"), client.get("/openapi.json")):
        csp = answer.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("style-src")[0]
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"]


def test_pages_have_no_inline_script(client):
    for path in ("/", "/play/trilobite", "/docs"):
        page = client.get(path).text
        for tag in page.split("<script")[1:]:
            assert "src=" in tag.split(">")[0], (path, tag[:80])  # every script is a file


def test_changes_from_another_site_are_refused(client):
    sid = new(client, game="tictactoe")
    move = f"{API}/sessions/{sid}/move"
    for headers in ({"origin": "http://evil.example"}, {"origin": "null"},
                    {"sec-fetch-site": "cross-site"},
                    {"origin": "http://testserver.evil.example"}):
        answer = client.post(move, json={"move": "a1"}, headers=headers)
        assert answer.status_code == 403, headers
        assert "another site" in answer.json()["error"]
        assert client.post(f"{API}/sessions", json={"game": "tictactoe"},
                           headers=headers).status_code == 403
    assert client.get(f"{API}/sessions/{sid}").json()["moves"] == []  # nothing changed
    # The page's own origin, and scripts that send no Origin at all, are accepted.
    assert client.post(move, json={"move": "a1"},
                       headers={"origin": "http://testserver",
                                "sec-fetch-site": "same-origin"}).status_code == 200
    assert client.post(move, json={"move": "b1"}).status_code == 200
    # Reading is not a change: a GET from anywhere is answered.
    assert client.get(f"{API}/sessions/{sid}",
                      headers={"origin": "http://evil.example"}).status_code == 200


def test_a_configured_public_origin_is_accepted(tmp_path):
    app = make_app(tmp_path / "g.db", public_origin="https://games.example.org")
    with TestClient(app) as client:
        ok = client.post(f"{API}/sessions", json={"game": "tictactoe"},
                         headers={"origin": "https://games.example.org"})
        assert ok.status_code == 201
        assert client.post(f"{API}/sessions", json={"game": "tictactoe"},
                           headers={"origin": "https://other.example.org"}).status_code == 403


def test_only_the_games_own_moves_are_accepted(client):
    sid = new(client, game="tictactoe")
    client.post(f"{API}/sessions/{sid}/move", json={"move": "b2"})
    before = client.get(f"{API}/sessions/{sid}").json()
    for marker in ("!solve a1 c3 a3", "!restart", "!solve", " a1", "a1 b1"):
        answer = client.post(f"{API}/sessions/{sid}/move", json={"move": marker})
        assert answer.status_code == 409, marker
        assert "not a move" in answer.json()["error"] or "taken" in answer.json()["error"]
    answer = client.post(f"{API}/sessions/{sid}/move", json={"move": "b2\u0000"})
    assert answer.status_code == 400 and "NUL" in answer.json()["error"]  # not text at all
    assert client.get(f"{API}/sessions/{sid}").json() == before


def test_session_ids_are_unguessable(client):
    ids = {new(client, game="tictactoe") for _ in range(20)}
    assert len(ids) == 20
    for sid in ids:  # 16 random bytes, URL-safe base64: 128 bits
        assert len(sid) >= 22 and sid.replace("-", "").replace("_", "").isalnum()


@pytest.mark.parametrize("body, message", [
    ("[" * 32_000 + "]" * 32_000, ""),  # nested far deeper than any parser's stack
    (json.dumps({"game": "tictactoe", "params": "", "desc": "3/3/3", "seed": "\ud800",
                 "moves": [], "cursor": 0}), ""),  # a lone surrogate
    ('{"game": "tictactoe", "params": "", "desc": "3/3/3", "seed": "s", "moves": [], '
     '"cursor": 1' + "0" * 5000 + "}", ""),  # a huge number
    ('{"game": "tictactoe", "params": "", "desc": "3/3/3", "seed": "s", "moves": [], '
     '"cursor": 1e999}', ""),
    ('{"game": "tic\\u0000tactoe", "moves": []}', ""),
    ('{"game": ["tictactoe"], "moves": {}}', ""),
    ("\xff\xfe\x00", ""),
])
def test_malformed_saves_get_a_clear_400(client, body, message):
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    answer = client.post(f"{API}/sessions/load", content=data,
                         headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error and len(error) < 300 and message in error


@pytest.mark.parametrize("body", [
    "[" * 32_000 + "]" * 32_000,
    '{"game": "tictactoe", "seed": "\ud800"}',
    '{"id": "trilobite:width=99999999999999999999999:7/7"}',
    '{"game": "trilobite", "params": "width=1e999"}',
    '{"game": "tictactoe\\u0000"}',
    '{"game": {"name": "tictactoe"}}',
    '{"game": "tictactoe", "seats": "person"}',
])
def test_malformed_new_games_get_a_clear_4xx(client, body):
    answer = client.post(f"{API}/sessions", content=body.encode("utf-8", "surrogatepass"),
                         headers={"content-type": "application/json"})
    assert 400 <= answer.status_code < 500, answer.text
    assert answer.json()["error"]


def test_creating_games_is_rate_limited_per_client(tmp_path):
    app = make_app(tmp_path / "g.db", games_per_minute=1, games_burst=3)
    with TestClient(app) as client:
        for _ in range(3):
            assert client.post(f"{API}/sessions", json={"game": "tictactoe"}).status_code == 201
        refused = client.post(f"{API}/sessions", json={"game": "tictactoe"})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert "too many new games" in refused.json()["error"]
        # A forwarded address from a proxy nobody trusts does not make a new client.
        forged = client.post(f"{API}/sessions", json={"game": "tictactoe"},
                             headers={"x-forwarded-for": "10.1.2.3"})
        assert forged.status_code == 429


def test_a_trusted_proxy_names_the_client(tmp_path):
    app = make_app(tmp_path / "g.db", games_per_minute=1, games_burst=1,
                   trusted_proxies=("testclient",))  # the test client's own address
    with TestClient(app) as client:
        def create(forwarded):
            return client.post(f"{API}/sessions", json={"game": "tictactoe"},
                               headers={"x-forwarded-for": forwarded}).status_code

        assert create("198.51.100.7") == 201
        assert create("198.51.100.7") == 429  # the same player behind the proxy
        assert create("198.51.100.8") == 201  # another player
        assert create("203.0.113.9, 198.51.100.8") == 429  # the hop the proxy saw counts


def test_every_4xx_is_in_the_openapi_description(client):
    schema = client.get("/openapi.json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            if path == "/readyz":
                assert "503" in codes
            if not path.startswith(API):
                continue
            assert "400" in codes, (method, path)
            if method in ("post", "put"):
                assert "413" in codes, (method, path)
            if "{session_id}" in path:
                assert "404" in codes, (method, path)
            if path.rsplit("/", 1)[-1] in ("ai", "hint", "solve", "check", "analysis"):
                assert {"429", "503"} <= codes, (method, path)
            if method in ("post", "put"):
                assert "403" in codes, (method, path)
            assert "422" not in codes  # a body that does not validate is a 400
            for code in codes - {"200", "201"}:
                assert operation["responses"][code]["description"], (method, path, code)


def test_a_client_is_its_ipv4_address_or_its_ipv6_64():
    from gridgames.web.clients import client_key

    assert client_key("198.51.100.7") == "198.51.100.7"
    same = {client_key("2001:db8:1:2::1"), client_key("2001:db8:1:2:ffff:ffff:ffff:fffe")}
    assert same == {"2001:db8:1:2::/64"}  # one subscriber's network is one client
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:198.51.100.7") == "198.51.100.7"
    with pytest.raises(ValueError):
        client_key("testclient")


def test_a_bug_is_a_json_500_with_the_security_headers(tmp_path, caplog):
    app = make_app(tmp_path / "g.db")

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/boom")
    assert answer.status_code == 500 and "bug" in answer.json()["error"]
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "RuntimeError: a bug" in caplog.text  # the traceback is in the log
