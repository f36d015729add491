"""2mino's compiled generator kernel (fastgrade.py) against its Python reference: the same
random boards from the same draws, the same grades as the deduction solver, the same puzzle
from a seed."""

import pytest

from gridgames.core.rng import Rng
from gridgames.games.twomino import fastgrade
from gridgames.games.twomino.dominosa import parse_dominosa
from gridgames.games.twomino.generator import random_board
from gridgames.games.twomino.layout import LEVELS
from gridgames.games.twomino.solver import deduce
from tests.test_twomino import tatham_rows


def python_grade(n, symbols, level):
    result = deduce(n, symbols, frozenset(), level)
    return result.grade if result.solved else None


@pytest.mark.parametrize("n", range(3, 14))
def test_the_kernel_draws_random_board_s_boards(n):
    for seed in range(8):
        ours, theirs = Rng(f"fb-{n}-{seed}"), Rng(f"fb-{n}-{seed}")
        assert fastgrade.random_board(n, ours) == random_board(n, theirs), (n, seed)
        assert ours.state_words() == theirs.state_words()


# Boards a size: the Python solver takes about 1 ms a board at N=5 and 100 ms at N=13.
@pytest.mark.parametrize("n, boards", [(5, 30), (6, 15), (7, 15), (9, 4), (13, 2)])
def test_the_kernel_grades_as_the_deduction_solver(n, boards):
    graded = set()
    for seed in range(boards):
        board = random_board(n, Rng(f"fg-{n}-{seed}"))
        if board is None:
            continue
        for level in LEVELS:
            grade = fastgrade.grade(n, board.symbols, level)
            assert grade == python_grade(n, board.symbols, level), (n, seed, level)
            graded.add(grade)
    assert len(graded) >= 2  # not all stuck


def test_the_kernel_grades_the_reference_puzzles_as_simon_tatham():
    """Every graded Dominosa puzzle of data/dominosa gets his grade with every level from
    it up, and is not solved below it; the ambiguous ones are never solved."""
    for seed_id, dominosa_id, grade, *_ in tatham_rows():
        n, symbols = parse_dominosa(dominosa_id)
        top = LEVELS.index(grade.lower()) if grade != "Ambiguous" else len(LEVELS)
        for at, level in enumerate(LEVELS):
            expected = grade.lower() if at >= top else None
            assert fastgrade.grade(n, symbols, level) == expected, (seed_id, level)


@pytest.mark.parametrize("n, level", [
    (5, "trivial"), (5, "hard"), (6, "basic"), (7, "hard"),
    pytest.param(5, "extreme", marks=pytest.mark.slow),  # 1.5 s: 170 boards graded in Python
])
def test_a_seed_makes_the_python_reference_s_puzzle(n, level):
    """The first random board the Python solver grades `level`, with the same draws."""
    ours, theirs = Rng(f"fs-{n}{level}"), Rng(f"fs-{n}{level}")
    board, drawn = fastgrade.search(n, level, ours, 10_000)
    for _ in range(drawn - 1):
        passed = random_board(n, theirs)
        assert passed is None or python_grade(n, passed.symbols, level) != level
    assert board == random_board(n, theirs) and ours.state_words() == theirs.state_words()
    assert python_grade(n, board.symbols, level) == level
