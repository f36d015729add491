"""Clocks of online games (web/clocks.py): a time for the whole game or for each move,
chosen in the seek; the server ends a game on time by itself, with no page open and after a
restart; a move that comes too late loses; games with a clock cannot be claimed. Time is
moved on by rewriting the stored clock, as if the player had thought that long."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient

from gridgames.web import clocks
from tests.conftest import make_app
from tests.test_lobby import API, SMALL, lobby, player, seek


def test_a_game_clock_counts_each_sides_thinking_and_a_move_clock_each_move():
    clock = clocks.start({"kind": "game", "seconds": 60}, now=1000.0)
    assert clocks.left(clock, 0, 0, 1010.0) == 50.0 and clocks.left(clock, 1, 0, 1010.0) == 60
    clocks.moved(clock, 0, 1010.0)
    assert clocks.deadline(clock, 1) == 1070.0
    clocks.moved(clock, 1, 1030.0)
    assert clock["left"] == [50.0, 40.0] and clocks.deadline(clock, 0) == 1080.0
    per_move = clocks.start({"kind": "move", "seconds": 30}, now=0.0)
    clocks.moved(per_move, 0, 29.0)
    assert clocks.deadline(per_move, 1) == 59.0
    assert clocks.view(clock, 0, 1040.0)["left"] == [40.0, 40.0]


@pytest.mark.parametrize("bad, said", [
    ({"kind": "blitz", "seconds": 60}, "kind"), ({"kind": "game", "seconds": 5}, "60 to"),
    ({"kind": "move", "seconds": 1.5}, "whole number"), ({"kind": "move"}, "a clock is"),
    ({"kind": "move", "seconds": True}, "whole number"), ("fast", "a clock is"),
    ({"kind": [], "seconds": 60}, "kind"), ({"kind": {}, "seconds": 60}, "kind")])
def test_a_malformed_clock_is_refused(bad, said):
    with pytest.raises(ValueError, match=said):
        clocks.check(bad)


def age(store, game_id, seconds):
    """As if the side to move had been thinking `seconds` longer."""
    record = store.load(game_id)
    record.extra["online"]["clock"]["since"] -= seconds
    with store.transaction() as cur:
        store._run(cur, "UPDATE games SET extra = ?, version = version + 1 WHERE id = ?",
                   (json.dumps(record.extra), game_id))
        store._run(cur, "UPDATE deadlines SET deadline = deadline - ? WHERE game_id = ?",
                   (seconds, game_id))


def clocked_game(client, clock, rated=True):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = seek(client, ann, seat="first", clock=clock, rated=rated)["seek"]
    assert made["clock"] == clock
    second = client.post(f"{API}/seeks/{made['id']}/accept", headers=bob).json()["link"]
    return lobby(client, ann)["paired"]["link"], second


def until_rated(client, token, seconds=5.0):
    """The game once it is over and its ratings are written."""
    deadline = time.monotonic() + seconds
    while "rating_after" not in (now := client.get(f"{API}/links/{token}").json())[
            "online"]["players"][0]:
        assert time.monotonic() < deadline, "the server did not end the game on time"
        time.sleep(0.1)
    return now


def test_the_server_ends_a_game_on_time_by_itself_and_after_a_restart(tmp_path):
    with TestClient(make_app(tmp_path / "games.db")) as client:
        store = client.app.state.rooms.store
        first, second = clocked_game(client, {"kind": "game", "seconds": 60})
        view = client.get(f"{API}/links/{first}").json()["online"]["clock"]
        assert view["kind"] == "game" and view["running"] == 0 and 59 < view["left"][0] <= 60
        assert client.post(f"{API}/links/{first}/move", json={"move": "3"}).status_code == 200
        game_id = store.link(first).game_id
        claim = client.post(f"{API}/links/{first}/claim")
        assert claim.status_code == 409 and "has a clock" in claim.json()["error"]
        # The server stops; Yellow's time runs out meanwhile; a new server process ends it.
    age(store_of(tmp_path), game_id, 61)
    with TestClient(make_app(tmp_path / "games.db")) as client:
        ended = until_rated(client, first)
        assert ended["status"]["message"] == "Red wins: Yellow ran out of time"
        assert ended["status"]["winner"] == 0 and ended["moves"] == ["3"]
        players = ended["online"]["players"]
        assert players[0]["rating_after"] > 1500 > players[1]["rating_after"]
        assert client.get(f"{API}/players/Ann").json()["ratings"][0]["games"] == 1
        with client.app.state.rooms.store.reading() as cur:
            assert cur.execute("SELECT COUNT(*) FROM deadlines").fetchone()[0] == 0


def store_of(tmp_path):
    from gridgames.store import open_store

    return open_store(str(tmp_path / "games.db"))


def test_a_move_after_the_time_ran_out_loses_on_time(tmp_path):
    with TestClient(make_app(tmp_path / "games.db")) as client:
        store = client.app.state.rooms.store
        first, second = clocked_game(client, {"kind": "move", "seconds": 10}, rated=False)
        client.post(f"{API}/links/{first}/move", json={"move": "1"})
        game_id = store.link(first).game_id
        record = store.load(game_id)
        record.extra["online"]["clock"]["since"] -= 11  # Yellow thought 11 s
        with store.transaction() as cur:  # the deadline is not moved: the sweeper waits
            store._run(cur, "UPDATE games SET extra = ?, version = version + 1 WHERE id = ?",
                       (json.dumps(record.extra), game_id))
        late = client.post(f"{API}/links/{second}/move", json={"move": "2"}).json()
        assert late["status"]["message"] == "Red wins: Yellow ran out of time"
        assert late["moves"] == ["1"] and late["online"]["clock"]["running"] is None


def test_a_seek_with_a_clock_pairs_only_with_the_same_clock(tmp_path):
    with TestClient(make_app(tmp_path / "games.db")) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        seek(client, ann, quick=True, clock={"kind": "game", "seconds": 300})
        assert seek(client, bob, quick=True)["paired"] is None
        paired = seek(client, bob, quick=True, clock={"kind": "game", "seconds": 300})
        assert paired["paired"] is not None
        bad = client.post(f"{API}/seeks", json={"game": "trilobite", "params": SMALL,
                                                "clock": {"kind": "game", "seconds": 1}},
                          headers=ann)
        assert bad.status_code == 400 and "60 to" in bad.json()["error"]
