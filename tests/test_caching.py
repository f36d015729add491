"""What browsers may keep (web/caching.py): pages and their files are revalidated on every
load with an ETag of their content (cheap 304s), API answers are never stored."""

from __future__ import annotations

import hashlib
import os

from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.staticfiles import StaticFiles

from gridgames.registry import default_games
from gridgames.web.caching import Caching
from gridgames.web.shell import shell_files
from tests.conftest import make_app

FILES = ["/", "/play/trilobite", "/static/js/shell.js", "/static/css/style.css",
         "/games/polar/renderer.js", "/games/polar/renderer.css", "/favicon.ico", "/docs",
         "/docs-assets/swagger-ui.css"]


def test_pages_and_their_files_are_revalidated_and_answered_304_while_unchanged(tmp_path):
    with TestClient(make_app(tmp_path / "games.db")) as client:
        for path in FILES:
            first = client.get(path)
            assert first.status_code == 200, path
            assert first.headers["cache-control"] == "no-cache", path
            etag = first.headers["etag"]
            assert etag == f'"{hashlib.sha256(first.content).hexdigest()[:32]}"', path

            again = client.get(path, headers={"If-None-Match": etag})
            assert again.status_code == 304 and again.content == b"", path
            assert again.headers["etag"] == etag and again.headers["cache-control"] == "no-cache"
            assert "content-type" not in again.headers
            assert again.headers["content-security-policy"]  # still every answer's headers
            weak = client.get(path, headers={"If-None-Match": f'"other", W/{etag}'})
            assert weak.status_code == 304, path

            stale = client.get(path, headers={"If-None-Match": '"0123"'})
            assert stale.status_code == 200 and stale.content == first.content, path

            head = client.head(path)
            assert head.status_code == 200 and head.content == b"", path
            assert head.headers["etag"] == etag
            assert head.headers["content-length"] == str(len(first.content))


TYPES = {"js": "text/javascript", "css": "text/css", "html": "text/html", "svg": "image/svg+xml",
         "png": "image/png", "webmanifest": "application/manifest+json"}


def test_every_file_of_the_shell_is_answered_as_it_is_on_disk(tmp_path):
    """The shell's files are read when the server starts and answered from memory: each is
    the file's bytes with its type, and any other name (one that leads out of the folder
    included) is a 404 that says so."""
    with TestClient(make_app(tmp_path / "games.db")) as client:
        for url, path in shell_files(default_games()).items():
            answer = client.get(url)
            assert answer.status_code == 200 and answer.content == path.read_bytes(), url
            wanted = TYPES[url.rsplit(".", 1)[1]]
            assert answer.headers["content-type"].split(";")[0] == wanted, url
        polar = client.get("/games/polar/polar.js")  # the renderer under its own name too
        assert polar.content == client.get("/games/polar/renderer.js").content
        for url in ["/static/nope.js", "/static/js/", "/static/../pyproject.toml",
                    "/static/%2e%2e/pyproject.toml", "/static/js/..%2f..%2fapp.py",
                    "/games/trilobite/nope.js", "/games/trilobite/..%2fgame.js"]:
            answer = client.get(url)
            assert answer.status_code == 404 and answer.json()["error"], url


def test_api_answers_are_never_stored(tmp_path):
    with TestClient(make_app(tmp_path / "games.db")) as client:
        made = client.post("/api/v1/sessions", json={"game": "tictactoe"})
        assert made.status_code == 201
        read = client.get(f"/api/v1/sessions/{made.json()['session']}")
        missing = client.get("/api/v1/sessions/nope")
        for answer in (made, read, missing, client.get("/api/v1/games")):
            assert answer.headers["cache-control"] == "no-store"
            assert "etag" not in answer.headers


def test_a_changed_file_gets_a_new_etag_even_with_the_same_size_and_time(tmp_path):
    """The ETag is of the content: an upgrade that keeps file times (or sets them all to one
    date, as reproducible builds do) still gives the browser the new module."""
    module = tmp_path / "shell.js"
    module.write_text("export const v = 1;\n")
    times = (1_000_000_000, 1_000_000_000)
    os.utime(module, times)
    app = Caching(Starlette())
    app.app.mount("/static", StaticFiles(directory=tmp_path))
    with TestClient(app) as client:
        old = client.get("/static/shell.js")
        module.write_text("export const v = 2;\n")
        os.utime(module, times)
        new = client.get("/static/shell.js", headers={"If-None-Match": old.headers["etag"]})
    assert new.status_code == 200 and new.text == "export const v = 2;\n"
    assert new.headers["etag"] != old.headers["etag"]
