"""Trilobite's analysis on the page (the `y` key): every column's score in the strip above
it, "proven" where the opening book or a finished search backs them, and on a board the
solver cannot finish within the page's time a "?" over each column not solved and "best
found" on the button. The server here gives machine play 2 s, so the cut comes quickly."""

import threading
import time

import pytest
from playwright.sync_api import expect

from tests.conftest import free_port, make_app, screenshot

pytestmark = pytest.mark.browser

THINK_SECONDS = 2.0
# The compute worker runs at the lowest priority and starts (loads its compiled solver) with
# the server: on a machine busy with other work the first answer can take a while.
ANSWER_MS = 60_000
EMPTY_7X6 = "trilobite::7/7/7/7/7/7"
EMPTY_12X6 = "trilobite:width=12,height=6,line=4:" + "/".join(["12"] * 6)


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory):
    import uvicorn

    port = free_port()
    app = make_app(tmp_path_factory.mktemp("analysis") / "games.db",
                   think_seconds=THINK_SECONDS)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)


def open_board(page, url, game_id):
    page.goto(f"{url}/play/trilobite?id={game_id}")
    expect(page.locator("#status-text")).not_to_have_text("Loading…")


def bottom_holes(page, cols):
    """Screen boxes of the bottom row's holes, one per column (the board is empty)."""
    holes = page.locator('circle[fill="var(--hole)"]')
    count = holes.count()
    return [holes.nth(count - cols + col).bounding_box() for col in range(cols)]


def assert_one_mark_per_column(page, marks, cols):
    """Each mark sits over its own column: centred within that column's holes, above the
    board."""
    holes = bottom_holes(page, cols)
    boxes = [marks.nth(i).bounding_box() for i in range(marks.count())]
    assert len(boxes) == cols
    for hole, box in zip(holes, sorted(boxes, key=lambda b: b["x"]), strict=True):
        centre = box["x"] + box["width"] / 2
        assert hole["x"] <= centre <= hole["x"] + hole["width"]
        assert box["y"] + box["height"] <= hole["y"]


@pytest.mark.parametrize("size", [(360, 640), (1920, 1080)])
def test_a_book_position_shows_every_columns_proven_score(browser, quick_server, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    open_board(page, quick_server, EMPTY_7X6)
    page.keyboard.press("y")
    expect(page.locator("#analysis")).to_have_text("Analysis: on (proven)", timeout=ANSWER_MS)
    scores = page.locator("[data-score]")
    expect(scores).to_have_count(7)
    assert_one_mark_per_column(page, scores, 7)
    values = [int(v) for v in scores.evaluate_all("ns => ns.map(n => n.dataset.score)")]
    # The empty board is in the shipped book: the centre wins, by the last stone.
    assert max(values) == values[3] > 0 and values.count(values[3]) == 1
    screenshot(page, f"trilobite-analysis-book-{size[0]}x{size[1]}")
    # After a move the scores are asked again, for the other side.
    page.keyboard.press("4")
    expect(page.locator("[data-stone]")).to_have_count(1)
    expect(page.locator("#analysis")).to_have_text("Analysis: on (proven)", timeout=ANSWER_MS)
    expect(page.locator("[data-score]")).to_have_count(7)
    after = [int(v) for v in page.locator("[data-score]").evaluate_all(
        "ns => ns.map(n => n.dataset.score)")]
    assert max(after) == -values[3]  # the best reply loses as late as the centre won
    context.close()


@pytest.mark.parametrize("size", [(360, 640), (1920, 1080)])
def test_a_board_too_big_to_solve_says_best_found_and_marks_each_column(browser,
                                                                        quick_server, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_board(page, quick_server, EMPTY_12X6)
    page.keyboard.press("y")
    expect(page.locator(".analysis-note")).to_have_text("analysing…")
    button = page.locator("#analysis")
    expect(button).to_contain_text("best found in", timeout=ANSWER_MS)
    expect(button).to_contain_text("? not solved")
    unknown = page.locator("[data-unknown]")
    expect(unknown).to_have_count(12)
    expect(page.locator("[data-score]")).to_have_count(0)
    assert_one_mark_per_column(page, unknown, 12)
    screenshot(page, f"trilobite-analysis-best-found-{size[0]}x{size[1]}")
    page.keyboard.press("y")
    expect(unknown).to_have_count(0)
    expect(button).to_have_text("Analysis: off")
    assert not errors, errors
    context.close()


def test_a_refused_analysis_says_the_servers_reason_not_a_verdict(page, quick_server):
    """A busy server (429) is not "not solved": the page shows the server's own reason."""
    reason = "you already have 2 computations running or waiting: let one finish first"
    page.route("**/analysis", lambda route: route.fulfill(
        status=429, json={"error": reason}, headers={"Retry-After": "2"}))
    open_board(page, quick_server, EMPTY_7X6)
    page.keyboard.press("y")
    expect(page.locator(".analysis-note")).to_have_text(reason)
    expect(page.locator("#analysis")).to_have_text("Analysis: on")
    expect(page.locator("[data-score], [data-unknown]")).to_have_count(0)
