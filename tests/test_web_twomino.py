"""2mino in the browser: a small board to victory by clicking bars, undo and clear, the
colours of the sample pairs, hint and check."""

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from gridgames.core.rng import Rng
from gridgames.games.twomino.board import hint_bars, shuffled
from gridgames.games.twomino.game import encode_desc
from gridgames.games.twomino.layout import layout
from tests.conftest import screenshot

pytestmark = pytest.mark.browser


def small_board(n=3, seed="browser"):
    rng = Rng(seed)
    board = shuffled(n, rng)
    locked = hint_bars(board, rng)
    return board, locked, f"twomino:n={n}:{encode_desc(n, board.symbols, locked)}"


def click_bar(page, lay, bar):
    """Click the middle of the border between the bar's two cells on the game board."""
    a, b = lay.bars[bar]
    circle = page.locator(f'[data-role="game"][data-cell="{a}"] circle')
    expect(circle).to_be_visible()
    box = circle.bounding_box()
    size = box["width"] / 0.72  # the symbol circle is 0.72 of a cell wide
    ax = box["x"] + box["width"] / 2
    ay = box["y"] + box["height"] / 2
    x, y = (ax + size / 2, ay) if b == a + 1 else (ax, ay + size / 2)
    before = page.url
    page.mouse.move(x, y)
    page.mouse.click(x, y)
    page.wait_for_url(lambda url: url != before)  # the server took the move


def test_play_a_small_board_to_victory(page, server_url):
    board, locked, game_id = small_board()
    lay = layout(3)
    page.goto(f"{server_url}/play/twomino?id={quote(game_id)}")
    expect(page.locator("#status-text")).to_have_text("0 of 6 pairs found")
    expect(page.locator('[data-state="locked"]')).to_have_count(len(locked))
    todo = [b for b in board.separators() if b not in locked]
    # A wrong bar first, then undo; some bars, then clear.
    wrong = next(i for i in range(len(lay.bars)) if i not in board.separators())
    click_bar(page, lay, wrong)
    expect(page.locator(f'[data-bar="{lay.bar_name(wrong)}"][data-state="on"]')).to_have_count(1)
    page.keyboard.press("c")  # check marks it: it agrees with no solution
    expect(page.locator("#status-note")).to_contain_text(lay.bar_name(wrong))
    page.locator("#undo").click()
    expect(page.locator('[data-state="on"]')).to_have_count(0)
    expect(page.locator("#status-note")).to_be_hidden()  # the check was about that position
    for bar in todo[:2]:
        click_bar(page, lay, bar)
    expect(page.locator('[data-state="on"]')).to_have_count(2)
    page.locator("#clear").click()
    expect(page.locator('[data-state="on"]')).to_have_count(0)
    for count, bar in enumerate(todo, 1):
        click_bar(page, lay, bar)
        expect(page.locator('[data-state="on"]')).to_have_count(count)
        if count == len(todo) - 2:
            once = page.locator('.mino-sample.once')
            assert once.count() >= 1  # found pairs turn blue (and get a ✓) on the samples board
            screenshot(page, "twomino-progress")
    expect(page.locator("#status-text")).to_have_text("All 6 pairs found!")
    expect(page.locator(".mino-sample.once")).to_have_count(6)
    expect(page.locator("[data-victory]")).to_have_count(1)
    screenshot(page, "twomino-won")


def test_a_pair_found_twice_is_red(page, server_url):
    # N=3 board from the samples arrangement shuffled; enclose the same pair twice by hand
    # when it is possible, else just check the counter colours of one found pair.
    board, locked, game_id = small_board(4, "twice")
    lay = layout(4)
    page.goto(f"{server_url}/play/twomino?id={quote(game_id)}")
    expect(page.locator(".mino-sample.once")).to_have_count(0)
    first = min(c for c in range(len(board.symbols)))
    bar = lay.bar_index[(min(first, board.partner[first]), max(first, board.partner[first]))]
    for around in lay.outline(bar):
        if around not in locked:
            click_bar(page, lay, around)
    expect(page.locator(".mino-sample.once")).to_have_count(1)
    # Right-click on the pair's middle shows it on the samples board.
    a, b = lay.bars[bar]
    box = page.locator(f'[data-role="game"][data-cell="{a}"] circle').bounding_box()
    size = box["width"] / 0.72
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    x, y = (cx + size / 2, cy) if b == a + 1 else (cx, cy + size / 2)
    page.mouse.click(x, y, button="right")
    expect(page.locator(".mino-sample.shown")).to_have_count(1)


def test_hint_and_keyboard_cursor(page, server_url):
    page.goto(f"{server_url}/play/twomino?id={quote('twomino:n=5,gen=unique#k')}")
    expect(page.locator("#status-text")).to_have_text(re.compile("of 15 pairs found"))
    page.locator("#hint").click()
    expect(page.locator("#status-note")).to_contain_text("turn")
    expect(page.locator(".mino-bar.hinted")).to_have_count(1)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    expect(page).to_have_url(re.compile("moves="))


@pytest.mark.parametrize("width, height", [(400, 800), (1400, 800)])
def test_boards_side_by_side_or_stacked(browser, server_url, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    _, _, game_id = small_board(6, "layout")
    page.goto(f"{server_url}/play/twomino?id={quote(game_id)}")
    game = page.locator('[data-role="game"][data-cell="0"]').bounding_box()
    sample = page.locator('[data-role="sample"][data-cell="0"]').bounding_box()
    if width < height:
        assert sample["y"] > game["y"] + game["height"]
    else:
        assert sample["x"] > game["x"] + game["width"]
    screenshot(page, f"twomino-{width}x{height}")
    context.close()


def bar_point(page, lay, bar):
    """The middle of the border between the bar's two cells, in the window."""
    a, b = lay.bars[bar]
    box = page.locator(f'[data-role="game"][data-cell="{a}"] circle').bounding_box()
    size = box["width"] / 0.72
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return (x + size / 2, y) if b == a + 1 else (x, y + size / 2)


def test_a_pair_in_one_gesture_tap_or_double_click(browser, server_url):
    """Pair mode with a tap on a phone, a double-click with a mouse: the two cells become one
    domino in one move, one undo step."""
    _, _, game_id = small_board()
    lay = layout(3)
    middle = lay.bar_index[(0, 3)]  # between a1 and a2
    for options in ({"viewport": {"width": 390, "height": 844}, "has_touch": True},
                    {"viewport": {"width": 1440, "height": 900}}):
        context = browser.new_context(**options)
        page = context.new_page()
        try:
            page.goto(f"{server_url}/play/twomino?id={quote(game_id)}")
            expect(page.locator("#status-text")).to_contain_text("pairs found")
            x, y = bar_point(page, lay, middle)
            if options.get("has_touch"):
                page.locator("#pair-mode").tap()
                expect(page.locator("#pair-mode")).to_have_attribute("aria-pressed", "true")
                page.touchscreen.tap(x, y)
            else:
                page.mouse.dblclick(x, y)
            expect(page).to_have_url(re.compile(r"moves=a1(=|%3D)a2$"))
            expect(page.locator("#moves-count")).to_have_text("(1)")
            expect(page.locator('[data-found]')).to_have_count(1)
            screenshot(page, f"twomino-pair-{options['viewport']['width']}")
            page.locator("#undo").click()
            expect(page.locator("#moves-count")).to_have_text("(0, 1 undone)")
        finally:
            context.close()
