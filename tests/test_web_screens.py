"""Every page at every screen size, light and dark: phones both ways up (360x640, 640x360), a
tablet (768x1024) and a desktop (1920x1080). Each is photographed into test-artifacts/screens/
and fails on a horizontal scroll or on any visible element outside the window (a game page
fits the window whole; the home page may scroll down, never sideways). On a phone held
sideways the board takes at least 70% of the window's height, the controls beside it. Every
game's board cells are measured on every screen, and on a tall phone (390x844) too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gridgames.registry import default_games
from tests.conftest import screenshot

pytestmark = pytest.mark.browser

SIZES = [(360, 640), (640, 360), (768, 1024), (1920, 1080)]
THEMES = ["light", "dark"]
# Every installed game's page; a game whose start is an empty board is shown a few moves in.
SOME_MOVES = {
    "tictactoe": "/play/tictactoe?id=tictactoe::3/3/3&moves=a1+b2+c1",
    "trilobite": "/play/trilobite?id=trilobite::7/7/7/7/7/7&moves=4+4+5+3",
}
GAMES = {name: SOME_MOVES.get(name, f"/play/{name}") for name in default_games()}
PAGES = ["home", *GAMES]
# A wide board (its renderer asks for the page's wide layout: Polar's is six times as wide
# as it is high): held sideways, the phone's width bounds it, so there it must span the
# window's width instead.
MIN_HEIGHT_SHARE = 0.70
MIN_WIDTH_SHARE = 0.90
# The smallest board cell, as drawn, on every screen (px; a board's viewBox unit is a cell):
# 24 for a finger, except Polar's 24 cells drawn upright on a phone (20 at 360x640, 26 at
# 390x844). Boards larger than the defaults (Trilobite 20x20) are zoomed (test_web_zoom.py).
MIN_CELL = 24
MIN_POLAR_CELL = {(360, 640): 20, (390, 844): 26}
TALL_PHONE = (390, 844)  # measured by resizing the 360x640 page: no load of its own

# Helpers in the page: an element's name for messages, and the board's box as drawn (the
# SVG keeps its viewBox's aspect inside its own box: "meet").
HELPERS = """
window.nameOf = (node) => node.tagName.toLowerCase() + (node.id ? "#" + node.id : "")
  + " " + (node.getAttribute("aria-label") || node.textContent || "").trim().slice(0, 20);
window.drawnBoard = () => {
  const svg = document.querySelector("#board svg");
  const box = svg.getBoundingClientRect();
  const [, , w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
  const scale = Math.min(box.width / w, box.height / h);
  const left = box.left + (box.width - w * scale) / 2;
  const top = box.top + (box.height - h * scale) / 2;
  return { left, top, right: left + w * scale, bottom: top + h * scale,
           width: w * scale, height: h * scale };
};
true;
"""

# Every element shown on the page whose box leaves the window, and the scroll sizes. The
# inside of an SVG is clipped by its viewBox, and what is in a box that scrolls (a long move
# list) is reached by scrolling it: for those, only the SVG's or the box's own box counts.
OUTSIDE = """(wholePage) => {
  const insideScroller = (node) => {
    for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (/(auto|scroll)/.test(style.overflowX + style.overflowY)) return true;
    }
    return false;
  };
  const width = document.documentElement.clientWidth, height = window.innerHeight;
  const bottom = wholePage ? document.documentElement.scrollHeight : height;
  const outside = [];
  for (const node of document.body.querySelectorAll("*")) {
    const svg = node.closest("svg");
    if (svg && svg !== node) continue;
    if (!node.checkVisibility({ visibilityProperty: true })) continue;
    if (insideScroller(node)) continue;
    const box = node.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const top = box.top + (wholePage ? window.scrollY : 0);
    const out = box.left < -0.5 || box.right > width + 0.5
      || top < -0.5 || top + box.height > bottom + 0.5;
    if (out) {
      outside.push(`${nameOf(node)} at ${Math.round(box.left)},${Math.round(top)} `
        + `${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return { outside, scrollWidth: document.documentElement.scrollWidth, width,
           scrollHeight: document.documentElement.scrollHeight, height };
}"""

# Every control shown (button, link, select, input, summary) that cannot be clicked at its
# centre because something else is on top of it, or that the drawn board overlaps.
COVERED = """() => {
  const board = drawnBoard();
  const covered = [];
  for (const node of document.querySelectorAll("button, a, select, input, summary")) {
    if (!node.checkVisibility({ visibilityProperty: true })) continue;
    const r = node.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(node === hit || node.contains(hit) || hit.contains(node))) {
      covered.push(`${nameOf(node)} (under ${hit?.tagName})`);
    }
    const apart = r.right <= board.left + 1 || r.left >= board.right - 1
      || r.bottom <= board.top + 1 || r.top >= board.bottom - 1;
    if (!apart) covered.push(`${nameOf(node)} (the board overlaps it)`);
  }
  return covered;
}"""


def open_page(browser, server_url, page_name, width, height, theme):
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(f"localStorage.setItem('gridgames-theme', '{theme}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    if page_name == "home":
        page.goto(server_url)
        expect(page.locator(".card .preview svg")).to_have_count(len(GAMES), timeout=20000)
    else:
        page.goto(server_url + GAMES[page_name])
        expect(page.locator("#status-text")).not_to_have_text("Loading…", timeout=20000)
        expect(page.locator("#board svg")).to_be_visible()
        expect(page.locator("#thinking")).to_be_hidden(timeout=20000)
    page.evaluate("document.fonts.ready")
    page.evaluate(HELPERS)
    return context, page, errors


def check_fits(page, page_name, width, height, theme):
    screenshot(page, f"screens/{page_name}-{width}x{height}-{theme}")
    found = page.evaluate(OUTSIDE, page_name == "home")
    where = f"{page_name} at {width}x{height} ({theme})"
    assert found["scrollWidth"] <= found["width"], f"{where} scrolls sideways: {found}"
    if page_name != "home":
        assert found["scrollHeight"] <= found["height"], f"{where} scrolls down: {found}"
    assert not found["outside"], f"{where}: outside the window: {found['outside']}"


SIDEWAYS = (640, 360)  # a phone held sideways


@pytest.mark.parametrize("width, height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("page_name", PAGES)
def test_every_page_fits_every_screen(browser, server_url, page_name, width, height):
    """Each page is loaded once, in the light theme, and every check of this file for its
    size is made on that load: the page as it opens, the board's share held sideways and its
    cells; then in the dark theme (the theme button, as a player switches) the page again,
    Trilobite's replay, move list and dialogs, and last the settings (they change the page).
    A fresh page costs more than all the checks on it."""
    context, page, errors = open_page(browser, server_url, page_name, width, height, "light")
    try:
        for theme in THEMES:
            if theme != "light":
                page.locator("#theme").click()
            assert page.locator("html").get_attribute("data-theme") == theme
            check_fits(page, page_name, width, height, theme)
            if page_name == "home":
                continue
            covered = page.evaluate(COVERED)
            assert not covered, f"{page_name} at {width}x{height}: covered: {covered}"
            if theme == "light":
                if (width, height) == SIDEWAYS:
                    check_the_board_takes_the_height(page, page_name, width, height)
                check_the_cells(page, page_name, width, height)
            elif page_name == "trilobite":
                check_replay_and_dialogs(page, width, height)
        if page_name != "home":
            check_the_settings_fit_without_scrolling(page, page_name, width, height)
        assert not errors, f"JavaScript errors: {errors}"
    finally:
        context.close()


def check_the_board_takes_the_height(page, game, width, height):
    """A phone held sideways gives the board the height, the controls beside it."""
    board = page.evaluate("drawnBoard()")
    controls = page.locator("#controls").bounding_box()
    board_box = page.locator("#board svg").bounding_box()
    print(f"{game} at {width}x{height}: board {board['width']:.0f}x{board['height']:.0f} px, "
          f"{board['height'] / height:.0%} of the height, {board['width'] / width:.0%} "
          f"of the width")
    if page.locator("body").get_attribute("data-layout") == "wide":
        assert board["width"] >= MIN_WIDTH_SHARE * width, board
    else:
        assert board["height"] >= MIN_HEIGHT_SHARE * height, board
        # The controls are beside the board, not under it.
        assert controls["x"] >= board_box["x"] + board_box["width"] - 1, (controls, board_box)


def check_the_cells(page, game, width, height):
    sizes = [(width, height), *([TALL_PHONE] if (width, height) == (360, 640) else [])]
    for size in sizes:
        page.set_viewport_size(dict(zip(("width", "height"), size, strict=True)))
        cell = page.evaluate("drawnBoard().width / Number(document.querySelector('#board svg')"
                             ".getAttribute('viewBox').split(' ')[2])")
        least = MIN_POLAR_CELL.get(size, MIN_CELL) if game == "polar" else MIN_CELL
        print(f"{game} at {size[0]}x{size[1]}: cells of {cell:.1f} px")
        assert cell >= least, f"{game} at {size[0]}x{size[1]}: cells of {cell:.1f} px < {least}"
    page.set_viewport_size({"width": width, "height": height})


# The dialogs fit the window (their content may scroll inside them, never sideways).
DIALOG_FITS = """() => {
  const dialog = document.querySelector("dialog[open]");
  const box = dialog.getBoundingClientRect();
  return { inside: box.left >= 0 && box.top >= 0 && box.right <= innerWidth
                   && box.bottom <= innerHeight,
           sideways: dialog.scrollWidth > dialog.clientWidth + 1,
           box: [box.left, box.top, box.width, box.height] };
}"""


def check_replay_and_dialogs(page, width, height):
    """The game page's other states: a replay (its step bar above the board), the move
    list opened, and each dialog (settings, help, statistics)."""
    page.keyboard.press("m")
    expect(page.locator("#stepper")).to_be_visible()
    check_fits(page, "trilobite-replay", width, height, "dark")
    assert not page.evaluate(COVERED)
    page.keyboard.press("Escape")
    expect(page.locator("#stepper")).to_be_hidden()
    if not page.locator("#moves-box").evaluate("d => d.open"):
        page.locator("#moves-box summary").click()
    check_fits(page, "trilobite-moves", width, height, "dark")
    for button, dialog in [("#settings", "#settings-dialog"), ("#help", "#help-dialog"),
                           ("#stats", "#stats-dialog")]:
        page.locator(button).click()
        expect(page.locator(dialog)).to_be_visible()
        screenshot(page, f"screens/trilobite-{dialog[1:]}-{width}x{height}")
        fits = page.evaluate(DIALOG_FITS)
        assert fits["inside"] and not fits["sideways"], (dialog, width, height, fits)
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()


# The settings dialog shows all of itself without scrolling: its buttons too (on a phone held
# sideways Trilobite's scrolled 50 px, its buttons out of sight), and a refusal's message.
SCROLLS = """() => { const dialog = document.querySelector("dialog[open]");
  return { scrollHeight: dialog.scrollHeight, clientHeight: dialog.clientHeight }; }"""


def check_the_settings_fit_without_scrolling(page, game, width, height):
    page.locator("#settings").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    states = [("", page.evaluate(SCROLLS))]
    number = page.locator("#params-fields input[type=number]")
    if number.count():  # a size the game refuses: its message shows in the dialog
        number.first.fill("999")
        page.locator("#start-new").click()
        expect(page.locator("#settings-error")).not_to_be_empty()
        states.append(("-refused", page.evaluate(SCROLLS)))
    screenshot(page, f"screens/{game}-settings-{width}x{height}")
    fits = page.evaluate(DIALOG_FITS)
    assert fits["inside"] and not fits["sideways"], fits
    for state, sizes in states:
        print(f"{game}{state} settings at {width}x{height}: {sizes}")
        assert sizes["scrollHeight"] <= sizes["clientHeight"] + 1, (state, sizes)
