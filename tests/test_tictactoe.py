"""Tic-tac-toe rules (docs/rules/tictactoe.md), the game-tree figures, and the AI."""

import pytest

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.core.search import Minimax
from gridgames.games.tictactoe import make_game
from gridgames.session import Session

GAME = make_game()


def choose(state, level, rng):
    return GAME.ai.choose(state, level, rng, Budget()).value


def play(*moves):
    state = GAME.new_state(GAME.parse_params(""), "3/3/3")
    for move in moves:
        state = GAME.apply(state, move)
    return state


def test_x_moves_first_and_players_alternate():
    # The source (docs/rules/tictactoe.md): X starts, "It's X's turn"; then it is O's turn.
    state = play()
    assert GAME.status(state).message == "It's X's turn"
    assert GAME.current_player(state) == 0
    state = play("b2")
    assert GAME.status(state).message == "It's O's turn"
    assert GAME.current_player(state) == 1


def test_move_on_taken_cell_is_illegal_and_changes_nothing():
    state = play("b2")
    with pytest.raises(IllegalMove, match="already taken"):
        GAME.apply(state, "b2")
    assert state == play("b2")


@pytest.mark.parametrize("moves, line", [
    (("a1", "a2", "b1", "b2", "c1"), (0, 1, 2)),  # row
    (("b1", "a1", "b2", "a3", "b3"), (1, 4, 7)),  # column
    (("a1", "b1", "b2", "c1", "c3"), (0, 4, 8)),  # diagonal
    (("c1", "a1", "b2", "b1", "a3"), (2, 4, 6)),  # anti-diagonal
])
def test_win_by_row_column_or_diagonal(moves, line):
    state = play(*moves)
    status = GAME.status(state)
    assert (status.outcome, status.winner, status.message) == ("won", 0, "X wins!")
    assert state.line == line
    assert GAME.legal_moves(state) == []
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(state, "c3" if "c3" not in moves else "a2")


def test_o_can_win():
    state = play("a1", "b1", "a2", "b2", "c3", "b3")
    assert GAME.status(state).message == "O wins!"
    assert GAME.status(state).winner == 1


def test_draw_after_nine_moves_without_line():
    # The source (docs/rules/tictactoe.md): nine moves and no line is a draw.
    state = play("a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3")
    assert GAME.status(state).outcome == "draw"
    # The source's words (docs/rules/tictactoe.md).
    assert GAME.status(state).message == "It's a Draw"


def test_a_win_on_the_ninth_move_is_a_win_not_a_draw():
    state = play("a1", "b1", "c1", "b2", "c2", "a2", "b3", "a3", "c3")
    assert GAME.status(state).outcome == "won"


@pytest.mark.slow
def test_game_tree_figures():
    """The known figures: 5,478 distinct positions (empty board included), 255,168 games,
    131,184 won by X, 77,904 won by O, 46,080 drawn."""
    positions = set()
    # The games below each state, counted once a state (16,168 of them: the cells, the player
    # to move, the last move): a state is a frozen value and the rules are functions of it,
    # so the sums are those of a walk down every one of the 255,168 games, at a tenth of the
    # cost.
    games_below: dict = {}

    def walk(state) -> dict[str, int]:
        if state in games_below:
            return games_below[state]
        positions.add(state.cells)
        results = {"x": 0, "o": 0, "draw": 0}
        status = GAME.status(state)
        if status.over:
            results["draw" if status.winner is None else "xo"[status.winner]] += 1
        else:
            for move in GAME.legal_moves(state):
                for end, games in walk(GAME.apply(state, move)).items():
                    results[end] += games
        games_below[state] = results
        return results

    results = walk(play())
    assert len(positions) == 5478
    assert sum(results.values()) == 255168
    assert results == {"x": 131184, "o": 77904, "draw": 46080}


def _all_games_against(ai_player, level="perfect"):
    """Every game where the AI plays `ai_player` and the other side tries every move."""
    finals = []

    def walk(state, depth):
        if GAME.status(state).over:
            finals.append(state)
            return
        if GAME.current_player(state) == ai_player:
            walk(GAME.apply(state, choose(state, level, Rng(f"t{depth}"))), depth + 1)
        else:
            for move in GAME.legal_moves(state):
                walk(GAME.apply(state, move), depth + 1)

    walk(play(), 0)
    return finals


@pytest.mark.parametrize("ai_player", [0, 1])
def test_perfect_ai_never_loses(ai_player):
    finals = _all_games_against(ai_player)
    assert finals
    assert all(GAME.status(s).winner in (None, ai_player) for s in finals)


def test_perfect_ai_wins_whenever_a_win_is_forced():
    solver = Minimax(GAME)
    forced = 0
    for moves in (("a1", "b1"), ("b2", "a2"), ("a1", "b2", "c3", "a3"), ("b2", "b1")):
        state = play(*moves)
        if solver.value(state) <= 0:
            continue
        forced += 1
        # Whatever the defender does, the AI keeps the forced win to the end.
        stack = [state]
        while stack:
            s = stack.pop()
            status = GAME.status(s)
            if status.over:
                assert status.winner == GAME.current_player(state)
                continue
            if GAME.current_player(s) == GAME.current_player(state):
                stack.append(GAME.apply(s, choose(s, "perfect", Rng("w"))))
            else:
                stack.extend(GAME.apply(s, m) for m in GAME.legal_moves(s))
    assert forced >= 2


def test_perfect_ai_takes_the_quickest_win():
    state = play("a1", "a2", "b1", "b2")  # X wins at once with c1
    assert choose(state, "perfect", Rng("q")) == "c1"


def test_easy_ai_takes_a_win_and_blocks_a_loss():
    assert choose(play("a1", "a2", "b1", "b2"), "easy", Rng("e")) == "c1"
    assert choose(play("a1", "b2", "b1"), "easy", Rng("e")) == "c1"  # block a1-b1-c1


def test_weaker_levels_are_weaker():
    """The random level loses some games against the perfect AI; the perfect AI none."""
    outcomes = []
    for seed in range(40):
        rng = Rng(f"match{seed}")
        state = play()
        while not GAME.status(state).over:
            level = "random" if GAME.current_player(state) == 0 else "perfect"
            state = GAME.apply(state, choose(state, level, rng))
        outcomes.append(GAME.status(state).winner)
    assert 0 not in outcomes
    assert outcomes.count(1) > 10


def test_position_desc_checks():
    params = GAME.parse_params("")
    assert GAME.new_state(params, "x2/1o1/3").to_move == 0
    assert GAME.new_state(params, "x2/3/3").to_move == 1
    for bad, message in (("3/3", "rows"), ("4/3/3", "cells"), ("xx1/3/3", "x and"),
                         ("xxx/oo1/3", "winning line"), ("3/3/2q", "use x, o")):
        with pytest.raises(BadInput, match=message):
            GAME.new_state(params, bad)


def test_unknown_ai_level_is_refused():
    with pytest.raises(BadInput, match="unknown AI level"):
        choose(play(), "godlike", Rng("x"))


def test_session_flow():
    session = Session.new("tictactoe")
    assert session.game_id == "tictactoe::3/3/3"
    for move in ("a1", "b1", "a2", "b2", "a3"):
        session.play(move)
    assert session.status().message == "X wins!"
