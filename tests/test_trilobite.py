"""Trilobite rules from its source (docs/rules/trilobite.md), the bitboard used by the AI,
and the AI itself."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.grid import Grid
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.core.stones import encode_position
from gridgames.games.trilobite import make_game
from gridgames.games.trilobite.bitboard import Bitboard

GAME = make_game()


def choose(state, level, rng):
    return GAME.ai.choose(state, level, rng, Budget()).value


def start(params=""):
    p = GAME.parse_params(params)
    return GAME.new_state(p, GAME.new_desc(p, Rng("unused")))


def play(moves, params=""):
    state = start(params)
    for move in GAME.split_moves(moves):
        state = GAME.apply(state, move)
    return state


def from_picture(params, picture):
    """A set-up position from rows of x, o and dots, top row first."""
    p = GAME.parse_params(params)
    rows = picture.split()
    cells = tuple(".xo".index(ch) for ch in "".join(rows))
    return GAME.new_state(p, encode_position(Grid(p.height, p.width), cells))


def test_defaults_are_seven_by_six_four_in_a_row():
    p = GAME.parse_params("")
    assert (p.width, p.height, p.line) == (7, 6, 4)
    assert GAME.new_desc(p, Rng("x")) == "7/7/7/7/7/7"


def test_params_bounds():
    assert GAME.parse_params("width=16,height=16,line=16").line == 16
    for bad in ("width=2", "height=21", "line=2", "width=5,height=4,line=6"):
        with pytest.raises(BadInput):
            GAME.parse_params(bad)


def test_stone_takes_lowest_empty_cell_of_the_column():
    # docs/rules/trilobite.md: the lowest empty cell of the column (towards higher indices).
    state = play("4")
    assert state.cells[5 * 7 + 3] == 1 and state.last == 38
    state = play("44")
    assert state.cells[4 * 7 + 3] == 2 and state.last == 31


def test_legal_moves_are_the_non_full_columns():
    assert GAME.legal_moves(start()) == list("1234567")
    state = play("111111")
    assert GAME.legal_moves(state) == list("234567")
    with pytest.raises(IllegalMove, match="column 1 is full"):
        GAME.apply(state, "1")


def test_column_names_above_nine():
    state = start("width=12,height=4,line=4")
    assert GAME.legal_moves(state) == list("123456789abc")
    assert GAME.apply(state, "c").last == 3 * 12 + 11
    for bad in ("d", "0", "10", "C", "", "44"):
        with pytest.raises(IllegalMove):
            GAME.apply(state, bad)


def test_a_game_is_written_as_column_digits():
    assert GAME.split_moves("4453") == ["4", "4", "5", "3"]
    assert GAME.split_moves("4 4, 5") == ["4", "4", "5"]


def test_two_on_the_left_and_one_on_the_right():
    # The source's example (docs/rules/trilobite.md): two stones on the left, one on the
    # right and the stone just played: 2 + 1 + 1 = 4 in a line.
    state = play("1122443")
    assert GAME.status(state).message == "Red wins!"
    assert state.line == (35, 36, 37, 38)


def test_ten_by_ten_line_five_diagonal_through_cell_44():
    # The source's larger board (docs/rules/trilobite.md): 10x10, line 5, cell 44 (row 4, col 4).
    state = from_picture("width=10,height=10,line=5", """
        ..........
        ..........
        ..........
        ...x......
        ...o......
        ...xox....
        ...oxoxx..
        ...oooxx..
        ...xxxoo..
        ...oxoxoo.
    """)
    assert GAME.current_player(state) == 0
    after = GAME.apply(state, "5")
    assert after.last == 44
    assert after.line == (33, 44, 55, 66, 77)
    assert GAME.status(after).winner == 0


def test_ten_by_ten_four_is_not_enough():
    state = play("1122334", "width=10,height=10,line=5")
    assert GAME.status(state).outcome == "ongoing"
    assert GAME.status(GAME.apply(GAME.apply(state, "4"), "5")).message == "Red wins!"


def test_vertical_line_along_the_left_edge():
    state = play("1212121")
    assert state.line == (14, 21, 28, 35)


def test_line_along_the_top_edge():
    state = from_picture("width=4,height=3,line=4", """
        ooo.
        xxox
        xoxx
    """)
    after = GAME.apply(state, "4")
    assert after.line == (0, 1, 2, 3)
    assert GAME.status(after).message == "Yellow wins!"


def test_line_longer_than_the_winning_length():
    state = play("112244553")
    assert state.line == (35, 36, 37, 38, 39)
    assert GAME.status(state).outcome == "won"


def test_win_on_the_last_cell_is_a_win():
    params = "width=3,height=3,line=3"

    def find(state):  # depth-first: a game whose ninth stone both fills the board and wins
        for move in GAME.legal_moves(state):
            child = GAME.apply(state, move)
            if child.full:
                if child.line:
                    return child
            elif not child.line and (found := find(child)):
                return found
        return None

    final = find(start(params))
    assert final is not None and final.full
    assert GAME.status(final).outcome == "won"
    assert GAME.legal_moves(final) == []


def test_full_board_without_line_is_a_draw():
    before = from_picture("", """
        xxooxx.
        xxooxxo
        ooxxoox
        xxooxxo
        ooxxoox
        ooxxoox
    """)
    state = GAME.apply(before, "7")
    assert state.full and not state.line
    assert GAME.status(state).message == "It's a Draw"
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(state, "1")


def test_set_up_positions_are_checked():
    p = GAME.parse_params("width=3,height=3,line=3")
    with pytest.raises(BadInput, match="floating"):
        GAME.new_state(p, "x2/3/o2")
    with pytest.raises(BadInput, match="winning line"):
        GAME.new_state(p, "3/oo1/xxx")


def brute_force_line(state, length):
    """Any line of `length` equal stones anywhere, by scanning every window."""
    g = state.grid
    for r in range(g.rows):
        for c in range(g.cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * k, c + dc * k) for k in range(length)]
                if all(g.in_bounds(*rc) for rc in cells):
                    values = {state.cells[g.index(*rc)] for rc in cells}
                    if len(values) == 1 and values != {0}:
                        return True
    return False


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(width=st.integers(3, 9), height=st.integers(3, 8), data=st.data())
def test_win_check_and_bitboard_agree_with_brute_force(width, height, data):
    line = data.draw(st.integers(3, max(width, height)))
    params = f"width={width},height={height},line={line}"
    state = start(params)
    board = Bitboard(width, height, line)
    while not state.over:
        move = data.draw(st.sampled_from(GAME.legal_moves(state)))
        col = "123456789".index(move)
        assert board.is_winning_move(col) == bool(GAME.apply(state, move).line)
        state = GAME.apply(state, move)
        board.play(col)
        assert bool(state.line) == brute_force_line(state, line)
        mirror = Bitboard.from_cells(width, height, line, state.cells, state.to_move)
        assert (mirror.current, mirror.mask) == (board.current, board.mask)
    # undo walks back to the empty board
    for move in reversed(GAME.split_moves("")):
        board.undo(int(move) - 1)


def test_bitboard_undo_restores():
    board = Bitboard(7, 6, 4)
    history = [3, 3, 4, 2, 2, 6, 0, 0, 0, 0, 0, 0]
    snapshots = []
    for col in history:
        snapshots.append((board.current, board.mask, board.moves))
        board.play(col)
    for col in reversed(history):
        board.undo(col)
        assert (board.current, board.mask, board.moves) == snapshots.pop()


@pytest.mark.parametrize("params", ["", "width=10,height=10,line=5", "width=5,height=4,line=3"])
@pytest.mark.parametrize("level", ["easy", "medium", pytest.param("hard", marks=pytest.mark.slow)])
def test_ai_takes_a_win_and_blocks_a_loss(params, level):
    p = GAME.parse_params(params)
    far = "123456789a"[p.width - 1]
    # X builds line - 1 stones on the bottom row from column 1; O plays far away.
    x_stones = [str(c) for c in range(1, p.line)]
    moves = "".join(x + far for x in x_stones)
    # X to move wins at once in the next column.
    assert choose(play(moves, params), level, Rng("w")) == str(p.line)
    # O to move (X just made its line - 1) must block that column.
    assert choose(play(moves[:-1], params), level, Rng("b")) == str(p.line)


def test_ai_is_deterministic_for_a_seed():
    state = play("44")
    assert len({choose(state, "medium", Rng("same")) for _ in range(3)}) == 1


def test_stronger_levels_beat_easy():
    """Medium against easy, each side once, on two boards: it must not lose."""
    results = []
    for params in ("", "width=6,height=5,line=4"):
        for strong in ("medium",):
            for strong_side in (0, 1):
                rng = Rng(f"{params}{strong}{strong_side}")
                state = start(params)
                while not state.over:
                    level = strong if GAME.current_player(state) == strong_side else "easy"
                    state = GAME.apply(state, choose(state, level, rng))
                results.append(GAME.status(state).winner in (None, strong_side))
    assert all(results)
