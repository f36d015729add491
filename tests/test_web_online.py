"""Online play as people use it, in headless Chromium: three browser contexts (two players
and a spectator) play a whole Trilobite game through the links, one player's page is
reloaded mid-game, one live connection is dropped and comes back, and all three pages show
every move, the same final position and the same result."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import context_pages, screenshot

pytestmark = pytest.mark.browser


def stones(page):
    return page.locator("[data-stone]")


def click_column(page, column):
    """Click a Trilobite column (1-based) as a person would, in the board's middle."""
    x, y = page.evaluate("""(col) => {
        const svg = document.querySelector('#board svg');
        const point = svg.createSVGPoint();
        point.x = 0.25 + col - 0.5;
        point.y = 0.25 + 3.5;
        const screen = point.matrixTransform(svg.getScreenCTM());
        return [screen.x, screen.y];
    }""", column)
    page.mouse.click(x, y)


@pytest.fixture
def contexts(browser):
    yield from context_pages(browser, *[{"viewport": {"width": 1000, "height": 720}}] * 3)


def test_two_players_and_a_spectator_play_a_whole_game(contexts, server_url):
    host, guest, watcher = contexts
    host.goto(f"{server_url}/play/trilobite?id=trilobite::7/7/7/7/7/7&seats=person,person")
    expect(host.locator("#status-text")).to_have_text("It's Red's turn")
    host.locator("#play-online").click()
    dialog = host.locator("#links-dialog")
    expect(dialog).to_be_visible()
    opponent = host.locator("input[data-link=\"Opponent's link\"]").input_value()
    spectators = host.locator("input[data-link=\"Spectators' link\"]").input_value()
    assert "link=" in opponent and "link=" in spectators and opponent != spectators
    screenshot(host, "online-links")
    dialog.locator("button[type=submit]").click()
    expect(host.locator("#online")).to_contain_text("You play Red")
    expect(host.locator("#online")).to_contain_text("has not opened the link yet")

    guest.goto(opponent)
    watcher.goto(spectators)
    expect(guest.locator("#online")).to_contain_text("You play Yellow")
    expect(watcher.locator("#online")).to_contain_text("Watching")
    expect(host.locator("#online")).to_contain_text("Yellow is here")
    expect(watcher.locator("#new")).to_be_hidden()

    # Red and Yellow take turns, with keys on one page and clicks on the other; out of turn, the
    # board refuses (the server would too).
    plays = [(host, "4"), (guest, "5"), (host, "4"), (guest, "5"), (host, "4")]
    for count, (page, column) in enumerate(plays, 1):
        if page is host:
            page.keyboard.press(column)
        else:
            click_column(page, int(column))
        for each in (host, guest, watcher):
            expect(stones(each)).to_have_count(count)
    host.keyboard.press("1")  # not Red's turn: nothing happens
    host.wait_for_timeout(300)
    expect(stones(host)).to_have_count(5)

    guest.reload()  # mid-game: the page comes back to the same game
    expect(stones(guest)).to_have_count(5)
    expect(guest.locator("#online")).to_contain_text("You play Yellow")

    watcher.evaluate("window.gridgamesLive.drop()")  # the network drops the spectator
    click_column(guest, 6)  # Yellow plays column 6 meanwhile
    expect(stones(host)).to_have_count(6)
    expect(stones(watcher)).to_have_count(6, timeout=15000)  # caught up after reconnecting
    expect(watcher.locator("#live")).to_be_hidden()

    host.keyboard.press("4")  # Red's fourth in column 4: Red wins
    for each in (host, guest, watcher):
        expect(each.locator("#status-text")).to_have_text("Red wins!")
        expect(stones(each)).to_have_count(7)
    finals = [each.locator("#board svg").inner_html() for each in (host, guest, watcher)]
    assert finals[0] == finals[1] == finals[2]
    screenshot(watcher, "online-spectator-end")

    # A rematch, sides swapped: the same links lead to the new game.
    guest.locator("#new").click()
    expect(host.locator("#offer")).to_contain_text("Yellow offers a rematch")
    host.locator("#accept").click()
    expect(host.locator("#online")).to_contain_text("You play Yellow")
    expect(guest.locator("#online")).to_contain_text("You play Red")
    for each in (host, guest, watcher):
        expect(stones(each)).to_have_count(0)
    screenshot(guest, "online-rematch")


def test_takeback_draw_and_resign_between_people(contexts, server_url):
    host, guest, _ = contexts
    host.goto(f"{server_url}/play/tictactoe?seats=person,person")
    expect(host.locator("#status-text")).to_have_text("It's X's turn")
    host.locator("#play-online").click()
    opponent = host.locator("input[data-link=\"Opponent's link\"]").input_value()
    host.locator("#links-dialog button[type=submit]").click()
    guest.goto(opponent)
    expect(guest.locator("#online")).to_contain_text("You play O")
    host.locator("[data-cell='4']").click()
    expect(stones(guest)).to_have_count(1)
    host.locator("#undo").click()  # a takeback is asked, not done
    expect(guest.locator("#offer")).to_contain_text("X offers a takeback")
    guest.locator("#decline").click()
    expect(host.locator("#online")).to_contain_text("Your takeback offer was declined")
    expect(stones(host)).to_have_count(1)
    host.keyboard.press("u")
    guest.locator("#accept").click()
    expect(stones(host)).to_have_count(0)
    expect(stones(guest)).to_have_count(0)
    host.locator("#draw").click()
    guest.locator("#accept").click()
    expect(host.locator("#status-text")).to_have_text("Draw agreed")
    guest.locator("#new").click()
    host.locator("#accept").click()
    expect(host.locator("#online")).to_contain_text("You play O")
    host.once("dialog", lambda d: d.accept())
    host.locator("#resign").click()
    expect(guest.locator("#status-text")).to_have_text("X wins: O resigned")
