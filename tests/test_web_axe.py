"""Accessibility in the browser: axe-core (the copy that the PyPI package axe-playwright-python
ships, installed by the test extra) finds no serious or critical violation on any page, light
or dark, with the dialogs open too; every control shows where the keyboard focus is; moves
and results reach the page's live regions."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot
from tests.test_web_screens import GAMES, PAGES

pytestmark = pytest.mark.browser

BAD = {"serious", "critical"}


def axe_script() -> str:
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None:
        message = "axe-playwright-python is not installed (pip install -e '.[test]')"
        if os.environ.get("GRIDGAMES_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    return (Path(spec.origin).parent / "axe.min.js").read_text(encoding="utf-8")


def violations(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_script())
    found = page.evaluate("axe.run(document, { resultTypes: ['violations'] })")["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']}: "
            + "; ".join(str(n["target"]) for n in v["nodes"][:5])
            for v in found if v["impact"] in BAD]


def open_page(page, server_url, name, theme):
    page.add_init_script(f"localStorage.setItem('gridgames-theme', '{theme}')")
    if name == "home":
        page.goto(server_url)
        expect(page.locator(".card .preview svg")).to_have_count(len(GAMES), timeout=20000)
    else:
        page.goto(server_url + GAMES[name])
        expect(page.locator("#status-text")).not_to_have_text("Loading…", timeout=20000)
        expect(page.locator("#thinking")).to_be_hidden(timeout=20000)


def check_axe_finds_nothing_serious(page, name, theme):
    found = violations(page)
    assert not found, f"{name} ({theme}): {found}"
    if name == "home":
        return
    for button, dialog in [("#settings", "#settings-dialog"), ("#help", "#help-dialog")]:
        page.locator(button).click()
        expect(page.locator(dialog)).to_be_visible()
        found = violations(page)
        assert not found, f"{name} ({theme}) with {dialog} open: {found}"
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()


# Where the keyboard focus is: an outline at least 2 px wide on the focused element itself,
# in a colour at least 3:1 against the page (WCAG's contrast for non-text).
FOCUS_RING = """() => {
  const node = document.activeElement;
  if (!node || node === document.body) return null;
  const style = getComputedStyle(node);
  const luminance = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [luminance(style.outlineColor),
                  luminance(getComputedStyle(document.body).backgroundColor)];
  const contrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2
    && contrast >= 3;
  const name = node.tagName.toLowerCase() + (node.id ? "#" + node.id : "")
    + " " + (node.getAttribute("aria-label") || node.textContent || "").trim().slice(0, 20);
  return { name, ring };
}"""


def check_every_control_shows_the_keyboard_focus(page, name):
    seen, missing = set(), []
    for _ in range(60):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUS_RING)
        if focused is None or focused["name"] in seen:
            if focused is not None:
                break
            continue
        seen.add(focused["name"])
        if not focused["ring"]:
            missing.append(focused["name"])
    assert len(seen) >= 3, f"Tab reached only {seen}"
    assert not missing, f"{name}: no visible focus on {missing}"


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("name", PAGES)
def test_the_focus_shows_and_axe_finds_nothing_serious(page, server_url, name, theme):
    """Both on one load of the page: the keyboard focus first, from the page as it opens;
    then, with the focus let go and the page scrolled back to the top as it opened, axe on
    the page and on each dialog (which changes the page)."""
    open_page(page, server_url, name, theme)
    check_every_control_shows_the_keyboard_focus(page, name)
    page.evaluate("document.activeElement?.blur(); window.scrollTo(0, 0)")
    check_axe_finds_nothing_serious(page, name, theme)


def test_moves_and_results_are_announced(page, server_url):
    """A polite live region says each move with what follows, and the result."""
    page.goto(f"{server_url}/play/tictactoe?id=tictactoe::3/3/3")
    expect(page.locator("#status-text")).to_have_text("It's X's turn")
    announce = page.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    page.locator('[data-cell="0"]').click()
    expect(announce).to_have_text("X played a1. It's O's turn")
    expect(page.locator("#status-text")).to_have_text("It's O's turn")
    for cell in (3, 1, 4):
        page.locator(f'[data-cell="{cell}"]').click()
        expect(page.locator(f'[data-stone="{cell}"]')).to_be_visible()
    page.locator('[data-cell="2"]').click()
    expect(announce).to_have_text("X played c1. X wins!")
    page.keyboard.press("u")
    expect(announce).to_have_text("It's X's turn")
    # The clock ticks in the status line: nothing around it is read out as it changes.
    assert page.locator("[aria-live]:has(#clock), [role=status]:has(#clock)").count() == 0


def test_nothing_is_told_by_colour_alone(page, server_url):
    """Trilobite's two players differ in shape as well as colour; every Ishido tile keeps a
    picture; 2mino's counters say found once (✓) or twice (×2) in text."""
    from urllib.parse import quote

    from gridgames.games.twomino.layout import layout, pair_index
    from tests.test_web_twomino import click_bar, small_board

    page.goto(f"{server_url}/play/trilobite?id=trilobite::7/7/7/7/7/7&moves=4+4+3")
    expect(page.locator("[data-stone]")).to_have_count(3)
    shapes = page.locator("[data-stone]").evaluate_all(
        "ns => ns.map(n => [n.dataset.mark, [...n.querySelectorAll('circle')]"
        ".map(c => c.getAttribute('r') + (c.getAttribute('fill') === 'none' ? 'ring' : ''))"
        ".join(' ')])")
    by_mark = {mark: shape for mark, shape in shapes}
    assert set(by_mark) == {"x", "o"} and by_mark["x"] != by_mark["o"], shapes

    page.goto(f"{server_url}/play/ishido")
    expect(page.locator("[data-placed]")).to_have_count(6)
    for look in range(3):  # every picture set: birds (or letters without the font), shapes...
        pictures = page.locator("[data-placed]").evaluate_all(
            "ns => ns.map(n => n.querySelectorAll('polygon, circle, rect').length > 1"
            " || [...n.querySelectorAll('text')].some(t => t.textContent.trim()))")
        assert all(pictures), f"a tile without its picture (look {look})"
        page.locator("#images").click()

    # A 2mino board where one pair is enclosed twice: two dominoes with the same symbols
    # whose outlines share no bar.
    board, locked, game_id = small_board(4, "twice")
    lay = layout(4)

    def value(bar):
        a, b = lay.bars[bar]
        return pair_index(board.symbols[a], board.symbols[b])

    usable = [bar for bar in range(len(lay.bars)) if bar not in locked]
    first, second = next(
        (one, two) for one in usable for two in usable
        if one < two and value(one) == value(two)
        and not set(lay.outline(one) + (one,)) & set(lay.outline(two) + (two,)))
    page.goto(f"{server_url}/play/twomino?id={quote(game_id)}")
    expect(page.locator('[data-count-mark]')).to_have_count(0)
    for bar in lay.outline(first):
        if bar not in locked:
            click_bar(page, lay, bar)
    expect(page.locator('[data-count-mark="✓"]')).to_have_count(1)
    for bar in lay.outline(second):
        if bar not in locked:
            click_bar(page, lay, bar)
    # Twice: the sample and both dominoes on the board say ×2.
    expect(page.locator('[data-count-mark="×2"]')).to_have_count(3)
    expect(page.locator('[data-count-mark="✓"]')).to_have_count(0)
    expect(page.locator("#status-text")).to_contain_text("found twice or more")
    screenshot(page, "twomino-found-twice")
