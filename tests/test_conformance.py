"""The conformance suite: every registered game (plugins included: it reads the installed
entry points), every sample parameter set, random playouts over many seeds, checking the
protocol's promises (core/game.py, core/capabilities.py, DESIGN.md)."""

import copy
import json

import pytest

from gridgames.core.capabilities import CAPABILITIES, Hint
from gridgames.core.envelope import SIDES, is_canonical
from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.game import describe
from gridgames.core.grid import Grid
from gridgames.core.ids import GameId
from gridgames.core.result import STATUSES, Budget, Result
from gridgames.core.rng import Rng
from gridgames.registry import default_games
from gridgames.session import Session

GAMES = default_games()

SEEDS = [f"conformance-{i}" for i in range(12)]
QUICK_SEEDS = 2  # `make check` plays these; the others are marked slow (more of the same)
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


def check_envelope(game, state, view):
    """The part of the view every game shares (docs/adding-a-game.md, "The view's
    envelope"): it says what the rules say."""
    assert isinstance(view["kind"], str) and view["kind"]
    rows, cols = view["rows"], view["cols"]
    assert isinstance(rows, int) and isinstance(cols, int) and rows >= 1 and cols >= 1
    status = game.status(state)
    assert view["status"] == {"kind": status.kind, "message": status.message,
                              "winner": status.winner, "score": status.score}
    actions = view["actions"]
    assert [a["move"] for a in actions] == game.legal_moves(state)
    grid = Grid(rows, cols)
    for a in actions:
        assert set(a) in ({"move"}, {"move", "cell"}, {"move", "edge"}), a
        if "cell" in a:
            assert isinstance(a["cell"], int) and 0 <= a["cell"] < rows * cols, a
        if "edge" in a:
            cell, side = a["edge"]
            assert isinstance(cell, int) and 0 <= cell < rows * cols and side in SIDES, a
            assert is_canonical(grid, cell, side), a


@pytest.fixture(params=CASES, ids=[f"{n}[{p or 'default'}]" for n, p in CASES])
def case(request):
    return request.param


def seeds(count: int) -> list:
    return [seed if i < QUICK_SEEDS else pytest.param(seed, marks=pytest.mark.slow)
            for i, seed in enumerate(SEEDS[:count])]


@pytest.mark.parametrize("seed", seeds(len(SEEDS)))
def test_random_playouts_keep_every_promise(case, seed):
    name, params = case
    game = GAMES[name]
    p, states, moves = playout(game, params, seed)
    bound = game.max_moves(p)
    assert bound is None or len(moves) <= bound, "the game outlived its bound"
    for state in states:
        legal = game.legal_moves(state)
        status = game.status(state)
        assert len(legal) == len(set(legal)), "legal moves are unique"
        assert legal == game.legal_moves(copy.deepcopy(state)), "legal moves in a fixed order"
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
        check_envelope(game, state, json.loads(json.dumps(game.view(state))))
    if bound is not None:
        assert game.status(states[-1]).over


@pytest.mark.parametrize("seed", seeds(4))
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


@pytest.mark.parametrize("seed", seeds(3))
def test_game_ids_round_trip(case, seed):
    name, params = case
    session = Session.new(name, params, seed)
    for text in (session.game_id, session.seed_id):
        assert GameId.parse(text, GAMES).format() == text
        assert Session.from_id(text).state == session.state


def test_describe_is_json(case):
    name, _ = case
    card = describe(GAMES[name])
    json.dumps(card)
    assert card["name"] == name and card["summary"]
    assert set(card["capabilities"]) <= set(CAPABILITIES)
    assert (card["ai_levels"] != []) == ("ai" in card["capabilities"])


def check_result(found, kind):
    """Machine play answers a Result whose words match its status, never more."""
    assert isinstance(found, Result) and found.status in STATUSES
    assert found.found == (found.value is not None)
    if found.value is not None:
        assert isinstance(found.value, kind)
    assert ("proven" in found.words()) == found.proven
    json.dumps(found.to_dict())


QUICK = Budget(nodes=3_000, seconds=5.0)


@pytest.mark.parametrize("seed", seeds(2))
def test_machine_play_answers_results(case, seed):
    """Every capability a game has, on positions of a random playout: AI moves are legal,
    hints are legal moves, solutions solve, analysis names legal moves."""
    name, params = case
    game = GAMES[name]
    _, states, _ = playout(game, params, seed)
    for state in states[::max(1, len(states) // 2)][:2]:
        legal = game.legal_moves(state)
        if not legal:
            continue
        if game.ai:
            for level in game.ai.levels:
                found = game.ai.choose(state, level, Rng(seed), QUICK)
                check_result(found, str)
                assert found.value in legal
        if game.hints:
            found = game.hints.hint(state, QUICK)
            check_result(found, Hint)
            assert found.value is None or found.value.move in legal
        if game.analyzer:
            found = game.analyzer.analyze(state, QUICK)
            check_result(found, dict)
            assert set(found.value) == set(legal)
        if game.solver:
            found = game.solver.solve(state, QUICK)
            check_result(found, list)
            if found.value is not None:
                after = state
                for move in found.value:
                    after = game.apply(after, move)
                assert game.status(after).kind == "won", "a solution wins"
        if game.checker:
            check_result(game.checker.check(state, QUICK), list)


def finished_positions(game, params):
    """A finished position of each kind the game's random playouts end in (won, lost,
    drawn), and the position its solver's solution reaches from a start (solved)."""
    found = {}
    for seed in SEEDS:
        _, states, _ = playout(game, params, seed)
        status = game.status(states[-1])
        if status.over:
            found.setdefault(status.kind, states[-1])
    if game.solver:
        solution = game.solver.solve(states[0], Budget(seconds=20.0)).value
        if solution:
            after = states[0]
            for move in solution:
                after = game.apply(after, move)
            found["solved"] = after
    return found


def answers_on(game, state):
    """(what, the kind of its value, its answer) of each capability that plays a position."""
    answers = [(f"ai {level}", str, game.ai.choose(state, level, Rng("over"), QUICK))
               for level in (game.ai.levels if game.ai else ())]
    if game.hints:
        answers.append(("hints", Hint, game.hints.hint(state, QUICK)))
    if game.solver:
        answers.append(("solver", list, game.solver.solve(state, QUICK)))
    if game.analyzer:
        answers.append(("analyzer", dict, game.analyzer.analyze(state, QUICK)))
    return answers


def test_machine_play_on_a_finished_position_answers_no_move(case):
    """Won, lost, drawn or solved: every capability answers, never raises: no move (None, or
    an empty solution or analysis) and a note saying why (the game is over). A checker still
    checks the moves made."""
    name, params = case
    game = GAMES[name]
    finished = finished_positions(game, params)
    assert finished, "some random playout ends, or the solver solves a start"
    for kind, state in finished.items():
        assert game.status(state).over and not game.legal_moves(state)
        for what, kind_of, found in answers_on(game, state):
            check_result(found, kind_of)
            assert not found.value and found.note, f"{what} on a {kind} position"
        if game.checker:
            check_result(game.checker.check(state, QUICK), list)
