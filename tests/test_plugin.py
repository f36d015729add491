"""Games are plugins: the two example games outside the package (examples/lightsout, a
puzzle, and examples/dotsandboxes, a two-player game), installed together into a throwaway
virtual environment, are listed, play from the command line, pass the conformance suite and
the environment checks (Gymnasium's for the puzzle, PettingZoo's for the two-player game),
play in the browser to the end with their own stylesheets, and Dots and Boxes plays online
between two seats to the end: with no change to gridgames.

The throwaway environment sees the test environment's packages (gridgames and its
dependencies) through a .pth file, and the plugins are installed into it alone, so the
shared environment the other test workers use never sees them. One environment, one server
and the session's one browser serve both plugins.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import free_port, screenshot

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = {"lightsout": ROOT / "examples" / "lightsout",
           "dotsandboxes": ROOT / "examples" / "dotsandboxes"}
# One worker runs the module, so the plugins' environment is made once (`--dist loadgroup`,
# as `make test` runs).
pytestmark = pytest.mark.xdist_group("plugin")

# A 2x2 Dots and Boxes game, each line the first legal one: Blue takes the top two boxes
# (moves 6 and 7, drawing again after each), Red the bottom two (moves 11 and 12): a draw.
DOTS_GAME = ["a1-b1", "b1-c1", "a1-a2", "b1-b2", "c1-c2", "a2-b2", "b2-c2", "a2-a3",
             "b2-b3", "c2-c3", "a3-b3", "b3-c3"]
DOTS_START = "dotsandboxes:rows=2,cols=2:00/000/00/000/00"


@pytest.fixture(scope="module")
def plugin_python(tmp_path_factory) -> Path:
    """The python of a fresh virtual environment with both plugins installed in it."""
    venv = tmp_path_factory.mktemp("plugin-venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    shared = sysconfig.get_paths()["purelib"]  # this environment: gridgames, pip, pytest...
    (site / "_gridgames_test_env.pth").write_text(f"import site; site.addsitedir({shared!r})\n")
    editable = [arg for path in PLUGINS.values() for arg in ("-e", str(path))]
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", *editable],
                   check=True)
    return python


def run(python: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-m", "gridgames", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_the_shared_environment_does_not_have_the_plugins():
    from gridgames.registry import default_games

    assert not set(PLUGINS) & set(default_games())


def test_the_plugin_sources_are_outside_the_package():
    for name, folder in PLUGINS.items():
        assert not (ROOT / "src" / "gridgames" / "games" / name).exists()
        assert name not in (ROOT / "pyproject.toml").read_text()
        package = folder / "src" / f"gridgames_{name}"
        assert (package / f"{name}.js").is_file() and (package / f"{name}.css").is_file()


def test_the_plugins_keep_the_renderer_and_stylesheet_contracts():
    """What the front end's tests hold the built-ins to (docs/adding-a-game.md, section 5),
    read the same way for both examples: the board has every member the page calls, and
    every rule of the stylesheet is scoped to its game."""
    from tests.test_web_renderer_contract import REQUIRED
    from tests.test_web_stylesheets import selectors

    for name, folder in PLUGINS.items():
        package = folder / "src" / f"gridgames_{name}"
        js = (package / f"{name}.js").read_text(encoding="utf-8")
        assert re.search(r"^export function createBoard\b", js, re.M), name
        assert re.search(r"^export function drawPreview\b", js, re.M), name
        board = js[js.rindex("\n  return {"):]  # the board object createBoard returns
        for member in REQUIRED:
            assert re.search(rf"^\s+(get )?{member}\b", board, re.M), f"{name}: no {member}"
        found = selectors((package / f"{name}.css").read_text(encoding="utf-8"))
        assert found and all(f'[data-game="{name}"]' in sel for sel in found), (name, found)


@pytest.mark.slow
def test_listed_and_played_from_the_command_line(plugin_python):
    listed = run(plugin_python, "list")
    assert listed.returncode == 0, listed.stderr
    assert "lightsout" in listed.stdout and "size=5 (3..9)" in listed.stdout
    assert "dotsandboxes" in listed.stdout and "rows=3 (2..8)" in listed.stdout
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
    # Dots and Boxes: the whole game, each box with its owner's initial, and a line that
    # joins no two neighbouring dots refused with the way lines are written.
    dots = run(plugin_python, "show", DOTS_START, "--moves", " ".join(DOTS_GAME))
    assert dots.returncode == 0, dots.stderr
    assert "| B | B |" in dots.stdout and "| R | R |" in dots.stdout
    assert "It's a draw, 2 boxes each" in dots.stdout
    wrong = run(plugin_python, "show", DOTS_START, "--moves", "a1-c1")
    assert wrong.returncode == 2 and "like a1-b1" in wrong.stderr


@pytest.mark.slow
def test_the_conformance_suite_runs_on_both(plugin_python):
    result = subprocess.run(
        [str(plugin_python), "-m", "pytest", str(ROOT / "tests" / "test_conformance.py"),
         "-k", " or ".join(PLUGINS), "-v", "-p", "no:cacheprovider", "-p", "no:randomly"],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]
    passed = [line for line in result.stdout.splitlines() if " PASSED" in line]
    for name in PLUGINS:
        # Every test of the suite, for each sample: a plugin that did not load would have
        # none (the registry logs it and goes on), and the run would still pass.
        ran = sum(f"[{name}[" in line for line in passed)
        assert ran >= 20, (name, ran, result.stdout[-1500:])


# Run in the plugins' environment: Gymnasium's checker on Lights Out, PettingZoo's API test
# on Dots and Boxes (and Gymnasium's on it against its AI), then whole random games of Dots
# and Boxes through the environment, the rewards checked against the engine's result.
ENV_CHECKS = """
import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test
from gridgames.envs import VsAiEnv, {puzzle_env}, {two_player_env}

lights = {puzzle_env}("lightsout", "size=3")
check_env(lights, skip_render_check=True)
observation, info = lights.reset(seed=1)
assert info["action_mask"].sum() == 9, info

api_test({two_player_env}("dotsandboxes", "rows=2,cols=3"), num_cycles=200)
# Against its own AI as a one-agent environment: the AI's lines, taken boxes and all, happen
# inside step.
check_env(VsAiEnv("dotsandboxes", "rows=2,cols=2", level="careful", seat=1),
          skip_render_check=True)

env = {two_player_env}("dotsandboxes", "rows=2,cols=2")
rng = np.random.default_rng(7)
outcomes = set()
for episode in range(20):
    env.reset(seed=episode)
    movers, rewards = [], {{agent: 0 for agent in env.possible_agents}}
    for agent in env.agent_iter():
        observation, reward, done, truncated, info = env.last()
        rewards[agent] += reward
        if done or truncated:
            env.step(None)
            continue
        movers.append(agent)
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert len(movers) == 12, movers  # every line, none refused
    status = env.game.status(env.state)
    red, blue = rewards["player_0"], rewards["player_1"]
    expected = (0, 0) if status.winner is None else (1, -1) if status.winner == 0 else (-1, 1)
    assert (red, blue) == expected, (status, red, blue)
    outcomes.add(status.outcome)
    # A box taken means the same player again: somewhere one agent moved twice in a row.
    assert any(a == b for a, b in zip(movers, movers[1:])), movers
print("checked", sorted(outcomes))
"""


@pytest.mark.slow
def test_the_environment_checks_pass(plugin_python):
    script = ENV_CHECKS.format(puzzle_env="PuzzleEnv", two_player_env="TwoPlayerEnv")
    result = subprocess.run([str(plugin_python), "-c", script], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "checked" in result.stdout


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
                raise RuntimeError("the plugins' server did not start") from None
            time.sleep(0.2)
    yield url
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


@pytest.mark.browser
def test_lightsout_played_in_the_browser_to_the_end(plugin_server, page):
    page.goto(f"{plugin_server}/play/lightsout?id=lightsout:size%3D3:010/111/010")
    expect(page.locator("#title")).to_have_text("Lights Out")
    expect(page.locator("[data-on='1']")).to_have_count(5)
    # The lamps' colours come from the plugin's own stylesheet (lightsout.css): unstyled, an
    # SVG rect is black.
    assert page.locator("[data-on='1'] rect").first.evaluate(
        "lamp => getComputedStyle(lamp).fill") == "rgb(238, 221, 136)"
    page.locator("#hint").click()  # the hint marks a cell of a fewest-press solution
    # (the server's compute worker may still be loading every game's searches: under load
    # that took more than the default 5 s)
    expect(page.locator("[data-hint]")).to_have_count(1, timeout=30000)
    assert page.locator("[data-hint]").get_attribute("data-hint") == "b2"
    page.locator("[data-cell='4']").click()
    expect(page.locator("#status-text")).to_have_text("All lights out in 1 press!")
    expect(page.locator("#gameover")).to_be_visible()
    screenshot(page, "plugin-lightsout-won")
    page.goto(plugin_server + "/")
    expect(page.locator(".card[data-game='lightsout'] svg")).to_be_visible(timeout=15000)


def stroke(page, move: str) -> str:
    return page.locator(f"[data-move='{move}'] .dab-stroke").evaluate(
        "line => getComputedStyle(line).stroke")


@pytest.mark.browser
def test_dotsandboxes_played_in_the_browser_to_the_end(plugin_server, page):
    page.goto(f"{plugin_server}/play/dotsandboxes?id={DOTS_START.replace('=', '%3D')}"
              "&seats=person,person")
    expect(page.locator("#title")).to_have_text("Dots and Boxes")
    expect(page.locator("#status-text")).to_have_text("It's Red's turn · Red 0 – Blue 0")
    expect(page.locator(".dab-legal")).to_have_count(12)
    # The first line with the keyboard: the cursor starts on the top-left line.
    page.keyboard.press("ArrowRight")
    expect(page.locator(".dab-cursor")).to_have_attribute("data-move", "a1-b1")
    page.keyboard.press("Enter")
    expect(page.locator("[data-move='a1-b1']")).to_have_attribute("data-by", "0")
    # The hint: the careful level's line for Blue (its tie broken by the position), marked on
    # the board; the next click is on that marked line, which must still take the pointer.
    page.locator("#hint").click()
    expect(page.locator("[data-hint].dab-legal")).to_have_attribute("data-hint", "b1-c1")
    for count, move in enumerate(DOTS_GAME[1:], 2):
        page.locator(f"[data-move='{move}']").click()
        expect(page.locator("[data-by]")).to_have_count(count)
        if move == "a2-b2":  # Blue's line closed the top-left box: Blue draws again
            expect(page.locator("#status-text")).to_have_text(
                "Blue took a box: Blue draws again · Red 0 – Blue 1")
            expect(page.locator("[data-box='0']")).to_have_attribute("data-owner", "1")
            expect(page.locator("[data-box='0'] text")).to_have_text("B")
            # The plugin's own stylesheet is served and applied: its Blue is the palette's
            # blue (the page's own second colour is yellow), and an undrawn line is dashed.
            assert stroke(page, "a2-b2") == "rgb(68, 119, 170)"
            assert stroke(page, "a1-b1") == "rgb(238, 102, 119)"
            assert page.locator("[data-move='b2-c2'] .dab-stroke").evaluate(
                "line => getComputedStyle(line).strokeDasharray") != "none"
    expect(page.locator("#status-text")).to_have_text("It's a draw, 2 boxes each")
    expect(page.locator("#gameover")).to_be_visible()
    expect(page.locator("[data-owner='0']")).to_have_count(2)
    expect(page.locator(".dab-legal")).to_have_count(0)
    screenshot(page, "plugin-dotsandboxes-draw")
    page.goto(plugin_server + "/")
    expect(page.locator(".card[data-game='dotsandboxes'] svg")).to_be_visible(timeout=15000)


def call(url: str, method: str = "GET", body: dict | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@pytest.mark.slow
@pytest.mark.browser
def test_dotsandboxes_played_online_to_the_end(plugin_server, page):
    """Two seats through their secret links: Blue through the API, Red's last two lines on
    its link's page. The server follows the rules' turn (a box taken, the same seat again)
    and refuses the other seat."""
    api = plugin_server + "/api/v1"
    status, made = call(f"{api}/sessions", "POST", {"id": DOTS_START})
    assert status == 201, made
    status, online = call(f"{api}/sessions/{made['session']}/online", "POST", {"seat": 0})
    assert status == 200, online
    seats = [online["links"][key].split("link=")[1] for key in ("you", "opponent")]
    watch = online["links"]["watch"].split("link=")[1]
    movers = []
    for move in DOTS_GAME[:10]:
        _, seen = call(f"{api}/links/{seats[0]}")
        seat = seen["to_move"]
        assert seen["legal_moves"][0] == move  # the scripted game is the first legal lines
        refused, said = call(f"{api}/links/{seats[1 - seat]}/move", "POST", {"move": move})
        assert refused == 409, said
        status, played = call(f"{api}/links/{seats[seat]}/move", "POST", {"move": move})
        assert status == 200, played
        movers.append(seat)
    assert movers == [0, 1, 0, 1, 0, 1, 1, 1, 0, 1]  # Blue drew again after each box
    # Red's page, from its link: Red takes a box and, drawing again, the last one.
    page.goto(plugin_server + online["links"]["you"])
    expect(page.locator("#online")).to_contain_text("You play Red")
    expect(page.locator("#status-text")).to_have_text("It's Red's turn · Red 0 – Blue 2")
    page.locator("[data-move='a3-b3']").click()
    expect(page.locator("#status-text")).to_have_text(
        "Red took a box: Red draws again · Red 1 – Blue 2")
    page.locator("[data-move='b3-c3']").click()
    expect(page.locator("#status-text")).to_have_text("It's a draw, 2 boxes each")
    screenshot(page, "plugin-dotsandboxes-online")
    for token in (*seats, watch):
        _, final = call(f"{api}/links/{token}")
        assert final["status"]["kind"] == "draw" and final["legal_moves"] == []
        assert final["status"]["message"] == "It's a draw, 2 boxes each"
        assert final["moves"] == DOTS_GAME


# --- Dots and Boxes' own rules, read from its source folder: importing the package does not
# register it (only an installed entry point does), so the shared registry stays as it is.

@pytest.fixture(scope="module")
def dots():
    source = str(PLUGINS["dotsandboxes"] / "src")
    sys.path.insert(0, source)
    try:
        from gridgames_dotsandboxes import make_game

        yield make_game()
    finally:
        sys.path.remove(source)


def dots_after(game, moves, params="rows=2,cols=2"):
    from gridgames.core.rng import Rng

    p = game.parse_params(params)
    state = game.new_state(p, game.new_desc(p, Rng("start")))
    for move in moves:
        state = game.apply(state, move)
    return state


def test_dots_a_box_taken_scores_and_its_player_draws_again(dots):
    state = dots_after(dots, DOTS_GAME[:5])
    assert dots.current_player(state) == 1
    state = dots.apply(state, "a2-b2")  # the top-left box's fourth side
    assert state.boxes[0] == 1 and dots.current_player(state) == 1
    assert dots.status(state).message == "Blue took a box: Blue draws again · Red 0 – Blue 1"
    state = dots.apply(state, "a2-a3")  # closes nothing: the turn passes
    assert dots.current_player(state) == 0
    # One line that is the fourth side of two boxes takes both.
    two = dots_after(dots, ["a1-b1", "b1-c1", "a1-a2", "c1-c2", "a2-b2", "b2-c2", "b1-b2"])
    assert two.boxes[:2] == (0, 0) and dots.current_player(two) == 0


def test_dots_the_end_and_refusals(dots):
    from gridgames.core.errors import BadInput, IllegalMove

    end = dots_after(dots, DOTS_GAME)
    status = dots.status(end)
    assert status.outcome == "draw" and status.winner is None and dots.legal_moves(end) == []
    assert dots.current_player(end) is None
    state = dots_after(dots, ["a1-b1"])
    for move, why in (("a1-b1", "already drawn"), ("b1-a1", "top or left first"),
                      ("a1-b2", "not a line"), ("a1-a4", "not a line")):
        with pytest.raises(IllegalMove, match=why):
            dots.apply(state, move)
    p = dots.parse_params("rows=2,cols=2")
    with pytest.raises(BadInput, match="no complete box"):
        dots.new_state(p, "10/110/10/000/00")  # the top-left box drawn whole
    with pytest.raises(BadInput, match="rows of digits"):
        dots.new_state(p, "00/000/00/000")


def test_dots_lines_are_the_edges_of_the_boxes_grid(dots):
    """The envelope's places: the lines are exactly the boxes' grid's edges, the border's
    included, each named once."""
    from gridgames.core.envelope import all_edges
    from gridgames.core.grid import Grid

    state = dots_after(dots, [], "rows=2,cols=3")
    actions = dots.view(state)["actions"]
    assert [a["move"] for a in actions] == dots.legal_moves(state)
    edges = [tuple(a["edge"]) for a in actions]
    assert sorted(edges) == sorted((e.cell, e.side) for e in all_edges(Grid(2, 3)))
    assert {"move": "a1-b1", "edge": [0, "N"]} in actions
    assert {"move": "d2-d3", "edge": [5, "E"]} in actions  # the right border, bottom row
    assert {"move": "b3-c3", "edge": [4, "S"]} in actions  # the bottom border


def test_dots_ai_takes_a_box_and_does_not_give_one(dots):
    from gridgames.core.result import BEST_FOUND, Budget
    from gridgames.core.rng import Rng

    budget = Budget(nodes=1000)
    offered = dots_after(dots, DOTS_GAME[:5])  # Blue to move; a2-b2 takes a box
    for level in ("greedy", "careful"):
        found = dots.ai.choose(offered, level, Rng("t"), budget)
        assert found.value == "a2-b2" and found.status == BEST_FOUND and found.note
    # The top-right box has no side drawn and the three others two each: only its top and
    # right sides give no box a third side, and the careful level draws one of them.
    quiet = dots_after(dots, ["a1-b1", "c2-c3", "a1-a2", "b3-c3", "a2-a3", "a3-b3"])
    picked = {dots.ai.choose(quiet, "careful", Rng(str(seed)), budget).value
              for seed in range(20)}
    assert picked == {"b1-c1", "c1-c2"}
