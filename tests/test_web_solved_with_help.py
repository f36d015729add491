"""Solve in the browser (issue 32, points 2, 3 and 7): looking at a solution changes nothing,
a game finished by applying it says "solved with help" with no celebration and counts as
played, not won (and the statistics say so), and Polar's level names and figures are
written for a player. On a phone held upright (390x844, taps) and on a desktop (1440x900,
mouse and keys)."""

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from gridgames.games.polar.packs import builtin_pack
from gridgames.session import Session
from tests.conftest import screenshot
from tests.test_web_twomino import small_board

pytestmark = pytest.mark.browser
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}
KEYS = {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight"}


@pytest.fixture
def open_page(browser):
    """A page in a context of its own (a phone's or a desktop's), with no script error."""
    made = []

    def make(device):
        context = browser.new_context(**device)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        made.append((context, errors))
        return page

    yield make
    for context, errors in made:
        context.close()
        assert not errors, f"JavaScript errors on the page: {errors}"


def press(page, locator, touch):
    """A tap on a phone, a click on a desktop."""
    if touch:
        locator.tap()
    else:
        locator.click()


def kept(page):
    """What the page keeps in the browser about Polar: solved levels, statistics."""
    return page.evaluate("""() => [localStorage.getItem("gridgames-polar-solved"),
                                   localStorage.getItem("gridgames-stats-polar")]""")


def polar_level(page, server_url, number):
    game_id = quote(f"polar:level={number}:{builtin_pack()[number - 1].desc()}")
    page.goto(f"{server_url}/play/polar?id={game_id}")
    expect(page.locator("#level-select")).to_have_value(f"gridgames:{number}")
    expect(page.locator("#status-text")).to_contain_text("to bring home")


def open_stats(page, touch):
    press(page, page.locator("#stats"), touch)
    expect(page.locator("#stats-dialog")).to_be_visible()
    return page.locator("#stats-body .stats-counts")


def expect_one_played_with_help(page, touch):
    """The statistics: one game played, none won, one solved with help, and they say so."""
    counts = open_stats(page, touch)
    expect(counts).to_contain_text("Played1")
    expect(counts).to_contain_text("Won0 (0%)")
    expect(counts).to_contain_text("Solved with help1")
    expect(page.locator("#stats-body")).to_contain_text(
        "One game was finished with Solve: counted as played, not won.")


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_solution_looked_at_changes_nothing(open_page, server_url, device):
    touch = device == "phone"
    page = open_page(PHONE if touch else DESKTOP)
    polar_level(page, server_url, 2)  # Ice 1: 15 moves
    before = kept(page)
    press(page, page.locator("#solve"), touch)
    label = page.locator("#stepper-label")
    expect(label).to_contain_text("step 0 of 15", timeout=20000)
    press(page, page.locator("#step-last"), touch)
    expect(label).to_contain_text("step 15 of 15")
    # The solution's end is shown, but nothing of it is the player's.
    expect(page.locator("#level-select option", has_text="✓")).to_have_count(0)
    expect(page.locator("#next-level")).to_be_hidden()
    status = page.locator("#status-text")
    expect(status).to_contain_text("Preview")
    expect(status).not_to_contain_text(re.compile("solved", re.I))
    expect(page.locator("#gameover")).to_be_hidden()
    screenshot(page, f"solve-preview-end-{device}")
    press(page, page.locator("#step-close"), touch)
    expect(page.locator("#stepper")).to_be_hidden()
    expect(status).to_contain_text("to bring home")
    expect(page.locator("#next-level")).to_be_hidden()
    expect(page.locator("#level-select option", has_text="✓")).to_have_count(0)
    assert kept(page) == before
    counts = open_stats(page, touch)
    expect(counts).to_contain_text("Played0")
    page.keyboard.press("Escape")
    expect(page.locator("#stats-dialog")).to_be_hidden()
    # The fastest speed plays the 15 steps in well under a second (40 ms a step: Polar's
    # 150-step solutions in 6 s); "fast" (200 ms a step) would take 3 s.
    press(page, page.locator("#solve"), touch)
    expect(label).to_contain_text("step 0 of 15", timeout=20000)
    page.locator("#step-speed").select_option(label="fastest", timeout=2000)
    press(page, page.locator("#step-play"), touch)
    expect(label).to_contain_text("step 15 of 15", timeout=2500)
    press(page, page.locator("#step-close"), touch)
    assert kept(page) == before


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_polar_applied_solve_is_solved_with_help(open_page, server_url, device):
    touch = device == "phone"
    page = open_page(PHONE if touch else DESKTOP)
    polar_level(page, server_url, 2)
    if touch:
        page.locator("#solve").tap()
    else:
        page.keyboard.press("s")
    expect(page.locator("#stepper-label")).to_contain_text("step 0 of 15", timeout=20000)
    press(page, page.locator("#step-apply"), touch)
    expect(page.locator("#stepper")).to_be_hidden()
    status = page.locator("#status-text")
    expect(page.locator("#gameover-text")).to_have_text(
        "Solved with help: Level solved in 15 moves")
    expect(page.locator("#gameover")).to_be_visible()
    expect(page.locator("#announce")).to_contain_text("Solved with help")  # screen readers
    # No celebration: the level is not marked solved, here or in the browser's store.
    expect(page.locator("#level-select option", has_text="✓")).to_have_count(0)
    solved, _ = kept(page)
    assert solved is None or "gridgames:2" not in solved
    screenshot(page, f"solve-applied-polar-{device}")
    expect_one_played_with_help(page, touch)
    screenshot(page, f"solve-applied-polar-stats-{device}")
    page.keyboard.press("Escape")
    # Undone, the level is open again and says so.
    press(page, page.locator("#undo"), touch)
    expect(status).to_contain_text("to bring home")
    if touch:
        return
    # Then won by the player's own keys: that is a win, marked and counted as one (the game
    # counted once, no longer as solved with help).
    for move in builtin_pack()[1].info["solution"]:
        page.keyboard.press(KEYS[move])
    expect(page.locator("#gameover-text")).to_have_text("Level solved in 15 moves!")
    expect(page.locator("#level-select option", has_text="✓")).to_have_text("✓ 2. Ice 1")
    counts = open_stats(page, touch)
    expect(counts).to_contain_text("Played1")
    expect(counts).to_contain_text("Won1 (100%)")
    expect(counts).not_to_contain_text("Solved with help")


def test_twomino_applied_solve_has_no_victory(open_page, server_url):
    page = open_page(PHONE)
    _, _, game_id = small_board()
    page.goto(f"{server_url}/play/twomino?id={quote(game_id)}")
    expect(page.locator("#status-text")).to_have_text("0 of 6 pairs found")
    page.locator("#solve").tap()
    expect(page.locator("#stepper-label")).to_contain_text("step 0 of", timeout=20000)
    page.locator("#step-last").tap()
    expect(page.locator("#status-text")).not_to_contain_text("found!")
    expect(page.locator("[data-victory]")).to_have_count(0)  # nor in the preview
    page.locator("#step-apply").tap()
    expect(page.locator("#gameover-text")).to_have_text("Solved with help: All 6 pairs found")
    expect(page.locator("[data-victory]")).to_have_count(0)
    screenshot(page, "solve-applied-twomino-phone")
    expect_one_played_with_help(page, True)


def test_continuing_into_an_undone_solve_is_still_with_help(open_page, server_url):
    """A Solve applied, undone, then its end made current again from the move list's
    stepper ("Continue from here"): the game is still solved with help."""
    page = open_page(DESKTOP)
    _, _, game_id = small_board()
    start = Session.from_id(game_id)
    first = start.game.legal_moves(start.state)[0]
    page.goto(f"{server_url}/play/twomino?id={quote(game_id)}&moves={first}")
    expect(page.locator('#move-list button.move[data-ply="1"]')).to_be_visible()
    page.keyboard.press("s")
    expect(page.locator("#stepper-label")).to_contain_text("step 0 of", timeout=20000)
    page.locator("#step-apply").click()
    ended = page.locator("#gameover-text")
    expect(ended).to_have_text("Solved with help: All 6 pairs found")
    page.locator("#undo").click()
    expect(page.locator("#gameover")).to_be_hidden()
    page.locator('#move-list button.move[data-ply="1"]').click()
    page.locator("#step-last").click()
    expect(page.locator("#step-apply")).to_have_text("Continue from here")
    page.locator("#step-apply").click()
    expect(ended).to_have_text("Solved with help: All 6 pairs found")
    expect(page.locator("[data-victory]")).to_have_count(0)


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_polar_original_level_1_is_named_and_kept(open_page, server_url, device):
    touch = device == "phone"
    page = open_page(PHONE if touch else DESKTOP)
    page.goto(f"{server_url}/play/polar")
    select = page.locator("#level-select")
    expect(select).to_have_value("gridgames:1")
    expect(page.locator("#level-select option")).to_have_count(
        sum(len(builtin_pack(name)) for name in ("gridgames", "original", "expert")))
    # Names for players: no file format's internals, no "from the seed".
    names = page.locator("#level-select option").all_text_contents()
    assert not [n for n in names if "STGE" in n or "seed" in n]
    assert names[0] == "1. Original level 1"
    info = page.locator("#polar-info")
    # Each figure with its unit: the fewest moves (proven), the fewest pushes (proven).
    expect(info).to_have_text("Moves 0 · pushes 0 · fewest 99 moves · fewest 14 pushes")
    select.select_option("original:1")
    expect(page.locator("#board svg")).to_have_attribute("aria-label", "Original level 1")
    expect(select).to_have_value("original:1")  # kept, not snapped back to the first pack's
    expect(info).to_have_text("Moves 0 · pushes 0 · fewest 14 pushes")
    # Solve's figures agree with the page's: 14 pushes, the fewest.
    press(page, page.locator("#solve"), touch)
    expect(page.locator("#stepper-label")).to_contain_text("14 pushes, the fewest",
                                                           timeout=20000)
    screenshot(page, f"polar-original-1-solution-{device}")
    press(page, page.locator("#step-close"), touch)
    expect(select).to_have_value("original:1")
