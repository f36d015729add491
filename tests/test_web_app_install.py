"""The pages as an app: a web app manifest with the icons a phone's home screen needs, and a
service worker that opens a page saying the network is gone instead of the browser's error
page."""

import struct

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.conftest import make_app, screenshot


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
        sizes = {}
        for icon in manifest["icons"]:
            got = client.get(icon["src"])
            assert got.status_code == 200, icon
            if icon["type"] == "image/png":
                width, height = png_size(got.content)
                assert icon["sizes"] == f"{width}x{height}", icon
                sizes[icon.get("purpose", "any")] = sizes.get(icon.get("purpose", "any"), []) + [
                    width]
        assert 192 in sizes["any"] and 512 in sizes["any"] and 512 in sizes["maskable"]
        worker = client.get("/sw.js")
        assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
        for page in ("/", "/play/tictactoe"):
            assert '<link rel="manifest" href="/manifest.webmanifest">' in client.get(page).text


@pytest.mark.browser
def test_offline_a_page_says_so(browser, server_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(server_url + "/")
        expect(page.locator(".card").first).to_be_visible(timeout=20000)
        ready = page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        assert ready
        context.set_offline(True)
        page.goto(server_url + "/play/trilobite")
        expect(page.locator("h1")).to_have_text("You are offline")
        screenshot(page, "offline-390x844")
        context.set_offline(False)
        with page.expect_navigation():
            page.get_by_role("button", name="Try again").click()
        expect(page.locator("#status-text")).not_to_have_text("Loading…", timeout=20000)
    finally:
        context.close()
