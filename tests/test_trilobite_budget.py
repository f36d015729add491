"""Trilobite machine play under a time cap (the page's budget): on the biggest board the
settings offer nothing can be proven in a moment, so a move comes back legal and marked best
found, and the analysis marks every column unknown. No timing asserts here: the figures are
bench/bench_trilobite_budget.py's."""

import dataclasses
import time
from pathlib import Path

import pytest

from gridgames.core.result import BEST_FOUND, PROVEN, Budget
from gridgames.core.rng import Rng
from gridgames.games.trilobite import make_game
from gridgames.games.trilobite.analyzer import (
    PROBE_NODES,
    UNKNOWN,
    column_scores,
    compiled_fits,
    make_solver,
    solve_until,
)
from gridgames.games.trilobite.game import TrilobiteParams
from gridgames.games.trilobite.solver import Solver, parse_moves

GAME = make_game()
DATA = Path(__file__).resolve().parents[1] / "data" / "connect4"
TINY = Budget(seconds=0.05)


def biggest(line_at_most: int = 4) -> TrilobiteParams:
    """The largest board the settings take (the params' own upper bounds)."""
    hi = {f.name: f.metadata["hi"] for f in dataclasses.fields(TrilobiteParams)}
    return TrilobiteParams(hi["width"], hi["height"], min(line_at_most, hi["line"]))


def opened(params: TrilobiteParams, moves: str = ""):
    state = GAME.new_state(params, GAME.new_desc(params, Rng("b")))
    for move in moves:
        state = GAME.apply(state, move)
    return state


@pytest.mark.parametrize("level", GAME.ai.levels)
@pytest.mark.parametrize("line", [4, 20])
def test_every_level_answers_a_legal_best_found_move_on_the_biggest_board(level, line):
    state = opened(biggest(line), "ab")
    found = GAME.ai.choose(state, level, Rng("1"), TINY)
    assert found.status == BEST_FOUND
    assert found.value in GAME.legal_moves(state)
    if level == "perfect":
        assert "not proven within the budget" in found.note


def test_the_analysis_of_the_biggest_board_marks_every_column_unknown():
    state = opened(biggest())
    found = GAME.analyzer.analyze(state, TINY)
    assert found.status == BEST_FOUND
    assert list(found.value) == GAME.legal_moves(state)
    assert set(found.value.values()) == {None}
    assert "20 columns not solved" in found.note


def test_a_deadline_already_past_searches_nothing_with_either_solver():
    for solver in (make_solver(7, 6, 4), Solver(7, 6, 4)):
        position = parse_moves(solver.g, "4444")
        before = solver.nodes
        assert solve_until(solver, time.monotonic() - 1, *position) is None
        assert solver.nodes == before


def test_the_compiled_solver_under_a_deadline_still_answers_exactly():
    """A time cap is turned into nodes at the speed the search measures (a probe, then the
    rest): with time to spare the answer is the exact score of Pons' set (a position of
    Test_L1_R2 that takes over a million nodes, past the probe)."""
    solver = make_solver(7, 6, 4)
    assert compiled_fits(7, 6) and not isinstance(solver, Solver)
    line = (DATA / "Test_L1_R2").read_text().splitlines()[2]
    moves, score = line.split()
    position = parse_moves(solver.g, moves)
    assert solve_until(solver, time.monotonic() + 600, *position) == int(score)
    assert solver.nodes > PROBE_NODES


def test_under_a_time_cap_every_open_column_is_scored_or_unknown():
    solver = Solver(12, 6, 4)
    position = parse_moves(solver.g, "")
    end = time.monotonic() + 0.2
    scores = column_scores(solver, *position, seconds_left=lambda: end - time.monotonic())
    assert len(scores) == 12 and None not in scores
    assert all(score == UNKNOWN or abs(score) <= 36 for score in scores)


def test_a_small_board_is_still_proven_under_the_cap():
    state = opened(TrilobiteParams(4, 4, 3))
    found = GAME.ai.choose(state, "perfect", Rng("1"), Budget(seconds=10))
    assert found.status == PROVEN and found.value in GAME.legal_moves(state)


def test_past_the_compiled_solver_the_perfect_level_still_proves_what_it_can():
    """On 10x6 (past the compiled solver's 63 bits) the hard level's move comes first, then
    the solver: a position it can settle is still played as proven."""
    params = TrilobiteParams(10, 6, 4)
    assert not compiled_fits(params.width, params.height)
    state = opened(params, "121212")  # X has three in column 1
    found = GAME.ai.choose(state, "perfect", Rng("1"), Budget(seconds=10))
    assert found.status == PROVEN and found.value == "1"
