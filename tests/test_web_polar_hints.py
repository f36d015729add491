"""Polar's Hint and Solve in the browser: on the original level 1 the page says the hint is on
an optimal line (fewest pushes, proven within the page's budget), counts the pushes made, and
marks the solution shown as proven; on a phone and a wide screen.

The proof takes about a second of CPU, but the compute workers run at the lowest priority and
the machine running the tests may be busy: the server here gives machine play a minute, so
the test checks what the page says, not how fast the machine is (bench/ measures that)."""

import re

import pytest
from playwright.sync_api import expect

from gridgames.games.polar.game import play
from gridgames.games.polar.packs import builtin_pack
from gridgames.games.polar.solver import PUSHES, solve
from tests.conftest import screenshot, serve

pytestmark = pytest.mark.browser
WAY_KEYS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
THINK_SECONDS = 60.0


@pytest.fixture(scope="module")
def patient_server(tmp_path_factory):
    yield from serve(tmp_path_factory.mktemp("polar-hints") / "games.db",
                     think_seconds=THINK_SECONDS)


def ask_hint(page) -> str:
    page.locator("#hint").click()
    arrow = page.locator("[data-hint]")
    expect(arrow).to_have_count(1, timeout=1000 * THINK_SECONDS * 2)
    return arrow.get_attribute("data-hint")


def up_to_the_first_push(level, line):
    """The moves of line up to and with its first push (the penguin stays where it was)."""
    board, penguin, hearts = level.board, level.penguin, level.hearts
    for number, move in enumerate(line, 1):
        board, after, hearts, _ = play(board, penguin, hearts, move)
        if after == penguin:
            return line[:number]
        penguin = after
    raise AssertionError("a solution pushes")


@pytest.mark.parametrize("width,height", [(360, 640), (1920, 1080)])
def test_original_level_1_hints_are_on_a_proven_optimal_line(browser, patient_server, width,
                                                             height):
    level = builtin_pack("original")[0]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{patient_server}/play/polar")
        page.locator("#level-select").select_option("original:1")
        # (its board is also our pack's first level, so the page names it that way)
        expect(page).to_have_url(re.compile(r"pack(=|%3D)original"))
        notice = page.locator("#status-note")
        ask_hint(page)
        expect(notice).to_have_text(re.compile(
            r"^Hint: (up|down|left|right) — on an optimal line: 14 pushes left \(proven\)$"))
        screenshot(page, f"polar-hint-proven-{width}x{height}")
        # A fewest-pushes line up to its first push (the page's own line or another as
        # short): after it the hint counts the push made against the level's fewest.
        moves = up_to_the_first_push(level, solve(level.board, level.penguin, PUSHES).moves)
        for move in moves:  # by the arrow that makes it (at 360x640 the board is turned)
            way = page.locator(f'.polar-pad button[data-move="{move}"]').get_attribute("data-way")
            page.keyboard.press(WAY_KEYS[way])
        expect(page.locator("#polar-info")).to_have_text(
            re.compile(rf"^Moves {len(moves)} · pushes 1\b"))
        ask_hint(page)
        expect(notice).to_have_text(re.compile(
            r"^Hint: (up|down|left|right) — on an optimal line: 13 pushes left \(1 made, 14 "
            r"in all, the fewest\) \(proven\)$"))
        page.locator("#solve").click()
        label = page.locator("#stepper-label")
        expect(label).to_contain_text("Solution (proven · 13 pushes, the fewest;",
                                      timeout=1000 * THINK_SECONDS * 2)
        screenshot(page, f"polar-solution-proven-{width}x{height}")
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
