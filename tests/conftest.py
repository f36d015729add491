"""Shared fixtures: a live server for browser tests and a headless Chromium page.

Browser tests drive Debian's Chromium (/usr/bin/chromium) through Playwright; Playwright's own
browser download does not work here. Without Chromium they skip, except where
GRIDGAMES_REQUIRE_BROWSER is set (CI), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("GRIDGAMES_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
# The last two save a fifth of the browser's CPU over the suite (on two cores, where the
# browser took a third of it): pages share one renderer process rather than starting one for
# each test's context, and the compositor runs in the browser process.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--renderer-process-limit=1", "--in-process-gpu"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def pytest_configure(config):
    """No test writes to the user's own games database: unless a test names one, games go to
    a file of this run. The run's first process fills numba's cache (warm_compiled_kernels)."""
    import tempfile

    os.environ.setdefault("GRIDGAMES_DB", str(Path(tempfile.mkdtemp(prefix="gridgames-db-"))
                                              / "games.db"))
    if not hasattr(config, "workerinput"):  # not in a test worker: they start after this
        warm_compiled_kernels()


def warm_compiled_kernels() -> None:
    """The compiled kernels (numba) load from numba's disk cache, which `make test` fills
    after installing (`gridgames warm`); a run started otherwise on a fresh checkout would
    have each test worker and each compute worker compile them at once, 20 to 40 s of CPU
    each. With the cache there this only loads them (a few seconds). A failure leaves them
    to compile where a test needs them."""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "gridgames", "warm"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def pytest_collection_finish(session):
    """A test worker whose xdist_group marks have no effect stops the run: the modules
    that share a build (a wheel, a virtual environment, a book) would make it once per
    worker, and the suite would quietly take longer."""
    if not getattr(session.config.option, "loadgroup", False):  # not an xdist worker
        return
    lost = [item.nodeid for item in session.items
            if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
    if lost:
        raise pytest.UsageError(f"xdist_group is ignored by this pytest and pytest-xdist "
                                f"(pyproject.toml pins a pytest it works with): {lost[0]}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Marks a test whose body failed, for its fixtures' teardown (`page` keeps a
    screenshot of it)."""
    report = yield
    if report.when == "call" and report.failed:
        item.failed_call = True
    return report


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """The modules with slow tests first, then those with browser tests, then the rest, each
    module whole and in file order (its module fixtures are made once): the longest tests
    are shared out between the xdist workers from the start and a run ends on short ones,
    not with one worker still in a long test while the other waits."""

    def rank(item) -> int:
        if item.get_closest_marker("slow"):
            return 0
        return 1 if item.get_closest_marker("browser") else 2

    module_rank: dict[Path, int] = {}
    for item in items:
        module_rank[item.path] = min(module_rank.get(item.path, 2), rank(item))
    items.sort(key=lambda item: module_rank[item.path])


def make_app(path: Path, **settings):
    """The app over a real SQLite file at path; its compute workers start with its first job
    (most tests here never compute)."""
    from gridgames.web.app import create_app
    from gridgames.web.config import ServerConfig

    settings.setdefault("warm_compute", False)
    return create_app(ServerConfig(db=str(path), access_log=False, **settings))


def serve(path: Path, **settings):
    """A live server in a thread over a real SQLite file (a generator: its address, then it
    stops). `settings` are ServerConfig's, such as think_seconds."""
    import uvicorn

    from gridgames.web.protocols import uvicorn_options

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(make_app(path, **settings), host="127.0.0.1",
                                           port=port, log_level="warning",
                                           **uvicorn_options()))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def server_url(tmp_path_factory):
    yield from serve(tmp_path_factory.mktemp("server") / "games.db")


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        message = f"Chromium not found at {CHROMIUM} (run scripts/install-system-deps)"
        if os.environ.get("GRIDGAMES_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        # Each test's context would otherwise install the service worker, which fetches the
        # whole shell (about 100 files) in the background; its own tests allow it
        # (tests/test_web_app_install.py).
        new_context = chromium.new_context

        def without_worker(**options):
            options.setdefault("service_workers", "block")
            return new_context(**options)

        chromium.new_context = without_worker
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    if getattr(request.node, "failed_call", False):  # what the page showed when it failed
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-failed.png"))
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}


def context_pages(browser, *options):
    """A page in a context of its own for each options dict (a generator: the pages, then
    the contexts close); the test fails on any script error on any of them."""
    made = [browser.new_context(**o) for o in options]
    errors: list[str] = []
    pages = []
    for context in made:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        pages.append(page)
    yield pages
    for context in made:
        context.close()
    assert not errors, errors


def device_page(browser, options):
    """A page of a new context with these options; the test fails on any script error."""
    context = browser.new_context(**options, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture
def phone(browser):
    """A phone held upright (390x844, touch)."""
    yield from device_page(browser, PHONE)


@pytest.fixture
def desktop(browser):
    """A desktop window (1440x900, mouse and keys)."""
    yield from device_page(browser, DESKTOP)


# Screenshots for a person to look at, in test-artifacts/, with GRIDGAMES_SCREENSHOTS=1 (about
# 80 of them, 0.1 s of the browser's CPU each); a failed test's page is kept always.
SCREENSHOTS = bool(os.environ.get("GRIDGAMES_SCREENSHOTS"))


def screenshot(page, name: str) -> None:
    """test-artifacts/NAME.png (NAME may name a folder), when screenshots are asked for."""
    if SCREENSHOTS:
        path = ARTIFACTS / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path))


# --- a real PostgreSQL server for the tests that need one ---

IN_CI = bool(os.environ.get("CI") or os.environ.get("GRIDGAMES_REQUIRE_BROWSER"))


@pytest.fixture(scope="session")
def postgres_server():
    """A throwaway PostgreSQL cluster on a Unix socket, for this test run (one per test
    worker). Skips with the reason outside CI when PostgreSQL is not installed."""
    from tests.services import NoPostgres, throwaway_postgres

    try:
        with throwaway_postgres() as server:
            yield server
    except NoPostgres as err:
        if IN_CI:
            pytest.fail(str(err))
        pytest.skip(str(err))


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh, empty database on the test run's PostgreSQL server."""
    import secrets

    import psycopg

    name = "t_" + secrets.token_hex(6)
    yield postgres_server.create_database(name)
    with psycopg.connect(postgres_server.dsn("postgres"), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
