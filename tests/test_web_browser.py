"""Browser tests: play tic-tac-toe and Trilobite in headless Chromium as a person would."""

import re

import pytest
from playwright.sync_api import expect

from gridgames.registry import default_games
from tests.conftest import screenshot, serve

GAMES = default_games()

pytestmark = pytest.mark.browser

TTT = "tictactoe::3/3/3"


def open_game(page, server_url, game, game_id=None, seats=None):
    url = f"{server_url}/play/{game}"
    if game_id:
        url += f"?id={game_id}" + (f"&seats={seats}" if seats else "")
    page.goto(url)
    expect(page.locator("#status-text")).not_to_have_text("Loading…")


def click_cells(page, cells):
    for cell in cells:
        before = page.locator("[data-stone]").count()
        page.locator(f'[data-cell="{cell}"]').click()
        expect(page.locator("[data-stone]")).to_have_count(before + 1)


def test_home_page_lists_games_with_previews(page, server_url):
    page.goto(server_url)
    cards = page.locator(".card")
    expect(cards).to_have_count(len(GAMES))
    expect(page.locator('.card[data-game="trilobite"] svg')).to_be_visible()
    expect(page.locator('.card[data-game="tictactoe"] svg')).to_be_visible()
    screenshot(page, "home")
    theme = page.locator("html").get_attribute("data-theme")
    page.keyboard.press("d")
    expect(page.locator("html")).not_to_have_attribute("data-theme", theme)
    page.locator('.card[data-game="trilobite"] .play-link').click()
    expect(page).to_have_url(re.compile(r"/play/trilobite"))


def test_tictactoe_win_by_clicking(page, server_url):
    open_game(page, server_url, "tictactoe", TTT)
    expect(page.locator("#status-text")).to_have_text("It's X's turn")
    click_cells(page, [0, 1, 3, 4])  # X a1, O b1, X a2, O b2
    expect(page.locator("#status-text")).to_have_text("It's X's turn")
    click_cells(page, [6])  # X a3: column a
    expect(page.locator("#status-text")).to_have_text("X wins!")
    expect(page.locator("#gameover")).to_be_visible()
    expect(page.locator("[data-win]")).to_have_attribute("data-win", "0,3,6")
    screenshot(page, "tictactoe-win")
    # A click on the finished board does nothing; Play again starts afresh.
    page.locator('[data-cell="8"]').click(force=True)
    expect(page.locator("[data-stone]")).to_have_count(5)
    page.locator("#again").click()
    expect(page.locator("[data-stone]")).to_have_count(0)
    expect(page.locator("#gameover")).to_be_hidden()


def test_tictactoe_draw_by_clicking(page, server_url):
    open_game(page, server_url, "tictactoe", TTT)
    click_cells(page, [0, 1, 2, 4, 3, 5, 7, 6, 8])
    expect(page.locator("#status-text")).to_have_text("It's a Draw")
    expect(page.locator("#gameover-text")).to_have_text("It's a Draw")
    screenshot(page, "tictactoe-draw")


def test_tictactoe_against_the_ai(page, server_url):
    open_game(page, server_url, "tictactoe", TTT, seats="person,perfect")
    click_cells(page, [0])
    # The AI answers from the server: the centre is the only move that does not lose.
    expect(page.locator('[data-stone="4"]')).to_have_attribute("data-mark", "o")
    expect(page.locator("#status-text")).to_have_text("It's X's turn")
    expect(page.locator("#thinking")).to_be_hidden()
    page.keyboard.press("u")  # undo takes back both moves
    expect(page.locator("[data-stone]")).to_have_count(0)


def test_trilobite_by_keyboard_to_a_win_with_undo_redo_and_reload(page, server_url):
    open_game(page, server_url, "trilobite", "trilobite::7/7/7/7/7/7")
    # Column keys and the arrow-key cursor with Enter both play.
    for count, key in enumerate(["1", "2", "1", "2", "1"], 1):
        page.keyboard.press(key)
        expect(page.locator("[data-stone]")).to_have_count(count)
    page.keyboard.press("ArrowLeft")  # the first arrow shows the cursor at the centre (4)
    for _ in range(2):
        page.keyboard.press("ArrowLeft")  # column 2
    page.keyboard.press("Enter")
    expect(page.locator("[data-stone]")).to_have_count(6)
    expect(page.locator("#status-text")).to_have_text("It's Red's turn")
    page.keyboard.press("u")
    expect(page.locator("[data-stone]")).to_have_count(5)
    page.keyboard.press("r")
    expect(page.locator("[data-stone]")).to_have_count(6)
    page.reload()
    expect(page.locator("[data-stone]")).to_have_count(6)
    expect(page).to_have_url(re.compile(r"moves=1\+2\+1\+2\+1\+2"))
    page.keyboard.press("1")  # Red's fourth stone in column 1
    expect(page.locator("#status-text")).to_have_text("Red wins!")
    expect(page.locator("[data-win]")).to_have_attribute("data-win", "14,21,28,35")
    screenshot(page, "trilobite-win")


def test_trilobite_hover_shows_the_landing_cell(page, server_url):
    open_game(page, server_url, "trilobite", "trilobite::7/7/7/7/7/7")
    page.keyboard.press("4")
    expect(page.locator("[data-stone]")).to_have_count(1)
    box = page.locator("#board svg").bounding_box()
    # Hover in column 4 near the top: two ghosts, one above the board and one landing.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.2)
    expect(page.locator(".ghost")).to_have_count(2)
    page.mouse.down()
    page.mouse.up()
    expect(page.locator("[data-stone]")).to_have_count(2)
    expect(page).to_have_url(re.compile(r"moves=4\+4"))


def test_broken_link_shows_a_message_and_a_fresh_game(page, server_url):
    page.goto(f"{server_url}/play/trilobite?id=trilobite:width=99:xx&moves=1+2")
    expect(page.locator("#notice")).to_contain_text("could not be opened")
    expect(page.locator("#notice")).to_contain_text("width must be")
    expect(page.locator("#status-text")).to_have_text("Your turn (Red)")  # against the AI
    page.goto(f"{server_url}/play/tictactoe?id={TTT}&moves=a1+a1")
    expect(page.locator("#notice")).to_contain_text("already taken")
    for query in ("seats=person,nobody", f"id={TTT}&seats=person,nobody"):
        page.goto(f"{server_url}/play/tictactoe?{query}")
        expect(page.locator("#notice")).to_contain_text("Here is a new game instead")
        expect(page.locator("#status-text")).to_have_text("It's X's turn")


def test_settings_change_the_board_and_players(page, server_url):
    open_game(page, server_url, "trilobite", "trilobite::7/7/7/7/7/7")
    page.keyboard.press("g")
    page.locator('input[name="width"]').fill("10")
    page.locator('input[name="height"]').fill("8")
    page.locator('input[name="line"]').fill("5")
    page.locator('select[name="seat1"]').select_option("easy")
    page.locator("#start-new").click()
    expect(page.locator("#settings-dialog")).to_be_hidden()
    expect(page).to_have_url(re.compile(r"width%3D10%2Cheight%3D8%2Cline%3D5"))
    page.keyboard.press("5")
    expect(page.locator("[data-stone]")).to_have_count(2)  # the AI answered
    # A bad setting is explained in the dialog and changes nothing.
    page.keyboard.press("g")
    page.locator('input[name="line"]').fill("12")
    page.locator("#start-new").click()
    expect(page.locator("#settings-error")).to_contain_text("line must be")
    page.keyboard.press("Escape")
    expect(page.locator("[data-stone]")).to_have_count(2)


@pytest.mark.slow
def test_watch_ai_against_ai_and_help(page, server_url):
    open_game(page, server_url, "tictactoe", TTT, seats="perfect,perfect")
    expect(page.locator("#status-text")).to_have_text("It's a Draw", timeout=20000)
    page.keyboard.press("?")
    expect(page.locator("#help-dialog")).to_be_visible()
    expect(page.locator("#keys")).to_contain_text("Undo")
    page.keyboard.press("Escape")


@pytest.mark.parametrize("width, height", [(360, 640), (1600, 1000), (900, 500)])
def test_board_fills_the_window_at_any_size(browser, server_url, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{server_url}/play/trilobite?id=trilobite::7/7/7/7/7/7&moves=4+4+5")
    expect(page.locator("[data-stone]")).to_have_count(3)
    box = page.locator("#board svg").bounding_box()
    assert box["width"] <= width and box["height"] <= height
    assert max(box["width"] / width, box["height"] / height) > 0.45
    for button in ("#new", "#undo", "#settings"):
        b = page.locator(button).bounding_box()
        assert b["y"] + b["height"] <= height and b["x"] + b["width"] <= width, button
    screenshot(page, f"trilobite-{width}x{height}")
    context.close()


def test_trilobite_analysis_shows_every_columns_score(page, server_url):
    from pathlib import Path

    data = Path(__file__).resolve().parents[1] / "data" / "connect4"
    moves, score = (data / "Test_L3_R1").read_text().splitlines()[0].split()
    page.goto(f"{server_url}/play/trilobite?id=trilobite::7/7/7/7/7/7&moves={'+'.join(moves)}")
    expect(page.locator("[data-stone]")).to_have_count(len(moves))
    page.keyboard.press("y")
    expect(page.locator("#analysis")).to_have_text("Analysis: on (proven)")
    scores = page.locator("[data-score]")
    expect(scores.first).to_be_visible(timeout=20000)
    values = [int(v) for v in scores.evaluate_all("ns => ns.map(n => n.dataset.score)")]
    assert max(values) == int(score)  # the best column has the set's exact score
    screenshot(page, "trilobite-analysis")
    page.keyboard.press("y")
    expect(page.locator("[data-score]")).to_have_count(0)


def test_api_docs_work_with_the_network_blocked(page, server_url):
    """/docs serves Swagger UI itself: with every request off this server refused, the
    page still lists the endpoints."""
    refused = []

    def only_this_server(route):
        if route.request.url.startswith(server_url):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_server)
    page.goto(f"{server_url}/docs")
    move = page.locator(".opblock-summary-path", has_text="/api/v1/sessions/{session_id}/move")
    expect(move.first).to_be_visible(timeout=15000)
    assert refused == []  # it did not even try to reach anything else
    screenshot(page, "api-docs-offline")


@pytest.fixture(scope="module")
def patient_server_url(tmp_path_factory):
    """A server that gives machine play a minute (--think-seconds; a page's default is 2 s,
    too short to press Cancel in on a busy machine)."""
    yield from serve(tmp_path_factory.mktemp("patient") / "games.db", think_seconds=60.0)


def test_thinking_can_be_cancelled(page, patient_server_url):
    """The strongest level offered on the empty 20x20 board with a line of 20 (hard) searches
    for seconds: the page says so with a Cancel button, and Cancel stops it with nothing
    played."""
    server_url = patient_server_url
    open_game(page, server_url, "trilobite",
              "trilobite:width=20,height=20,line=20:" + "/".join(["20"] * 20))
    page.locator("#aimove").click()
    expect(page.locator("#thinking")).to_be_visible()
    expect(page.locator("#cancel-thinking")).to_be_visible()
    screenshot(page, "trilobite-thinking")
    page.locator("#cancel-thinking").click()
    expect(page.locator("#thinking")).to_be_hidden()
    expect(page.locator("#status-note")).to_have_text("Stopped.")
    page.wait_for_timeout(1500)  # an answer that still came would show a stone now
    expect(page.locator("[data-stone]")).to_have_count(0)
    page.keyboard.press("4")  # the game goes on
    expect(page.locator("[data-stone]")).to_have_count(1)


def test_home_previews_move_unless_reduced_motion_is_asked_for(page, server_url):
    """The previews play their short games on a loop (a step every 0.9 s); once the system
    asks for reduced motion each shows its game's end and stays still."""
    page.goto(server_url)
    preview = page.locator('.card[data-game="tictactoe"] .preview')
    expect(preview.locator("svg")).to_be_visible()
    first = preview.inner_html()
    page.wait_for_function("(first) => document.querySelector("
                           "'.card[data-game=\"tictactoe\"] .preview').innerHTML !== first",
                           arg=first, timeout=5000)
    page.emulate_media(reduced_motion="reduce")
    page.wait_for_timeout(100)  # the change is seen, the end drawn
    still = preview.inner_html()
    page.wait_for_timeout(2000)  # two steps
    assert preview.inner_html() == still
