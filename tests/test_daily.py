"""Daily puzzles through the API (no browser): the same start for everyone on a date, Polar's
level made once and kept in the database, bad dates and names refused with a clear 4xx and
nothing changed, a database away answered 503 with Retry-After."""

import datetime as dt
import threading

import pytest
from fastapi.testclient import TestClient

from gridgames.daily import TWOMINO_LEVELS, parse_day, pick, today, trilobite_position
from gridgames.games.trilobite.book import BookShelf
from gridgames.games.trilobite.game import COLUMN_NAMES
from gridgames.registry import default_games
from gridgames.store import Unavailable
from tests.conftest import make_app

DAY = "2026-11-27"
GAMES = default_games()


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("daily") / "games.db")


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app) as client:
        yield client


def start(client, path):
    answer = client.get(f"/api/v1/daily/{DAY}/{path}")
    assert answer.status_code == 200, answer.text
    daily = answer.json()
    made = client.post("/api/v1/sessions", json={"id": daily["id"], "seats": daily["seats"]})
    assert made.status_code == 201, made.text
    return daily, made.json()


def test_the_days_list_and_bad_dates_and_names(client):
    listing = client.get("/api/v1/daily").json()
    assert listing["date"] == listing["today"] == today().isoformat()
    assert [d["puzzle"] for d in listing["dailies"]] == [
        "polar", *(f"twomino/{level}" for level in TWOMINO_LEVELS), "ishido", "trilobite"]
    assert client.get(f"/api/v1/daily/{DAY}").json()["dailies"][2]["page"] == \
        f"/daily/{DAY}/twomino/basic"
    future = (today() + dt.timedelta(days=1)).isoformat()
    refused = {
        f"/api/v1/daily/{future}/ishido": (400, "is in the future"),
        "/api/v1/daily/2026-02-30/ishido": (400, "not a date of the calendar"),
        "/api/v1/daily/27-11-2026/ishido": (400, "write YYYY-MM-DD"),
        "/api/v1/daily/1999-12-31/ishido": (400, "too early"),
        f"/api/v1/daily/{future}": (400, "is in the future"),
        f"/api/v1/daily/{DAY}/chess": (404, "there is no daily 'chess'"),
        f"/api/v1/daily/{DAY}/tictactoe": (404, "there is no daily"),
        f"/api/v1/daily/{DAY}/twomino": (404, "2mino's daily has a difficulty"),
        f"/api/v1/daily/{DAY}/twomino/insane": (404, "2mino's daily has a difficulty"),
        f"/api/v1/daily/{DAY}/polar/hard": (404, "has no difficulty levels"),
        f"/api/v1/daily/{DAY}/ishido%00": (400, "NUL"),
    }
    for path, (status, words) in refused.items():
        answer = client.get(path)
        assert answer.status_code == status and words in answer.json()["error"], (path, answer.text)
    # The pages: a daily's is the game page; a bad one says why, in a page
    assert client.get(f"/daily/{DAY}/twomino/hard").status_code == 200
    for path, status in ((f"/daily/{future}/polar", 400), (f"/daily/{DAY}/chess", 404),
                         ("/daily/yesterday/polar", 400), (f"/daily/{DAY}/twomino", 404)):
        page = client.get(path)
        assert page.status_code == status and "home page" in page.text, path
    assert client.post(f"/api/v1/daily/{DAY}/ishido").status_code == 405  # nothing to change


@pytest.mark.slow
def test_seeded_dailies_are_the_same_for_everyone(client):
    for path in ("ishido", "twomino/hard"):
        daily, first = start(client, path)
        _, second = start(client, path)
        assert first["session"] != second["session"] and first["id"] == second["id"], path
        assert first["seed_id"] == daily["id"] and first["moves"] == []
    for level in TWOMINO_LEVELS:  # one a difficulty, each its own board
        daily, game = start(client, f"twomino/{level}")
        assert f"level={level}" in game["params"] and daily["seats"] is None
    other = client.get("/api/v1/daily/2026-11-26/ishido").json()
    assert other["id"] != client.get(f"/api/v1/daily/{DAY}/ishido").json()["id"]


@pytest.mark.slow  # a second or more (make test runs it)
def test_trilobite_is_a_book_position_the_person_wins(client):
    daily, game = start(client, "trilobite")
    assert daily["id"].startswith("trilobite:width=7,height=6,line=4:")
    you = game["to_move"]
    assert game["seats"][you] == "person" and game["seats"][1 - you] == "perfect"
    assert "perfect AI" in daily["about"] and game["player_names"][you] in daily["about"]
    # The book says the side to move wins; the analysis agrees with what it solved in its
    # budget (past the book, under a heavy load, not every column is solved in time).
    from gridgames.games.trilobite.bitboard import Bitboard

    trilobite = default_games().get_game("trilobite")
    desc, _ = trilobite_position(parse_day(DAY))
    board = Bitboard.of(trilobite.new_state(trilobite.parse_params(""), desc))
    assert daily["id"].endswith(desc)
    assert BookShelf().get(7, 6, 4).score(board.current, board.mask) > 0
    analysis = client.get(f"/api/v1/sessions/{game['session']}/analysis").json()
    known = [s for s in analysis["scores"].values() if s is not None]
    assert max(known) > 0 or not analysis["result"]["proven"]
    # Another day, another position (a date picks one of about 1,400).
    assert trilobite_position(parse_day("2026-11-26"))[0] != trilobite_position(parse_day(DAY))[0]
    assert pick(parse_day(DAY), "x", 1000) == pick(parse_day(DAY), "x", 1000)
    assert len(BookShelf().get(7, 6, 4)) and COLUMN_NAMES


@pytest.mark.slow
def test_polars_level_is_made_once_and_kept(app, client):
    """Two first requests at once get one level, made once by the compute pool; it is in the
    database, and made again from the date alone it is the same level."""
    from gridgames.daily import polar_level

    store = app.state.rooms.store
    day = "2026-11-20"
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(
        client.get(f"/api/v1/daily/{day}/polar"))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].json()["id"] == answers[1].json()["id"]
    kept = store.daily(day, "polar")
    assert answers[0].json()["id"] == f"polar::{kept}"
    assert polar_level(parse_day(day)) == kept  # a lost database makes the same level again
    # Another process made it first: its level is the one kept and played.
    assert store.keep_daily(day, "polar", kept.replace("H", ".", 1)) == kept
    game = client.post("/api/v1/sessions", json={"id": answers[0].json()["id"]}).json()
    assert game["status"]["over"] is False and game["seats"] == ["person"]


def test_a_database_away_is_503_with_retry_after(app, client, monkeypatch):
    def away(*_):
        raise Unavailable("the database cannot be reached")

    monkeypatch.setattr(app.state.rooms.store, "daily", away)
    answer = client.get("/api/v1/daily/2026-11-19/polar")
    assert answer.status_code == 503 and int(answer.headers["Retry-After"]) >= 1
    assert "cannot be reached" in answer.json()["error"]
