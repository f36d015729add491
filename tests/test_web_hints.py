"""A hint's or a check's words, the help, and the small things a player trips on (issue 32,
points 4, 5 and 10): on a phone held upright (390x844, taps) and a desktop (1440x900, mouse
and keys).

A hint's words are a line of the status area, gone as soon as the position or the game
changes, and no notice covers the status line or the board; a greyed-out Hint says why.
The help opens at its top (how to play, then on a touch screen the gestures, then the
keys). Two-player games have Share; a tap on a taken cell is answered; the easy AI varies
from game to game; the statistics tell a draw from a loss and open with focus on Close; an
Ishido tap right after a drag plays."""

from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from gridgames.core.rng import Rng
from gridgames.games.ishido import make_game as make_ishido
from tests.conftest import screenshot

pytestmark = pytest.mark.browser

TTT = "/play/tictactoe?id=tictactoe::3/3/3"


def open_game(page, server_url, path):
    page.goto(server_url + path)
    expect(page.locator("#status-text")).not_to_have_text("Loading…", timeout=20000)


def tap_cell(page, cell):
    before = page.locator("[data-stone]").count()
    page.locator(f'[data-cell="{cell}"]').tap()
    expect(page.locator("[data-stone]")).to_have_count(before + 1)


def box(page, selector):
    return page.locator(selector).bounding_box()


def overlaps(a, b):
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and
            a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def test_hint_words_in_the_status_area_on_a_phone(phone, server_url):
    open_game(phone, server_url, TTT)
    note = phone.locator("#status-note")
    tap_cell(phone, 0)
    for gone_by in ["move", "undo", "new game"]:
        phone.locator("#hint").tap()
        expect(note).to_contain_text("Hint: ", timeout=20000)
        expect(phone.locator("#notice")).to_be_hidden()
        if gone_by == "move":
            screenshot(phone, "hint-words-390x844")
        # Under the status words, over neither them nor the board.
        assert not overlaps(box(phone, "#status-note"), box(phone, "#status"))
        assert not overlaps(box(phone, "#status-note"), box(phone, "#board svg"))
        if gone_by == "move":
            tap_cell(phone, 8)
        elif gone_by == "undo":
            phone.locator("#undo").tap()
            expect(phone.locator("[data-stone]")).to_have_count(1)
        else:
            phone.locator("#new").tap()
            expect(phone.locator("[data-stone]")).to_have_count(0)
        # (after a new game the line says the unfinished one is kept)
        expect(note).not_to_contain_text("Hint")
    # An error's notice takes its own place under the title bar: it covered the status line.
    phone.route("**/move", lambda route: route.fulfill(
        status=409, content_type="application/json",
        json={"error": "The server refused this move for a reason long enough to wrap "
                        "onto a second line on a phone"}))
    phone.locator('[data-cell="4"]').tap()
    expect(phone.locator("#notice")).to_contain_text("refused this move")
    screenshot(phone, "notice-390x844")
    for covered in ["#status", "#board svg", "#title"]:
        assert not overlaps(box(phone, "#notice"), box(phone, covered)), covered


def test_hint_words_go_with_the_position_on_a_desktop(desktop, server_url):
    page = desktop
    open_game(page, server_url, "/play/trilobite?id=trilobite::7/7/7/7/7/7&seats=person,easy")
    note = page.locator("#status-note")
    page.keyboard.press("4")
    expect(page.locator("[data-stone]")).to_have_count(2, timeout=20000)
    page.keyboard.press("h")
    expect(note).to_contain_text("Hint: ", timeout=20000)
    expect(page.locator(".hint-ring")).to_have_count(1)
    screenshot(page, "hint-words-1440x900")
    assert not overlaps(box(page, "#status-note"), box(page, "#status"))
    page.keyboard.press("3")  # the AI answers: a new position, the hint is gone
    expect(page.locator("[data-stone]")).to_have_count(4, timeout=20000)
    expect(note).to_be_hidden()


def test_no_hint_says_why(desktop, server_url):
    page = desktop
    open_game(page, server_url, TTT + "&moves=a1+b1+a2+b2+a3")
    expect(page.locator("#status-text")).to_have_text("X wins!")
    expect(page.locator("#hint")).to_be_disabled()
    expect(page.locator("#hint")).to_have_attribute("title", "No hint: the game is over")
    page.keyboard.press("h")
    expect(page.locator("#status-note")).to_have_text("No hint: the game is over.")


def test_help_opens_at_its_top_with_the_gestures_first_on_a_phone(phone, server_url):
    open_game(phone, server_url, "/play/ishido")
    phone.locator("#help").tap()
    dialog = phone.locator("#help-dialog")
    expect(dialog).to_be_visible()
    screenshot(phone, "help-390x844")
    assert dialog.evaluate("d => d.scrollTop") == 0
    expect(phone.locator("#help-title")).to_be_in_viewport()
    expect(phone.locator("#help-title")).to_be_focused()
    expect(phone.locator("#help-gestures")).to_be_visible()
    expect(phone.locator("#gestures")).to_contain_text("Drag the next tile")
    assert box(phone, "#help-rules")["y"] < box(phone, "#gestures")["y"] < box(phone, "#keys")["y"]


def test_help_opens_at_its_top_on_a_desktop(desktop, server_url):
    open_game(desktop, server_url, "/play/polar")
    desktop.keyboard.press("?")
    expect(desktop.locator("#help-dialog")).to_be_visible()
    expect(desktop.locator("#help-title")).to_be_focused()
    expect(desktop.locator("#help-title")).to_be_in_viewport()
    assert desktop.locator("#help-dialog").evaluate("d => d.scrollTop") == 0
    expect(desktop.locator("#help-gestures")).to_be_hidden()  # no touch screen here


def test_share_and_a_taken_cell_on_a_phone(phone, server_url):
    open_game(phone, server_url, TTT)
    expect(phone.locator("#share")).to_be_visible()
    tap_cell(phone, 4)
    # Taken (its stone is over it): a dashed frame shakes round it.
    phone.locator('[data-cell="4"]').tap(force=True)
    expect(phone.locator('[data-refused="4"]')).to_have_count(1)
    screenshot(phone, "taken-cell-390x844")
    expect(phone.locator("[data-stone]")).to_have_count(1)
    expect(phone.locator(".refused")).to_have_count(0)  # for a moment only
    phone.locator("#share").tap()
    expect(phone.locator("#links-dialog")).to_be_visible()


def test_the_easy_ai_varies_from_game_to_game(desktop, server_url):
    answers = set()
    for _ in range(5):
        made = desktop.request.post(f"{server_url}/api/v1/sessions",
                                    data={"game": "tictactoe", "seats": ["easy", "person"]})
        session = made.json()["session"]
        answer = desktop.request.post(f"{server_url}/api/v1/sessions/{session}/ai", data={})
        answers.add(answer.json()["ai_move"])
    # Nine equal first moves for the easy level: five games alike by chance, 1 in 6561.
    assert len(answers) > 1, answers


def test_statistics_tell_a_draw_from_a_loss_and_open_on_close(desktop, server_url):
    page = desktop
    open_game(page, server_url, TTT)
    for key in "12354687":
        page.keyboard.press(key)
    expect(page.locator("[data-stone]")).to_have_count(8)
    page.keyboard.press("9")  # X O X / X O O / O X X
    expect(page.locator("#status-text")).to_have_text("It's a Draw")
    page.keyboard.press("n")
    expect(page.locator("[data-stone]")).to_have_count(0)
    for key in "14253":  # X wins: between two people, no one's win
        page.keyboard.press(key)
    expect(page.locator("#status-text")).to_have_text("X wins!")
    page.keyboard.press("t")
    expect(page.locator("#stats-dialog")).to_be_visible()
    expect(page.locator("#stats-close")).to_be_focused()  # never the destructive Reset
    drawn = page.locator('.stats-bar[data-outcome="drawn"]')
    lost = page.locator('.stats-bar[data-outcome="lost"]')
    expect(drawn).to_have_count(1)
    expect(lost).to_have_count(1)
    assert drawn.bounding_box()["height"] != lost.bounding_box()["height"]
    screenshot(page, "stats-1440x900")


def test_an_ishido_tap_right_after_a_drag_plays(phone, server_url):
    """A tap on a valid cell right after a drag (as soon as the drag's move is drawn) plays:
    the first tap after a touch drag made no click (3 of 3 by hand, always here)."""
    game = make_ishido()
    params = game.parse_params("rules=seed")
    desc = game.new_desc(params, Rng("tap"))
    state = game.new_state(params, desc)
    first = state.valid[0][0]
    after = game.apply(state, game.legal_moves(state)[0])
    second = next(cell for cell, _ in after.valid if cell != first)
    phone.goto(f"{server_url}/play/ishido?id=ishido:rules=seed:{desc}")
    expect(phone.locator(".next-tile")).to_be_visible()
    placed = phone.locator("[data-placed]").count()  # the deal's six starting tiles
    cdp = phone.context.new_cdp_session(phone)

    def centre(selector):
        b = box(phone, selector)
        return {"x": b["x"] + b["width"] / 2, "y": b["y"] + b["height"] / 2}

    def touch(kind, point=None):
        points = [point] if point else []
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    start, end = centre(".next-tile"), centre(f'[data-cell="{first}"]')
    touch("touchStart", start)
    for step in range(1, 7):
        touch("touchMove", {"x": start["x"] + (end["x"] - start["x"]) * step / 6,
                            "y": start["y"] + (end["y"] - start["y"]) * step / 6})
    touch("touchEnd")
    expect(phone.locator("[data-placed]")).to_have_count(placed + 1)
    touch("touchStart", centre(f'[data-cell="{second}"]'))  # a tap as soon as it is drawn
    touch("touchEnd")
    expect(phone.locator(f'[data-placed="{second}"]')).to_have_count(1)
    expect(phone.locator("[data-placed]")).to_have_count(placed + 2)


def test_a_polar_dead_end_says_why_there_is_no_hint(desktop, server_url):
    page = desktop
    # The penguin pushes the heart up onto the top row, which has no house: a dead end.
    rows = ["." * 24, "...+" + "." * 20, "...P" + "." * 20, "." * 23 + "H"]
    open_game(page, server_url, "/play/polar?id=" + quote("polar::" + "/".join(rows)))
    page.keyboard.press("ArrowUp")
    expect(page.locator("#status-text")).to_contain_text("can no longer reach a house")
    expect(page.locator("#hint")).to_be_disabled()
    why = "this is a dead end (undo or restart)"
    expect(page.locator("#hint")).to_have_attribute("title", f"No hint: {why}")
    expect(page.locator("#solve")).to_have_attribute("title", f"No solution: {why}")
    page.keyboard.press("h")
    note = page.locator("#status-note")
    expect(note).to_have_text(f"No hint: {why}.")
    screenshot(page, "polar-dead-end-1440x900")
    page.keyboard.press("u")
    expect(note).to_be_hidden()
    expect(page.locator("#hint")).to_be_enabled()


def test_a_polar_hint_is_gone_in_the_solution_viewer_and_after(desktop, server_url):
    page = desktop
    rows = ["." * 24, "P.+..H" + "." * 18, "." * 24, "." * 24]  # one push right brings it home
    open_game(page, server_url, "/play/polar?id=" + quote("polar::" + "/".join(rows)))
    page.keyboard.press("h")
    note = page.locator("#status-note")
    expect(note).to_contain_text("Hint: ", timeout=20000)
    expect(page.locator(".polar-hint")).to_have_count(1)
    page.keyboard.press("s")
    expect(page.locator("#stepper")).to_be_visible(timeout=20000)
    expect(note).to_be_hidden()
    expect(page.locator(".polar-hint")).to_have_count(0)
    page.keyboard.press("Escape")  # back to the game: the hint does not come back
    expect(page.locator("#stepper")).to_be_hidden()
    expect(page.locator(".polar-hint")).to_have_count(0)
    expect(note).to_be_hidden()
