"""The reverse-proxy configuration that docs/operations.md ships (docs/deploy/nginx.conf),
run as it is: Debian's nginx with that file (only its ports, certificate and upstream port
replaced), a self-signed certificate made here, and the real server behind it started as
the guide says (`--trusted-proxy 127.0.0.1 --public-origin https://...`).

Clients connect from several loopback addresses (all of 127.0.0.0/8 is this machine), so
that each test is a client of its own for the server's game-creation rate limit, and the
rate limit test can be a real second client. Without nginx the tests skip, except in CI,
where that is a failure (scripts/install-system-deps installs it)."""

from __future__ import annotations

import http.client
import inspect
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import IN_CI, free_port
from tests.servers import Server

pytestmark = pytest.mark.slow  # nginx and the real server

CONFIG = Path(__file__).resolve().parents[1] / "docs" / "deploy" / "nginx.conf"
API = "/api/v1"
EVIL = "https://evil.example.org"


@dataclass
class Proxied:
    https: int
    http: int
    tls: ssl.SSLContext
    server: Server

    @property
    def origin(self) -> str:
        return f"https://localhost:{self.https}"

    def call(self, method: str, path: str, body: object = None, source: str = "127.0.0.1",
             headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
        """One HTTPS request through nginx from the loopback address `source`; the answer
        with its body read (`.data`)."""
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        connection = http.client.HTTPSConnection("localhost", self.https, context=self.tls,
                                                 timeout=60, source_address=(source, 0))
        try:
            connection.request(method, path, body=data,
                               headers={"Content-Type": "application/json", **(headers or {})})
            answer = connection.getresponse()
            answer.data = answer.read()
            return answer
        finally:
            connection.close()

    def new_game(self, source: str, **headers: str) -> http.client.HTTPResponse:
        return self.call("POST", f"{API}/sessions", {"game": "tictactoe"}, source,
                         {"Origin": self.origin, **headers})


def site_config(text: str, https: int, http: int, upstream: int, cert: Path, key: Path) -> str:
    """The shipped file with this machine's ports and certificate; every replaced line must
    be there, so that the test never runs a configuration other than the one shipped."""
    replacements = [
        ("    listen [::]:80;\n", ""),  # loopback IPv4 only here
        ("    listen [::]:443 ssl http2;\n", ""),
        ("listen 80;", f"listen 127.0.0.1:{http};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;"),
        ("/etc/letsencrypt/live/games.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/games.example.org/privkey.pem", str(key)),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};"),
    ]
    for old, new in replacements:
        assert text.count(old) == 1, f"docs/deploy/nginx.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


def main_config(home: Path) -> str:
    """What /etc/nginx/nginx.conf gives a site, with this test's own files."""
    temp = "\n".join(f"    {kind}_temp_path {home / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    # As root, nginx's workers would run as nobody, who cannot enter the test's directory.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (f"{user}daemon off;\nworker_processes 1;\npid {home / 'nginx.pid'};\n"
            f"error_log {home / 'error.log'} info;\nevents {{ worker_connections 256; }}\n"
            f"http {{\n    access_log {home / 'access.log'};\n{temp}\n"
            f"    include {home / 'gridgames.conf'};\n}}\n")


def nginx_program() -> str:
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)),
        None)
    message = None
    if found is None:
        message = "nginx is not installed (run scripts/install-system-deps)"
    elif shutil.which("openssl") is None:
        message = "openssl is not installed (it makes the test's certificate)"
    if message:
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return found


def wait_for_port(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 15
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not start:\n{log.read_text()}") from None
            time.sleep(0.05)


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    nginx = nginx_program()
    home = tmp_path_factory.mktemp("nginx")
    cert, key = home / "cert.pem", home / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj",
                    "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    https, http_port = free_port(), free_port()
    # A new game a minute after a burst of two, for each client.
    server = Server(str(home / "games.db"), "--trusted-proxy", "127.0.0.1",
                    "--public-origin", f"https://localhost:{https}",
                    "--games-per-minute", "1", "--compute-workers", "1")
    process = None
    try:
        (home / "gridgames.conf").write_text(
            site_config(CONFIG.read_text(), https, http_port, server.port, cert, key))
        (home / "nginx.conf").write_text(main_config(home))
        process = subprocess.Popen([nginx, "-e", str(home / "error.log"), "-p", str(home),
                                    "-c", str(home / "nginx.conf")],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        wait_for_port(https, process, home / "error.log")
        yield Proxied(https, http_port, ssl.create_default_context(cafile=str(cert)), server)
    finally:
        if process is not None:
            process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        server.stop()


def test_pages_and_api_answer_through_https_with_the_security_headers(proxied):
    for path in ("/", "/play/tictactoe", "/static/js/shell.js", f"{API}/games"):
        answer = proxied.call("GET", path, source="127.0.0.10")
        assert answer.status == 200, (path, answer.data[:200])
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["Strict-Transport-Security"].startswith("max-age=")
        assert answer.headers.get("Server", "nginx") == "nginx"  # no version given away
    assert any(game["name"] == "tictactoe" for game in json.loads(answer.data))
    assert answer.headers["Cache-Control"] == "no-store"

    # A browser's revalidation of a module reaches the app and costs a 304, no body.
    module = proxied.call("GET", "/static/js/shell.js", source="127.0.0.10")
    assert module.headers["Cache-Control"] == "no-cache"
    again = proxied.call("GET", "/static/js/shell.js", source="127.0.0.10",
                         headers={"If-None-Match": module.headers["ETag"]})
    assert again.status == 304 and again.data == b""


def test_changes_from_the_public_origin_are_accepted_and_from_another_site_refused(proxied):
    made = proxied.new_game("127.0.0.11")
    assert made.status == 201, made.data
    sid = json.loads(made.data)["session"]
    move = proxied.call("POST", f"{API}/sessions/{sid}/move", {"move": "a1"}, "127.0.0.11",
                        {"Origin": proxied.origin})
    assert move.status == 200, move.data

    for headers in ({"Origin": EVIL}, {"Origin": f"http://localhost:{proxied.http}"},
                    {"Sec-Fetch-Site": "cross-site"}):
        refused = proxied.call("POST", f"{API}/sessions/{sid}/move", {"move": "b1"},
                               "127.0.0.11", headers)
        assert refused.status == 403, headers
        assert "another site" in json.loads(refused.data)["error"]
    assert proxied.new_game("127.0.0.11", Origin=EVIL).status == 403


def test_a_forged_x_forwarded_for_does_not_make_a_new_client(proxied):
    """The client writes a new X-Forwarded-For each time; the proxy sets the header to the
    address it saw, so the app keeps counting the same client. The client here connects
    from 127.0.0.1, the trusted proxy's own address: the case where a proxy that appended to
    the header would let the forged hop through (the app skips trusted hops)."""
    answers = [proxied.new_game("127.0.0.1", **{"X-Forwarded-For": f"203.0.113.{n}"}).status
               for n in range(1, 5)]
    assert answers[:2] == [201, 201] and answers[2:] == [429, 429], answers
    limited = proxied.new_game("127.0.0.1", **{"X-Forwarded-For": "203.0.113.9"})
    assert int(limited.headers["Retry-After"]) > 0

    # A client at another address is another client: the proxy did tell the app who it is.
    assert proxied.new_game("127.0.0.2").status == 201


def test_a_live_connection_through_the_proxy_gets_the_other_seats_move(proxied):
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    made = proxied.new_game("127.0.0.12")
    sid = json.loads(made.data)["session"]
    online = proxied.call("POST", f"{API}/sessions/{sid}/online", {"seat": 0}, "127.0.0.12",
                          {"Origin": proxied.origin})
    assert online.status == 200, online.data
    links = json.loads(online.data)["links"]
    x, o = (links[k].split("link=")[1] for k in ("you", "opponent"))
    live = f"wss://localhost:{proxied.https}{API}/links/{o}/live"

    with connect(live, ssl=proxied.tls, origin=proxied.origin, proxy=None,
                 open_timeout=30) as page:  # a loaded 2-core CI took 10 s once
        first = json.loads(page.recv(timeout=10))
        assert first["type"] == "state" and first["payload"]["moves"] == []
        moved = proxied.call("POST", f"{API}/links/{x}/move", {"move": "b2"}, "127.0.0.12",
                             {"Origin": proxied.origin})
        assert moved.status == 200, moved.data
        while True:  # news of the players' presence may come first
            seen = json.loads(page.recv(timeout=10))
            if seen["type"] == "state" and seen["payload"]["moves"]:
                break
        assert len(seen["payload"]["moves"]) == 1, seen["payload"]["moves"]
        page.send(json.dumps({"type": "ping"}))
        assert json.loads(page.recv(timeout=10)) == {"type": "pong"}

    with pytest.raises(InvalidStatus) as refused:
        connect(live, ssl=proxied.tls, origin=EVIL, proxy=None, open_timeout=10)
    assert refused.value.response.status_code == 403


def test_plain_http_is_sent_to_https(proxied):
    connection = http.client.HTTPConnection("localhost", proxied.http, timeout=10)
    try:
        connection.request("GET", "/play/tictactoe?id=x")
        answer = connection.getresponse()
    finally:
        connection.close()
    assert answer.status == 301
    assert answer.headers["Location"] == "https://localhost/play/tictactoe?id=x"


def test_bodies_are_limited_as_the_app_limits_them(proxied):
    """64 KiB, and 1 MiB for a save file: what is larger never reaches the app; what the
    app would take is let through (it answers with its own JSON)."""
    big = proxied.call("POST", f"{API}/sessions", b"x" * (64 * 1024 + 1), "127.0.0.13")
    assert big.status == 413 and b"nginx" in big.data
    save = proxied.call("POST", f"{API}/sessions/load", b"x" * (1000 * 1024), "127.0.0.13")
    assert save.status == 400 and "error" in json.loads(save.data)
    huge = proxied.call("POST", f"{API}/sessions/load", b"x" * (1024 * 1024 + 1), "127.0.0.13")
    assert huge.status == 413 and b"nginx" in huge.data


def test_live_connections_outlast_the_servers_pings():
    """An idle live connection carries only the server's WebSocket pings: the proxy must
    wait longer than a ping's interval and its answer's time before calling it dead."""
    import uvicorn

    params = inspect.signature(uvicorn.Config).parameters
    ping = params["ws_ping_interval"].default + params["ws_ping_timeout"].default
    live = re.search(r"location ~ \^/api/v1/links/.*?/live\$ \{(.*?)\n    \}",
                     CONFIG.read_text(), re.S)
    assert live, "docs/deploy/nginx.conf has no location for the live connections"
    timeout = re.search(r"proxy_read_timeout (\d+)s;", live.group(1))
    assert timeout and int(timeout.group(1)) > ping
    import gridgames.web.serve

    assert "ws_ping" not in Path(gridgames.web.serve.__file__).read_text()  # the default
