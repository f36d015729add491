"""Polar's Solve and Hint (hints.py): the hint is the first step of a fewest-pushes line from
the current position, checked against an independent A* at every push; proven only where a
search finished; the best line found with its proven lower bound otherwise; a player who
wasted a push is told so; a pack's stored line is proven only when the pack's fewest says so."""

import pytest

from gridgames.core.result import BEST_FOUND, NONE, PROVEN, Budget
from gridgames.core.words import count
from gridgames.games.polar import make_game
from gridgames.games.polar.game import play
from gridgames.games.polar.hints import PROVE_STORED_SECONDS, PolarHints
from gridgames.games.polar.packs import Level, builtin_pack
from gridgames.games.polar.solver import PUSHES, solve
from gridgames.session import Session

GAME = make_game()
BUDGET = Budget(seconds=30)


def fewest_pushes(state) -> int | None:
    """The fewest pushes from a position by plain A* (None: proven unsolvable)."""
    found = solve(state.board, state.penguin, PUSHES, max_seconds=120)
    assert found.complete and (found.moves is None or found.optimal)
    return None if found.moves is None else found.pushes


def pushes_of(level: Level, moves: list[str]) -> int:
    board, penguin, hearts, pushes = level.board, level.penguin, level.hearts, 0
    for move in moves:
        board, after, hearts, _ = play(board, penguin, hearts, move)
        pushes += after == penguin
        penguin = after
    assert hearts == 0, "the line wins"
    return pushes


def test_following_the_hints_each_push_takes_one_off_the_proven_fewest():
    hints = PolarHints()
    session = Session.new("polar", "pack=original,level=1")
    start = fewest_pushes(session.state)
    left, searched = start, []
    while session.status().outcome == "ongoing":
        state = session.state
        hint = hints.hint(state, BUDGET)
        assert hint.status == PROVEN and hint.extra["pushes"] == left
        assert hint.extra["lower_bound"] == left
        why = f"on an optimal line: {left} pushes left" if left != 1 else \
            "on an optimal line: 1 push left"
        assert hint.value.why.startswith(why)
        if state.pushes:  # compared with the level's fewest, which it is on
            assert hint.value.why.endswith(f"({state.pushes} made, {start} in all, the fewest)")
        searched.append(hint.nodes)
        session.play(hint.value.move)
        if session.state.pushes > state.pushes:  # a push: the fewest from here is one less
            left -= 1
            assert GAME.status(session.state).outcome == "won" if left == 0 else \
                fewest_pushes(session.state) == left
    assert session.status().outcome == "won" and session.state.pushes == start == 14
    # The first hint searched; the rest were answered from the proven line, at once.
    assert searched[0] > 0 and not any(searched[1:])


def test_a_wasted_push_is_told_against_the_levels_fewest():
    hints = PolarHints()
    session = Session.new("polar", "pack=original,level=1")
    start = fewest_pushes(session.state)
    hints.hint(session.state, BUDGET)
    # Along the proven line, the first push that keeps the level solvable but costs more.
    while True:
        state = session.state
        hint = hints.hint(state, BUDGET)
        for move in GAME.legal_moves(state):
            after = GAME.apply(state, move)
            if after.pushes == state.pushes or GAME.status(after).over:
                continue
            needed = fewest_pushes(after)
            if needed is not None and after.pushes + needed > start:
                told = hints.hint(after, BUDGET)
                assert told.status == PROVEN and told.extra["pushes"] == needed
                assert told.value.why == (
                    f"off the optimal line: {after.pushes} push{'es' * (after.pushes > 1)} "
                    f"made + {needed} left = {after.pushes + needed}, the level's fewest is "
                    f"{start}; {needed} is the fewest from here")
                return
        session.play(hint.value.move)
        assert session.status().outcome == "ongoing", "no wasted push found on the line"


def test_a_dead_end_the_rules_do_not_see_is_proven_to_have_no_solution():
    hints = PolarHints()
    session = Session.new("polar", "pack=original,level=1")
    while True:
        state = session.state
        for move in GAME.legal_moves(state):
            after = GAME.apply(state, move)
            if not GAME.status(after).over and fewest_pushes(after) is None:
                told = hints.hint(after, BUDGET)
                assert told.status == PROVEN and told.value is None
                assert told.note == "no solution from here: undo or restart"
                solved = hints.solve(after, BUDGET)
                assert solved.status == PROVEN and solved.value is None
                return
        session.play(hints.hint(state, BUDGET).value.move)
        assert session.status().outcome == "ongoing", "no dead end found beside the line"


def test_solve_marks_its_line_proven_fewest():
    session = Session.new("polar", "pack=original,level=1")
    found = PolarHints().solve(session.state, BUDGET)
    assert found.status == PROVEN and found.extra["pushes"] == 14
    assert pushes_of(builtin_pack("original")[0], found.value) == 14
    assert found.note == f"14 pushes, the fewest; {len(found.value)} moves"


@pytest.mark.slow
def test_a_search_cut_short_gives_the_best_line_found_and_a_lower_bound():
    """Original level 6 is far from proven in a few thousand states: the hint and the
    solution are the best line found, with what A* proved before it stopped."""
    level = builtin_pack("original")[5]
    state = Session.new("polar", "pack=original,level=6").state
    # Enough states for the width search's first line (30,337), a little A* after it
    small = Budget(nodes=32_000, seconds=60)
    hints = PolarHints()
    solved = hints.solve(state, small)
    assert solved.status == BEST_FOUND and solved.words().startswith("best found in ")
    pushes, lower = solved.extra["pushes"], solved.extra["lower_bound"]
    assert 0 < lower < pushes == pushes_of(level, solved.value)
    extra = count(pushes - lower, "push", "pushes")
    assert solved.note == (f"{pushes} pushes, {len(solved.value)} moves; at least {lower} "
                           f"pushes needed, so at most {extra} too many")
    hints = PolarHints()
    hint = hints.hint(state, small)
    assert hint.status == BEST_FOUND and hint.value.move in GAME.legal_moves(state)
    left, lower = hint.extra["pushes"], hint.extra["lower_bound"]
    extra = count(left - lower, "push", "pushes")
    assert hint.value.why == (f"on the best line found: {left} pushes left; at least {lower} "
                              f"pushes needed, so at most {extra} too many")
    # Walking does not change the fewest pushes: up to the line's first push the hints come
    # from the line at once; after it the position is searched again, and the line kept
    # unless the new search found a shorter one.
    while state.pushes == 0:
        state = GAME.apply(state, hint.value.move)
        hint = hints.hint(state, small)
        assert (hint.nodes > 0) == (state.pushes == 1)
    assert hint.status == BEST_FOUND and hint.extra["pushes"] <= left - 1


def test_a_packs_line_is_proven_only_when_it_has_the_packs_fewest_pushes():
    level = builtin_pack("original")[0]
    line = solve(level.board, level.penguin, PUSHES).moves
    fewest = pushes_of(level, line)
    state = GAME.new_state(GAME.parse_params("pack=original"), level.desc())
    for claimed, searched in ((fewest, False), (fewest - 1, True)):
        stored = Level(level.name, level.board, level.penguin, level.hearts,
                       {"pushes": str(claimed), "solution": "".join(line)})
        hint = PolarHints(known=[(stored, line)]).hint(state, BUDGET)
        # A claim the stored line does not meet is not trusted: the hint searches (and
        # proves the true fewest).
        assert hint.status == PROVEN and hint.extra["pushes"] == fewest
        assert (hint.nodes > 0) == searched


def test_a_tiny_budget_never_claims_a_proof():
    state = Session.new("polar", "pack=original,level=6").state
    found = PolarHints().hint(state, Budget(seconds=0.001))
    assert found.status in (NONE, BEST_FOUND)
    assert found.value is not None or found.note == "no solution found within the budget"


def test_the_original_levels_stored_lines_give_a_hint_at_once():
    """levels/original.txt carries our best line for each original level (and the proven
    fewest of levels 1 to 4, 14, 21, 25 and 23): elsewhere it is the best found, a hint at once even
    when no search fits the budget, never called proven."""
    hints = GAME.hints
    for number, level in enumerate(builtin_pack("original"), 1):
        line = list(level.info["solution"])
        state = Session.new("polar", f"pack=original,level={number}").state
        hint = hints.hint(state, Budget(seconds=0.001))
        assert hint.value.move == line[0] and hint.extra["pushes"] == pushes_of(level, line)
        proven = {1: "14", 2: "21", 3: "25", 4: "23"}.get(number)
        assert level.info.get("pushes") == proven
        assert hint.status == (PROVEN if proven else BEST_FOUND)


@pytest.mark.slow
def test_on_a_stored_line_a_hint_only_tries_briefly_to_prove_it():
    """On an unproven original level the page's budget (10 s) is not spent on a search that
    would not beat the stored line: A* tries to prove for PROVE_STORED_SECONDS, then the
    stored line is the hint, with A*'s bound, and the same position is not searched again."""
    level = builtin_pack("original")[5]
    line = list(level.info["solution"])
    state = Session.new("polar", "pack=original,level=6").state
    hints = PolarHints(known=[(level, line)])
    first = hints.hint(state, Budget(seconds=10))
    assert first.status == BEST_FOUND and first.value.move == line[0]
    assert first.nodes > 0 and first.seconds < 3 * PROVE_STORED_SECONDS  # not the 10 s
    assert 0 < first.extra["lower_bound"] < first.extra["pushes"] == pushes_of(level, line)
    again = hints.hint(state, Budget(seconds=10))
    assert again.nodes == 0 and again.extra == first.extra
