"""Games are plugins: the example game outside the package (examples/lightsout), installed
into a throwaway virtual environment, is listed, plays from the command line and in the
browser, and passes the conformance suite, with no change to gridgames.

The throwaway environment sees the test environment's packages (gridgames and its
dependencies) through a .pth file, and the plugin is installed into it alone, so the shared
environment the other test workers use never sees the plugin.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import free_port, screenshot

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "examples" / "lightsout"
# One worker runs the module, so the plugin's environment is made once (`--dist loadgroup`,
# as `make test` runs).
pytestmark = pytest.mark.xdist_group("plugin")


@pytest.fixture(scope="module")
def plugin_python(tmp_path_factory) -> Path:
    """The python of a fresh virtual environment with the plugin installed in it."""
    venv = tmp_path_factory.mktemp("plugin-venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    shared = sysconfig.get_paths()["purelib"]  # this environment: gridgames, pip, pytest...
    (site / "_gridgames_test_env.pth").write_text(f"import site; site.addsitedir({shared!r})\n")
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps",
                    "-e", str(PLUGIN)], check=True)
    return python


def run(python: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-m", "gridgames", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_the_shared_environment_does_not_have_the_plugin():
    from gridgames.registry import default_games

    assert "lightsout" not in default_games()


@pytest.mark.slow
def test_listed_and_played_from_the_command_line(plugin_python):
    listed = run(plugin_python, "list")
    assert listed.returncode == 0 and "lightsout" in listed.stdout
    assert "size=5 (3..9)" in listed.stdout
    game_id = run(plugin_python, "new", "lightsout", "--params", "size=3", "--seed", "p")
    assert game_id.returncode == 0
    gid = game_id.stdout.strip()
    assert gid.startswith("lightsout:size=3:")
    # The centre cross lit: pressing b2 puts every light out.
    shown = run(plugin_python, "show", "lightsout:size=3:010/111/010", "--moves", "b2")
    assert shown.returncode == 0 and "All lights out in 1 press!" in shown.stdout
    # Terminal play: a hint, then the solution, then quit at the 'play again' prompt.
    played = run(plugin_python, "play", "lightsout", "--params", "size=3", stdin=(
        "hint\nb2\nquit\n"))
    assert played.returncode == 0 and "hint: " in played.stdout and "proven" in played.stdout
    bad = run(plugin_python, "show", "lightsout:size=3:010/111/010", "--moves", "z9")
    assert bad.returncode == 2 and "not a cell" in bad.stderr


@pytest.mark.slow
def test_the_conformance_suite_runs_on_it(plugin_python):
    result = subprocess.run(
        [str(plugin_python), "-m", "pytest", str(ROOT / "tests" / "test_conformance.py"),
         "-k", "lightsout", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]
    passed = int(result.stdout.strip().splitlines()[-1].split(" passed")[0].split()[-1])
    assert passed >= 20, result.stdout[-500:]  # every test of the suite, for each sample


@pytest.fixture(scope="module")
def plugin_server(plugin_python):
    port = free_port()
    server = subprocess.Popen([str(plugin_python), "-m", "gridgames", "serve", "--port",
                               str(port), "--no-browser"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(url + "/api/v1/games", timeout=2)
            break
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise RuntimeError("the plugin's server did not start") from None
            time.sleep(0.2)
    yield url
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


@pytest.mark.browser
def test_played_in_the_browser_to_the_end(plugin_server, page):
    page.goto(f"{plugin_server}/play/lightsout?id=lightsout:size%3D3:010/111/010")
    expect(page.locator("#title")).to_have_text("Lights Out")
    expect(page.locator("[data-on='1']")).to_have_count(5)
    page.locator("#hint").click()  # the hint marks a cell of a fewest-press solution
    expect(page.locator("[data-hint]")).to_have_count(1)
    assert page.locator("[data-hint]").get_attribute("data-hint") == "b2"
    page.locator("[data-cell='4']").click()
    expect(page.locator("#status-text")).to_have_text("All lights out in 1 press!")
    expect(page.locator("#gameover")).to_be_visible()
    screenshot(page, "plugin-lightsout-won")
    page.goto(plugin_server + "/")
    expect(page.locator(".card[data-game='lightsout'] svg")).to_be_visible(timeout=15000)


def test_the_plugin_source_is_outside_the_package():
    assert not (ROOT / "src" / "gridgames" / "games" / "lightsout").exists()
    assert "lightsout" not in (ROOT / "pyproject.toml").read_text()
    assert os.path.exists(PLUGIN / "src" / "gridgames_lightsout" / "lightsout.js")
