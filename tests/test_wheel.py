"""A wheel built from the repository, installed in a clean virtual environment (with its
dependencies, from the package index), holds everything the app needs: the static files,
every game's renderer, the level packs, the API docs' assets, py.typed. The installed app
runs from a directory with no source tree in sight."""

from __future__ import annotations

import configparser
import json
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.conftest import free_port
from tests.servers import cpu_seconds

ROOT = Path(__file__).resolve().parents[1]
# One worker builds the wheel for both tests (`--dist loadgroup`, as `make test` runs).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Built from a copy of the project's files, so that no build directory is shared with
    another build running at the same time."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.nbi", "*.nbc"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w",
                    str(out), str(source)], check=True, timeout=600)
    (found,) = out.glob("gridgames-*.whl")
    return found


def test_the_wheel_holds_the_data_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("gridgames/py.typed", "gridgames/web/static/game.html",
                   "gridgames/web/static/docs.html", "gridgames/web/static/js/shell.js",
                   "gridgames/web/static/css/style.css", "gridgames/games/polar/polar.css",
                   "gridgames/games/polar/levels/gridgames.txt",
                   "gridgames/games/polar/levels/original.txt",
                   "gridgames/games/polar/levels/expert.txt",
                   "gridgames/games/polar/levels/README.md"):
        assert needed in names, needed
    games = wheel_games(wheel)
    assert games
    for game in games:
        assert f"gridgames/games/{game}/{game}.js" in names
    assert not [n for n in names if n.startswith(("tests/", "data/", "examples/"))]
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: MIT" in text and "Requires-Dist: fastapi" in text


def wheel_games(wheel: Path) -> list[str]:
    """The games the wheel declares in its `gridgames.games` entry points."""
    archive = zipfile.ZipFile(wheel)
    points = next(n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt"))
    parser = configparser.ConfigParser()
    parser.read_string(archive.read(points).decode())
    return list(parser["gridgames.games"])


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The bin directory of a clean virtual environment with the wheel installed. Our own pip
    installs into it (--python): the app needs no pip of its own, and ensurepip took 3 s;
    nor are the dependencies byte-compiled at install time (5 s; the app runs without)."""
    venv = tmp_path_factory.mktemp("clean-venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                    "install", "--quiet", "--no-compile", str(wheel)], check=True, timeout=900)
    return venv / "bin"


def test_the_installed_app_runs(wheel, installed, tmp_path):
    def gridgames(*args):
        return subprocess.run([str(installed / "gridgames"), *args], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)

    assert gridgames("--version").stdout.startswith("gridgames ")
    listed = gridgames("list")
    assert listed.returncode == 0 and "pack=gridgames (gridgames|original|expert)" in listed.stdout
    shown = gridgames("show", "polar:pack=expert,level=24#x")
    assert shown.returncode == 0, shown.stderr  # the expert pack's file is in the wheel
    shown = gridgames("show", "polar:pack=original,level=6#x", "--moves", "R")
    assert shown.returncode == 0, shown.stderr
    located = subprocess.run([str(installed / "python"), "-c",
                              "import gridgames; print(gridgames.__file__)"], cwd=tmp_path,
                             capture_output=True, text=True, check=True).stdout
    assert str(ROOT) not in located and "site-packages" in located

    port = free_port()
    # No compute workers: from a fresh install each would compile every kernel, tens of
    # seconds of CPU nothing here waits for (test_machine_time starts a warm server).
    server = subprocess.Popen([str(installed / "gridgames"), "serve", "--port", str(port),
                               "--no-browser", "--compute-on-demand"], cwd=tmp_path,
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/api/v1/games", timeout=2)
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "no server"
                time.sleep(0.3)
        for path in ("/", "/play/polar", "/docs", "/docs-assets/swagger-ui-bundle.js",
                     "/static/js/shell.js", "/api/v1/games/polar/levels",
                     "/games/polar/renderer.css",
                     *(f"/games/{g}/renderer.js" for g in wheel_games(wheel))):
            with urllib.request.urlopen(base + path, timeout=10) as answer:
                assert answer.status == 200, path
                assert answer.read(), path
        # A fresh install's first home page: its previews were prepared ahead, and take the
        # server well under 1 s of CPU.
        began, cpu = time.monotonic(), cpu_seconds(server.pid)
        for name in wheel_games(wheel):
            with urllib.request.urlopen(f"{base}/api/v1/games/{name}/demo", timeout=10) as answer:
                assert len(json.loads(answer.read())["views"]) > 3, name
        assert cpu_seconds(server.pid) - cpu < 0.5
        assert time.monotonic() - began < 10
    finally:
        server.terminate()
        server.wait(timeout=10)
