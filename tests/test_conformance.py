"""The conformance suite: every registered game, every sample parameter set, random playouts
over many seeds, checking the protocol's promises (core/game.py, DESIGN.md)."""

import copy
import json

import pytest

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.rng import Rng
from gridgames.registry import GAMES
from gridgames.session import GameId, Session

SEEDS = [f"conformance-{i}" for i in range(12)]
# Games without a bound on their length (Polar: the penguin may walk for ever) are played for
# this many random moves.
UNBOUNDED_PLAYOUT = 150
CASES = [(name, params) for name, game in GAMES.items()
         for params in ("", *game.sample_params)]
# Strings no game takes as a move, plus near-misses of real notations.
JUNK_MOVES = ["", " ", "!", "!restart", "x" * 65, "a0", "z99", "0", "-1", "99", "L0",
              "a1 a2", "\n", "é", "None"]
NOT_STRINGS = [None, 5, 1.5, ["a1"], {"m": 1}, b"a1"]


def playout(game, params, seed):
    """A random game: the list of states from the start to the end."""
    p = game.parse_params(params)
    rng = Rng(seed)
    state = game.new_state(p, game.new_desc(p, rng))
    states = [state]
    moves = []
    bound = game.max_moves(p)
    while (legal := game.legal_moves(state)) and (bound or len(moves) < UNBOUNDED_PLAYOUT):
        move = rng.choice(legal)
        state = game.apply(state, move)
        states.append(state)
        moves.append(move)
    return p, states, moves


@pytest.fixture(params=CASES, ids=[f"{n}[{p or 'default'}]" for n, p in CASES])
def case(request):
    return request.param


@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_keep_every_promise(case, seed):
    name, params = case
    game = GAMES[name]
    p, states, moves = playout(game, params, seed)
    bound = game.max_moves(p)
    assert bound is None or len(moves) <= bound, "the game outlived its bound"
    for state in states:
        legal = game.legal_moves(state)
        status = game.status(state)
        assert legal == sorted(set(legal), key=game.move_order), "legal moves sorted, unique"
        assert bool(legal) == (not status.over), "moves exactly while the game is ongoing"
        assert status.kind in ("ongoing", "won", "lost", "draw")
        assert isinstance(status.message, str) and status.message
        if game.players == 2:
            assert game.current_player(state) in ((None,) if status.over else (0, 1))
        frozen = copy.deepcopy(state)
        for move in legal:
            game.apply(state, move)
        for junk in [*JUNK_MOVES, *NOT_STRINGS]:
            if junk in legal:
                continue
            with pytest.raises(IllegalMove):
                game.apply(state, junk)
        assert state == frozen and hash(state) == hash(frozen), "apply mutated its input"
        assert isinstance(game.text(state), str)
        json.dumps(game.view(state))
    if bound is not None:
        assert game.status(states[-1]).over


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_session_undo_redo_save_load(case, seed):
    name, params = case
    game = GAMES[name]
    _, states, moves = playout(game, params, seed)
    session = Session.new(name, params, seed)
    assert session.state == states[0]
    for move in moves:
        session.play(move)
    assert session.state == states[-1]
    for index in range(len(moves) - 1, -1, -1):
        assert session.undo() == states[index]
    with pytest.raises(BadInput):
        session.undo()
    for index in range(1, len(moves) + 1):
        assert session.redo() == states[index]
    with pytest.raises(BadInput):
        session.redo()
    # Save mid-game with a redo tail: load gives the same history and cursor.
    for _ in range(len(moves) // 2):
        session.undo()
    loaded = Session.load(session.save())
    assert loaded.state == session.state
    assert loaded.history == session.history and loaded.cursor == session.cursor
    assert loaded.game_id == session.game_id
    if session.can_undo:
        session.restart()
        assert session.state == states[0]
        assert Session.load(session.save()).state == states[0]
        assert session.undo() == loaded.state


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_game_ids_round_trip(case, seed):
    name, params = case
    session = Session.new(name, params, seed)
    for text in (session.game_id, session.seed_id):
        assert GameId.parse(text).format() == text
        assert Session.from_id(text).state == session.state


def test_describe_is_json(case):
    name, _ = case
    card = GAMES[name].describe()
    json.dumps(card)
    assert card["name"] == name and card["summary"]
