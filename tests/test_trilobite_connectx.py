"""Kaggle's ConnectX interface (games/trilobite/connectx.py): our AI levels as ConnectX
agents, ConnectX agents as players of Trilobite on any board, and the observations each side
sees, in Kaggle's layout (a flat list, row 0 at the top, 1 moves first)."""

from __future__ import annotations

import numpy as np
import pytest

from gridgames.core.errors import BadInput
from gridgames.core.rng import Rng
from gridgames.games.trilobite.connectx import (
    Struct,
    agent_move,
    ai_agent,
    observe,
    play,
    state_of,
)

SEVEN_BY_SIX = Struct(rows=6, columns=7, inarow=4)


def random_agent(seed: str):
    """A ConnectX agent as Kaggle's examples write them: keys, not attributes."""
    rng = Rng(seed)

    def agent(observation, configuration):
        free = [c for c in range(configuration["columns"]) if observation["board"][c] == 0]
        return rng.choice(free)

    return agent


def test_the_board_is_kaggles_layout_both_ways():
    state = state_of(Struct(board=[0] * 42, mark=1), SEVEN_BY_SIX)
    from gridgames.registry import default_games

    game = default_games().get_game("trilobite")
    state = game.apply(game.apply(state, "1"), "7")  # Red in column 1, Yellow in column 7
    observation, configuration = observe(state)
    assert observation.board[5 * 7 + 0] == 1 and observation.board[5 * 7 + 6] == 2
    assert sum(observation.board) == 3 and observation.mark == 1 and observation["step"] == 2
    assert (configuration.rows, configuration.columns, configuration.inarow) == (6, 7, 4)
    assert state_of(observation, configuration).cells == state.cells


@pytest.mark.slow
def test_the_perfect_level_opens_in_the_centre_and_beats_a_random_agent():
    perfect = ai_agent("perfect")
    empty = Struct(board=[0] * 42, mark=1)
    assert perfect(empty, SEVEN_BY_SIX) == 3  # the first player's only winning move
    for seed in ("a", "b"):
        winner, moves = play(perfect, random_agent(seed))
        assert winner == 1, moves
        winner, moves = play(random_agent(seed), perfect)
        assert winner == 2, moves


def test_any_board_size_and_line():
    winner, moves = play(ai_agent("hard", 0.2), random_agent("small"), rows=4, columns=5,
                         inarow=3)
    assert winner == 1 and len(moves) <= 20
    winner, moves = play(random_agent("x"), random_agent("y"), rows=3, columns=11, inarow=3)
    assert winner in (0, 1, 2) and moves


def test_an_agent_that_answers_no_column_it_may_play_loses_at_once():
    state = state_of(Struct(board=[0] * 42, mark=1), SEVEN_BY_SIX)
    assert agent_move(lambda o, c: np.int64(2), state) == "3"  # numpy's integers are whole
    for answer in ("3", 2.5, None, -1, 7):
        winner, moves = play(lambda o, c, a=answer: a, random_agent("r"))
        assert (winner, moves) == (2, []), answer
    full = [0] * 42
    for row in range(6):
        full[row * 7] = 1 + row % 2
    state = state_of(Struct(board=full, mark=1), SEVEN_BY_SIX)
    with pytest.raises(Exception, match="column 0, which is full"):
        agent_move(lambda o, c: 0, state)


@pytest.mark.parametrize("observation, configuration, message", [
    (Struct(board=[0] * 41, mark=1), SEVEN_BY_SIX, "41 cells"),
    (Struct(board=[3] + [0] * 41, mark=1), SEVEN_BY_SIX, "0 \\(empty\\), 1 or 2"),
    (Struct(board=[1] + [0] * 41, mark=2), SEVEN_BY_SIX, "floating stone"),
    (Struct(board=[0] * 41 + [2], mark=2), SEVEN_BY_SIX, "X moves first"),
    (Struct(board=[0] * 41 + [1], mark=1), SEVEN_BY_SIX, "mark is 1"),
    (Struct(board="0" * 42, mark=1), SEVEN_BY_SIX, "flat list"),
    (Struct(mark=1), SEVEN_BY_SIX, "no 'board'"),
    (Struct(board=[0] * 42, mark=1), Struct(rows=6, columns=7), "no 'inarow'"),
    (Struct(board=[0] * 42, mark=1), Struct(rows=6, columns=7, inarow=9), "line must be"),
    (Struct(board=[0] * 42, mark=1), Struct(rows=6.0, columns=7, inarow=4), "whole number"),
])
def test_a_bad_observation_is_refused_with_what_is_wrong(observation, configuration, message):
    with pytest.raises(BadInput, match=message):
        ai_agent("easy")(observation, configuration)
