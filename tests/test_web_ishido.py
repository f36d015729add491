"""Ishido in the browser: drag and drop with the pointer, assist, themes, a whole deal."""

import re

import pytest
from playwright.sync_api import expect

from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.games.ishido import make_game
from gridgames.session import Session
from tests.conftest import screenshot

pytestmark = pytest.mark.browser
GAME = make_game()


def deal_id(seed="browser", rules="seed"):
    params = GAME.parse_params(f"rules={rules}")
    return f"ishido:rules={rules}:{GAME.new_desc(params, Rng(seed))}"


def open_deal(page, server_url, game_id):
    page.goto(f"{server_url}/play/ishido?id={game_id}")
    expect(page.locator(".next-tile")).to_be_visible()


def drag_to_cell(page, cell):
    tile = page.locator(".next-tile").bounding_box()
    target = page.locator(f'[data-cell="{cell}"]').bounding_box()
    page.mouse.move(tile["x"] + tile["width"] / 2, tile["y"] + tile["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2,
                    steps=6)
    highlight = page.locator(f'[data-drop="{cell}"]')
    expect(highlight).to_have_count(1)  # the cell under the tile is lit while dragging
    classes = highlight.get_attribute("class")
    page.mouse.up()
    return classes


def test_drag_to_a_valid_cell_and_to_an_invalid_one(page, server_url):
    game_id = deal_id()
    open_deal(page, server_url, game_id)
    state = GAME.new_state(GAME.parse_params("rules=seed"), game_id.split(":", 2)[2])
    valid = state.valid[0][0]
    invalid = next(c for c in range(96) if state.board[c] == -1 and
                   c not in dict(state.valid))
    assert "ok" in drag_to_cell(page, valid)
    expect(page.locator(f'[data-placed="{valid}"]')).to_have_count(1)
    expect(page.locator("#status-text")).to_have_text("Score 1 · 65 tiles left")
    tiles_before = page.locator("[data-placed]").count()
    next_tile = page.locator(".next-tile").get_attribute("data-next")
    assert "no" in drag_to_cell(page, invalid)
    # Back in the next-tile square: not moved, nothing placed.
    expect(page.locator(".next-tile")).not_to_have_attribute("transform", re.compile("."))
    expect(page.locator("[data-placed]")).to_have_count(tiles_before)
    assert page.locator(".next-tile").get_attribute("data-next") == next_tile
    expect(page.locator(f'[data-placed="{invalid}"]')).to_have_count(0)
    screenshot(page, "ishido-after-drags")


def test_assist_toggle_marks_valid_cells_with_points(page, server_url):
    open_deal(page, server_url, deal_id())
    expect(page.locator("[data-assist]")).to_have_count(0)  # off by default
    page.locator("#assist").click()
    expect(page.locator("#assist")).to_have_text("Assist: on")
    marks = page.locator("[data-assist]")
    expect(marks.first).to_have_text("1")
    assert marks.count() >= 1
    page.keyboard.press("v")
    expect(page.locator("[data-assist]")).to_have_count(0)


def test_themes_switch_at_run_time(page, server_url):
    open_deal(page, server_url, deal_id())
    next_tile = page.locator(".next-tile")
    # docs/rules/ishido.md: the birds peacock, parrot, flamingo, owl, duck, eagle.
    birds = "|".join(chr(c) for c in (0x1F99A, 0x1F99C, 0x1F9A9, 0x1F989, 0x1F986, 0x1F985))
    expect(next_tile.locator("text")).to_have_text(re.compile(f"^({birds})$"))
    page.locator("#images").click()  # shapes: drawn, no text
    expect(page.locator("#images")).to_have_text("Pictures: Shapes")
    expect(next_tile.locator("text")).to_have_count(0)
    page.locator("#images").click()
    expect(next_tile.locator("text")).to_have_text(re.compile("^[A-F]$"))
    page.locator("#palette").click()
    expect(page.locator("#palette")).to_have_text("Colours: High contrast")
    screenshot(page, "ishido-letters-high-contrast")
    page.locator("#images").click()
    page.locator("#palette").click()


@pytest.mark.slow
def test_play_a_whole_deal_by_clicking_hints(page, server_url):
    """The deal's first tiles as the hints place them (each click waits on the server: the
    whole deal by clicks took 16 s), then the last ones by clicking the page's hints."""
    game_id = deal_id("whole deal", "classic")
    session = Session.from_id(game_id)
    while len(session.moves) < 56 and not session.status().over:
        session.play(GAME.hints.hint(session.state, Budget(nodes=2000)).value.move)
    open_deal(page, server_url, f"{game_id}&moves={'+'.join(session.moves)}")
    for _ in range(70):
        if page.locator("#gameover").is_visible():
            break
        placed = page.locator("[data-placed]").count()
        page.locator("#hint").click()
        hinted = page.locator("[data-hint]")
        expect(hinted).to_have_count(1)
        page.locator(f'[data-cell="{hinted.get_attribute("data-hint")}"]').click()
        expect(page.locator("[data-placed]")).to_have_count(placed + 1)
    expect(page.locator("#gameover")).to_be_visible()
    # The source's words, then the score and, for a loss, why and the tiles left.
    ended = (r"^Game Over(\. You Win! \d+ points?"
             r"|: the next tile fits nowhere\. \d+ points?, \d+ tiles? left)")
    expect(page.locator("#gameover-text")).to_have_text(re.compile(ended))
    screenshot(page, "ishido-whole-deal")


@pytest.mark.parametrize("width, height", [(390, 844), (1500, 900)])
def test_layout_side_or_below(browser, server_url, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    open_deal(page, server_url, deal_id())
    board = page.locator('[data-cell="95"]').bounding_box()
    square = page.locator(".next-tile").bounding_box()
    if width < height:
        assert square["y"] > board["y"]  # below the board in portrait
    else:
        assert square["x"] > board["x"]  # beside it in landscape
    assert square["x"] + square["width"] <= width and square["y"] + square["height"] <= height
    screenshot(page, f"ishido-{width}x{height}")
    context.close()
