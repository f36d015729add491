"""The status line over the board keeps its height while the computer thinks and from move to
move, so that the board never jumps: "Thinking… Cancel" takes the words' place (on a phone
it used to sit beside them, and Polar's two-line words wrapped to four lines), and the AI's
note ("AI (easy) played 4: best found in 0.0 s") keeps its line after the next move. A
hint's words take a line under the status line: the status stays, the board gives way.

The server's answer is held back (a route in the browser) while the page thinks, so the
busy state is measured however fast the machine is."""

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot

pytestmark = pytest.mark.browser

SIZES = [(360, 640), (640, 360), (1920, 1080)]
# While thinking, the status line's words wrap on a phone, not on a desktop (its layout is
# checked in test_web_screens.py): the thinking tests run on phones.
PHONES = SIZES[:2]
PAGES = {
    "polar": "/play/polar",  # then the original level 2, chosen in the level select
    "trilobite": "/play/trilobite?id=trilobite::7/7/7/7/7/7&moves=4+4",
    "tictactoe": "/play/tictactoe?id=tictactoe::3/3/3&moves=b2",
    "ishido": "/play/ishido",
    "twomino": "/play/twomino",
}
# The status line's height and the board's top, in CSS pixels.
LAYOUT = """() => ({ status: document.querySelector("#status").getBoundingClientRect().height,
                     board: document.querySelector("#board svg").getBoundingClientRect().top })"""


class HeldRoute:
    """Requests to a path held back until released (the page waits meanwhile)."""

    def __init__(self, page, pattern):
        self.page, self.pattern, self.held = page, pattern, []
        page.route(pattern, lambda route: self.held.append(route))

    def release(self):
        while self.held:
            self.held.pop().continue_()
        self.page.unroute(self.pattern)


def open_game(browser, server_url, path, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(server_url + path)
    expect(page.locator("#status-text")).not_to_have_text("Loading…", timeout=20000)
    expect(page.locator("#thinking")).to_be_hidden(timeout=20000)
    page.evaluate("document.fonts.ready")
    return context, page


def shot(page, name):
    screenshot(page, f"status/{name}")


@pytest.mark.parametrize("width, height", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
@pytest.mark.parametrize("game", PAGES)
def test_thinking_keeps_the_status_line_and_the_board_in_place(browser, server_url, game,
                                                               width, height):
    context, page = open_game(browser, server_url, PAGES[game], width, height)
    try:
        if game == "polar":  # its words take two lines on a phone
            page.locator("#level-select").select_option("original:2")
            expect(page.locator("#board svg")).to_have_attribute("aria-label",
                                                                 re.compile("Original level 2"))
        idle = page.evaluate(LAYOUT)
        held = HeldRoute(page, "**/hint")
        page.locator("#hint").click()
        expect(page.locator("#thinking")).to_be_visible()
        expect(page.locator("#cancel-thinking")).to_be_visible()
        busy = page.evaluate(LAYOUT)
        shot(page, f"{game}-thinking-{width}x{height}")
        assert busy == pytest.approx(idle, abs=0.5), (idle, busy)
        expect(page.locator("#status-text")).to_be_hidden()  # the busy words take its place
        held.release()
        expect(page.locator("#thinking")).to_be_hidden(timeout=20000)
        note = page.locator("#status-note")
        expect(note).to_contain_text("int")  # "Hint: ..." or "No hint: ..."
        after = page.evaluate(LAYOUT)
        shot(page, f"{game}-hint-{width}x{height}")
        print(f"{game} at {width}x{height}: status {idle['status']:.0f} px idle, "
              f"{busy['status']:.0f} px thinking")
        # The answer's words are a line under the status line (a notice floating over the
        # page hid the title and the status on a phone): the status line keeps its height,
        # and the board starts below the words.
        assert after["status"] == pytest.approx(idle["status"], abs=0.5), (idle, after)
        assert after["board"] >= note.bounding_box()["y"] + note.bounding_box()["height"] - 0.5
    finally:
        context.close()


@pytest.mark.parametrize("width, height", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_the_ai_note_keeps_its_line_from_move_to_move(browser, server_url, width, height):
    """Against the AI: after its first move the status line has one height, whether the AI's
    note is about the position shown (after its move) or not (after the person's, while the
    AI thinks)."""
    path = "/play/trilobite?id=trilobite::7/7/7/7/7/7&seats=person,easy"
    context, page = open_game(browser, server_url, path, width, height)
    try:
        stones = page.locator("[data-stone]")
        note = page.locator("#ai-note")
        page.keyboard.press("4")
        expect(stones).to_have_count(2, timeout=20000)
        expect(note).to_be_visible()
        expect(note).to_contain_text("AI (easy) played")
        layouts = [page.evaluate(LAYOUT)]
        for count, column in [(3, "3"), (5, "5")]:
            held = HeldRoute(page, "**/ai")
            page.keyboard.press(column)
            expect(stones).to_have_count(count)
            expect(page.locator("#thinking")).to_be_visible()
            expect(note).to_be_hidden()  # it was about the position before
            layouts.append(page.evaluate(LAYOUT))
            shot(page, f"trilobite-ai-thinking-{width}x{height}")
            held.release()
            expect(stones).to_have_count(count + 1, timeout=20000)
            expect(note).to_be_visible()
            layouts.append(page.evaluate(LAYOUT))
        shot(page, f"trilobite-ai-note-{width}x{height}")
        assert all(layout == pytest.approx(layouts[0], abs=0.5) for layout in layouts), layouts
    finally:
        context.close()


# Where the page says some words: the elements shown with them in their own text (what is
# read only by screen readers aside), and the live regions that hold them (what a screen
# reader says by itself when they change).
SAID = """(words) => {
  const own = (node) => [...node.childNodes]
    .some((child) => child.nodeType === 3 && child.textContent.includes(words));
  const name = (node) => node.id || node.tagName.toLowerCase();
  const shown = [...document.body.querySelectorAll("*")].filter((node) => own(node)
    && !node.closest(".visually-hidden") && node.checkVisibility({ visibilityProperty: true }));
  const regions = '[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]';
  const live = [...document.querySelectorAll(regions)]
    .filter((node) => node.textContent.includes(words)
      && (node.matches(".visually-hidden") || node.checkVisibility({ visibilityProperty: true })));
  return { shown: shown.map(name), live: live.map(name) };
}"""
ENDS = {
    # X completes column a by a click.
    "tictactoe-won": ("/play/tictactoe?id=tictactoe::3/3/3&moves=a1+b1+a2+b2", "6", "X wins!"),
    # Red does not block column 2: the AI (Yellow) completes it; against the AI the words
    # are a person's.
    "trilobite-lost": ("/play/trilobite?id=trilobite::7/7/7/7/7/7&moves=1+2+7+2+1+2"
                       "&seats=person,perfect", "7", "The AI wins with Yellow"),
}


@pytest.mark.parametrize("width, height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("end", ENDS)
def test_the_end_of_a_game_is_said_once(browser, server_url, end, width, height):
    """Once on the page (the banner with Play again, in the status words' place) and once to
    a screen reader (the move and the result, in one live region)."""
    path, move, words = ENDS[end]
    context, page = open_game(browser, server_url, path, width, height)
    try:
        if end.startswith("tictactoe"):
            page.locator(f'[data-cell="{move}"]').click()
        else:
            page.keyboard.press(move)
        expect(page.locator("#gameover")).to_be_visible(timeout=20000)
        expect(page.locator("#gameover-text")).to_have_text(words)
        expect(page.locator("#announce")).to_contain_text(words)
        expect(page.locator("#again")).to_be_visible()
        shot(page, f"{end}-{width}x{height}")
        said = page.evaluate(SAID, words)
        assert said == {"shown": ["gameover-text"], "live": ["announce"]}, said
    finally:
        context.close()
