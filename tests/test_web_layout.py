"""The game page's layout through whole games (issue 32, points 1 and 9): the move list
scrolls in its own box, so the board, the status line and the end box stay in the window at
every move and the page never scrolls; nothing jumps when the AI's note or the analysis comes;
a click leaves no frame around the board while the keyboard still sees where it is.

The games are driven through the page's own controls (keys, clicks, taps) without waits of
their own: each step waits (expect) only for the page's answer."""

from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from gridgames.games.ishido.game import GRID
from gridgames.games.polar.packs import builtin_pack
from gridgames.session import Session
from tests.conftest import screenshot
from tests.test_web_ishido import deal_id

# A whole Ishido deal won with all 72 tiles (6 on the board at the start, then these 66
# moves), found by random playouts of the engine's legal moves; the test plays them with the
# mouse, at the page's speed (asking the page's hint for each took 40 s).
ISHIDO_DEAL = ("whole deal", "classic")
ISHIDO_MOVES = ["g4", "e4", "a2", "f3", "k1", "b8", "b7", "b1", "h4", "l2", "g6", "i4", "c1",
                "i5", "c2", "f2", "i3", "c8", "f5", "b6", "k8", "l3", "d4", "j3",
                "d8", "c4", "b5", "a5", "d1", "j2", "j1", "j5", "g7", "d7", "i6",
                "d5", "e8", "e2", "f1", "l4", "f7", "h3", "a4", "h2", "h6", "j8",
                "k5", "k2", "i1", "l7", "c6", "k6", "i8", "g1", "g8", "h7", "e5",
                "d3", "j7", "c5", "j4", "b2", "e6", "a3", "c7", "c3"]
CELL = {GRID.cell_name(cell): cell for cell in range(96)}

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
# A 7x6 Trilobite game that fills the board with no four in a line (found by random
# playouts that never complete a line): 42 moves, a draw at the last one.
DRAWN_GAME = [int(c) for c in "257771314744647214154617633623313656555222"]
EMPTY_7X6 = "/play/trilobite?id=trilobite::7/7/7/7/7/7"

# Where the page's parts are, in the window's coordinates, and how far the page is scrolled.
BOXES = """() => {
  const box = (selector) => {
    const node = document.querySelector(selector);
    if (!node || !node.checkVisibility()) return null;
    const r = node.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  };
  return { scrollX, scrollY, width: innerWidth, height: innerHeight,
           board: box("#board svg"), status: box("#status"), end: box("#gameover"),
           words: box("#status-text"), settings: box("#settings") };
}"""


def in_view(page, ended=False):
    """The board and the status line (and the end box once the game is over) lie inside the
    window, and the page is not scrolled. Returns the boxes."""
    boxes = page.evaluate(BOXES)
    assert (boxes["scrollX"], boxes["scrollY"]) == (0, 0), boxes
    for name in ("board", "status") + (("end",) if ended else ()):
        box = boxes[name]
        assert box is not None, (name, boxes)
        assert box["top"] >= 0 and box["left"] >= 0, (name, boxes)
        assert box["bottom"] <= boxes["height"] and box["right"] <= boxes["width"], (name, boxes)
    return boxes


def open_page(browser, server_url, path, viewport, touch=False):
    context = browser.new_context(viewport=viewport, has_touch=touch)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server_url + path)
    expect(page.locator("#status-text")).not_to_have_text("Loading…", timeout=20000)
    return context, page, errors


def center(box):
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_whole_ishido_game_keeps_the_board_in_view_on_a_desktop(browser, server_url):
    """All 72 tiles, each placed with a mouse click: the move list grows beside the board,
    and the board, the status line and the side panel stay where they were."""
    path = f"/play/ishido?id={deal_id(*ISHIDO_DEAL)}"
    context, page, errors = open_page(browser, server_url, path, DESKTOP)
    try:
        expect(page.locator(".next-tile")).to_be_visible()
        placed = page.locator("[data-placed]")
        first = in_view(page)
        side = page.locator(".next-square").bounding_box()
        expect(placed).to_have_count(6)
        # Every cell's centre, once: the board does not move (checked at every move).
        centres = page.evaluate("""() => [...document.querySelectorAll("[data-cell]")].map((c) => {
          const r = c.getBoundingClientRect();
          return [Number(c.dataset.cell), r.left + r.width / 2, r.top + r.height / 2]; })""")
        centre = {cell: (x, y) for cell, x, y in centres}
        for count, move in enumerate(ISHIDO_MOVES, 7):
            page.mouse.click(*centre[CELL[move]])  # the mouse: no scrolling into view
            expect(placed).to_have_count(count)
            boxes = in_view(page)
            assert boxes["board"] == first["board"], (count, boxes)
            if count == 40:
                screenshot(page, "layout-ishido-1440x900-mid")
        boxes = in_view(page, ended=True)
        assert boxes["board"] == first["board"]
        assert page.locator(".next-square").bounding_box() == side  # the side panel stays
        expect(page.locator("#move-list li")).to_have_count(len(ISHIDO_MOVES))
        screenshot(page, "layout-ishido-1440x900-end")
        page.reload()  # and a reload opens with the board in view
        expect(placed).to_have_count(72)
        in_view(page, ended=True)
    finally:
        context.close()
    assert not errors, errors


def play_drawn_game(page, move, screenshot_name):
    stones = page.locator("[data-stone]")
    first = in_view(page)
    for count, column in enumerate(DRAWN_GAME, 1):
        move(column)
        expect(stones).to_have_count(count)
        ended = count == len(DRAWN_GAME)
        boxes = in_view(page, ended=ended)
        # At the end a button goes (Play online), and the board may grow into its room
        # below; nothing above it moves.
        if ended:
            assert boxes["board"]["top"] == first["board"]["top"], boxes
        else:
            assert boxes["board"] == first["board"], (count, boxes)
        if count == 21:
            screenshot(page, f"{screenshot_name}-mid")
    expect(page.locator("#gameover")).to_be_visible()
    screenshot(page, f"{screenshot_name}-end")


def test_a_42_move_trilobite_game_by_keys_on_a_desktop(browser, server_url):
    context, page, errors = open_page(browser, server_url, EMPTY_7X6, DESKTOP)
    try:
        play_drawn_game(page, lambda column: page.keyboard.press(str(column)),
                        "layout-trilobite-1440x900")
    finally:
        context.close()
    assert not errors, errors


def test_a_42_move_trilobite_game_by_taps_on_a_phone(browser, server_url):
    context, page, errors = open_page(browser, server_url, EMPTY_7X6, PHONE, touch=True)
    try:
        page.locator("#moves-box > summary").tap()  # the move list open, as long as it gets
        svg = page.locator("#board svg").bounding_box()
        columns = 7 + 2 * 0.5  # the board's columns and the margin either side (stones-draw.js)

        def tap(column):
            x = svg["x"] + svg["width"] * (0.5 + column - 0.5) / columns
            page.touchscreen.tap(x, svg["y"] + svg["height"] * 0.5)

        play_drawn_game(page, tap, "layout-trilobite-390x844")
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1440x900", "390x844"])
def test_nothing_moves_when_the_ai_note_and_the_analysis_come(browser, server_url, viewport):
    """Against the AI: the status words stay where they were when the AI's note appears,
    and the board's top where it was when the note and then the analysis come."""
    touch = viewport is PHONE
    context, page, errors = open_page(browser, server_url, EMPTY_7X6 + "&seats=person,easy",
                                      viewport, touch)
    try:
        expect(page.locator("#thinking")).to_be_hidden(timeout=20000)
        before = in_view(page)
        if touch:
            page.locator("#board svg").tap()  # the middle column
        else:
            page.keyboard.press("4")
        expect(page.locator("[data-stone]")).to_have_count(2, timeout=20000)
        expect(page.locator("#ai-note")).to_be_visible()
        after = in_view(page)
        assert after["board"] == before["board"]
        # The words differ ("Your turn (Red)" both times here): their place must not.
        assert after["words"] == before["words"], (before, after)
        page.locator("#analysis").click()
        expect(page.locator("#analysis")).to_have_text("Analysis: on (proven)", timeout=20000)
        analysed = in_view(page)
        assert analysed["board"] == before["board"]
        # The button's longer words wrap neither it nor the row: Settings keeps its line
        # (on a phone it may move along it, as the row's buttons reflow).
        for edge in ("top", "bottom"):
            assert analysed["settings"][edge] == after["settings"][edge]
        if not touch:
            assert analysed["settings"] == after["settings"]
        assert analysed["words"] == after["words"]
        name = f"{viewport['width']}x{viewport['height']}"
        screenshot(page, f"layout-ai-note-analysis-{name}")
    finally:
        context.close()
    assert not errors, errors


FOCUS = """() => {
  const node = document.activeElement;
  const style = getComputedStyle(node);
  const cursor = node.querySelector?.(".cursor-box");
  return { tag: node.tagName.toLowerCase(), outline: style.outlineStyle,
           colour: style.outlineColor, visible: node.matches(":focus-visible"),
           cursor: cursor && getComputedStyle(cursor).stroke };
}"""


def test_a_click_leaves_no_frame_on_the_board_but_the_keyboard_sees_one(page, server_url):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{server_url}/play/ishido?id={deal_id()}")
    expect(page.locator(".next-tile")).to_be_visible()
    board = page.locator("#board svg")
    page.mouse.click(*center(page.locator('[data-cell="0"]').bounding_box()))  # not a valid cell
    focus = page.evaluate(FOCUS)
    assert focus["tag"] != "svg" or focus["outline"] == "none", focus
    # By the keyboard: Tab from the help button on to the board, which then shows a frame
    # (there is no cell cursor yet)...
    page.locator("#help").focus()
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUS)["tag"] == "svg":
            break
    focus = page.evaluate(FOCUS)
    assert focus["tag"] == "svg" and focus["visible"] and focus["outline"] != "none", focus
    ring = focus["colour"]
    # ... and once an arrow key has drawn the cell cursor, the frame is the cursor's, in the
    # focus colour, and none around the whole board.
    page.keyboard.press("ArrowRight")
    expect(board.locator(".cursor-box")).to_have_count(1)
    board.focus()  # Ishido redraws its board: the focus goes back to the new one
    focus = page.evaluate(FOCUS)
    assert focus["tag"] == "svg" and focus["visible"], focus
    assert focus["outline"] == "none" and focus["cursor"] == ring, focus


POLAR_1 = builtin_pack("gridgames")[0].info["solution"]
ENDS = {  # a page one move from the end, and that move's key
    "trilobite-lost-to-the-ai": (EMPTY_7X6 + "&moves=1+2+7+2+1+2&seats=person,perfect", "7"),
    "polar-solved": (f"/play/polar?id={quote(Session.new('polar', 'level=1').game_id)}&moves="
                     + "+".join(POLAR_1[:-1]),
                     # at 360x640 the board is drawn turned: down is the level's right
                     {"L": "ArrowUp", "R": "ArrowDown", "U": "ArrowLeft", "D": "ArrowRight"}[
                         POLAR_1[-1]]),
}


@pytest.mark.parametrize("end", ENDS)
def test_the_end_box_does_not_move_the_board_on_a_small_phone(browser, server_url, end):
    """At 360x640 the end box (its words and Play again) fits the status line's height."""
    path, key = ENDS[end]
    context, page, errors = open_page(browser, server_url, path, {"width": 360, "height": 640},
                                      touch=True)
    try:
        expect(page.locator("#thinking")).to_be_hidden(timeout=20000)
        before = in_view(page)
        page.keyboard.press(key)
        expect(page.locator("#gameover")).to_be_visible(timeout=20000)
        after = in_view(page, ended=True)
        screenshot(page, f"end-box-{end}-360x640")
        assert after["board"] == before["board"], (before, after)
    finally:
        context.close()
    assert not errors, errors
