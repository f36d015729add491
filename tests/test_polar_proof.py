"""The compact-state proof search (proof.py, its keys and table) against the readable
reference (solver.py).

A proof of "at least B pushes" expands every state with g + bound <= B - 1; a bound that
overestimated, or two states given one key, would let it miss a win and prove too much. So
on random crowded boards it must agree with the reference's fewest pushes: proven at the
fewest, a win found (and nothing more proven) one above.
"""

import numpy as np
import pytest

from gridgames.core.rng import Rng
from gridgames.games.polar import proof, proofkeys
from gridgames.games.polar.board import BOMB, EMPTY, GRID, HEART, HOUSE, ICE, MOUNTAIN, TREE
from gridgames.games.polar.generator import scatter
from gridgames.games.polar.packs import builtin_pack
from gridgames.games.polar.solver import PUSHES, solve


def test_original_level_1_is_proven_at_14_pushes_and_not_15():
    level = builtin_pack("original")[0]
    at_14 = proof.prove(level.board, level.penguin, 14)
    assert at_14.complete and at_14.lower == 14 and at_14.fewest is None
    assert at_14.layers[-1].f == 13 and at_14.words == 1  # 45 bits of key: one word
    at_15 = proof.prove(level.board, level.penguin, 15)
    assert at_15.complete and at_15.lower == 14 and at_15.fewest == 14  # a win of 14 found


def crowded_board(rng: Rng) -> tuple[bytes, int]:
    board, penguin = scatter(rng, [(HOUSE, 1, 2), (HEART, 1, 2), (TREE, 2, 6),
                                   (MOUNTAIN, 2, 8), (ICE, 0, 3), (BOMB, 1, 3)])
    return bytes(board), penguin


def agrees(board: bytes, penguin: int, fewest: int | None, above: int = 12) -> None:
    """Proven at the fewest pushes, a win found one above; a lost board: nothing found."""
    if fewest is None:
        lost = proof.prove(board, penguin, above)
        assert lost.complete and lost.lower == above and lost.fewest is None, board
        return
    at = proof.prove(board, penguin, fewest)
    assert at.complete and at.lower == fewest and at.fewest is None, (board, fewest)
    over = proof.prove(board, penguin, fewest + 1)
    assert over.complete and over.fewest == fewest == over.lower, (board, fewest)


def compare_with_reference(seed: str, solvable: int, lost: int) -> None:
    """Boards the reference finishes on, compared until so many solvable and lost ones."""
    rng = Rng(seed)
    while solvable > 0 or lost > 0:
        board, penguin = crowded_board(rng)
        reference = solve(board, penguin, PUSHES, engine="python", max_states=1_000,
                          max_seconds=60)
        if not reference.complete or (lost if reference.moves is None else solvable) <= 0:
            continue
        if reference.moves is None:
            agrees(board, penguin, None)
            lost -= 1
        else:
            agrees(board, penguin, reference.pushes)
            solvable -= 1


def test_proof_agrees_with_the_reference_on_random_boards():
    compare_with_reference("polar proof", 3, 2)


@pytest.mark.slow
def test_proof_agrees_with_the_reference_on_more_random_boards():
    compare_with_reference("polar proof more", 15, 10)


def many_ice_board(rng: Rng) -> tuple[bytes, int]:
    """20 ice blocks: their sets do not fit 62 bits, so the key keeps them a bit a cell."""
    board, penguin = scatter(rng, [(HOUSE, 1, 1), (HEART, 1, 2), (ICE, 20, 20), (TREE, 2, 4)])
    return bytes(board), penguin


def test_keys_round_trip_ranked_and_masked():
    rng = Rng("polar proof keys")
    for make in (crowded_board, many_ice_board):
        board, penguin = make(rng)
        lay = proofkeys.layout(board)
        assert (lay.kind_mode[0] == proofkeys.MASK_MODE) == (make is many_ice_board)
        row = np.zeros(proofkeys.ROW, np.uint8)
        row[:GRID.size] = np.frombuffer(board, np.uint8)
        key = np.zeros(lay.words, np.uint64)
        proofkeys.encode(row, penguin, key, lay.var_cells, lay.mountains, lay.kind_mode,
                     lay.kind_offset, lay.kind_bits, lay.count_offset, lay.binom)
        ps = proof.ProofSearch(board, penguin, 5)
        cells, at = ps.decode(key)
        assert cells == board and at == penguin


@pytest.mark.slow
def test_masked_keys_search_like_ranked_ones():
    """A board whose ice is kept as a mask still agrees with the reference."""
    rng = Rng("polar proof masked")
    done = 0
    while done < 2:
        board, penguin = many_ice_board(rng)
        reference = solve(board, penguin, PUSHES, engine="python", max_states=1_000,
                          max_seconds=60)
        if not reference.complete or reference.moves is None:
            continue
        agrees(board, penguin, reference.pushes)
        done += 1


def test_a_board_without_hearts_or_with_a_start_bound_above_the_target():
    level = builtin_pack("original")[4]
    above = proof.prove(level.board, level.penguin, 10)  # level 5's bound at the start is 17
    assert above.complete and above.lower == 10 and above.expanded == 0
    board = bytes(EMPTY if t == HEART else t for t in level.board)
    won = proof.prove(board, level.penguin, 10)
    assert won.fewest == 0 and won.lower == 0
