"""A daily puzzle in the browser, its main flow (on a desktop: a phone turns Polar's board,
and its arrow keys with it): the home page's Daily list, the
day's Polar level played to its end, the result line (no moves in it) copied with one tap or
shown to copy by hand when the clipboard is refused, the streak in Statistics, the puzzle
marked solved on the home page, where its link opens the solved game again."""

import json
import re
import urllib.request
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.conftest import DESKTOP, screenshot

pytestmark = pytest.mark.browser
KEYS = {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight"}


def call(server_url, method, path, body=None):
    request = urllib.request.Request(server_url + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


@pytest.mark.slow
def test_todays_polar_from_the_home_page_to_the_shared_result(browser, server_url):
    context = browser.new_context(**DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(server_url + "/")
        daily = page.locator("#daily-list a", has_text="Polar")
        expect(daily).to_be_visible()
        daily.click()
        # The day's first request makes its level in the compute pool: seconds on a busy
        # machine, so more than the default wait.
        expect(page).to_have_url(re.compile(r"/daily/\d{4}-\d\d-\d\d/polar\?session="),
                                 timeout=30000)
        expect(page.locator("#daily-title")).to_contain_text("Daily · ", timeout=30000)
        day = page.url.split("/daily/")[1].split("/")[0]
        # The day's solution, from the API; all but its last moves from the address.
        start = call(server_url, "GET", f"/api/v1/daily/{day}/polar")
        game = call(server_url, "POST", "/api/v1/sessions", {"id": start["id"]})
        line = call(server_url, "GET", f"/api/v1/sessions/{game['session']}/solution")["moves"]
        page.goto(f"{server_url}/daily/{day}/polar?id={quote(start['id'])}"
                  f"&moves={'+'.join(line[:-2])}")
        expect(page.locator("#moves-count")).to_have_text(f"({len(line) - 2})")
        expect(page.locator("#daily-done")).to_be_hidden()
        for number, move in enumerate(line[-2:], len(line) - 1):
            page.keyboard.press(KEYS[move])
            expect(page.locator("#moves-count")).to_have_text(f"({number})")
        result = page.locator("#daily-line")
        expect(result).to_be_visible()
        expect(result).to_contain_text(f"gridgames daily {day} · Polar · solved in ")
        expect(result).to_contain_text(f"· {len(line)} moves · no hints")
        assert "".join(line) not in result.inner_text()  # no spoilers
        expect(page.locator("#again")).to_be_hidden()
        screenshot(page, "daily-polar-solved-1440x900")
        page.locator("#daily-copy").click()
        expect(page.locator("#daily-copied")).to_have_text("Copied: paste it anywhere.")
        assert page.evaluate("navigator.clipboard.readText()") == result.inner_text()
        # A browser that refuses the clipboard: the line is selected, to copy by hand.
        page.evaluate("() => { navigator.clipboard.writeText = "
                      "() => Promise.reject(new Error('no')); }")
        page.locator("#daily-copy").click()
        expect(page.locator("#daily-copied")).to_contain_text("copy it with Ctrl+C")
        assert page.evaluate("getSelection().toString()").startswith("gridgames daily")
        page.locator("#stats").click()
        counts = page.locator("#stats-body .stats-counts")
        expect(counts).to_contain_text("Daily streak1 day")
        expect(counts).to_contain_text("Best daily streak1 day")
        page.keyboard.press("Escape")
        # The streak's days and an import's merge, by the module itself.
        checked = page.evaluate("""async () => {
            const d = await import('/static/js/daily.js');
            const day = (date, solved) => ({ polar: { session: date, solved, onDay: solved } });
            const kept = { '2026-11-24': day('a', true), '2026-11-25': day('b', true),
                           '2026-11-26': day('c', false) };
            const merged = d.mergeDaily(kept, { '2026-11-26': day('c', true) });
            return [d.dailyStreak(kept, '2026-11-26'), d.dailyStreak(kept, '2026-11-27'),
                    d.dailyStreak(merged, '2026-11-27')];
        }""")
        assert checked == [{"current": 2, "best": 2}, {"current": 0, "best": 2},
                           {"current": 3, "best": 3}]
        page.goto(server_url + "/")
        expect(page.locator("#daily-list a.solved")).to_have_text("Polar")
        expect(page.locator("#daily-streak")).to_have_text("Streak: 1 day (best 1).")
        screenshot(page, "daily-home-1440x900")
        page.locator("#daily-list a.solved").click()  # the game it was solved in, again
        expect(page.locator("#daily-line")).to_contain_text(f"· {len(line)} moves · no hints")
    finally:
        context.close()
    assert not errors, errors
