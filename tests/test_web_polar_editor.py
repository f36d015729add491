"""The Polar level editor in a browser: a small level painted on a phone held upright
(390x844, taps) and on a desktop (1440x900, the mouse and the keys), asked whether it can be
won, downloaded, and test-played to the win; the play page's Edit level link brings its
board back, and the editor says what it lacks."""

from urllib.parse import unquote

import pytest
from playwright.sync_api import expect

from gridgames.games.polar.packs import load_levels
from tests.conftest import screenshot

pytestmark = pytest.mark.browser

COLS = 24
# Penguin, heart and house on row 1 (columns 0, 2 and 5): R walks, R pushes the heart home.
DESC = "/".join(["." * COLS, "P.+..H" + "." * 18, "." * COLS, "." * COLS])
READY = "Ready: play it"


def cell_point(page, row, col):
    box = page.locator("#edit-board svg").bounding_box()
    size = box["width"] / COLS
    return box["x"] + (col + 0.5) * size, box["y"] + (row + 0.5) * size


def ask_and_play(page):
    """Can it be won? (proven, one push), then Play: the level as a game."""
    page.locator("#edit-win").click()
    expect(page.locator("#edit-answer")).to_contain_text("Yes: proven, 1 push, the fewest",
                                                         timeout=30000)
    page.locator("#edit-play").click()
    expect(page.locator("#status-text")).to_contain_text("1 heart to bring home")
    assert unquote(page.url).endswith(f":{DESC}")


def test_a_level_painted_with_taps_is_won_on_a_phone(phone, server_url):
    page = phone
    page.goto(server_url + "/play/polar/edit")
    expect(page.locator("#edit-status")).to_contain_text("No penguin: place one")
    expect(page.locator("#edit-play")).to_be_disabled()
    for tool, row, col in [("penguin", 1, 0), ("5", 1, 2), ("3", 1, 5)]:
        page.locator(f'[data-tool="{tool}"]').tap()
        page.touchscreen.tap(*cell_point(page, row, col))
    expect(page.locator("#edit-status")).to_contain_text(READY)
    screenshot(page, "polar-editor-phone")
    ask_and_play(page)
    page.locator('.polar-pad [data-move="R"]').tap()
    page.locator('.polar-pad [data-move="R"]').tap()
    expect(page.locator("#status-text")).to_contain_text("Level solved in 2 moves")


def test_a_level_made_with_the_mouse_and_keys_downloads_and_is_won(desktop, server_url,
                                                                     tmp_path):
    page = desktop
    page.goto(server_url + "/play/polar/edit")
    # A drag paints every cell it crosses: three trees on the bottom row, then empty ice
    # clears one again.
    page.locator('[data-tool="1"]').click()
    page.mouse.move(*cell_point(page, 3, 10))
    page.mouse.down()
    page.mouse.move(*cell_point(page, 3, 11), steps=3)
    page.mouse.move(*cell_point(page, 3, 12), steps=3)
    page.mouse.up()
    expect(page.locator("#edit-board [data-tile='1']")).to_have_count(3)
    page.locator('[data-tool="0"]').click()
    page.mouse.click(*cell_point(page, 3, 12))
    for row, col in [(3, 10), (3, 11)]:
        page.mouse.click(*cell_point(page, row, col))
    # The keys: the penguin clicked into place, then the cursor walks and each object's key
    # places it.
    page.locator('[data-tool="penguin"]').click()
    page.mouse.click(*cell_point(page, 1, 0))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("5")
    expect(page.locator("#edit-status")).to_contain_text("No house")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("h")
    expect(page.locator("#edit-status")).to_contain_text(READY)
    screenshot(page, "polar-editor-desktop")
    page.locator("#edit-name").fill("Two steps")
    page.locator("#edit-format").select_option("stge")
    with page.expect_download() as download:
        page.locator("#edit-download").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name == "two-steps.stge" and load_levels(path)[0].desc() == DESC
    ask_and_play(page)
    page.locator("#board svg").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#status-text")).to_contain_text("Level solved in 2 moves")
    # The play page's link takes its board (every heart home) back to the editor.
    page.locator("#edit-level").click()
    expect(page.locator("#edit-status")).to_contain_text("No heart: place at least one")
    expect(page.locator("#edit-download")).to_be_disabled()
