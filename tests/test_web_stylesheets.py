"""Each renderer's stylesheet: served beside its module, scoped to its game; and the page's
shared stylesheets name no game (docs/adding-a-game.md, "Its stylesheet")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gridgames.registry import Games, default_games
from gridgames.web.app import create_app
from gridgames.web.config import ServerConfig

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "gridgames" / "web" / "static"
LIGHTSOUT = ROOT / "examples" / "lightsout" / "src"
GAMES = default_games()


def game_stylesheets() -> dict[str, Path]:
    """name -> stylesheet, for every built-in game that has one and for the example plugin."""
    found = {name: ROOT / "src" / "gridgames" / "games" / name / f"{name}.css" for name in GAMES}
    found["lightsout"] = LIGHTSOUT / "gridgames_lightsout" / "lightsout.css"
    return {name: path for name, path in found.items() if path.exists()}


def selectors(css: str) -> list[str]:
    """Every selector of every rule (each part of a selector list on its own)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found = []
    for head in re.findall(r"([^{}]+)\{[^{}]*\}", css):
        if head.strip().startswith("@"):
            continue
        found += [" ".join(part.split()) for part in head.split(",")]
    return found


def shared_css() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((STATIC / "css").glob("*.css")))


def test_the_shared_stylesheets_name_no_game():
    css = shared_css().lower()
    for name, game in GAMES.items():
        for word in {name, game.title.lower()}:
            assert not re.search(rf"\b{re.escape(word)}\b", css), f"static/css names {word}"
    assert "data-game" not in css


def test_the_shared_stylesheets_style_only_what_the_page_draws():
    """A class the shared CSS styles appears in the page's own HTML or modules: a class only
    a game's renderer draws belongs in that game's stylesheet."""
    page = "\n".join(p.read_text(encoding="utf-8")
                     for p in [*STATIC.glob("*.html"), *(STATIC / "js").glob("*.js")])
    words = set(re.findall(r"[\w-]+", page))
    classes = {c for s in selectors(shared_css()) for c in re.findall(r"\.([A-Za-z][\w-]*)", s)}
    assert classes, "no class read from static/css"
    strays = sorted(classes - words)
    assert not strays, f"static/css styles classes the page never draws: {strays}"


def test_every_game_stylesheet_is_scoped_to_its_game():
    sheets = game_stylesheets()
    assert {"polar", "ishido", "twomino", "tictactoe", "lightsout"} <= set(sheets)
    for name, path in sheets.items():
        found = selectors(path.read_text(encoding="utf-8"))
        assert found, f"{path.name}: no rule read"
        for selector in found:
            assert f'[data-game="{name}"]' in selector, f"{path.name}: {selector!r} is not scoped"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """The app with the built-in games and the example plugin, imported from its folder."""
    import sys

    sys.path.insert(0, str(LIGHTSOUT))
    try:
        from gridgames_lightsout import make_game
    finally:
        sys.path.remove(str(LIGHTSOUT))
    games = Games([*GAMES.values(), make_game()])
    config = ServerConfig(db=str(tmp_path_factory.mktemp("css") / "games.db"), access_log=False)
    with TestClient(create_app(config, games=games)) as client:
        yield client


@pytest.mark.parametrize("name", ["polar", "lightsout"])
def test_a_game_stylesheet_is_served_beside_its_renderer(client, name):
    answer = client.get(f"/games/{name}/renderer.css")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/css")
    assert answer.text == game_stylesheets()[name].read_text(encoding="utf-8")


def test_a_game_without_a_stylesheet_gets_an_empty_one(client):
    assert "trilobite" not in game_stylesheets()
    answer = client.get("/games/trilobite/renderer.css")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/css")
    assert answer.text == ""


def test_an_unknown_game_has_no_stylesheet(client):
    assert client.get("/games/nosuchgame/renderer.css").status_code == 404


def test_a_renderer_module_is_served_beside_it(client):
    """A renderer imports its other modules by relative paths (Ishido's look)."""
    answer = client.get("/games/ishido/ishido-look.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert "export const PALETTES" in answer.text


@pytest.mark.parametrize("path", ["/games/ishido/nothing.js", "/games/ishido/Ishido-Look.js",
                                  "/games/ishido/..%2Fgame.js", "/games/ishido/.hidden.js",
                                  "/games/nosuchgame/ishido-look.js",
                                  "/games/ishido/" + "x" * 300 + ".js"])
def test_nothing_else_is_served_as_a_renderer_module(client, path):
    answer = client.get(path)
    assert answer.status_code == 404, path
    assert answer.headers["content-type"].startswith("application/json")


# --- in the browser: the page links each renderer's stylesheet and its rules apply ---

def linked_stylesheets(page) -> list[str]:
    return page.locator('head link[rel="stylesheet"]').evaluate_all(
        "links => links.map((l) => new URL(l.href).pathname)")


@pytest.mark.browser
def test_the_home_page_links_every_game_stylesheet(page, server_url):
    from playwright.sync_api import expect

    page.goto(server_url)
    expect(page.locator(".card")).to_have_count(len(GAMES))
    expect(page.locator('.card[data-game="polar"] .polar-ice')).to_have_count(1)
    linked = linked_stylesheets(page)
    for name in GAMES:
        assert linked.count(f"/games/{name}/renderer.css") == 1, linked
    # polar.css's ice, not the SVG default (black); read in one step, since the preview
    # redraws its board (a replaced element has no computed style)
    page.wait_for_function("""() => {
        const ice = document.querySelector('.card[data-game="polar"] .polar-ice');
        return ice !== null && getComputedStyle(ice).fill === "rgb(232, 244, 250)";
    }""", timeout=5000)


@pytest.mark.browser
def test_a_wide_board_gets_the_wide_layout_and_its_shape(page, server_url):
    from playwright.sync_api import expect

    page.goto(f"{server_url}/play/polar")
    expect(page.locator("body")).to_have_attribute("data-layout", "wide")
    assert "/games/polar/renderer.css" in linked_stylesheets(page)
    box = page.locator("#board-wrap").bounding_box()
    assert box["width"] / box["height"] == pytest.approx(6, rel=0.02)
    controls = page.locator("#controls").bounding_box()
    assert controls["y"] >= box["y"] + box["height"] - 1  # under the board, at 1100x760 too


@pytest.mark.browser
def test_other_boards_keep_the_page_layout(page, server_url):
    from playwright.sync_api import expect

    page.goto(f"{server_url}/play/trilobite")
    expect(page.locator("#board svg")).to_be_visible()
    assert page.locator("body").get_attribute("data-layout") is None
    assert "/games/trilobite/renderer.css" in linked_stylesheets(page)  # empty, and loaded
    board = page.locator("#board-wrap").bounding_box()
    controls = page.locator("#controls").bounding_box()
    assert controls["x"] >= board["x"] + board["width"] - 1  # beside the board
