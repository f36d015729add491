"""/metrics on the real server: Prometheus' text format, the numbers an operator needs, added
up over several server processes, and read only by whom --metrics allows (loopback by
default: a request a trusted proxy forwards is not local)."""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.request

import pytest
from fastapi.testclient import TestClient

from tests.conftest import make_app
from tests.servers import Server

pytestmark = pytest.mark.slow  # every test starts the real server

SAMPLE = re.compile(r'^([a-z_]+)(?:\{(.*)\})? (\S+)$')


def scrape(server: Server, headers: dict[str, str] | None = None) -> tuple[int, str]:
    request = urllib.request.Request(server.base + "/metrics", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def parse(text: str) -> dict[tuple[str, frozenset], float]:
    """Every sample, by name and labels; every family has its HELP and TYPE."""
    samples, typed = {}, set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            typed.add(line.split()[2])
            continue
        if line.startswith("#"):
            continue
        name, labels, value = SAMPLE.match(line).groups()
        pairs = frozenset(re.findall(r'(\w+)="([^"]*)"', labels or ""))
        samples[(name, pairs)] = float(value)
        assert re.sub(r"_(bucket|sum|count)$", "", name) in typed or name in typed, name
    return samples


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_metrics_say_what_the_server_did(tmp_path):
    server = Server(str(tmp_path / "games.db"))
    try:
        sid = server.call("POST", "/api/v1/sessions", {"game": "polar",
                                                       "params": "level=1"})[1]["session"]
        for step in "RLRLR":
            assert server.call("POST", f"/api/v1/sessions/{sid}/move", {"move": step})[0] == 200
        assert server.call("POST", f"/api/v1/sessions/{sid}/move", {"move": "X"})[0] == 409
        ttt = server.call("POST", "/api/v1/sessions", {"game": "tictactoe"})[1]["session"]
        assert server.call("POST", f"/api/v1/sessions/{ttt}/ai")[0] == 200  # a machine move
        for path in ("/play/polar", "/static/js/boot.js", "/static/css/style.css"):
            with urllib.request.urlopen(server.base + path, timeout=30) as page:
                assert page.status == 200
        status, text = scrape(server)
        assert status == 200
        samples = parse(text)
        # Pages and files are counted by their route too (the files of static/ as one)
        assert value(samples, "gridgames_requests_seconds_count", method="GET",
                     route="/play/{name}", status="200") == 1
        assert value(samples, "gridgames_requests_seconds_count", method="GET",
                     route="/static/*", status="200") == 2
        move = {"method": "POST", "route": "/api/v1/sessions/{session_id}/move"}
        assert value(samples, "gridgames_requests_seconds_count", **move, status="200") == 5
        assert value(samples, "gridgames_requests_seconds_count", **move, status="409") == 1
        assert value(samples, "gridgames_requests_seconds_bucket", **move, status="200",
                     le="+Inf") == 5
        assert value(samples, "gridgames_store_seconds_count", kind="write") >= 6  # + create
        assert value(samples, "gridgames_cache_games") == 2
        assert value(samples, "gridgames_compute_workers") == 1
        assert value(samples, "gridgames_compute_jobs_total", kind="ai", outcome="ok") == 1
        assert value(samples, "gridgames_compute_seconds_count", kind="ai") == 1
        assert value(samples, "gridgames_compute_queued_seconds_count") == 1
        assert value(samples, "gridgames_server_processes") == 1
        assert ("gridgames_live_pages", frozenset()) in samples
    finally:
        server.stop()


def test_metrics_are_for_this_machine_unless_opened(tmp_path):
    db = str(tmp_path / "games.db")
    behind = Server(db, "--trusted-proxy", "127.0.0.1")
    try:
        assert scrape(behind)[0] == 200  # on this machine
        status, text = scrape(behind, {"X-Forwarded-For": "198.51.100.7"})  # from outside
        assert status == 403 and "--metrics" in text
    finally:
        behind.stop()
    for option, status in (("loopback", 403), ("public", 200), ("off", 404)):
        # (the test client's address, "testclient", is not this machine's)
        with TestClient(make_app(tmp_path / "other.db", metrics=option)) as client:
            assert client.get("/metrics").status_code == status


def test_metrics_add_up_every_server_process(postgres_url):
    server = Server(postgres_url, "--workers", "2", warm=True)
    try:
        sid = server.call("POST", "/api/v1/sessions", {"game": "polar",
                                                       "params": "level=1"})[1]["session"]
        for number in range(40):  # a connection each: the processes share them out
            step = "RL"[number % 2]
            assert server.call("POST", f"/api/v1/sessions/{sid}/move", {"move": step})[0] == 200
        move = {"method": "POST", "route": "/api/v1/sessions/{session_id}/move",
                "status": "200"}
        deadline = time.monotonic() + 30
        while True:  # each process shares its numbers every second
            samples = parse(scrape(server)[1])
            if value(samples, "gridgames_server_processes") == 2 and \
                    value(samples, "gridgames_requests_seconds_count", **move) == 40:
                break
            assert time.monotonic() < deadline, samples
            time.sleep(0.5)
        assert value(samples, "gridgames_compute_workers") >= 1  # the one pool, counted once
    finally:
        server.stop()
