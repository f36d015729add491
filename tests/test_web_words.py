"""Words a player uses, on a phone held upright (390x844, taps) and a desktop (1440x900,
mouse and keys): Trilobite's sides by their colours and, against the AI, "Your turn";
tic-tac-toe's source's own words and the cells' names on its board; a move said with its
meaning ("column 4", "the bar between a1 and a2"); an AI's note that says what the level
does, not "best found in 0.0 s"; 2mino's settings in words, its difficulty only where it
applies; no "(s)" plurals."""

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from gridgames.core.result import Budget
from gridgames.session import Session
from tests.conftest import screenshot
from tests.test_web_hints import open_game, tap_cell

pytestmark = pytest.mark.browser

def test_trilobite_against_the_ai_in_a_persons_words_on_a_phone(phone, server_url):
    page = phone
    open_game(page, server_url, "/play/trilobite?id=trilobite::7/7/7/7/7/7&seats=person,easy")
    status = page.locator("#status-text")
    expect(status).to_have_text("Your turn (Red)")
    page.locator("#board svg").tap()  # the middle column
    expect(page.locator("[data-stone]")).to_have_count(2, timeout=20000)
    expect(status).to_have_text("Your turn (Red)")
    note = page.locator("#ai-note")
    expect(note).to_have_text(re.compile(r"^AI \(easy\) played column \d: searched \d+ moves"))
    expect(note).not_to_contain_text("best found")
    expect(page.locator("#announce")).to_contain_text("Yellow played column")
    screenshot(page, "words-trilobite-390x844")


def test_tictactoe_keeps_its_words_and_shows_its_cells_names(desktop, server_url):
    page = desktop
    open_game(page, server_url, "/play/tictactoe?id=tictactoe::3/3/3&seats=person,easy")
    expect(page.locator("#status-text")).to_have_text("It's X's turn")
    names = page.locator("#board svg text").all_text_contents()
    assert sorted(names) == ["1", "2", "3", "a", "b", "c"], names
    page.locator('[data-cell="4"]').click()
    expect(page.locator("[data-stone]")).to_have_count(2, timeout=20000)
    expect(page.locator("#status-text")).to_have_text("It's X's turn")
    expect(page.locator("#ai-note")).to_have_text(
        # a busy machine may take 0.1 s or more, which the note then shows
        re.compile(r"^AI \(easy\) played [a-c][1-3]: looked two moves ahead( \(\d+\.\d s\))?$"))
    expect(page.locator("#ai-note")).not_to_contain_text("best found")
    screenshot(page, "words-tictactoe-1440x900")


def wrong_bar(game_id):
    """A bar that no solution of the puzzle has on."""
    session = Session.from_id(game_id)
    checker = session.game.checker
    for bar in session.game.legal_moves(session.state):
        found = checker.check(session.game.apply(session.state, bar), Budget(seconds=5))
        if bar in found.value:
            return bar
    raise AssertionError("every bar agrees with some solution")


def test_twomino_settings_check_and_hint_in_words(desktop, server_url):
    page = desktop
    game_id = Session.new("twomino", "n=4", seed="words").game_id
    bar = wrong_bar(game_id)
    open_game(page, server_url, f"/play/twomino?id={quote(game_id)}&moves={bar}")
    page.locator("#check").click()
    expect(page.locator("#status-note")).to_have_text(
        f"1 bar agrees with no solution (marked): {bar}", timeout=20000)
    page.keyboard.press("u")  # undo the wrong bar
    page.locator("#hint").click()
    expect(page.locator("#status-note")).to_contain_text("Hint: the bar between ", timeout=20000)
    expect(page.locator("#status-note")).to_contain_text("(proven)")

    page.locator("#settings").click()
    dialog = page.locator("#settings-dialog")
    expect(dialog.locator('label[data-param="n"]')).to_contain_text("Numbers on the dominoes")
    puzzle = dialog.locator('label[data-param="gen"] select')
    expect(dialog.locator('label[data-param="gen"]')).to_contain_text("Puzzle")
    assert "Exactly one solution, no bars given" in puzzle.locator("option").all_text_contents()
    difficulty = dialog.locator('label[data-param="level"]')
    expect(difficulty).to_be_hidden()  # a shuffled board has no difficulty
    puzzle.select_option("unique")
    expect(difficulty).to_be_visible()
    expect(difficulty).to_contain_text("Difficulty")
    screenshot(page, "words-twomino-settings-1440x900")
    assert "(s)" not in page.locator("body").inner_text()


def test_a_taken_cell_and_the_trilobite_settings_on_a_phone(phone, server_url):
    page = phone
    open_game(page, server_url, "/play/tictactoe?id=tictactoe::3/3/3&seats=person,person")
    tap_cell(page, 0)
    expect(page.locator("#announce")).to_have_text("X played a1. It's O's turn")
    open_game(page, server_url, "/play/trilobite?id=trilobite::7/7/7/7/7/7&seats=person,person")
    expect(page.locator("#status-text")).to_have_text("It's Red's turn")  # two people
    page.locator("#settings").tap()
    fields = page.locator("#params-fields").inner_text()
    assert "Columns" in fields and "Rows" in fields and "Stones in a row to win" in fields
    assert "width" not in fields
    assert page.locator('#seat-fields label').first.inner_text().startswith("Red is played by")
