"""Polar's level generator (proven fewest pushes at a requested difficulty) and the `expert`
pack it made."""

import io
import json

import pytest

from gridgames.cli import main
from gridgames.core.rng import Rng
from gridgames.games.polar import make_game
from gridgames.games.polar.board import BOMB, HEART, HOUSE, TREE
from gridgames.games.polar.generator import Target, generate, mutate, random_board
from gridgames.games.polar.packs import builtin_pack, read_pack
from gridgames.games.polar.solver import PUSHES, solve

GAME = make_game()
PARAMS = GAME.parse_params("")


def replay(desc, moves):
    """(won, pushes) of the moves played from the level."""
    state, pushes = GAME.new_state(PARAMS, desc), 0
    for move in moves:
        after = GAME.apply(state, move)
        pushes += after.penguin == state.penguin  # the penguin stayed: it pushed
        state = after
    return GAME.status(state).outcome == "won", pushes


def test_a_changed_board_keeps_its_hearts_bombs_a_house_and_a_place_for_the_penguin():
    rng = Rng("mutate")
    board, penguin = random_board(rng, hearts=3, bombs=2)
    for _ in range(500):
        board, penguin = mutate(rng, board, penguin)
        assert board.count(HEART) == 3 and board.count(BOMB) == 2
        assert board.count(HOUSE) >= 1 and board[penguin] in (0, TREE)


@pytest.mark.slow
def test_the_generator_meets_its_target_with_a_proof_and_repeats_from_a_seed():
    target = Target(min_pushes=6, hearts=2, bombs=1, states=20_000)
    first = generate(Rng("repeat"), target)
    again = generate(Rng("repeat"), target)
    assert (first.level, first.pushes, first.solution, first.candidates) == \
        (again.level, again.pushes, again.solution, again.candidates)
    board = first.level.board
    assert first.pushes >= 6 and board.count(HEART) == 2 and board.count(BOMB) == 1
    fresh = solve(board, first.level.penguin, PUSHES, max_states=200_000)
    assert fresh.optimal and fresh.pushes == first.pushes
    won, pushes = replay(first.level.desc(), first.solution)
    assert won and pushes >= first.pushes and first.moves == len(first.solution)
    other = generate(Rng("another seed"), target)
    assert other.level != first.level


def test_the_expert_pack_is_ordered_by_its_proven_fewest_pushes():
    levels = builtin_pack("expert")
    assert len(levels) >= 20
    pushes = [int(level.info["pushes"]) for level in levels]
    assert pushes == sorted(pushes) and pushes[0] >= 15
    assert len({level.desc() for level in levels}) == len(levels)
    for level, fewest in zip(levels, pushes, strict=True):
        solution = level.info["solution"]
        won, pushed = replay(level.desc(), solution)
        assert won and pushed >= fewest
        assert len(solution) == int(level.info["best"].rstrip("+"))


# The levels of the expert pack whose proof is quickest (measured when the pack was made):
# a fresh proof must give the fewest pushes the file says.
QUICK_TO_PROVE = (2, 16, 23)  # 15, 16 and 19 pushes


def test_expert_levels_proven_again_by_the_command_line():
    levels = builtin_pack("expert")
    for number in QUICK_TO_PROVE:
        out = io.StringIO()
        assert main(["polar", "solve", "--pack", "expert", "--level", str(number),
                     "--objective", "pushes", "--json", "--seconds", "60"], out) == 0
        report = json.loads(out.getvalue())
        assert report["proven"] is True
        assert report["pushes"] == int(levels[number - 1].info["pushes"])


def test_generate_refuses_bad_requests(capsys):
    for bad in (["--hearts", "0"], ["--bombs", "-1"], ["--states", "5"], ["--count", "0"],
                ["--min-pushes", "9", "--hardest", "3"], ["--jobs", "0"]):
        assert main(["polar", "generate", *bad], io.StringIO()) == 2
        assert capsys.readouterr().err.count("\n") == 1  # one clear line


@pytest.mark.slow
def test_generate_prints_a_pack_that_loads_and_says_how_it_was_made():
    out = io.StringIO()
    assert main(["polar", "generate", "--seed", "cli", "--count", "2", "--min-pushes", "3",
                 "--hardest", "4", "--hearts", "1", "--states", "5000"], out) == 0
    text = out.getvalue()
    assert text.startswith("# Made by: gridgames polar generate --seed cli --count 2 "
                           "--min-pushes 3 --hardest 4 --states 5000 --hearts 1\n")
    assert "candidate boards tried" in text
    levels = read_pack(text)
    pushes = [int(level.info["pushes"]) for level in levels]
    assert len(levels) == 2 and pushes == sorted(pushes) and pushes[-1] >= 4
    assert all(level.hearts == 1 for level in levels)
