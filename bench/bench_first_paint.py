"""The first paint of each page, on a first and on a second visit, in headless Chromium
(Debian's) against a real server on this machine: the second visit's files come from the
service worker's copy of the shell (web/shell.py). Goal: under 300 ms on a second visit.

Prints, per page, the median over RUNS of the first contentful paint and of the time until
the board is drawn (the status line no longer says "Loading…"; the home page: the first
preview drawn), in ms.

Usage: python bench/bench_first_paint.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.servers import Server  # noqa: E402

from gridgames.registry import default_games  # noqa: E402

PAINT = """() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1"""


def visit(page, url: str, ready: str) -> tuple[float, float]:
    page.goto(url)
    page.wait_for_function(ready, timeout=30000)
    drawn = page.evaluate("performance.now()")
    return page.evaluate(PAINT), drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    pages = {"home": ("/", "() => document.querySelector('.card svg') !== null")}
    for name in default_games():
        pages[name] = (f"/play/{name}", "() => { const s = document.getElementById"
                       "('status-text'); return s && s.textContent !== 'Loading…'; }")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        server = Server(f"{folder}/games.db")
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            print(f"{'page':<10} {'first visit: paint, drawn (ms)':>31}  "
                  f"{'second visit: paint, drawn (ms)':>32}")
            for label, (path, ready) in pages.items():
                first, second = [], []
                for _ in range(args.runs):
                    context = browser.new_context(viewport={"width": 390, "height": 844})
                    page = context.new_page()
                    first.append(visit(page, server.base + path, ready))
                    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
                    second.append(visit(page, server.base + path, ready))
                    context.close()
                row = [statistics.median(v[i] for v in runs) for runs in (first, second)
                       for i in (0, 1)]
                print(f"{label:<10} {row[0]:>17.0f} {row[1]:>13.0f}  {row[2]:>18.0f} "
                      f"{row[3]:>13.0f}")
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
