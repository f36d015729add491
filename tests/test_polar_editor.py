"""The level editor's API (docs/api.md, "Level editor"): a draft checked by the server, the
one place that says what a level needs; a made level as a level file in each format, which
reads back to the same board where `gridgames serve --levels` and `gridgames polar verify`
read it; and bad input answered 400 with the reason, never 500."""

import io
from concurrent.futures import Future

import pytest
from fastapi.testclient import TestClient

from gridgames.cli import main
from gridgames.core.result import NONE, PROVEN, Result
from gridgames.games.polar.board import COLS, HEART, HOUSE, MOUNTAIN, TREE
from gridgames.games.polar.packs import PolarPacks, builtin_pack, load_levels
from gridgames.web.app import create_app
from gridgames.web.config import ServerConfig
from tests.conftest import make_app

API = "/api/v1/games/polar/levels"
# The penguin at row 1, column 0; a heart two cells right of it and a house three beyond:
# one push (R, R) brings the heart home.
ROWS = ["........................", "P.+..H..................",
        "........................", "........................"]
DESC = "/".join(ROWS)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("editor") / "games.db")
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def draft(cells=None, penguin=None, **changes):
    cells = cells or [0] * (4 * COLS)
    for cell, tile in changes.get("tiles", {}).items():
        cells[cell] = tile
    return {"draft": {"cells": cells, "penguin": penguin}}


def check(client, body):
    answer = client.post(f"{API}/draft", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_an_empty_board_says_what_a_level_needs(client):
    found = check(client, draft())
    assert found["problems"] == ["No penguin: place one", "No heart: place at least one",
                                 "No house: place at least one for the hearts to go home to"]
    assert found["desc"] is None and found["id"] is None and found["start"] is None
    assert found["formats"] == ["pack", "stge", "stge-hex"]


def test_each_missing_object_is_named_alone(client):
    heart, house = COLS + 2, COLS + 5
    assert check(client, draft(penguin=COLS, tiles={house: HOUSE}))["problems"] == \
        ["No heart: place at least one"]
    assert check(client, draft(penguin=COLS, tiles={heart: HEART}))["problems"] == \
        ["No house: place at least one for the hearts to go home to"]
    assert check(client, draft(tiles={heart: HEART, house: HOUSE}))["problems"] == \
        ["No penguin: place one"]
    on_mountain = draft(penguin=0, tiles={0: MOUNTAIN, heart: HEART, house: HOUSE})
    assert check(client, on_mountain)["problems"] == \
        ["The penguin is on a mountain: it starts on empty ice or on a tree"]


def test_a_level_gets_its_desc_id_and_start(client):
    found = check(client, draft(penguin=COLS, tiles={COLS + 2: HEART, COLS + 5: HOUSE}))
    assert found["problems"] == [] and found["desc"] == DESC
    assert found["id"] == f"polar::{DESC}"
    assert found["start"]["kind"] == "ongoing" and not found["start"]["over"]
    # More hearts than houses is a level: a heart that goes home leaves the house free.
    two = check(client, draft(penguin=0, tiles={0: TREE, 3: HEART, 5: HEART, 9: HOUSE}))
    assert two["problems"] == [] and two["desc"].startswith("p..+.+...H")


def test_a_lost_start_is_said_at_once(client):
    # A heart on the top row with no house in its line can never come home.
    found = check(client, draft(penguin=COLS, tiles={2: HEART, COLS + 5: HOUSE}))
    assert found["problems"] == [] and found["start"]["over"]
    assert "can no longer reach a house" in found["start"]["message"]


def test_a_built_in_level_is_read_from_its_desc(client):
    level = builtin_pack("original")[3]
    found = check(client, {"draft": {"desc": level.desc()}})
    assert found["cells"] == list(level.board) and found["penguin"] == level.penguin
    assert found["desc"] == level.desc()
    listed = client.get("/api/v1/games/polar/levels").json()
    assert listed[1]["levels"][3]["desc"] == level.desc()


@pytest.mark.parametrize("fmt", ["pack", "stge", "stge-hex"])
def test_a_level_file_reads_back_to_the_same_board(client, tmp_path, fmt):
    answer = client.get(f"{API}/file", params={"desc": DESC, "format": fmt, "name": "Two steps"})
    assert answer.status_code == 200, answer.text
    name = answer.headers["content-disposition"].split('filename="')[1].rstrip('"')
    assert name == ("two-steps.stge" if fmt == "stge" else "two-steps.txt")
    path = tmp_path / name
    path.write_bytes(answer.content)
    [level] = load_levels(path)
    assert level.desc() == DESC
    assert level.name == ("Two steps" if fmt == "pack" else "two-steps")
    # What `gridgames serve --levels FILE` adds: the default pack's next level.
    assert PolarPacks().adding(str(path)).pack("gridgames")[-1].desc() == DESC
    out = io.StringIO()
    assert main(["polar", "verify", "--levels", str(path), "--level", "1", "RR"], out) == 0
    assert "solved in 2 moves, 1 pushes" in out.getvalue()


def test_a_pack_file_is_the_pack_format(client):
    answer = client.get(f"{API}/file", params={"desc": DESC})
    assert answer.headers["content-type"].startswith("text/plain")
    assert answer.text == "level: My level\n" + "\n".join(ROWS) + "\n"


@pytest.mark.parametrize("params, words", [
    ({"desc": DESC.replace("H", ".")}, "No house"),
    ({"desc": DESC.replace("P", ".")}, "one penguin"),
    ({"desc": DESC.replace("+", ".")}, "at least one heart"),
    ({"desc": "xyz"}, "4 rows"),
    ({"desc": DESC, "format": "zip"}, "format must be one of pack, stge, stge-hex"),
    ({"desc": DESC, "name": "a # b"}, "name: up to 60"),
    ({"desc": DESC, "name": "   "}, "name: up to 60"),
    ({"desc": DESC, "name": "x" * 101}, "name"),
    ({}, "desc"),
    ({"desc": "a\x00b"}, "desc contains a NUL character"),
])
def test_a_file_of_a_bad_level_is_refused_with_the_reason(client, params, words):
    answer = client.get(f"{API}/file", params=params)
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["error"]


@pytest.mark.parametrize("body, words", [
    ({"draft": []}, "draft"),
    ({"draft": {}}, "draft: give cells"),
    ({"draft": {"cells": [0] * 95}}, "cells: a list of 96"),
    ({"draft": {"cells": [7] * 96}}, "tile code from 0 to 6"),
    ({"draft": {"cells": [True] * 96}}, "tile code"),
    ({"draft": {"cells": ["0"] * 96}}, "tile code"),
    ({"draft": {"cells": [0] * 96, "penguin": 96}}, "penguin: a cell from 0 to 95"),
    ({"draft": {"cells": [0] * 96, "penguin": "1"}}, "penguin"),
    ({"draft": {"cells": [0] * 96, "extra": 1}}, "draft: give cells"),
    ({"draft": {"desc": DESC, "cells": []}}, "a desc comes alone"),
    ({"draft": {"desc": 5}}, "desc must be a string"),
    ({"draft": {"desc": "a\x00b"}}, "desc contains a NUL character"),
    ({"draft": {"desc": DESC[:-1]}}, "row 4 has 23 cells"),
    ({}, "draft"),
    ({"cells": [0] * 96}, ""),
])
def test_a_bad_draft_is_refused_with_the_reason(client, body, words):
    answer = client.post(f"{API}/draft", json=body)
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["error"]


def test_only_a_game_with_an_editor_has_one(client):
    for path in ["/api/v1/games/tictactoe/levels/draft", "/api/v1/games/nosuch/levels/draft"]:
        assert client.post(path, json=draft()).status_code == 404
    assert client.get("/api/v1/games/ishido/levels/file", params={"desc": DESC}
                      ).status_code == 404
    assert client.get("/play/polar/edit").status_code == 200
    assert client.get("/play/tictactoe/edit").status_code == 404
    assert client.get("/play/nosuch/edit").status_code == 404
    assert client.get("/games/polar/polar-edit.js").status_code == 200


class AnswerOnly:
    """A compute pool that answers every job with one result at once: the solution API's
    words for a level without a solution, whatever the solver."""

    def __init__(self, found):
        self.found = found

    def submit(self, job, client, key, seconds):
        future = Future()
        future.set_result((self.found, "[]"))
        return future

    def busy(self, key):
        return False

    def close(self):
        pass


@pytest.mark.parametrize("found, proven", [
    (Result(None, PROVEN, 0.5, 10, "no solution from here: undo or restart"), True),
    (Result(None, NONE, 20.0, 10**6, "no solution found within the budget"), False),
])
def test_no_solution_says_whether_it_is_proven(tmp_path, found, proven):
    """The editor tells "proven unwinnable" from "not shown winnable within the budget" by
    the result the 400 carries, not by its words."""
    config = ServerConfig(db=str(tmp_path / "games.db"), access_log=False)
    with TestClient(create_app(config, compute=AnswerOnly(found))) as client:
        session = client.post("/api/v1/sessions", json={"id": f"polar::{DESC}"}).json()
        answer = client.get(f"/api/v1/sessions/{session['session']}/solution")
    assert answer.status_code == 400
    assert answer.json()["result"]["proven"] is proven
    assert answer.json()["result"]["seconds"] == found.seconds
    assert answer.json()["error"] == ("no solution from here: undo or restart" if proven
                                      else "no solution found within 20.0 s")
