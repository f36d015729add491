"""Polar's anytime search (solver.anytime), as Solve, Hint and `polar solve` use it: a level
without a stored line gets a winning line first, then the rest of the budget proves or
betters it, and the answer says which. Budgets here are states; the clock is only a cap."""

import io
import json
from pathlib import Path

import pytest

from gridgames.cli import main
from gridgames.core.result import BEST_FOUND, PROVEN, Budget
from gridgames.core.words import count
from gridgames.games import polar
from gridgames.games.polar import make_game
from gridgames.games.polar.anytime import anytime
from gridgames.games.polar.board import MOUNTAIN
from gridgames.games.polar.hints import PolarHints
from gridgames.games.polar.packs import builtin_pack, load_levels
from gridgames.games.polar.solver import PUSHES, solve

GAME = make_game()
PARAMS = GAME.parse_params("")
ORIGINAL = Path(polar.__file__).parent / "levels" / "original.txt"
# The width search's first line takes at most 41,011 states on an original level (level 3)
# and 42,968 on an expert one (level 22).
STATES = 50_000
CAP = 120.0  # seconds: only a cap, far above what the states take


def plain_originals(tmp_path: Path) -> Path:
    """The six original levels without their stored lines and fewest pushes."""
    plain = tmp_path / "plain.txt"
    plain.write_text("".join(line for line in ORIGINAL.read_text().splitlines(keepends=True)
                             if not line.startswith(("pushes ", "solution "))))
    return plain


def wins(level, moves) -> bool:
    state = GAME.new_state(PARAMS, level.desc())
    for move in moves:
        state = GAME.apply(state, move)
    return GAME.status(state).outcome == "won"


@pytest.mark.slow
def test_every_original_level_without_its_line_gets_one_from_the_first_search(tmp_path):
    levels = load_levels(plain_originals(tmp_path))
    assert len(levels) == 6 and not any("solution" in level.info for level in levels)
    for level in levels:
        found = solve(level.board, level.penguin, PUSHES, width=True, max_states=STATES,
                      max_seconds=CAP)
        assert found.moves is not None and wins(level, found.moves), level.name


def test_solve_without_a_stored_line_gives_the_best_found_and_what_is_proven(tmp_path):
    """Original level 4's first line takes 779 states; A* has the rest of 5,000 (too few to
    prove its 23 pushes), then the improving search one state."""
    level = load_levels(plain_originals(tmp_path))[3]
    state = GAME.new_state(PARAMS, level.desc())
    found = PolarHints().solve(state, Budget(nodes=5_000, seconds=CAP))
    assert found.status == BEST_FOUND and wins(level, found.value)
    assert found.nodes <= 5_000 + 1  # the improving search takes one state at least
    pushes, lower = found.extra["pushes"], found.extra["lower_bound"]
    assert 0 < lower < 23 <= pushes
    too_many = count(pushes - lower, "push", "pushes")
    needed = f"at least {lower} pushes needed, so at most {too_many} too many"
    assert found.note == f"{pushes} pushes, {len(found.value)} moves; {needed}"
    hint = PolarHints().hint(state, Budget(nodes=5_000, seconds=CAP))
    assert hint.status == BEST_FOUND and hint.value.move == found.value[0]
    assert hint.value.why == f"on the best line found: {pushes} pushes left; {needed}"


@pytest.mark.slow
def test_every_expert_level_gets_a_line_from_the_first_search():
    for level in builtin_pack("expert"):
        found = solve(level.board, level.penguin, PUSHES, width=True, max_states=STATES,
                      max_seconds=CAP)
        assert found.moves is not None and wins(level, found.moves), level.name
        assert found.pushes >= int(level.info["pushes"])


@pytest.mark.slow  # a second or more (make test runs it)
def test_cli_solve_on_a_plain_file_gives_a_line_and_says_what_is_proven(tmp_path):
    """Fewest moves (the default) on original level 4 from a file without its line: the
    first line, then A* over moves with the rest of 30,000 states (too few to prove)."""
    out = io.StringIO()
    assert main(["polar", "solve", "--levels", str(plain_originals(tmp_path)), "--level",
                 "4", "--states", "30000", "--seconds", str(CAP), "--json"], out) == 0
    report = json.loads(out.getvalue())
    level = load_levels(plain_originals(tmp_path))[3]
    assert wins(level, report["moves"]) and report["first_line_seconds"] is not None
    assert report["status"] == "best found" and report["states"] <= 30_000 + 1
    assert report["objective"] == "moves" and report["move_count"] == len(report["moves"])
    assert report["gap"] == report["move_count"] - report["lower_bound"] > 0
    assert report["words"].endswith(f"the fewest moves not proven; proven at least "
                                    f"{report['lower_bound']} moves, gap {report['gap']}")


# Past the compiled engine's 62 mountains (here 68): a heart, an ice block in its way that
# must first be pushed down, a house; 2 pushes.
CROWDED = "/".join(("P" + "." * 15 + "M" * 8,
                    "MMMMM.+..I....H" + "M" * 9,
                    "M" * 9 + "." + "M" * 14,
                    "M" * 9 + "." + "M" * 14))


def test_a_board_beyond_the_kernels_mountains_still_gets_a_line():
    state = GAME.new_state(PARAMS, CROWDED)
    assert state.board.count(MOUNTAIN) > 62
    found = anytime(state.board, state.penguin, PUSHES, max_states=STATES, max_seconds=CAP)
    assert found.first_states > 0 and found.optimal and found.pushes == 2
    solved = PolarHints().solve(state, Budget(nodes=STATES, seconds=CAP))
    assert solved.status == PROVEN and solved.extra["pushes"] == 2
    state = GAME.new_state(PARAMS, CROWDED)
    for move in solved.value:
        state = GAME.apply(state, move)
    assert GAME.status(state).outcome == "won"
