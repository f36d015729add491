"""The pages as an app: a web app manifest with the icons a phone's home screen needs, and a
service worker that keeps the pages' shell by version (a second visit opens from it, a new
version replaces it) and opens a page of its own, listing the unfinished games, when the
server cannot be reached."""

import struct
import tempfile

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from gridgames.registry import default_games
from gridgames.web.shell import Shell
from tests.conftest import make_app, screenshot
from tests.servers import Server


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_names_the_app_and_its_icons(tmp_path):
    with TestClient(make_app(tmp_path / "games.db")) as client:
        answer = client.get("/manifest.webmanifest")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/manifest+json")
        manifest = answer.json()
        assert (manifest["name"], manifest["start_url"], manifest["display"]) == \
            ("gridgames", "/", "standalone")
        pngs = set()
        for icon in manifest["icons"]:
            got = client.get(icon["src"])
            assert got.status_code == 200, icon
            if icon["type"] == "image/png":
                width, height = png_size(got.content)
                assert icon["sizes"] == f"{width}x{height}", icon
                pngs.add((width, icon.get("purpose", "any")))
        assert {(192, "any"), (512, "any"), (512, "maskable")} <= pngs
        for page in ("/", "/play/tictactoe"):
            assert '<link rel="manifest" href="/manifest.webmanifest">' in client.get(page).text


def test_the_shell_holds_every_file_a_page_loads_and_its_version_follows_them(tmp_path):
    shell = Shell(default_games())
    with TestClient(make_app(tmp_path / "games.db")) as client:
        worker = client.get("/sw.js")
        assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
        assert f'const VERSION = "{shell.version}";' in worker.text
        assert client.get("/play/polar").headers["x-gridgames-shell"] == shell.version
        for url in shell.files:  # each one is served, at the address the pages ask for
            assert client.get(url).status_code == 200, url
    for url in ("/static/js/shell.js", "/static/css/style.css", "/static/offline.html",
                "/games/ishido/renderer.js", "/games/ishido/ishido-look.js",
                "/games/polar/renderer.css"):
        assert url in shell.files, url
    assert "/static/js/sw.js" not in shell.files


@pytest.mark.browser
def test_installed_kept_replaced_and_offline_with_the_server_stopped(browser):
    with tempfile.TemporaryDirectory() as folder:
        server = Server(f"{folder}/games.db")
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                      service_workers="allow")
        page = context.new_page()
        try:
            page.goto(server.base + "/play/tictactoe?seats=person,person")
            expect(page.locator("#status-text")).to_have_text("It's X's turn", timeout=20000)
            page.locator('[data-cell="4"]').click()  # an unfinished game, kept by the browser
            expect(page.locator("[data-stone]")).to_have_count(1)
            version = page.evaluate("""async () => {
                await navigator.serviceWorker.ready;
                const names = await caches.keys();
                const kept = await (await caches.open(names[0])).keys();
                return [names, kept.length]; }""")
            names, count = version
            assert len(names) == 1 and names[0].startswith("gridgames-shell-"), names
            assert count > 40, count
            # A second visit: the page's files come from the kept shell.
            served = {}
            page.on("response", lambda r: served.setdefault(r.url.split("?")[0],
                                                            r.from_service_worker))
            page.reload()
            expect(page.locator("[data-stone]")).to_have_count(1, timeout=20000)
            assert served[server.base + "/static/js/shell.js"] is True, served
            assert served[server.base + "/games/tictactoe/renderer.js"] is True, served
            # A new version of the server: its worker replaces the kept shell with its own.
            newer = Shell(default_games()).worker.replace("const VERSION = ",
                                                          'const VERSION = "new" + ')
            context.route("**/sw.js", lambda route: route.fulfill(
                body=newer, headers={"Content-Type": "text/javascript"}))
            page.reload()
            page.wait_for_function("""async () => {
                const names = await caches.keys();
                return names.length === 1 && names[0].startsWith("gridgames-shell-new"); }""",
                                   timeout=20000)
            server.stop()
            page.goto(server.base + "/play/trilobite")
            expect(page.locator("h1")).to_have_text("You are offline")
            expect(page.locator("#unfinished a")).to_have_count(1)
            expect(page.locator("#unfinished a")).to_contain_text("Tic-tac-toe")
            screenshot(page, "offline-390x844")
        finally:
            context.close()
            server.stop()
