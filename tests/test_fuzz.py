"""Zero 500s: schemathesis generates requests for every operation of the app's own OpenAPI
schema (valid and invalid bodies, paths and queries), and a Hypothesis fuzzer sends game IDs,
move lists and save files, whole or damaged, to the API. Every answer must be a JSON 2xx or
4xx: a 500 is a bug."""

from __future__ import annotations

import json

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from gridgames.registry import default_games
from gridgames.session import Session
from tests.conftest import make_app

pytestmark = pytest.mark.slow  # thousands of requests

API = "/api/v1"
GAMES = default_games()
FUZZ = settings(max_examples=25, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    # Short budgets: the fuzzer asks for machine play too, and should not wait for it.
    app = make_app(tmp_path_factory.mktemp("fuzz") / "games.db", think_seconds=0.5,
                   games_per_minute=100_000, games_burst=100_000)
    with TestClient(app) as client:  # the app's lifespan: its workers end with the module
        app.state.client = client
        yield app


def without_lifespan(app):
    """The app for schemathesis, which starts and stops an ASGI app's lifespan around its
    calls: the module's client already runs it once, and stopping would close the store."""
    async def wrapped(scope, receive, send):
        if scope["type"] != "lifespan":
            await app(scope, receive, send)
            return
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return

    return wrapped


def test_no_operation_answers_500(app):
    """Every operation of the schema, through schemathesis' strategies (its pytest plugin
    is not used: one test covers all operations)."""
    api_schema = schemathesis.openapi.from_asgi("/openapi.json", without_lifespan(app))
    operations = [found.ok() for found in api_schema.get_all_operations()]
    assert len(operations) >= 15
    calls = []

    for operation in operations:
        @given(case=operation.as_strategy())
        @FUZZ
        def call(case):
            response = case.call()
            calls.append(response.status_code)
            case.validate_response(response, checks=[not_a_server_error])
            if response.status_code >= 400:
                assert response.json()["error"], (case.operation.label, response.text)

        call()
    assert len(calls) >= 10 * len(operations)  # the strategies really generated requests
    assert any(code < 300 for code in calls) and any(code >= 400 for code in calls)


# --- game IDs, moves and saves: valid ones, and every way of damaging them ---

SAMPLES = {  # a real start and a few legal moves of each game
    name: Session.new(name, "", seed="fuzz", games=GAMES) for name in GAMES
}
for _session in SAMPLES.values():
    for _ in range(3):
        _moves = _session.game.legal_moves(_session.state)
        if not _moves:
            break
        _session.play(_moves[len(_moves) // 2])

text = st.text(alphabet=st.characters(codec="utf-8"), max_size=60)
damage = st.sampled_from(["cut", "grow", "flip", "replace"])


def damaged(value: str, how: str, at: int, extra: str) -> str:
    at = at % (len(value) + 1)
    if how == "cut":
        return value[:at]
    if how == "grow":
        return value[:at] + extra + value[at:]
    if how == "flip":
        return value[:at] + value[at:][::-1]
    return value[:at] + extra + value[at + len(extra):]


@st.composite
def game_ids(draw):
    session = SAMPLES[draw(st.sampled_from(sorted(SAMPLES)))]
    source = draw(st.sampled_from([session.game_id, session.seed_id or session.game_id]))
    if draw(st.booleans()):
        return source
    return damaged(source, draw(damage), draw(st.integers(0, 10_000)), draw(text))


@st.composite
def move_lists(draw):
    session = SAMPLES[draw(st.sampled_from(sorted(SAMPLES)))]
    alphabet = sorted(set("".join(session.moves)) | set("!-+ 0123456789"))
    one = st.one_of(st.sampled_from(session.moves or ["x"]),
                    st.text(alphabet=alphabet, max_size=8), text)
    return draw(st.lists(one, max_size=12))


@st.composite
def saves(draw):
    data = SAMPLES[draw(st.sampled_from(sorted(SAMPLES)))].to_dict()
    field = draw(st.sampled_from(sorted(data)))
    data[field] = draw(st.one_of(
        st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), text,
        st.lists(text, max_size=4), move_lists(), st.just(data[field])))
    body = json.dumps(data)
    if draw(st.booleans()):
        body = damaged(body, draw(damage), draw(st.integers(0, 10_000)), draw(text))
    return body


def assert_clean(answer):
    assert answer.status_code < 500, answer.text
    if answer.status_code >= 400:
        assert answer.json()["error"]


@given(game_id=game_ids(), moves=move_lists())
@FUZZ
def test_game_ids_and_moves_never_crash(app, game_id, moves):
    client = app.state.client
    answer = client.post(f"{API}/sessions", json={"id": game_id, "moves": moves})
    assert_clean(answer)
    if answer.status_code == 201:
        sid = answer.json()["session"]
        for move in moves:
            assert_clean(client.post(f"{API}/sessions/{sid}/move", json={"move": move}))
        assert_clean(client.post(f"{API}/sessions/{sid}/undo"))


@given(body=saves())
@FUZZ
def test_save_files_never_crash(app, body):
    answer = app.state.client.post(f"{API}/sessions/load",
                                   content=body.encode("utf-8", "replace"),
                                   headers={"content-type": "application/json"})
    assert_clean(answer)
