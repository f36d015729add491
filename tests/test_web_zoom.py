"""Zoom and pan on a board: two fingers pinch and pan (real touch events through Chromium's
input, not scripts), Ctrl+wheel and the keys on a desktop; a pinch or a pan never plays a
move, and a tap on a zoomed board plays the cell under the finger."""

import re

import pytest
from playwright.sync_api import expect

from gridgames.registry import default_games
from gridgames.session import Session
from tests.conftest import device_page, screenshot

pytestmark = pytest.mark.browser

GAME = "/play/trilobite?id=trilobite::7/7/7/7/7/7&seats=person,person"


def scale_of(page):
    transform = page.evaluate("document.getElementById('board').style.transform")
    found = re.search(r"scale\(([\d.]+)\)", transform)
    return float(found.group(1)) if found else 1.0


def fingers(cdp, kind, points):
    touched = [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touched})


def two_finger_move(cdp, start, end, steps=6):
    fingers(cdp, "touchStart", start)
    for step in range(1, steps + 1):
        fingers(cdp, "touchMove", [(a[0] + (b[0] - a[0]) * step / steps,
                                    a[1] + (b[1] - a[1]) * step / steps)
                                   for a, b in zip(start, end, strict=True)])
    fingers(cdp, "touchEnd", [])


def test_pinch_and_pan_on_a_phone_never_play(browser, server_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    try:
        page.goto(server_url + GAME)
        expect(page.locator("#status-text")).to_have_text("It's Red's turn")
        box = page.locator("#board-wrap").bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = context.new_cdp_session(page)
        expect(page.locator("#zoom-fit")).to_be_hidden()  # nothing to fit yet
        two_finger_move(cdp, [(cx - 30, cy), (cx + 30, cy)], [(cx - 90, cy), (cx + 90, cy)])
        assert 2.5 < scale_of(page) <= 4
        before = page.evaluate("document.getElementById('board').style.transform")
        apart, moved = [(cx - 60, cy), (cx + 60, cy)], [(cx - 20, cy + 30), (cx + 100, cy + 30)]
        two_finger_move(cdp, apart, moved)  # a pan
        assert page.evaluate("document.getElementById('board').style.transform") != before
        two_finger_move(cdp, moved, apart)  # and back
        page.wait_for_timeout(300)
        expect(page.locator("[data-stone]")).to_have_count(0)  # no move from any of it
        assert "moves=" not in page.url
        screenshot(page, "zoomed-390x844")
        page.touchscreen.tap(cx, cy)  # the middle stayed under the fingers' middle: column 4
        expect(page.locator("[data-stone]")).to_have_count(1)
        expect(page).to_have_url(re.compile(r"moves=4$"))
        page.locator("#zoom-fit").tap()
        assert scale_of(page) == 1
        expect(page.locator("#zoom-fit")).to_be_hidden()
    finally:
        context.close()


def test_ctrl_wheel_and_keys_on_a_desktop(page, server_url):
    page.goto(server_url + GAME)
    expect(page.locator("#status-text")).to_have_text("It's Red's turn")
    box = page.locator("#board-wrap").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -300)
    page.keyboard.up("Control")
    expect(page.locator("body")).to_have_class(re.compile(r"\bboard-zoomed\b"))
    page.keyboard.press("f")
    assert scale_of(page) == 1
    expect(page.locator("#zoom-in")).to_be_hidden()  # the buttons come once zoomed
    page.keyboard.press("+")
    page.locator("#zoom-in").click()
    assert scale_of(page) == pytest.approx(2.25)
    page.keyboard.press("-")
    assert scale_of(page) == pytest.approx(1.5)
    expect(page.locator("[data-stone]")).to_have_count(0)


BIG_BOARDS = {
    "trilobite": "/play/trilobite?id=trilobite:width=20,height=20,line=4:"
                 + "/".join(["20"] * 20) + "&seats=person,person",
    "twomino": "/play/twomino?id="
               + Session.new("twomino", "n=13", "zoom", default_games()).game_id,
}
SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "has_touch": True, "is_mobile": True}
# A cell as drawn, zoom included (one viewBox unit a cell).
CELL = """() => { const svg = document.querySelector("#board svg");
  const [, , width, height] = svg.getAttribute("viewBox").split(" ").map(Number);
  const box = svg.getBoundingClientRect();
  return Math.min(box.width / width, box.height / height); }"""


@pytest.mark.parametrize("game", BIG_BOARDS)
def test_the_largest_boards_zoom_to_cells_a_finger_can_hit(browser, server_url, game):
    """A small phone (360x640) fits the largest boards with cells under 24 px; zoomed (two
    in as far as it goes: + here, a pinch on the screen) their cells are 40 px or more."""
    page = next(device_gen := device_page(browser, SMALL_PHONE))
    try:
        page.goto(server_url + BIG_BOARDS[game])
        expect(page.locator("#board svg")).to_be_visible()
        fitted = page.evaluate(CELL)
        assert fitted < 24, fitted  # else this test has nothing to zoom
        for _ in range(4):
            page.keyboard.press("+")
        assert scale_of(page) == 4
        assert page.evaluate(CELL) >= 40, (fitted, page.evaluate(CELL))
        screenshot(page, f"zoomed-{game}-360x640")
    finally:
        next(device_gen, None)
