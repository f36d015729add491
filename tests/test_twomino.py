"""2mino, from its source (docs/rules/twomino.md); unique puzzles, solvers, Dominosa interop
(data/dominosa)."""

import io
from collections import Counter
from pathlib import Path

import pytest

from gridgames.cli import main
from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.games.twomino import make_game
from gridgames.games.twomino.board import check_board, hint_bars, samples, shuffled
from gridgames.games.twomino.dominosa import dominosa_solution, parse_dominosa, to_dominosa
from gridgames.games.twomino.game import encode_desc
from gridgames.games.twomino.generator import (
    hint_free_puzzle,
    puzzle_with_given_bars,
    random_board,
    unique_puzzle,
)
from gridgames.games.twomino.layout import layout, pair_index, pair_of_index
from gridgames.games.twomino.solver import Puzzle, count_solutions, deduce
from gridgames.session import Session

DATA = Path(__file__).resolve().parents[1] / "data" / "dominosa"
GAME = make_game()


def state_for(n, board, locked=()):
    params = GAME.parse_params(f"n={n}")
    return GAME.new_state(params, encode_desc(n, board.symbols, list(locked)))


def test_pairs_in_the_seeds_order():
    # docs/rules/twomino.md: pairs 00, 10, 11, 20, 21, 22, ... (higher value first).
    assert [pair_of_index(i) for i in range(6)] == [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1),
                                                    (2, 2)]
    assert pair_index(1, 2) == pair_index(2, 1) == 4


@pytest.mark.parametrize("n", [3, 4, 7, 12, 13])
def test_samples_board_layout(n):
    board = samples(n)
    lay = layout(n)
    assert (lay.grid.rows, lay.grid.cols) == (n + 1, n)  # docs/rules/twomino.md: N+1 x N
    check_board(board)
    first = board.partner[0]
    # Vertical pairs when N is odd, horizontal when N is even; the first pair is 00, then 10.
    assert first == (n if n % 2 else 1)
    second = 1 if n % 2 else 2
    assert (board.symbols[second], board.symbols[board.partner[second]]) == (1, 0)


@pytest.mark.parametrize("n", range(3, 14))
def test_generator_holds_every_pair_once_and_its_answer_wins(n):
    for seed in range(4):
        rng = Rng(f"gen-{n}-{seed}")
        board = shuffled(n, rng)
        check_board(board)
        locked = hint_bars(board, rng)
        assert len(locked) == n * n // 4  # the source's N^2/4 hint bars
        assert set(locked) <= set(board.separators())
        state = state_for(n, board, locked)
        lay = layout(n)
        for bar in board.separators():  # the hidden arrangement, bar by bar
            if bar not in state.locked:
                state = GAME.apply(state, lay.bar_name(bar))
        assert GAME.status(state).outcome == "won"
        assert GAME.legal_moves(state) == []


def test_pairs_counters_and_clear():
    board = samples(3)
    state = state_for(3, board)
    lay = layout(3)
    # Enclose the first domino (00, vertical at a1-a2): its outline bars on.
    middle = lay.bar_index[(0, 3)]
    for bar in lay.outline(middle):
        state = GAME.apply(state, lay.bar_name(bar))
    assert state.counts[0] == 1 and GAME.status(state).message == "1 of 6 pairs found"
    # Cutting it in half breaks it.
    cut = GAME.apply(state, lay.bar_name(middle))
    assert cut.counts[0] == 0
    cleared = GAME.apply(state, "clear")
    assert cleared.on == cleared.locked and cleared.counts[0] == 0
    with pytest.raises(IllegalMove, match="nothing to clear"):
        GAME.apply(cleared, "clear")


def test_a_pair_move_encloses_two_cells_in_one_step():
    """`a1=a2`: the bar between off, the bars around on, whatever was there; the same
    position as the bar moves it stands for, and one undo step in a session."""
    board = samples(3)
    state = state_for(3, board)
    lay = layout(3)
    middle = lay.bar_index[(0, 3)]
    by_bars = state
    for bar in lay.outline(middle):
        by_bars = GAME.apply(by_bars, lay.bar_name(bar))
    cut = GAME.apply(state, lay.bar_name(middle))  # the bar between the two cells on first
    for start in (state, cut):
        paired = GAME.apply(start, "a1=a2")
        assert paired.on == by_bars.on and paired.counts[0] == 1
    assert "a1=a2" not in GAME.legal_moves(state)  # one move a place: the bars'
    assert GAME.move_words("a1=a2") == "a1 and a2 as one domino"
    with pytest.raises(IllegalMove, match="a domino already"):
        GAME.apply(by_bars, "a1=a2")
    for bad, words in (("a1=c1", "not a pair"), ("a1=a1", "not a pair"), ("a1=", "cell name"),
                       ("=a1", "cell name"), ("a1=a2=a3", "cell name")):
        with pytest.raises(IllegalMove, match=words):
            GAME.apply(state, bad)
    rng = Rng("locks")
    board5 = shuffled(5, rng)
    locked = hint_bars(board5, rng)
    between = layout(5).bar_name(locked[0]).replace("-", "=")
    with pytest.raises(IllegalMove, match="locked bar lies between"):
        GAME.apply(state_for(5, board5, locked), between)
    session = Session.from_id(f"twomino:n=3:{encode_desc(3, board.symbols, ())}")
    session.play("a1=a2")
    session.undo()
    assert session.state.on == frozenset() and session.moves == []


def test_locked_bars_and_bad_moves():
    rng = Rng("locks")
    board = shuffled(5, rng)
    locked = hint_bars(board, rng)
    state = state_for(5, board, locked)
    lay = layout(5)
    with pytest.raises(IllegalMove, match="locked"):
        GAME.apply(state, lay.bar_name(locked[0]))
    for bad in ("a1-c1", "a1", "z9-z10", "a1-a1"):
        with pytest.raises(IllegalMove):
            GAME.apply(state, bad)


def test_any_arrangement_that_finds_every_pair_once_wins():
    # A board with two solutions: winning by the other one counts.
    puzzle = None
    for seed in range(200):
        board = shuffled(4, Rng(f"multi{seed}"))
        puzzle = Puzzle.of(4, board.symbols, frozenset())
        count, first = count_solutions(puzzle, limit=2)
        if count == 2:
            break
    assert count == 2
    others = []
    count_solutions(puzzle, limit=2)
    # Find the second solution explicitly by excluding one domino of the first.
    lay = layout(4)
    for p in first:
        alt = Puzzle.of(4, board.symbols, frozenset({puzzle.bars[p]}))
        n_alt, alt_first = count_solutions(alt, limit=1)
        if n_alt:
            others = [alt.cells_of(q) for q in alt_first]
            break
    assert others and set(others) != {puzzle.cells_of(p) for p in first}
    state = state_for(4, board)
    middles = {lay.bar_index[pair] for pair in others}
    for bar in range(len(lay.bars)):
        if bar not in middles:
            state = GAME.apply(state, lay.bar_name(bar))
    assert GAME.status(state).outcome == "won"


@pytest.mark.parametrize("n, level", [(4, "trivial"), (7, "trivial"), (10, "trivial"),
                                      (4, "basic"), (7, "basic"), (10, "basic"),
                                      (5, "hard"), (7, "hard"), (13, "hard"),
                                      (5, "extreme"), (7, "extreme"), (9, "extreme")])
def test_unique_puzzles_have_one_solution_and_the_asked_grade(n, level):
    made = unique_puzzle(n, level, Rng(f"u{n}{level}"))
    check_board(made.board)
    puzzle = Puzzle.of(n, made.board.symbols, made.locked)
    assert count_solutions(puzzle, limit=2)[0] == 1
    assert deduce(n, made.board.symbols, made.locked).grade == level
    assert set(made.locked) <= set(made.board.separators())


@pytest.mark.parametrize("n", range(3, 14))
def test_random_boards_deal_every_pair_once_without_two_way_blocks(n):
    """No two parallel dominoes form a 2x2 block with equal diagonal cells (such a block reads
    just as well as the two other dominoes, so the board would have two solutions)."""
    lay = layout(n)
    made = 0
    for seed in range(6):
        board = random_board(n, Rng(f"rb-{n}-{seed}"))
        if board is None:
            continue
        made += 1
        check_board(board)
        sym, mate = board.symbols, board.partner
        for r in range(n):
            for c in range(n - 1):
                a, b = lay.grid.index(r, c), lay.grid.index(r, c + 1)
                x, y = lay.grid.index(r + 1, c), lay.grid.index(r + 1, c + 1)
                if (mate[a] == b and mate[x] == y) or (mate[a] == x and mate[b] == y):
                    assert sym[a] != sym[y] and sym[b] != sym[x], (n, seed, r, c)
    assert made >= 3


@pytest.mark.parametrize("n, level", [(7, "basic"), (9, "hard")])
def test_puzzles_without_and_with_given_bars(n, level):
    """Both ways of making unique puzzles, each on its own: hint-free boards have no locked
    bar; boards with given bars lock a few bars of their answer."""
    free = hint_free_puzzle(n, level, Rng(f"free-{n}"))
    assert free is not None and not free.locked
    given = puzzle_with_given_bars(n, level, Rng(f"given-{n}"))
    assert given.locked
    for made in (free, given):
        assert count_solutions(Puzzle.of(n, made.board.symbols, made.locked), limit=2)[0] == 1
        assert deduce(n, made.board.symbols, made.locked).grade == level


def test_hard_and_extreme_unique_puzzles_need_five_symbols():
    for level in ("hard", "extreme"):
        with pytest.raises(BadInput, match="5 or more"):
            GAME.parse_params(f"n=4,gen=unique,level={level}")
    GAME.parse_params("n=4,gen=unique,level=basic")


def test_solve_hint_and_check_through_the_session():
    session = Session.new("twomino", "n=5,gen=unique,level=basic", seed="s")
    hint = GAME.hints.hint(session.state, Budget())
    assert hint.proven  # a deduction, not a guess
    assert hint.value.move in GAME.legal_moves(session.state) and "turn" in hint.value.why
    session.play(hint.value.move)
    assert GAME.checker.check(session.state, Budget()).value == []  # a hinted bar is never wrong
    assert session.solve(Budget()).proven
    assert session.status().outcome == "won"
    session.undo()
    # A bar across a domino of the (unique) answer contradicts every solution.
    lay = layout(5)
    answer = Puzzle.of(5, session.state.symbols, session.state.locked)
    _, first = count_solutions(answer, limit=1)
    wrong = lay.bar_name(answer.bars[first[0]])
    if wrong in GAME.legal_moves(session.state) and \
            answer.bars[first[0]] not in session.state.on:
        session.play(wrong)
        assert wrong in GAME.checker.check(session.state, Budget()).value


# --- Simon Tatham's Dominosa ---

def tatham_rows():
    text = (DATA / "tatham-puzzles.tsv").read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line.strip()]


def test_dominosa_ids_round_trip_and_are_accepted_as_game_ids():
    _, dominosa_id, *_ = tatham_rows()[0]
    n, symbols = parse_dominosa(dominosa_id)
    assert n == 7 and to_dominosa(n, symbols) == dominosa_id
    session = Session.from_id(dominosa_id)
    assert session.game.name == "twomino" and session.state.symbols == symbols
    with pytest.raises(BadInput):
        parse_dominosa("6:123")


@pytest.mark.slow
def test_every_external_puzzle_is_read_solved_and_graded():
    """All 130 puzzles: converted to our orientation; unique ones solved uniquely and equal to
    the planted solution; no deduction step rules out a domino of that solution; our grade is
    Simon Tatham's on every graded puzzle (the techniques follow his, see advanced.py)."""
    agreement = Counter()
    for seed_id, dominosa_id, grade, uniqueness, solution in tatham_rows():
        n, symbols = parse_dominosa(dominosa_id)
        puzzle = Puzzle.of(n, symbols, frozenset())
        count, first = count_solutions(puzzle, limit=2)
        assert (count == 1) == (uniqueness == "unique"), seed_id
        planted = set(dominosa_solution(n, solution))
        if count == 1:
            assert {puzzle.cells_of(p) for p in first} == planted, seed_id
        result = deduce(n, symbols, frozenset())
        for step in result.steps:
            assert not {puzzle.cells_of(p) for p in step.ruled_out} & planted, (seed_id, step)
            if count == 1:
                assert {puzzle.cells_of(p) for p in step.placed} <= planted, (seed_id, step)
        ours = result.grade.capitalize() if result.solved else "Beyond"
        agreement[(grade, ours)] += 1
    assert agreement == {("Trivial", "Trivial"): 40, ("Basic", "Basic"): 40,
                         ("Hard", "Hard"): 24, ("Extreme", "Extreme"): 21,
                         ("Ambiguous", "Beyond"): 5}  # no deduction settles those


@pytest.mark.parametrize("level, below", [("Hard", "basic"), ("Extreme", "hard")])
def test_external_puzzles_need_their_level(level, below):
    """A puzzle Simon Tatham grades Hard (Extreme) is not solved with techniques up to basic
    (hard) alone, and its steps at the top level say why in words."""
    for _, dominosa_id, grade, *_ in tatham_rows():
        if grade != level:
            continue
        n, symbols = parse_dominosa(dominosa_id)
        assert not deduce(n, symbols, frozenset(), max_level=below).solved
        top = [s for s in deduce(n, symbols, frozenset()).steps if s.level == level.lower()]
        assert top and all(step.why and step.ruled_out for step in top)


def test_cli_solve_and_export():
    _, dominosa_id, grade, *_ = tatham_rows()[0]
    out = io.StringIO()
    assert main(["twomino", "solve", dominosa_id], out) == 0
    assert out.getvalue().splitlines()[-1] == f"unique; grade: {grade.lower()}"
    out = io.StringIO()
    assert main(["twomino", "export", Session.from_id(dominosa_id).game_id], out) == 0
    assert out.getvalue().strip() == dominosa_id
    ambiguous = next(r for r in tatham_rows() if r[3] == "multi")[1]
    out = io.StringIO()
    main(["twomino", "solve", ambiguous], out)
    assert "not unique" in out.getvalue()
    assert main(["twomino", "solve", "tictactoe::3/3/3"], io.StringIO()) == 2
