"""The exact Trilobite solver: Pascal Pons' Connect-4 benchmark sets (data/connect4, scores
as in its README), small boards against plain minimax, the compiled kernel against the Python
reference, the CLI, the perfect player."""

import io
import sys
from pathlib import Path

import numpy as np
import pytest

from gridgames.cli import main
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.core.search import WIN, Minimax
from gridgames.games.trilobite import fastsolver, make_game
from gridgames.games.trilobite.analyzer import analyze
from gridgames.games.trilobite.bitboard import LOWER, MAX_SCORE, Bitboard
from gridgames.games.trilobite.fastsolver import FastSolver, _negamax
from gridgames.games.trilobite.solver import Solver, parse_moves

DATA = Path(__file__).resolve().parents[1] / "data" / "connect4"
GAME = make_game()


def lines(name, every=1, limit=None):
    rows = [r.split() for r in (DATA / name).read_text().splitlines() if r.strip()]
    return rows[::every][:limit]


@pytest.fixture(scope="module")
def fast():
    return FastSolver(7, 6, 4, memory_mb=32)


@pytest.mark.parametrize("name, every, limit", [
    ("Test_L3_R1", 1, None), ("Test_L2_R1", 1, None), ("Test_L1_R1", 1, None),
    ("Test_L2_R2", 20, None), ("Test_L1_R2", 200, None),
])
def test_exact_on_the_benchmark_sets(fast, name, every, limit):
    for moves, score in lines(name, every, limit):
        current, mask, count = parse_moves(fast.g, moves)
        fast.reset()
        assert fast.solve(current, mask, count) == int(score), moves


def test_weak_scores_are_signs(fast):
    for moves, score in lines("Test_L2_R1", 50):
        current, mask, count = parse_moves(fast.g, moves)
        fast.reset()
        expected = (int(score) > 0) - (int(score) < 0)
        assert fast.solve(current, mask, count, weak=True) == expected


def test_each_position_searches_the_table_of_its_number_of_empty_cells():
    solver = FastSolver(7, 6, 4, memory_mb=16)
    assert [most for most, _ in solver._tiers] == [most for most, _ in fastsolver.SMALL_TIERS]
    rows = [row for name in ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1")
            for row in lines(name, 100)]
    largest_small = solver._tiers[-1][1]
    searched = set()  # the regions that searched (a win in one takes no search)
    for text, score in rows:
        current, mask, moves = parse_moves(solver.g, text)
        empty = solver.g.cells - moves
        # The first moves' short searches (Test_L1_R1's, all under SMALL_FIRST nodes) stay
        # in the largest small table.
        used = next((region for most, region in solver._tiers if empty <= most), largest_small)
        before = [int(region.work[fastsolver.NODES]) for region in solver._regions]
        assert solver.solve(current, mask, moves) == int(score)
        grown = [region for region, nodes in zip(solver._regions, before, strict=True)
                 if int(region.work[fastsolver.NODES]) > nodes]
        assert grown in ([], [used]), text
        searched.update(id(region) for region in grown)
    assert searched == {id(region) for _, region in solver._tiers}
    assert solver.memory_bytes == 16 * 1024 * 1024 + sum(
        8 << bits for _, bits in fastsolver.SMALL_TIERS)
    # Pinned to the table of a position one stone before the 32-cell tier's: its children
    # (one stone on) search the large table too.
    before = int(solver._large.work[fastsolver.NODES])
    child = lines("Test_L2_R1", 1, 1)[0][0]
    current, mask, moves = parse_moves(solver.g, child)
    with solver.one_table(solver.g.cells - fastsolver.SMALL_TIERS[-1][0] - 1):
        solver.solve(current, mask, moves)
    assert int(solver._large.work[fastsolver.NODES]) > before


def test_a_long_search_of_the_first_moves_starts_again_in_the_large_table(monkeypatch):
    """A search with no budget past the 32-cell tier starts in the 2 MB table and, past
    SMALL_FIRST nodes, starts again in the large one: exact either way, and the nodes of
    both attempts counted. With a budget (the AI's questions) it searches the large table
    only."""
    solver = FastSolver(7, 6, 4, memory_mb=16)
    small, large = solver._tiers[-1][1], solver._large
    opening = [(text, score) for text, score in lines("Test_L1_R1", 200)
               if solver.g.cells - parse_moves(solver.g, text)[2] > fastsolver.SMALL_TIERS[-1][0]]
    assert opening
    for first, restarts in ((fastsolver.SMALL_FIRST, False), (20, True)):
        monkeypatch.setattr(fastsolver, "SMALL_FIRST", first)
        restarted = 0
        for text, score in opening[:20]:
            current, mask, moves = parse_moves(solver.g, text)
            solver.reset()
            assert solver.solve(current, mask, moves) == int(score), text
            nodes = int(small.work[fastsolver.NODES]), int(large.work[fastsolver.NODES])
            if nodes[0] > first:  # the first attempt ran out (it stops one node past its limit)
                assert nodes[0] == first + 1 and nodes[1] > 0, (text, nodes)
                restarted += 1
            else:
                assert nodes[1] == 0 and solver.nodes == nodes[0], (text, nodes)
        assert bool(restarted) == restarts, restarted
        solver.reset()
        current, mask, moves = parse_moves(solver.g, opening[0][0])
        assert solver.solve(current, mask, moves, budget=10 ** 9) == int(opening[0][1])
        assert int(small.work[fastsolver.NODES]) == 0 and int(large.work[fastsolver.NODES]) > 0


def test_a_board_of_few_cells_has_one_table_of_the_whole_budget():
    solver = FastSolver(5, 4, 4, memory_mb=16)
    assert solver._regions == [solver._large] and solver.memory_bytes == 16 * 1024 * 1024


def test_python_reference_agrees_with_the_compiled_kernel(monkeypatch):
    """The same search node for node: the kernel mirrors the reference. In the large table
    only: in the small ones of the positions near the end (SMALL_TIERS) two of a search's
    positions sometimes share a slot, where the reference's table (a dict) keeps both."""
    monkeypatch.setattr(fastsolver, "SMALL_TIERS", ())
    fast = FastSolver(7, 6, 4, memory_mb=32)
    python = Solver(7, 6, 4)
    for moves, score in lines("Test_L3_R1", 25) + lines("Test_L2_R1", 50):
        current, mask, count = parse_moves(python.g, moves)
        python.reset()
        fast.reset()
        assert python.solve(current, mask, count) == fast.solve(current, mask, count) \
            == int(score)
        assert python.nodes == fast.nodes, moves


@pytest.mark.parametrize("width, height, line", [(9, 6, 4), (10, 5, 5)])
def test_the_kernel_agrees_on_boards_wider_than_eight_columns(monkeypatch, width, height, line):
    """Past 8 columns a frame's sections are 16 long (padded to a multiple of 8 columns);
    9x6 takes the unrolled line test of four, 10x5 the general one. Positions 14 cells
    from the end, reached by random moves that complete no line."""
    monkeypatch.setattr(fastsolver, "SMALL_TIERS", ())
    fast = FastSolver(width, height, line, memory_mb=64)  # 8M slots: no two positions meet
    python = Solver(width, height, line)
    g = python.g
    rng = Rng(f"wide{width}")
    searched, stones = 0, g.cells - 14
    while searched < 8:
        current = mask = 0
        for _ in range(stones):
            spots = [spot for spot in ((mask + (1 << (col * g.h1))) & g.columns[col]
                                       for col in range(width))
                     if spot and not g.winning_cells(current, mask) & spot]
            if not spots:
                break
            current ^= mask
            mask |= rng.choice(spots)
        else:
            python.reset()
            fast.reset()
            assert python.solve(current, mask, stones) == fast.solve(current, mask, stones)
            assert python.nodes == fast.nodes
            searched += 1


# A stored entry decides the node at once when the window lies beyond it: an upper bound v
# (the score itself, negative or not) against the window (v, v + 1), a lower bound v
# (stored as v + LOWER) against (v - 1, v). Until the fix, the kernel took every stored
# value >= 0 for a lower bound, so non-negative upper bounds were never used (8-11% more
# nodes on the benchmark sets).
BOUNDS = [(3, False), (0, False), (-4, False), (3, True), (0, True), (-4, True)]


def store_and_search(solver, position, value, lower):
    current, mask, moves = parse_moves(solver.g, position)
    solver.reset()
    stored = value + LOWER if lower else value
    alpha, beta = (value - 1, value) if lower else (value, value + 1)
    key = current + mask
    if isinstance(solver, Solver):
        solver._store(key, stored)
        return solver.negamax(current, mask, moves, alpha, beta), solver.nodes
    solver._store(key, stored)
    found = _negamax(current, mask, moves, alpha, beta, 1 << 62, solver._large_memory)
    return found, solver.nodes


@pytest.mark.parametrize("value, lower", BOUNDS)
def test_a_stored_bound_decides_the_node(fast, value, lower):
    assert value + LOWER > MAX_SCORE and value <= MAX_SCORE  # the two ranges never meet
    for solver in (fast, Solver(7, 6, 4)):
        assert store_and_search(solver, "4453", value, lower) == (value, 1), solver


def minimax_score(state, cells):
    """The score from a plain, obviously correct search over the engine (core.search)."""
    value = Minimax(GAME).value(state)
    moves = sum(1 for v in state.cells if v)
    if value == 0:
        return 0
    plies = WIN - abs(value)
    score = (cells + 2 - moves - plies) // 2
    return score if value > 0 else -score


@pytest.mark.slow
@pytest.mark.parametrize("width, height, line, opening", [
    (4, 4, 3, 2), (4, 4, 4, 4), (5, 4, 3, 5), (5, 4, 4, 8), (5, 5, 4, 12), (3, 5, 3, 1),
])
def test_small_boards_against_plain_minimax(width, height, line, opening):
    params = GAME.parse_params(f"width={width},height={height},line={line}")
    rng = Rng(f"{width}{height}{line}")
    engines = [Solver(width, height, line), FastSolver(width, height, line, memory_mb=1)]
    for game in range(4):
        state = GAME.new_state(params, GAME.new_desc(params, rng))
        for _ in range(opening):
            if state.over:
                break
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        if state.over:
            continue
        expected = minimax_score(state, width * height)
        board = Bitboard.of(state)
        for engine in engines:
            engine.reset()
            assert engine.solve(board.current, board.mask, board.moves) == expected, game


def test_analyze_gives_every_column(fast):
    for moves_text, score in lines("Test_L3_R1", 100):
        current, mask, moves = parse_moves(fast.g, moves_text)
        scores = analyze(fast, current, mask, moves)
        assert len(scores) == 7
        assert max(s for s in scores if s is not None) == int(score)  # the best column
        for col, s in enumerate(scores):
            assert (s is None) == bool(mask & fast.g.tops[col])  # None: a full column


def test_memory_budget_is_respected():
    small = FastSolver(7, 6, 4, memory_mb=1)
    assert small.memory_bytes <= 1024 * 1024
    python = Solver(7, 6, 4, memory_mb=0.001)
    for moves_text, score in lines("Test_L2_R1", 100):
        current, mask, moves = parse_moves(python.g, moves_text)
        assert python.solve(current, mask, moves) == int(score)
        assert len(python.table) <= python.table_entries


def test_a_position_sharing_a_slot_is_not_taken_for_another():
    """An entry keeps only the key bits its slot does not tell: a bound stored for one
    position must not decide another position that lands in the same slot."""
    tiny = FastSolver(7, 6, 4, memory_mb=0)  # the smallest table: 1024 slots
    by_slot = {}
    for text, _ in lines("Test_L3_R1") + lines("Test_L2_R1"):  # 2000 positions: slots repeat
        current, mask, moves = parse_moves(tiny.g, text)
        tiny.table.fill(0)
        tiny._store(current + mask, 0)
        slot = int(np.flatnonzero(tiny.table)[0])
        if slot in by_slot:
            break
        by_slot[slot] = current + mask
    other = by_slot[slot]
    tried = 0
    for value in range(-3, 4):  # an upper bound `value` decides the window (value, value + 1)
        tiny.reset()
        clean = _negamax(current, mask, moves, value, value + 1, 1 << 62,
                         tiny._large_memory), tiny.nodes
        tiny.reset()
        tiny._store(other, value)
        assert (_negamax(current, mask, moves, value, value + 1, 1 << 62,
                         tiny._large_memory), tiny.nodes) == clean
        tried += clean[1] > 1  # the stored bound would have ended these at once
    assert tried


def test_reset_clears_the_table_when_its_epochs_run_out():
    solver = FastSolver(7, 6, 4, memory_mb=1)
    text, score = lines("Test_L2_R1", 1, 1)[0]
    position = parse_moves(solver.g, text)
    assert solver.solve(*position) == int(score) and solver.table.any()
    region = solver._large  # (1 MB: the only table)
    region.epoch = (1 << region.epoch_bits) - 1  # the last epoch an entry can hold
    solver.reset()
    assert not solver.table.any() and solver.nodes == 0
    assert solver.solve(*position) == int(score)


def test_budget_gives_up_cleanly(fast):
    current, mask, moves = parse_moves(fast.g, "4")
    fast.reset()
    assert fast.solve(current, mask, moves, budget=1000) is None
    current, mask, moves = parse_moves(fast.g, lines("Test_L3_R1", 1, 1)[0][0])
    assert fast.solve(current, mask, moves, budget=10**6) is not None


def position(moves):
    state = GAME.new_state(GAME.parse_params(""), "7/7/7/7/7/7")
    for move in moves:
        state = GAME.apply(state, move)
    return state


@pytest.mark.slow
def test_perfect_player():
    for moves, score in lines("Test_L2_R1", 200):  # middle-game positions with their scores
        state = position(moves)
        found = GAME.ai.choose(state, "perfect", Rng("a"), Budget())
        assert found.proven and found.words() == "proven"
        after = GAME.apply(state, found.value)
        if not after.line:  # the move keeps the game's value: the best score
            current, mask, count = parse_moves(Solver().g, moves + found.value)
            assert -Solver().solve(current, mask, count) == int(score)
    # From an opening the solver cannot finish within its budget (and no book has) it still
    # plays, and says so.
    wide = GAME.parse_params("width=8")
    found = GAME.ai.choose(GAME.new_state(wide, "8/8/8/8/8/8"), "perfect", Rng("b"),
                           Budget(nodes=100_000))
    assert found.value in "12345678" and not found.proven
    assert found.words().startswith("best found in ")
    assert "not proven within the budget" in found.note and "hard level's move" in found.note


def test_analysis_says_what_it_proved():
    moves, score = lines("Test_L2_R1", 1, 1)[0]
    found = GAME.analyzer.analyze(position(moves), Budget())
    assert found.proven and max(found.value.values()) == int(score)
    wide = GAME.parse_params("width=8")  # no book: the empty board is searched
    partial = GAME.analyzer.analyze(GAME.new_state(wide, "8/8/8/8/8/8"), Budget(nodes=50_000))
    assert not partial.proven and None in partial.value.values()
    assert "not solved within the budget" in partial.note


def test_cli_solve(monkeypatch, capsys):
    rows = lines("Test_L3_R1", 1, 3)
    text = "\n".join(f"{m} {s}" for m, s in rows) + "\n44x\n1111111\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    out = io.StringIO()
    # Every good line is scored, every bad one named on stderr, and the command fails.
    assert main(["trilobite", "solve"], out) == 2
    assert out.getvalue().splitlines() == [f"{m} {s}" for m, s in rows]
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("line 4: '44x'") and err[1].startswith("line 5: '1111111'")
    assert err[2] == "gridgames: error: 2 lines were not positions of this board (see above)"
    position, score = rows[0]
    monkeypatch.setattr(sys, "stdin", io.StringIO(position + "\n"))
    out = io.StringIO()
    main(["trilobite", "solve", "--analyze"], out)
    words = out.getvalue().split()
    assert words[0] == position and len(words) == 8
    assert max(int(w) for w in words[1:] if w != "-") == int(score)
    monkeypatch.setattr(sys, "stdin", io.StringIO(position + "\n"))
    out = io.StringIO()
    main(["trilobite", "solve", "--weak", "--engine", "python"], out)
    weak = (int(score) > 0) - (int(score) < 0)
    assert out.getvalue().strip() == f"{position} {weak}"
    assert main(["trilobite", "solve", "--memory", "0"], io.StringIO()) == 2


@pytest.mark.slow
def test_best_columns_agree_with_every_columns_exact_score():
    """best_columns (one solve, then a null-window question per column) finds the same best
    score and the same set of best columns as solving every column exactly, with both
    engines; and it gives up (None) when its budget is too small."""
    from gridgames.core.errors import BadInput
    from gridgames.games.trilobite.analyzer import best_columns, column_scores, make_solver
    from gridgames.games.trilobite.solver import Solver

    rng = Rng("best-columns")
    # The reference in Python is slow: fewer positions for it.
    for solver, positions in ((make_solver(5, 4, 4, 16), 40), (Solver(5, 4, 4, 16), 15)):
        g = solver.g
        checked = 0
        while checked < positions:
            text = "".join(str(rng.below(5) + 1) for _ in range(rng.below(12)))
            try:
                current, mask, moves = parse_moves(g, text)
            except BadInput:
                continue
            scores = column_scores(solver, current, mask, moves)
            top = max(s for s in scores if s is not None)
            want = (top, [c for c, s in enumerate(scores) if s == top])
            assert best_columns(solver, current, mask, moves) == want, text
            # With no nodes for ties once one column is proven best: that column only.
            first = best_columns(solver, current, mask, moves, tie_budget=0)
            assert first[0] == top and len(first[1]) == 1 and first[1][0] in want[1], text
            checked += 1
    solver = make_solver(7, 6, 4, 16)
    assert best_columns(solver, *parse_moves(solver.g, "44"), budget=1000) is None


def test_best_columns_keep_scores_beyond_the_kernels_range():
    """On boards only the Python solver takes, scores pass 32: nothing clamps them. On 10x10
    line 5 after 334455 the first player wins with an open four (columns 2 and 6, 0-based 1
    and 5), its stone then the 9th on the board: (100 + 1 - 9) // 2 = 46."""
    from gridgames.games.trilobite.analyzer import best_columns
    from gridgames.games.trilobite.solver import Solver

    solver = Solver(10, 10, 5)
    assert best_columns(solver, *parse_moves(solver.g, "334455")) == (46, [1, 5])


def test_best_columns_use_known_scores_and_keep_a_proven_column_when_the_budget_ends():
    """Scores an opening book holds are not searched again (all known: no node at all); a
    budget that ends after the first column was proven best still gives that column, the
    centre's first, which is one of the best."""
    from gridgames.games.trilobite.analyzer import best_columns, column_scores, make_solver
    from gridgames.games.trilobite.book import child_positions

    solver = make_solver(5, 4, 4, 16)
    g = solver.g
    partial = 0
    for text in ("3", "32", "331", "2344"):
        current, mask, moves = parse_moves(g, text)
        exact = {}  # every position one move on, and the position itself, solved apart
        for _, child, child_mask, _ in child_positions(current, mask, g):
            exact[child, child_mask] = solver.solve(child, child_mask, moves + 1)
        exact[current, mask] = solver.solve(current, mask, moves)
        full = best_columns(solver, current, mask, moves)
        scores = column_scores(solver, current, mask, moves)
        assert full == (max(s for s in scores if s is not None),
                        [c for c, s in enumerate(scores) if s == full[0]])
        solver.reset()
        before = solver.nodes
        assert best_columns(solver, current, mask, moves,
                            known=lambda c, m, exact=exact: exact.get((c, m))) == full
        assert solver.nodes == before, text  # every score was known
        # Only the position's own score known, one node of budget: the first column asked
        # (the centre) is searched past the budget unless its answer is known.
        centre = {(c, m): s for (c, m), s in exact.items() if (c, m) == (current, mask)}
        centre_col = g.width // 2
        child = [(ch, cm) for col, ch, cm, _ in child_positions(current, mask, g)
                 if col == centre_col][0]
        if -exact[child] == full[0]:
            centre[child] = exact[child]
            found = best_columns(solver, current, mask, moves, budget=1,
                                 known=lambda c, m, centre=centre: centre.get((c, m)))
            assert found is not None and found[0] == full[0]
            assert centre_col in found[1] and set(found[1]) <= set(full[1])
            partial += 1
    assert partial  # the centre was a best column somewhere


def test_best_columns_start_from_a_known_position_one_move_back():
    """A known score one move back (the other side's top stone taken off) is a floor of
    the position's score (parents_floor), and best_columns starting from it finds what it
    finds from nothing; the analyzer keeps the exact scores its searches proved (the
    position's, its best columns') for the next move's search."""
    from gridgames.core.errors import BadInput
    from gridgames.games.trilobite.analyzer import (
        SolverPool,
        TrilobiteAnalyzer,
        best_columns,
        make_solver,
        parents_floor,
    )
    from gridgames.games.trilobite.book import BookShelf, position_key

    solver = make_solver(5, 4, 4, 16)
    g = solver.g
    rng = Rng("parents-floor")
    floors = checked = 0
    while checked < 30:
        text = "".join(str(rng.below(5) + 1) for _ in range(1 + rng.below(10)))
        try:
            current, mask, moves = parse_moves(g, text)
            before = parse_moves(g, text[:-1])  # a position one move back, solved apart
        except BadInput:
            continue
        if g.winning_cells(current, mask) & ((mask + g.bottom) & g.board):
            continue  # a win at once: no search to start
        parent_score = make_solver(5, 4, 4, 1).solve(*before)

        def known(c, m, before=before, parent_score=parent_score):
            return parent_score if (c, m) == before[:2] else None
        floor = parents_floor(known, current, mask, g)
        exact = solver.solve(current, mask, moves)
        assert floor == -parent_score and floor <= exact, text
        floors += floor == exact
        solver.reset()
        plain = best_columns(solver, current, mask, moves)
        solver.reset()
        assert best_columns(solver, current, mask, moves, known=known) == plain, text
        checked += 1
    assert floors  # the other side kept its score somewhere

    analyzer = TrilobiteAnalyzer(SolverPool(16), BookShelf(folders=[]))
    game = make_game()
    params = game.parse_params("width=5,height=4")
    state = game.new_state(params, game.new_desc(params, Rng("p")))
    for move in "3231":
        state = game.apply(state, move)
    (score, columns), _ = analyzer.best(state, Budget())
    board = Bitboard.of(state)
    assert analyzer.proven.get((5, 4, 4, position_key(board.current, board.mask, g))) == score
    board.play(columns[0])
    key = (5, 4, 4, position_key(board.current, board.mask, g))
    assert analyzer.proven.get(key) == -score == solver.solve(board.current, board.mask,
                                                               board.moves)


def test_the_last_column_standing_is_best_with_no_search_of_its_own():
    """With the position's score exact and every other column proven short of it, the one
    column left reaches the score: best_columns says so without a node. Here the others'
    scores come from `known`, as a book's would."""
    from gridgames.games.trilobite.analyzer import best_columns, column_scores, make_solver
    from gridgames.games.trilobite.book import child_positions

    solver = make_solver(5, 4, 4, 16)
    g = solver.g
    found = 0
    for text in ("3", "32", "331", "2344", "12", "5432", "333"):
        current, mask, moves = parse_moves(g, text)
        scores = column_scores(solver, current, mask, moves)
        top = max(s for s in scores if s is not None)
        if scores.count(top) != 1:
            continue  # ties: no column is the last one standing
        best = scores.index(top)
        known = {(current, mask): top}
        for col, child, child_mask, _ in child_positions(current, mask, g):
            if col != best:
                known[child, child_mask] = -scores[col]
        solver.reset()
        assert best_columns(solver, current, mask, moves,
                            known=lambda c, m, known=known: known.get((c, m))) == (top, [best])
        assert solver.nodes == 0, text
        found += 1
    assert found >= 3
