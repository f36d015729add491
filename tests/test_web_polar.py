"""Polar in the browser: level 1 played to the win with the keyboard, undo and restart."""

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from gridgames.games.polar.packs import builtin_pack
from gridgames.session import Session
from tests.conftest import screenshot

pytestmark = pytest.mark.browser
KEYS = {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight"}


def moves_shown(page, n):
    expect(page.locator("#polar-info")).to_have_text(re.compile(rf"^Moves {n}\b"))


@pytest.mark.slow
def level_one_id():
    return Session.new("polar", "level=1").game_id


def test_level_1_to_the_win_with_the_keyboard(page, server_url):
    # The level's stored line, its fewest moves (99; the fewest pushes' line is 152 moves,
    # each a key press and an answer: a third of this test's time)
    solution = list(builtin_pack()[0].info["solution"])
    page.goto(f"{server_url}/play/polar")
    expect(page.locator("#level-select")).to_have_value("gridgames:1")
    moves_shown(page, 0)
    # A few moves, then undo and restart: the board comes back.
    page.keyboard.press(KEYS[solution[0]])
    page.keyboard.press(KEYS[solution[1]])
    moves_shown(page, 2)
    # w a s d are the shell's keys (share, AI, solve, theme) in every game: never a move.
    theme = page.locator("html").get_attribute("data-theme")
    page.keyboard.press("d")
    expect(page.locator("html")).not_to_have_attribute("data-theme", theme)
    page.keyboard.press("d")
    moves_shown(page, 2)
    page.keyboard.press("u")
    moves_shown(page, 1)
    page.keyboard.press("Shift+R")
    moves_shown(page, 0)
    # The line's first moves from the address (each key is an answer from the server: all 99
    # by keys took 9 s), then keys pressed faster than the server answers: queued, not lost
    # or reordered (the page is only waited on every tenth move).
    first = 60
    page.goto(f"{server_url}/play/polar?id={quote(level_one_id())}&moves={'+'.join(solution[:first])}")
    moves_shown(page, first)
    screenshot(page, "polar-level-1-midway")
    for number, move in enumerate(solution[first:], first + 1):
        page.keyboard.press(KEYS[move])
        if number % 10 == 0:
            moves_shown(page, number)
    expect(page.locator("#status-text")).to_have_text(f"Level solved in {len(solution)} moves!")
    expect(page.locator("#gameover")).to_be_visible()
    expect(page.locator("#next-level")).to_be_visible()
    screenshot(page, "polar-level-1-won")
    page.locator("#next-level").click()
    expect(page.locator("#level-select")).to_have_value("gridgames:2")
    expect(page.locator("#level-select option").first).to_have_text(re.compile("^✓ 1\\."))


def test_hint_arrow_buttons_and_refused_moves(page, server_url):
    game_id = quote(f"polar:level=2:{builtin_pack()[1].desc()}")
    page.goto(f"{server_url}/play/polar?id={game_id}")
    expect(page.locator("#level-select")).to_have_value("gridgames:2")
    expect(page.locator("[data-penguin]")).to_be_visible()
    page.locator("#hint").click()
    arrow = page.locator("[data-hint]")
    expect(arrow).to_have_count(1, timeout=20000)
    hinted = arrow.get_attribute("data-hint")
    page.locator(f'.polar-pad [data-move="{hinted}"]').click()
    moves_shown(page, 1)
    expect(page.locator("[data-penguin]")).to_be_visible()
    page.locator("#solve").click()  # the solution is shown step by step first
    expect(page.locator("#stepper-label")).to_contain_text("step 0 of", timeout=20000)
    page.keyboard.press("End")  # the end of a preview: nothing played, nothing solved
    expect(page.locator("#status-text")).to_have_text("Preview: the solution's end (not played)")
    page.locator("#step-apply").click()
    expect(page.locator("#stepper")).to_be_hidden()
    expect(page.locator("#status-text")).to_have_text(
        re.compile("^Solved with help: Level solved in"))
    page.keyboard.press("u")
    expect(page.locator("#status-text")).to_contain_text("to bring home")


def test_the_original_pack_is_in_the_level_select(page, server_url):
    page.goto(f"{server_url}/play/polar")
    select = page.locator("#level-select")
    expect(select).to_have_value("gridgames:1")
    expect(page.locator("#level-select optgroup")).to_have_count(3)
    expect(page.locator("#level-select optgroup").nth(1)).to_have_attribute(
        "label", re.compile("Go Endo"))
    select.select_option("original:3")
    expect(page.locator("#board svg")).to_have_attribute("aria-label",
                                                         re.compile("Original level 3"))
    assert "pack%3Doriginal" in page.url or "pack=original" in page.url
    screenshot(page, "polar-original-3")
    expect(page.locator("#level-select optgroup").nth(2)).to_have_attribute(
        "label", re.compile("Expert"))
    select.select_option("expert:24")  # the expert pack is chosen the same way
    expect(page.locator("#board svg")).to_have_attribute("aria-label",
                                                         re.compile("Expert 24"))


def test_a_tall_phone_draws_the_board_turned_and_moves_go_as_drawn(phone, server_url):
    """At 390x844 the 24x4 ice is drawn 4 across and 24 down, beside the controls, with
    larger cells (30 px, against 16 px drawn flat); the arrow keys, the buttons and swipes
    move the penguin the way they point on the board as drawn: down is the level's right."""
    page = phone
    page.goto(f"{server_url}/play/polar")
    board = page.locator("#board svg")
    expect(board).to_have_attribute("viewBox", re.compile(r"^0 0 4(\.\d+)? 24"))
    box = board.bounding_box()
    assert min(box["width"] / 4, box["height"] / 24) >= 26, box
    controls = page.locator("#controls").bounding_box()
    assert controls["x"] >= box["x"] + box["width"], (controls, box)
    expect(page.locator('.polar-pad button[data-way="down"]')).to_have_attribute("data-move", "R")
    page.keyboard.press("ArrowDown")
    expect(page).to_have_url(re.compile(r"moves=R$"))
    screenshot(page, "polar-turned-390x844")


def test_zoomed_the_board_follows_the_penguin(phone, server_url):
    """On a tall phone, zoomed in twice: cells of 40 px or more, and the penguin stays in
    view as it walks down the turned board."""
    page = phone
    page.goto(f"{server_url}/play/polar")
    expect(page.locator("#board svg")).to_have_attribute("viewBox", re.compile(r"^0 0 4"))
    page.keyboard.press("+")
    page.keyboard.press("+")
    frame = page.locator("#board-wrap").bounding_box()

    def penguin_in_view():
        box = page.locator("[data-penguin]").bounding_box()
        assert frame["x"] <= box["x"] and box["x"] + box["width"] <= frame["x"] + frame["width"]
        assert frame["y"] <= box["y"] and box["y"] + box["height"] <= frame["y"] + frame["height"]
        return box

    penguin_in_view()
    board = page.locator("#board svg").bounding_box()  # as drawn, zoom included
    assert min(board["width"] / 4, board["height"] / 24) >= 40, board
    for count in range(1, 9):
        page.keyboard.press("ArrowDown")
        expect(page).to_have_url(re.compile(rf"moves=R(\+R){{{count - 1}}}$"))
        page.wait_for_timeout(150)  # the walk's animation
        penguin_in_view()
    screenshot(page, "polar-zoomed-390x844")
