"""Continue where you left off, in a real browser against a real server process: the page's
URL names the game on the server, so a reload after the server was killed and started again
continues it; the home page lists this browser's unfinished games, and says when one has
gone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot
from tests.servers import Server

pytestmark = pytest.mark.browser


def test_reload_after_a_restart_and_the_continue_list(page, tmp_path):
    db = str(tmp_path / "games.db")
    server = Server(db)
    try:
        page.goto(f"{server.base}/play/tictactoe?seats=person,person")
        expect(page.locator("#status-text")).to_have_text("It's X's turn")
        page.keyboard.press("5")  # b2
        expect(page.locator("#status-text")).to_have_text("It's O's turn")
        page.keyboard.press("1")  # a1
        expect(page.locator("#status-text")).to_have_text("It's X's turn")
        assert "session=" in page.url
        session = re.search(r"session=([^&]+)", page.url)[1]
        server.kill()
        server = Server(db, port=server.port)
        page.reload()
        expect(page.locator("[data-stone]")).to_have_count(2)
        expect(page.locator("#status-text")).to_have_text("It's X's turn")

        page.goto(server.base + "/")
        card = page.locator(f"#unfinished .card[data-session='{session}']")
        expect(card).to_be_visible()
        expect(card.locator(".when")).to_contain_text("2 moves · played just now")
        expect(card.locator("svg")).to_be_visible()
        screenshot(page, "home-continue")
        card.locator(".play-link").click()
        expect(page).to_have_url(re.compile(f"/play/tictactoe\\?session={session}"))
        expect(page.locator("[data-stone]")).to_have_count(2)

        # A game the server no longer keeps: the home page says it has gone.
        page.evaluate("""() => localStorage.setItem('gridgames-unfinished', JSON.stringify(
            [{session: 'AAAAAAAAAAAAAAAAAAAAAA', game: 'polar', title: 'Polar', at: 0}]))""")
        page.goto(server.base + "/")
        gone = page.locator("#unfinished .card.gone")
        expect(gone).to_contain_text("This game has gone")
        page.reload()
        expect(page.locator("#continue")).to_be_hidden()  # forgotten once said
    finally:
        server.stop()


def test_a_finished_game_leaves_the_list(page, server_url):
    page.goto(f"{server_url}/play/tictactoe?seats=person,person")
    expect(page.locator("#status-text")).to_have_text("It's X's turn")
    for key, turn in (("1", "O"), ("4", "X"), ("2", "O"), ("5", "X")):
        page.keyboard.press(key)
        expect(page.locator("#status-text")).to_have_text(f"It's {turn}'s turn")
    listed = page.evaluate("() => JSON.parse(localStorage.getItem('gridgames-unfinished'))")
    assert len(listed) == 1 and listed[0]["game"] == "tictactoe"
    page.keyboard.press("3")
    expect(page.locator("#status-text")).to_have_text("X wins!")
    listed = page.evaluate("() => JSON.parse(localStorage.getItem('gridgames-unfinished'))")
    assert listed == []
