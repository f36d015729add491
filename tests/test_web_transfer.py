"""Moving what a browser keeps to another one: Export writes one file of every game's
statistics, the settings and the unfinished games; Import in another browser merges the
statistics and joins the unfinished games, and refuses a file it cannot take (imported
already, from a newer version, broken, not an export) with a clear message, changing
nothing. docs/playing.md documents the format."""

import json

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot

pytestmark = pytest.mark.browser

# One move from X's win, between two people: the game counts as played (no one's win).
ALMOST = "/play/tictactoe?id=tictactoe::3/3/3&moves=a1+b1+a2+b2&seats=person,person"


def finish_a_game(page, server_url):
    page.goto(server_url + ALMOST)
    page.locator('[data-cell="6"]').click()
    expect(page.locator("#gameover")).to_be_visible()


def counts(page):
    page.locator("#stats").click()
    expect(page.locator("#stats-dialog")).to_be_visible()
    return page.locator("#stats-body .stats-counts")


def import_text(page, text, tmp_path, name):
    path = tmp_path / name
    path.write_text(text)
    page.locator("#import-file").set_input_files(str(path))
    return page.locator("#transfer-said")


def test_export_then_import_in_another_browser(browser, server_url, tmp_path):
    first = browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
    second = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = first.new_page()
        finish_a_game(page, server_url)
        page.goto(server_url + "/play/trilobite?id=trilobite::7/7/7/7/7/7&moves=4")  # unfinished
        expect(page.locator("[data-stone]")).to_have_count(1)
        counts(page)
        with page.expect_download() as download:
            page.keyboard.press("e")
        text = download.value.path().read_text()
        saved = json.loads(text)
        assert (saved["format"], saved["version"]) == ("gridgames-browser-data", 1)
        assert json.loads(saved["data"]["gridgames-stats-tictactoe"])["played"] == 1
        assert "trilobite" in saved["data"]["gridgames-unfinished"]

        other = second.new_page()
        finish_a_game(other, server_url)
        expect(counts(other)).to_contain_text("Played1")
        said = import_text(other, text, tmp_path, "export.json")
        expect(said).to_contain_text("Imported ")
        expect(other.locator("#stats-body .stats-counts")).to_contain_text("Played2")
        screenshot(other, "stats-imported-390x844")
        newer = {**saved, "id": "newer", "version": 2}
        broken = {**saved, "id": "broken",
                  "data": {**saved["data"], "gridgames-stats-tictactoe": '{"played": "x"}'}}
        for changed, words in (
                (text, "This file was imported here already. Nothing was changed."),
                (json.dumps(newer), "The file comes from a newer gridgames (format 2); this "
                 "page reads format 1 and older. Nothing was changed."),
                (json.dumps(broken), "The file is broken: gridgames-stats-tictactoe. Nothing "
                 "was changed."),
                ("{not json", "This is not a gridgames export (not JSON). Nothing was changed.")):
            expect(import_text(other, changed, tmp_path, "again.json")).to_have_text(words)
            expect(other.locator("#stats-body .stats-counts")).to_contain_text("Played2")
        other.goto(server_url + "/")
        expect(other.locator("#unfinished")).to_contain_text("Trilobite")
    finally:
        first.close()
        second.close()
