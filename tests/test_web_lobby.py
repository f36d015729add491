"""The lobby as people use it, in headless Chromium: two players choose names on the home
page (one on a phone), one seeks a rated game, the other takes it, both land in the game with
their names, and a resignation moves both ratings; a person takes a bot's seek from the game's
own page (its Play someone button) and plays it to the end against examples/lobby_bot.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import context_pages, screenshot

pytestmark = pytest.mark.browser
BOT = Path(__file__).parents[1] / "examples" / "lobby_bot.py"


@pytest.fixture
def two(browser):
    """A phone and a desktop."""
    yield from context_pages(browser, {"viewport": {"width": 360, "height": 640},
                                       "has_touch": True},
                             {"viewport": {"width": 1000, "height": 720}})


def choose_name(page, url, name):
    page.goto(url)
    page.locator("#lobby-name").fill(name)
    page.locator("#lobby-name").press("Enter")
    expect(page.locator("#lobby-you")).to_contain_text(f"You are {name}")


def play_tictactoe_to_the_end(page):
    """On each of the page's turns, a tap on the first free cell, until the game is over."""
    expect(page.locator("#online .who")).to_contain_text("You play")
    mine = page.locator("#online .who").inner_text().split()[2]  # X or O
    for _ in range(6):
        page.wait_for_function(
            """(mine) => !document.querySelector('#gameover').hidden ||
               document.querySelector('#status-text').textContent.includes(mine + "'s turn")""",
            arg=mine, timeout=15_000)
        if page.locator("#gameover").is_visible():
            return
        free = page.evaluate("""() => [...document.querySelectorAll('[data-cell]')]
            .map((e) => e.dataset.cell)
            .find((i) => !document.querySelector(`[data-stone="${i}"]`))""")
        page.locator(f"[data-cell='{free}']").click()
        expect(page.locator(f"[data-stone='{free}']")).to_be_visible()
    expect(page.locator("#gameover")).to_be_visible(timeout=15_000)


def test_two_players_pair_from_the_lobby_and_the_rating_moves(two, server_url):
    phone, desk = two
    choose_name(phone, f"{server_url}/", "Phoebe")
    choose_name(desk, f"{server_url}/", "Desmond")
    phone.locator("#lobby-game").select_option("trilobite")
    phone.locator("#lobby-seek").click()
    expect(phone.locator(".lobby-seek.mine")).to_contain_text("You seek Trilobite")
    offered = desk.locator(".lobby-seek", has_text="Phoebe")
    expect(offered).to_contain_text("Trilobite (width=7, height=6, line=4) · rated")
    screenshot(phone, "lobby-360x640")
    offered.get_by_role("button", name="Play").click()
    for page in (phone, desk):
        page.wait_for_url("**/play/trilobite?link=*")
        expect(page.locator("#players-line")).to_contain_text("Phoebe (1500?)")
        expect(page.locator("#players-line")).to_contain_text("Desmond (1500?)")
        expect(page.locator("#players-line")).to_contain_text("· rated")
    screenshot(phone, "lobby-game-360x640")
    desk.once("dialog", lambda d: d.accept())
    desk.locator("#resign").click()
    for page in (phone, desk):
        expect(page.locator("#status-text")).to_contain_text("resigned")
        expect(page.locator("#players-line")).to_contain_text("Phoebe (1500 → 1662)")
        expect(page.locator("#players-line")).to_contain_text("Desmond (1500 → 1338)")
    # Back home, a name is kept by the browser; the seek is gone.
    phone.goto(f"{server_url}/")
    expect(phone.locator("#lobby-you")).to_contain_text("You are Phoebe")
    expect(phone.locator("#lobby-seeks")).to_contain_text("Nobody is seeking")


def test_a_person_plays_a_bot_from_the_games_page(two, server_url):
    _, person = two
    bot = subprocess.Popen([sys.executable, str(BOT), "--server", server_url, "--name",
                            "Tacbot", "--game", "tictactoe", "--casual"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        person.goto(f"{server_url}/")
        person.locator("#lobby-name").fill("Tess")
        person.locator("#lobby-name").press("Enter")
        expect(person.locator("#lobby-you")).to_be_visible()
        person.goto(f"{server_url}/play/tictactoe")
        expect(person.locator("#lobby-count")).to_be_visible(timeout=20_000)
        person.locator("#lobby-open").click()
        offered = person.locator("#lobby .lobby-seek", has_text="Tacbot (bot)")
        expect(offered).to_contain_text("Tic-tac-toe · casual", timeout=20_000)
        screenshot(person, "lobby-dialog-1000x720")
        offered.get_by_role("button", name="Play").click()
        person.wait_for_url("**/play/tictactoe?link=*")
        expect(person.locator("#players-line")).to_contain_text("Tacbot")
        play_tictactoe_to_the_end(person)
        expect(person.locator("#gameover")).to_be_visible(timeout=15_000)
        said = bot.communicate(timeout=15)[0]
    finally:
        bot.kill()
    assert bot.returncode == 0 and "game 1:" in said, said


def test_a_rated_game_against_an_ai_level_from_the_lobby(two, server_url):
    """An AI level takes a challenge at once, plays its moves by itself, and both ratings
    move ("random" is the scale's fixed point: it stays at 1000)."""
    phone, _ = two
    choose_name(phone, f"{server_url}/", "Rita")
    phone.locator("#lobby-game").select_option("tictactoe")
    phone.locator("#lobby-opponent").fill("random")
    phone.locator("#lobby-seek").click()
    phone.wait_for_url("**/play/tictactoe?link=*")
    expect(phone.locator("#players-line")).to_contain_text("random (1000)")
    play_tictactoe_to_the_end(phone)
    expect(phone.locator("#players-line")).to_contain_text("random (1000 → 1000)")
    expect(phone.locator("#players-line")).to_contain_text("Rita (1500 →")
    screenshot(phone, "lobby-ai-game-360x640")
