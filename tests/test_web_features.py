"""The game page's everyday features, used as a player would in headless Chromium: the move
list and replay with "continue from here", New game that keeps the old game for Undo, the
clock, statistics after a finished game, a solution shown step by step, the help's rules and
keys (no key does two things), Trilobite's columns past 9 from the keyboard, and a dropped
connection that loses nothing."""

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from gridgames.games.twomino.layout import layout
from gridgames.registry import default_games
from tests.conftest import screenshot, serve
from tests.test_web_browser import click_cells
from tests.test_web_twomino import click_bar, small_board

pytestmark = pytest.mark.browser

TTT = "tictactoe::3/3/3"


def open_page(page, server_url, game, game_id=None):
    page.goto(f"{server_url}/play/{game}" + (f"?id={quote(game_id)}" if game_id else ""))
    expect(page.locator("#status-text")).not_to_have_text("Loading…")


def test_move_list_replay_continue_and_undo(page, server_url):
    open_page(page, server_url, "tictactoe", TTT)
    click_cells(page, [0, 1, 3, 4])  # a1 b1 a2 b2
    moves = page.locator("#move-list button.move")
    expect(moves).to_have_text(["a1", "b1", "a2", "b2"])
    expect(moves.nth(3)).to_have_attribute("aria-current", "step")
    moves.nth(1).click()  # the position after b1, drawn by the server
    expect(page.locator("#stepper")).to_be_visible()
    expect(page.locator("#stepper-label")).to_contain_text("position 2 of 4")
    expect(page.locator("[data-stone]")).to_have_count(2)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("[data-stone]")).to_have_count(1)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-stone]")).to_have_count(3)
    screenshot(page, "replay-tictactoe")
    page.locator('[data-cell="8"]').click(force=True)  # a replayed board takes no move
    expect(page.locator("[data-stone]")).to_have_count(3)
    page.locator("#step-apply").click()  # continue from the position after a2
    expect(page.locator("#stepper")).to_be_hidden()
    expect(moves.last).to_have_text("back to move 3")
    expect(page.locator("#status-text")).to_have_text("It's O's turn")
    click_cells(page, [8])
    expect(moves).to_have_count(6)
    page.keyboard.press("u")
    page.keyboard.press("u")  # undoes the jump: the four moves again
    expect(page.locator("[data-stone]")).to_have_count(4)
    expect(moves).to_have_text(["a1", "b1", "a2", "b2"])
    page.keyboard.press("m")  # m opens the replay at the current position; Esc leaves
    expect(page.locator("#stepper-label")).to_contain_text("position 4 of")
    page.keyboard.press("Escape")
    expect(page.locator("#stepper")).to_be_hidden()
    expect(page.locator("#status-text")).to_have_text("It's X's turn")


def test_new_game_keeps_the_old_one_for_undo(page, server_url):
    open_page(page, server_url, "tictactoe", TTT)
    click_cells(page, [0, 4])
    old = re.search(r"session=([^&]+)", page.url).group(1)
    page.keyboard.press("n")
    expect(page.locator("[data-stone]")).to_have_count(0)
    expect(page.locator("#status-note")).to_contain_text("Undo (u) returns to it")
    expect(page.locator("#undo")).to_be_enabled()
    # The home page's "continue" list still has the old game.
    kept = page.evaluate("JSON.parse(localStorage.getItem('gridgames-unfinished'))")
    assert old in [game["session"] for game in kept]
    page.keyboard.press("u")
    expect(page.locator("[data-stone]")).to_have_count(2)
    assert f"session={old}" in page.url
    expect(page.locator("#move-list button.move")).to_have_text(["a1", "b2"])


def set_hidden(page, hidden):
    """The tab as hidden or shown again, as the browser says when the player switches tabs."""
    page.evaluate("""(hidden) => {
        Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});
        document.dispatchEvent(new Event('visibilitychange')); }""", hidden)


def test_clock_statistics_and_reset_after_a_solved_2mino(page, server_url):
    board, locked, game_id = small_board()
    lay = layout(3)
    open_page(page, server_url, "twomino", game_id)
    clock = page.locator("#clock")
    expect(clock).to_be_visible()
    expect(clock).to_have_text(re.compile(r"^0:0[1-9]$"), timeout=5000)  # it runs
    # A hidden tab pauses it.
    set_hidden(page, True)
    paused = clock.text_content()
    page.wait_for_timeout(1600)
    assert clock.text_content() == paused
    set_hidden(page, False)
    for bar in [b for b in board.separators() if b not in locked]:
        click_bar(page, lay, bar)
    expect(page.locator("#status-text")).to_have_text("All 6 pairs found!")
    stopped = clock.text_content()
    page.wait_for_timeout(1200)
    assert clock.text_content() == stopped  # a finished game's clock stands still
    page.keyboard.press("t")
    dialog = page.locator("#stats-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".stats-counts dd")).to_have_text(["1", "1 (100%)", "1", "1"])
    expect(dialog.locator(".stats-best td").nth(1)).to_have_text(stopped)
    expect(dialog.locator('.stats-bar[data-won="true"]')).to_have_count(1)
    screenshot(page, "statistics-2mino")
    dialog.locator("#stats-reset").click()
    expect(dialog.locator("#stats-confirm")).to_be_visible()
    dialog.locator("#stats-reset-no").click()
    expect(dialog.locator(".stats-counts dd").first).to_have_text("1")
    dialog.locator("#stats-reset").click()
    dialog.locator("#stats-reset-yes").click()
    expect(dialog.locator(".stats-counts dd").first).to_have_text("0")
    expect(dialog.locator(".stats-bar")).to_have_count(0)


def test_the_clock_survives_a_reload_and_can_be_hidden(page, server_url):
    open_page(page, server_url, "polar")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#clock")).to_have_text(re.compile(r"^0:0[3-9]$"), timeout=8000)
    shown = page.locator("#clock").text_content()
    page.reload()
    expect(page.locator("#status-text")).not_to_have_text("Loading…")
    seconds = int(page.locator("#clock").text_content().split(":")[1])
    assert seconds >= int(shown.split(":")[1])
    page.keyboard.press("g")
    page.locator("#show-clock").uncheck()
    expect(page.locator("#clock")).to_be_hidden()
    page.keyboard.press("Escape")


def test_solve_steps_through_the_solution_before_applying_it(page, server_url):
    open_page(page, server_url, "twomino", small_board(seed="steps")[2])
    page.keyboard.press("s")
    label = page.locator("#stepper-label")
    expect(label).to_contain_text("step 0 of", timeout=30000)
    total = int(re.search(r"of (\d+)", label.text_content()).group(1))
    page.locator("#step-next").click()
    expect(label).to_contain_text("step 1 of")
    expect(page.locator('[data-state="on"]')).to_have_count(1)
    page.locator("#step-prev").click()
    expect(page.locator('[data-state="on"]')).to_have_count(0)
    page.locator("#step-speed").select_option("200")
    page.locator("#step-play").click()
    expect(label).to_contain_text(f"step {total} of {total}", timeout=10000)
    # Nothing applied yet, and the preview's end is not called found or solved.
    expect(page.locator("#status-text")).to_have_text("Preview: the solution's end (not played)")
    expect(page.locator("#move-list button.move")).to_have_count(0)
    page.locator("#step-apply").click()
    expect(page.locator("#stepper")).to_be_hidden()
    expect(page.locator("#move-list button.move")).to_have_text([f"solution ({total} moves)"])
    expect(page.locator("#gameover")).to_have_text(re.compile("^Solved with help: All 6 pairs"))
    page.keyboard.press("t")  # solved by the computer: played, not won
    expect(page.locator(".stats-counts dd").nth(1)).to_have_text(re.compile(r"^0 "))


def help_rows(page):
    page.keyboard.press("?")
    expect(page.locator("#help-dialog")).to_be_visible()
    rows = page.locator("#keys tr")
    found = [(row.locator("td").first.locator("kbd").all_text_contents(),
              row.locator("td").nth(1).text_content()) for row in rows.all()]
    page.keyboard.press("Escape")
    return found


def test_help_explains_the_rules_and_no_key_does_two_things(page, server_url):
    """Each game's help has its rules and a picture; a letter key means the same in every
    game (digits and arrows are the board's own); the listed keys are the page's keys."""
    meaning: dict[str, str] = {}
    for game in default_games():
        open_page(page, server_url, game)
        rows = help_rows(page)
        page.keyboard.press("?")
        expect(page.locator("#help-rules")).not_to_be_empty()
        expect(page.locator("#help-picture svg")).to_have_count(1)
        screenshot(page, f"help-{game}")
        page.keyboard.press("Escape")
        keys = [key for shown, _ in rows for key in shown]
        assert len(keys) == len(set(keys)), f"{game}: a key listed twice: {keys}"
        for shown, what in rows:
            for key in shown:
                if len(key) == 1 and key.isalpha():
                    assert meaning.setdefault(key.lower(), what) == what, \
                        f"{key!r} is {meaning[key.lower()]!r} elsewhere, {what!r} in {game}"
        if game == "polar":  # no W A S D: those are the page's keys
            assert ["s", "Shift+S"] in [shown for shown, _ in rows]
            assert not any("Move or push" in what and "w" in shown for shown, what in rows)


@pytest.fixture(scope="module")
def quick_server_url(tmp_path_factory):
    """A server that gives machine play 1 s: the AI's move on a 12-column board is the hard
    level's (the strongest offered there), which may search for all of its time (2 s on the
    shared server)."""
    yield from serve(tmp_path_factory.mktemp("quick") / "games.db", think_seconds=1.0)


def test_trilobite_columns_past_nine_by_keyboard(page, quick_server_url):
    open_page(page, quick_server_url, "trilobite",
              "trilobite:width=12,height=6,line=4:12/12/12/12/12/12")
    page.keyboard.press("0")
    page.keyboard.press("a")  # column a = 10: the bottom cell, index 5 * 12 + 9
    expect(page.locator('[data-stone="69"]')).to_have_attribute("data-mark", "x")
    page.keyboard.press("0")
    page.keyboard.press("c")  # column c = 12
    expect(page.locator('[data-stone="71"]')).to_have_attribute("data-mark", "o")
    page.keyboard.press("3")
    expect(page.locator('[data-stone="62"]')).to_have_attribute("data-mark", "x")
    expect(page.locator("#move-list button.move")).to_have_text(["a", "c", "3"])
    rows = help_rows(page)
    assert (["0", "a–c"], "Play columns a–c (10 to 12): 0, then the letter") in rows
    page.keyboard.press("a")  # alone, a is still the AI's move
    expect(page.locator("[data-stone]")).to_have_count(4, timeout=20000)


def test_a_dropped_connection_says_reconnecting_and_loses_nothing(page, server_url):
    open_page(page, server_url, "tictactoe", TTT)
    dropped = []

    def flaky(route):
        if len(dropped) < 2:
            dropped.append(route.request.url)
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/move", flaky)
    page.locator('[data-cell="0"]').click()
    expect(page.locator("#live")).to_have_text("reconnecting…")
    page.keyboard.press("9")  # made while reconnecting: it waits its turn
    expect(page.locator("[data-stone]")).to_have_count(2, timeout=15000)
    expect(page.locator("#live")).to_be_hidden()
    expect(page.locator("#move-list button.move")).to_have_text(["a1", "c3"])
    assert len(dropped) == 2
