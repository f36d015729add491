"""Players, the lobby and ratings through the API (web/lobby.py, web/lobby_api.py): seeks
accepted or paired start online games both players hold, a seek is paired once, ratings move
once a rated game, blocks and deletions hold, and every refusal is a clear 4xx that changes
nothing. On SQLite here; on PostgreSQL across two apps in test_lobby_postgres.py."""

from __future__ import annotations

import dataclasses
import time

import pytest
from fastapi.testclient import TestClient

from gridgames.store import NotFound
from gridgames.web.lobby import QUICK_STEP, UNSEEN_SECONDS
from tests.conftest import make_app

API = "/api/v1"
SMALL = "width=5,height=4,line=3"


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(tmp_path / "games.db")) as client:
        yield client


def player(client, name):
    made = client.post(f"{API}/players", json={"name": name})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['secret']}"}


def seek(client, who, **fields):
    answer = client.post(f"{API}/seeks", json={"game": "trilobite", "params": SMALL, **fields},
                         headers=who)
    assert answer.status_code == 201, answer.text
    return answer.json()


def lobby(client, who=None):
    return client.get(f"{API}/lobby", headers=who or {}).json()


def play_out(client, first, second, resign=None):
    """Play both links to the end: the lowest legal move each turn (or `resign` resigns at
    once); the final payload."""
    if resign:
        return client.post(f"{API}/links/{resign}/resign").json()
    for _ in range(40):
        for token in (first, second):
            now = client.get(f"{API}/links/{token}").json()
            if now["status"]["over"]:
                return now
            if now["to_move"] == now["online"]["you"]:
                client.post(f"{API}/links/{token}/move", json={"move": now["legal_moves"][0]})
    raise AssertionError("the game did not end")


def test_a_seek_accepted_starts_an_online_game_both_players_hold(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = seek(client, ann, seat="first")["seek"]
    assert made["params"] == SMALL and made["rating"] == 1500 and made["seat"] == "first"
    assert lobby(client)["seeks"] == [made | {"age": lobby(client)["seeks"][0]["age"]}]
    assert lobby(client, ann)["mine"][0]["id"] == made["id"] and lobby(client, ann)["seeks"] == []
    took = client.post(f"{API}/seeks/{made['id']}/accept", headers=bob)
    assert took.status_code == 200, took.text
    found = lobby(client, ann)["paired"]
    assert found["url"].startswith("/play/trilobite?link=") and lobby(client, ann)["paired"] is None
    view = client.get(f"{API}/links/{found['link']}").json()
    assert view["online"]["you"] == 0 and view["online"]["rated"]
    assert [p["name"] for p in view["online"]["players"]] == ["Ann", "Bob"]
    assert client.get(f"{API}/links/{took.json()['link']}").json()["online"]["you"] == 1
    again = client.post(f"{API}/seeks/{made['id']}/accept", headers=player(client, "Cy"))
    assert again.status_code == 404 and "gone" in again.json()["error"]
    assert lobby(client)["seeks"] == []


def test_a_rated_game_moves_both_ratings_once_and_a_casual_game_none(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = seek(client, ann, seat="first")["seek"]
    second = client.post(f"{API}/seeks/{made['id']}/accept", headers=bob).json()["link"]
    first = lobby(client, ann)["paired"]["link"]
    end = play_out(client, first, second, resign=second)
    assert end["status"]["winner"] == 0 and "resigned" in end["status"]["message"]
    shown = client.get(f"{API}/links/{first}").json()["online"]["players"]
    assert shown[0]["rating_after"] > 1500 > shown[1]["rating_after"]
    ratings = client.get(f"{API}/players/Ann").json()["ratings"]
    assert ratings == [{"kind": f"trilobite:{SMALL}", "rating": shown[0]["rating_after"],
                        "deviation": ratings[0]["deviation"], "games": 1}]
    assert client.post(f"{API}/links/{second}/resign").status_code == 409  # over: no second
    assert client.get(f"{API}/players/Ann").json()["ratings"][0]["games"] == 1
    rematch = client.post(f"{API}/links/{first}/offer", json={"kind": "rematch"})
    assert rematch.status_code == 200
    swapped = client.post(f"{API}/links/{second}/reply", json={"kind": "rematch",
                                                                "accept": True}).json()
    assert [p["name"] for p in swapped["online"]["players"]] == ["Bob", "Ann"]
    assert swapped["online"]["players"][1]["rating"] == shown[0]["rating_after"]

    casual = seek(client, ann, rated=False, params="")["seek"]
    other = client.post(f"{API}/seeks/{casual['id']}/accept", headers=bob).json()["link"]
    end = play_out(client, lobby(client, ann)["paired"]["link"], other, resign=other)
    assert end["status"]["over"] and not end["online"]["rated"]
    assert [r["games"] for r in client.get(f"{API}/players/Bob").json()["ratings"]] == [1]


def test_quick_pairing_pairs_within_range_and_widens_with_time(client):
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    assert seek(client, ann, quick=True)["paired"] is None
    paired = seek(client, bob, quick=True)["paired"]  # both 1500: paired at once
    assert paired and paired["url"].startswith("/play/trilobite?link=")
    assert lobby(client, ann)["paired"]["link"] != paired["link"]
    # Ratings 400 apart: not within 200, nor 300 after 20 s; within 400 after 40 s.
    strong = player(client, "Dee")
    _rate_apart(client, strong, cy)
    far = seek(client, strong, quick=True)
    assert seek(client, cy, quick=True)["paired"] is None and far["paired"] is None
    gap = abs(lobby(client, cy)["seeks"][0]["rating"] - lobby(client, strong)["seeks"][0]
              ["rating"])
    assert gap > 300
    _age_seeks(client, 2 * QUICK_STEP)
    assert lobby(client, cy)["paired"] is None
    _age_seeks(client, int(gap // 50 + 1) * QUICK_STEP)
    assert lobby(client, cy)["paired"] is not None and lobby(client, strong)["paired"]


def _rate_apart(client, strong, weak):
    """Five rated games of the strong player won against the weak one."""
    for _ in range(5):
        made = seek(client, strong, seat="first")["seek"]
        second = client.post(f"{API}/seeks/{made['id']}/accept", headers=weak).json()["link"]
        lobby(client, strong)  # delivered: the seek goes
        client.post(f"{API}/links/{second}/resign")


def _age_seeks(client, seconds):
    store = client.app.state.rooms.store
    with store.transaction() as cur:
        store._run(cur, "UPDATE seeks SET created_at = ?", (time.time() - seconds,))


@pytest.mark.slow  # a second or more (make test runs it)
def test_a_seek_goes_when_its_page_stops_looking(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = seek(client, ann)["seek"]
    store = client.app.state.rooms.store
    with store.transaction() as cur:
        store._run(cur, "UPDATE seeks SET seen_at = ?", (time.time() - UNSEEN_SECONDS - 1,))
    time.sleep(1.1)  # the sweep runs at most once a second; accepting sweeps too
    assert client.post(f"{API}/seeks/{made['id']}/accept", headers=bob).status_code == 404
    assert lobby(client)["seeks"] == []


def test_quick_pairing_gives_each_the_side_it_asked_for(client):
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    seek(client, ann, quick=True, seat="first")
    assert seek(client, bob, quick=True, seat="first")["paired"] is None
    paired = seek(client, cy, quick=True, seat="second")["paired"]
    assert client.get(f"{API}/links/{paired['link']}").json()["online"]["you"] == 1


def test_a_pairing_that_loses_its_seek_leaves_no_game_and_deleted_players_are_not_met(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = seek(client, ann)["seek"]
    lobby_of = client.app.state.lobby
    store = client.app.state.rooms.store
    record = store.seek(made["id"])
    games = store.count()
    assert lobby_of.make_game(record, (record.player_id, "someone"), {record.id: record})
    assert store.count() == games + 1
    assert lobby_of.make_game(record, (record.player_id, "someone"), {record.id: record}) is None
    assert store.count() == games + 1  # the second game, unpaired, is gone
    bob_id = client.get(f"{API}/players/me", headers=bob).json()["id"]
    ann_id = client.get(f"{API}/players/me", headers=ann).json()["id"]
    client.delete(f"{API}/players/me", headers=bob)
    assert store.rate("trilobite:", ann_id, bob_id, 1.0) is None
    gone = dataclasses.replace(record, id="x" * 22, player_id=bob_id)
    with pytest.raises(NotFound, match="gone"):
        store.add_seek(gone, 3)


def test_blocks_hide_seeks_and_refuse_games_both_ways(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    assert client.post(f"{API}/players/me/blocks", json={"name": "bob"},
                       headers=ann).json() == {"blocked": "Bob"}
    mine = seek(client, bob)["seek"]
    assert lobby(client, ann)["seeks"] == [] and len(lobby(client)["seeks"]) == 1
    refused = client.post(f"{API}/seeks/{mine['id']}/accept", headers=ann)
    assert refused.status_code == 409 and "cannot play" in refused.json()["error"]
    theirs = seek(client, ann)["seek"]
    assert client.post(f"{API}/seeks/{theirs['id']}/accept", headers=bob).status_code == 409
    seek(client, ann, quick=True)
    assert seek(client, bob, quick=True)["paired"] is None
    assert client.get(f"{API}/players/me", headers=ann).json()["blocked"] == ["Bob"]
    assert client.delete(f"{API}/players/me/blocks/Bob", headers=ann).status_code == 200
    assert client.post(f"{API}/seeks/{mine['id']}/accept", headers=ann).status_code == 200


def test_names_renames_and_deletion(client):
    ann = player(client, "Ann")
    for name, status, said in (("ANN", 409, "taken"), ("hard", 400, "reserved"),
                               ("a", 400, "2 to 20"), ("Bo  b", 400, "letters")):
        answer = client.post(f"{API}/players", json={"name": name})
        assert answer.status_code == status and said in answer.json()["error"], answer.text
    bob = player(client, "Bob")
    assert client.patch(f"{API}/players/me", json={"name": "4nn"}, headers=bob
                        ).status_code == 409
    assert client.patch(f"{API}/players/me", json={"name": "Robert", "bot": True},
                        headers=bob).json()["bot"] is True
    assert client.get(f"{API}/players/robert").json()["name"] == "Robert"
    made = seek(client, ann)["seek"]
    assert client.delete(f"{API}/players/me", headers=ann).json() == {"deleted": True}
    assert client.get(f"{API}/players/me", headers=ann).status_code == 401
    assert lobby(client)["seeks"] == [] and made
    assert client.get(f"{API}/players/Ann").status_code == 404
    assert client.post(f"{API}/players", json={"name": "Ann"}).status_code == 201  # free


@pytest.mark.parametrize("headers, said", [
    ({}, "choose a name"), ({"Authorization": "Basic abc"}, "Bearer"),
    ({"Authorization": "Bearer short"}, "Bearer"),
    ({"Authorization": "Bearer " + "x" * 30}, "no player has this secret")])
def test_requests_without_a_player_are_401(client, headers, said):
    for method, path, body in (("POST", "/seeks", {"game": "trilobite"}),
                               ("GET", "/players/me", None), ("DELETE", "/players/me", None),
                               ("POST", "/seeks/abc/accept", None)):
        answer = client.request(method, f"{API}{path}", json=body, headers=headers)
        assert answer.status_code == 401 and said in answer.json()["error"], (path, answer.text)


def test_bad_seeks_are_refused_with_a_reason_and_change_nothing(client):
    ann = player(client, "Ann")
    for body, status, said in (
            ({"game": "chess"}, 404, "no game"), ({"game": "polar"}, 400, "played alone"),
            ({"game": "trilobite", "params": "width=99"}, 400, "width"),
            ({"game": "trilobite", "seat": "middle"}, 400, "seat is one of"),
            ({"game": "trilobite", "rated": "yes"}, 400, "rated"),
            ({"game": "trilobite", "extra": 1}, 400, "extra")):
        answer = client.post(f"{API}/seeks", json=body, headers=ann)
        assert answer.status_code == status and said in answer.json()["error"], answer.text
    for _ in range(3):
        seek(client, ann)
    fourth = client.post(f"{API}/seeks", json={"game": "trilobite"}, headers=ann)
    assert fourth.status_code == 409 and "3 open seeks" in fourth.json()["error"]
    own = lobby(client, ann)["mine"][0]["id"]
    assert client.post(f"{API}/seeks/{own}/accept", headers=ann).status_code == 409
    assert client.delete(f"{API}/seeks/nope", headers=ann).status_code == 404
    assert client.delete(f"{API}/seeks", headers=ann).json() == {"withdrawn": 3}
    assert lobby(client, ann)["mine"] == []


def test_the_player_command_makes_a_bot_and_says_why_it_cannot(server_url, capsys):
    import io

    from gridgames.cli import main

    out = io.StringIO()
    assert main(["player", "Clibot", "--bot", "--server", server_url], out) == 0
    assert out.getvalue().startswith("bot Clibot on ") and "Bearer " in out.getvalue()
    for args, why in ((["player", "C1ibot", "--server", server_url], "taken"),
                      (["player", "hard", "--server", server_url], "reserved"),
                      (["player", "Nobody", "--server", "http://127.0.0.1:9"], "cannot reach")):
        assert main(args, io.StringIO()) == 2
        error = capsys.readouterr().err
        assert why in error and error.count("\n") == 1, error


def test_a_challenge_is_seen_and_taken_only_by_the_player_it_names(client):
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    made = seek(client, ann, opponent="BOB")["seek"]
    assert made["to"] == "Bob"
    assert lobby(client)["seeks"] == [] and lobby(client, cy)["seeks"] == []
    assert lobby(client, bob)["challenges"][0]["id"] == made["id"]
    assert lobby(client, ann)["mine"][0]["to"] == "Bob"
    stolen = client.post(f"{API}/seeks/{made['id']}/accept", headers=cy)
    assert stolen.status_code == 404 and "gone" in stolen.json()["error"]
    assert client.delete(f"{API}/seeks/{made['id']}", headers=cy).status_code == 404
    assert client.post(f"{API}/seeks/{made['id']}/accept", headers=bob).status_code == 200
    assert lobby(client, ann)["paired"]["url"].startswith("/play/trilobite?link=")
    declined = seek(client, ann, opponent="Bob")["seek"]
    assert client.delete(f"{API}/seeks/{declined['id']}", headers=bob).json() == {"withdrawn": 1}
    assert lobby(client, ann)["mine"] == []
    for fields, status, said in (({"opponent": "Nobody"}, 404, "no player"),
                                 ({"opponent": "ann"}, 400, "yourself"),
                                 ({"opponent": "Bob", "quick": True}, 400, "not quick")):
        answer = client.post(f"{API}/seeks", json={"game": "trilobite", **fields}, headers=ann)
        assert answer.status_code == status and said in answer.json()["error"], answer.text
    client.post(f"{API}/players/me/blocks", json={"name": "Ann"}, headers=bob)
    blocked = client.post(f"{API}/seeks", json={"game": "trilobite", "opponent": "Bob"},
                          headers=ann)
    assert blocked.status_code == 409 and "cannot play" in blocked.json()["error"]


@pytest.mark.slow  # a second or more (make test runs it)
def test_an_ai_level_takes_a_challenge_plays_by_itself_and_answers_offers(client):
    ann = player(client, "Ann")
    wrong = client.post(f"{API}/seeks", json={"game": "tictactoe", "opponent": "hard"},
                        headers=ann)
    assert wrong.status_code == 400 and "offers random, easy, perfect" in wrong.json()["error"]
    made = seek(client, ann, game="tictactoe", params="", opponent="perfect", seat="second")
    assert made["seek"] is None and made["paired"]["url"].startswith("/play/tictactoe?link=")
    link = made["paired"]["link"]
    deadline = time.monotonic() + 30
    while (now := client.get(f"{API}/links/{link}").json())["moves"] == []:
        assert time.monotonic() < deadline, "the AI never moved"
        time.sleep(0.1)
    assert now["online"]["players"][0] | {"rating": 0} == {
        "joined": True, "connected": True, "gone_for": None, "name": "perfect", "rating": 0,
        "provisional": False, "ai": "perfect"}
    refused = client.post(f"{API}/links/{link}/offer", json={"kind": "draw"}).json()
    assert refused["online"]["offer"] is None and refused["online"]["declined"]["kind"] == "draw"
    client.post(f"{API}/links/{link}/resign")
    again = client.post(f"{API}/links/{link}/offer", json={"kind": "rematch"}).json()
    assert again["online"]["round"] == 2 and again["online"]["you"] == 0 and again["moves"] == []
    ratings = {r["kind"]: r for r in client.get(f"{API}/players/perfect").json()["ratings"]}
    assert ratings["tictactoe:"]["games"] == 1
