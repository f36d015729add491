"""Ishido, from its source (docs/rules/ishido.md), and the classic 1990 rules."""

import io
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridgames.cli import main
from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.core.words import count
from gridgames.games.ishido import make_game
from gridgames.games.ishido.ai import ROLLOUT_FROM, Planner, best_cell
from gridgames.games.ishido.commands import play_deal
from gridgames.games.ishido.game import (
    COLOURS,
    COLS,
    EMPTY,
    GRID,
    IMAGES,
    ROWS,
    colour,
    format_pouch,
    image,
    make_pouch,
    make_state,
    opening_first,
)

GAME = make_game()
SEED_RULES = GAME.parse_params("rules=seed")
CLASSIC = GAME.parse_params("rules=classic")


def t(c, s):
    """Tile of colour c, image s."""
    return c * 6 + s


def position(tiles, next_tile, rules=SEED_RULES, pouch_rest=(), fourways=0):
    """A hand-built position: {cell name: tile} on the board, next_tile in hand."""
    board = [EMPTY] * GRID.size
    for name, tile in tiles.items():
        board[GRID.parse_cell(name)] = tile
    return make_state(rules, tuple(board), (next_tile, *pouch_rest), fourways=fourways)


def test_board_and_tiles_match_the_seed():
    # "The game is played on a 8x12 board with 72 tiles ... six colors and six images ...
    # Two of each tile are combined to make the playing set."
    assert (ROWS, COLS) == (8, 12)
    assert (COLOURS, IMAGES) == (6, 6)
    pouch = make_pouch(Rng("x"))
    assert len(pouch) == 72 and Counter(pouch) == {k: 2 for k in range(36)}


def test_opening_tiles_sit_on_the_seed_cells():
    # docs/rules/ishido.md: opening cells (column, row) (0,0) (11,0) (5,3) (6,4) (0,7) (11,7).
    desc = GAME.new_desc(SEED_RULES, Rng("open"))
    state = GAME.new_state(SEED_RULES, desc)
    pouch = [int(desc[i]) * 6 + int(desc[i + 1]) for i in range(0, 144, 2)]
    expected = {(0, 0): pouch[0], (11, 0): pouch[1], (5, 3): pouch[2], (6, 4): pouch[3],
                (0, 7): pouch[4], (11, 7): pouch[5]}
    for (col, row), tile in expected.items():
        assert state.board[row * 12 + col] == tile
    assert sum(c != EMPTY for c in state.board) == 6
    assert state.next_tile == pouch[6] and len(state.pouch) == 66


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12))
def test_every_pouch_opens_with_all_colours_and_images(seed):
    pouch = make_pouch(Rng(seed))
    opening = pouch[:6]
    assert {colour(x) for x in opening} == set(range(6))
    assert {image(x) for x in opening} == set(range(6))
    assert Counter(pouch) == {k: 2 for k in range(36)}


def test_opening_loop_is_the_seeds_loop():
    # Walk: 00 (new colour 0, image 0 -> head), 01 (colour 0 seen -> tail), 11, 22, 10
    # (tail), 33, 44, 55 (head: all seen), then the rest untouched. Head and tail are built
    # by consing, so each comes out reversed.
    walk = [t(0, 0), t(0, 1), t(1, 1), t(2, 2), t(1, 0), t(3, 3), t(4, 4), t(5, 5), t(0, 0),
            t(2, 3)]
    assert opening_first(walk) == [t(5, 5), t(4, 4), t(3, 3), t(2, 2), t(1, 1), t(0, 0),
                                   t(1, 0), t(0, 1), t(0, 0), t(2, 3)]


def test_a_tile_needs_a_neighbour_and_matching_neighbours():
    state = position({"e4": t(0, 0)}, t(0, 3))
    moves = GAME.legal_moves(state)
    assert moves == ["e3", "d4", "f4", "e5"]
    with pytest.raises(IllegalMove, match="no neighbour"):
        GAME.apply(state, "a1")
    mismatch = position({"e4": t(0, 0)}, t(1, 1))
    assert GAME.legal_moves(mismatch) == [] and GAME.status(mismatch).outcome == "lost"
    # Every neighbour must match: colour with one, image with the other is fine.
    between = position({"d4": t(0, 0), "f4": t(1, 1)}, t(0, 1))
    assert "e4" in GAME.legal_moves(between)
    blocked = position({"d4": t(0, 0), "f4": t(1, 1)}, t(0, 2))
    assert "e4" not in GAME.legal_moves(blocked)
    with pytest.raises(IllegalMove, match="every neighbour must share"):
        GAME.apply(blocked, "e4")


@pytest.mark.parametrize("around, points", [
    ({"e3": t(0, 1)}, 1),
    ({"e3": t(0, 1), "d4": t(0, 2)}, 2),
    ({"e3": t(0, 1), "d4": t(0, 2), "f4": t(1, 0)}, 4),
    ({"e3": t(0, 1), "d4": t(0, 2), "f4": t(1, 0), "e5": t(2, 0)}, 8),
])
def test_seed_scores_1_2_4_8(around, points):
    state = position(around, t(0, 0))
    assert dict((GRID.cell_name(c), p) for c, p in state.valid)["e4"] == points
    after = GAME.apply(state, "e4")
    assert after.score == points
    assert after.fourways == (1 if points == 8 else 0)  # 4-ways counted under seed rules too


def test_won_when_the_pouch_is_empty_lost_when_no_valid_cell():
    last = position({"e4": t(0, 0)}, t(0, 1))
    done = GAME.apply(last, "e3")
    assert GAME.status(done).outcome == "won"
    # The source's words, then the score (docs/rules/ishido.md).
    assert GAME.status(done).message == f"Game Over. You Win! {count(done.score, 'point')}"
    stuck = position({"e4": t(0, 0)}, t(0, 1), pouch_rest=(t(3, 3),))
    after = GAME.apply(stuck, "e3")
    assert GAME.status(after).outcome == "lost"
    assert GAME.status(after).message == (f"Game Over: the next tile fits nowhere. "
                                          f"{count(after.score, 'point')}, 1 tile left")
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(after, "e2")


def test_the_status_line_counts_tiles_in_words():
    assert GAME.status(position({"e4": t(0, 0)}, t(0, 1))).message == "Score 0 · 1 tile left"
    two = position({"e4": t(0, 0)}, t(0, 1), pouch_rest=(t(3, 3),))
    assert GAME.status(two).message == "Score 0 · 2 tiles left"


def test_the_state_knows_score_tiles_left_and_valid_cells():
    state = GAME.new_state(SEED_RULES, GAME.new_desc(SEED_RULES, Rng("view")))
    view = GAME.view(state)
    assert view["tiles_left"] == 66 and view["score"] == 0 and view["next"] == state.pouch[0]
    assert sum(view["pouch_counts"]) == 66
    assert all(v["points"] == 1 for v in view["valid"])  # only single neighbours at the start
    assert [v["move"] for v in view["valid"]] == GAME.legal_moves(state)


def test_desc_is_the_pouch_and_is_checked():
    pouch = make_pouch(Rng("d"))
    assert GAME.new_state(SEED_RULES, format_pouch(pouch)).pouch == tuple(pouch[6:])
    bad = [("12", "144 digits"), ("6" * 144, "colour and image are 0-5"),
           (format_pouch(pouch[:-1] + [pouch[0]]), "appears"),
           (format_pouch(sorted(pouch)), "every colour and every image")]
    for desc, message in bad:
        with pytest.raises(BadInput, match=message):
            GAME.new_state(SEED_RULES, desc)


# --- classic rules ---

def test_classic_legal_under_seed_rules_but_not_classic():
    # Two neighbours, both matching the tile by colour only: seed yes, classic no.
    around = {"d4": t(0, 1), "f4": t(0, 2)}
    assert "e4" in GAME.legal_moves(position(around, t(0, 0)))
    state = position(around, t(0, 0), CLASSIC)
    assert "e4" not in GAME.legal_moves(state)
    with pytest.raises(IllegalMove, match="classic rules need"):
        GAME.apply(state, "e4")
    # One by colour and one by image is fine.
    assert "e4" in GAME.legal_moves(position({"d4": t(0, 1), "f4": t(2, 0)}, t(0, 0), CLASSIC))


def test_classic_four_way_needs_two_by_colour_and_two_by_image():
    legal = {"e3": t(0, 1), "d4": t(0, 2), "f4": t(1, 0), "e5": t(2, 0)}
    assert "e4" in GAME.legal_moves(position(legal, t(0, 0), CLASSIC))
    three_colour = {"e3": t(0, 1), "d4": t(0, 2), "f4": t(0, 3), "e5": t(2, 0)}
    assert "e4" in GAME.legal_moves(position(three_colour, t(0, 0)))  # seed rules: fine
    assert "e4" not in GAME.legal_moves(position(three_colour, t(0, 0), CLASSIC))
    # An identical twin counts on both sides: twin + one colour + one image.
    twin = {"e3": t(0, 0), "d4": t(0, 2), "f4": t(1, 0), "e5": t(0, 0)}
    assert "e4" in GAME.legal_moves(position(twin, t(0, 0), CLASSIC))


def test_classic_scoring_edges_doubling_and_bonuses():
    # On the outer edge: 0 points.
    edge = position({"a2": t(0, 1)}, t(0, 0), CLASSIC, pouch_rest=(t(5, 5),) * 3)
    assert dict(edge.valid)[GRID.parse_cell("a1")] == 0
    # A 4-way: 8 points + the first bonus (25).
    four = {"e3": t(0, 1), "d4": t(0, 2), "f4": t(1, 0), "e5": t(2, 0)}
    state = position(four, t(0, 0), CLASSIC, pouch_rest=(t(0, 4),) * 3)
    after = GAME.apply(state, "e4")
    assert after.score == 8 + 25 and after.fourways == 1
    # Every 4-way doubles later points: a single neighbour now gives 2.
    assert dict(after.valid)[GRID.parse_cell("e2")] == 2
    # After two 4-ways: a third gives 8 * 4 + 100.
    second = position(four, t(0, 0), CLASSIC, pouch_rest=(t(0, 4),) * 3, fourways=2)
    assert GAME.apply(second, "e4").score == 8 * 4 + 100


@pytest.mark.parametrize("left, bonus", [(0, 1000), (1, 500), (2, 100), (3, 0)])
def test_classic_end_bonus(left, bonus):
    stuck = (t(3, 3),) * left
    state = position({"e4": t(0, 0)}, t(0, 1), CLASSIC, pouch_rest=stuck)
    after = GAME.apply(state, "e3")
    assert after.score == 1 + bonus
    assert GAME.status(after).outcome == ("won" if left == 0 else "lost")


# --- machine play ---

def test_hint_is_a_legal_move_and_stable():
    state = GAME.new_state(CLASSIC, GAME.new_desc(CLASSIC, Rng("hint")))
    hint = GAME.hints.hint(state, Budget())
    assert not hint.proven and hint.words().startswith("best found")  # a heuristic
    assert hint.value.move in GAME.legal_moves(state)
    assert GAME.hints.hint(state, Budget()).value == hint.value


def heuristic_game(seed, params, tiles_to_come=0):
    """A deal played by the AI without rollouts, until tiles_to_come are left behind the
    tile in hand (or the game is over)."""
    state = GAME.new_state(params, GAME.new_desc(params, Rng(seed)))
    while not state.over and len(state.pouch) - 1 > tiles_to_come:
        cell = best_cell(state.board, state.pouch, params.rules, state.fourways, rollouts=False)
        state = GAME.apply(state, GRID.cell_name(cell))
    return state


@pytest.mark.parametrize("params, tiles_to_come",
                         [(SEED_RULES, 60), (CLASSIC, ROLLOUT_FROM["classic"])])
def test_ai_uses_only_the_multiset_of_the_pouch(params, tiles_to_come):
    # From ROLLOUT_FROM tiles to come, the rollouts' orders must not be the pouch's either.
    state = heuristic_game("order", params, tiles_to_come)
    rest = list(state.pouch[1:])
    shuffled = (state.pouch[0], *Rng("other order").shuffled(rest))
    assert best_cell(state.board, state.pouch, params.rules, state.fourways) == \
        best_cell(state.board, shuffled, params.rules, state.fourways)


@pytest.mark.parametrize("rules", ["seed", "classic"])
def test_planner_kept_move_by_move_equals_a_fresh_one(rules):
    # The rollouts update one planner (draw, place); scoring builds it from the board.
    params = GAME.parse_params(f"rules={rules}")
    for i in range(3):
        state = GAME.new_state(params, GAME.new_desc(params, Rng(f"planner {i}")))
        moves = Rng(f"moves {i}")
        kept = Planner(state.board, rules, state.pouch)
        while not state.over:
            tile = state.pouch[0]
            kept.draw(tile)
            fresh = Planner(state.board, rules, state.pouch[1:])
            assert vars(kept) == vars(fresh)
            assert kept.choices(tile, state.fourways) == list(state.valid)
            cell = moves.choice([c for c, _ in state.valid])
            kept.place(cell, tile)
            state = GAME.apply(state, GRID.cell_name(cell))


def test_rollouts_save_a_deal_the_heuristic_loses():
    # bench-1 (bench/bench_ishido.py's first deal that the heuristic alone does not clear).
    assert heuristic_game("bench-1", CLASSIC).pouch
    assert play_deal("bench-1", "classic", "ai").placed_all


@pytest.mark.parametrize("rules", ["seed", "classic"])
def test_ai_places_more_deals_than_greedy(rules):
    seeds = [f"t{i}" for i in range(10)]
    ai = sum(play_deal(s, rules, "ai").placed_all for s in seeds)
    greedy = sum(play_deal(s, rules, "greedy").placed_all for s in seeds)
    assert ai > greedy and ai == 10


def test_autoplay_command():
    out = io.StringIO()
    assert main(["ishido", "autoplay", "--seed", "s", "--rules", "classic", "--games", "3"],
                out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "player ai  rules classic  deals 3"
    assert lines[1].startswith("all 72 placed ") and "mean 4-ways" in lines[1]
    assert main(["ishido", "autoplay", "--games", "0"], io.StringIO()) == 2
