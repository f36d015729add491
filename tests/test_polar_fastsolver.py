"""The compiled Polar solver (fastsolver.py) against the readable reference (reference.py),
and the one copy of the rules (rules.py) that the game and both of them run.

Both prune with the same bound (analysis.push_bound; test_polar_bound.py checks it against
exhaustive search, and the kernel's copy against it); a bound that overestimated would make
them miss solutions or report longer ones. So on many random boards crowded with mountains
and bombs both must agree: solvable or not, and the fewest pushes.
"""

import pytest

from gridgames.core.rng import Rng
from gridgames.games.polar.board import BOMB, EMPTY, GRID, HEART, HOUSE, ICE, MOUNTAIN, TREE
from gridgames.games.polar.generator import scatter
from gridgames.games.polar.rules import bombable_mountains
from gridgames.games.polar.solver import MOVES, PUSHES, solve


def crowded_board(rng: Rng) -> tuple[bytes, int]:
    board, penguin = scatter(rng, [(HOUSE, 1, 2), (HEART, 1, 2), (TREE, 2, 6),
                                   (MOUNTAIN, 2, 8), (ICE, 0, 3), (BOMB, 1, 3)])
    return bytes(board), penguin


# The reference's search is cut by a count of states, not by seconds: the same boards are
# compared on any machine however busy, and a board too big for the reference is left
# after these states, not after seconds of them (a few boards need many more: the
# reference, in Python, spends most of its time on them, and the samples are as wide).
REFERENCE_PUSHES = {"max_states": 4_000, "max_seconds": 120}
REFERENCE_MOVES = {"max_states": 1_500, "max_seconds": 120}


@pytest.mark.slow
def test_kernel_and_reference_agree_on_fewest_pushes():
    """Both compiled searches: the one-core kernel (fast) and A* on both cores (parallel,
    parallel.py), whose lines must also replay to a win."""
    rng = Rng("polar kernel")
    compared = solvable = 0
    while compared < 40:
        board, penguin = crowded_board(rng)
        reference = solve(board, penguin, PUSHES, engine="python", **REFERENCE_PUSHES)
        if not reference.complete:
            continue
        for engine in ("fast", "parallel"):
            kernel = solve(board, penguin, PUSHES, engine=engine, max_seconds=30)
            assert kernel.complete
            assert (kernel.moves is None) == (reference.moves is None), (engine, board)
            if kernel.moves is not None:
                assert kernel.pushes == reference.pushes and kernel.optimal, (engine, board)
                assert wins(board, penguin, kernel.moves)
        solvable += reference.moves is not None
        compared += 1
    assert solvable >= 10  # the sample must not be all lost levels


def wins(board: bytes, penguin: int, moves: list[str]) -> bool:
    """Replay moves by the game's rules (game.play): True when every heart is home."""
    from gridgames.games.polar.game import play

    cells, at, hearts = tuple(board), penguin, board.count(HEART)
    for move in moves:
        cells, at, hearts, _ = play(cells, at, hearts, move)
    return hearts == 0


def test_both_cores_prove_original_level_1_and_cut_by_states_alike():
    """Original level 1 (14 pushes, proven: docs/machine-play.md) on both cores; a budget of
    states cuts the search at the same point on every run (the lanes are fixed, not the
    machine's cores), with a lower bound no higher than the fewest."""
    from gridgames.games.polar.packs import builtin_pack

    level = builtin_pack("original")[0]
    board = bytes(level.board)
    proven = solve(board, level.penguin, PUSHES, max_seconds=120, engine="parallel")
    assert proven.optimal and proven.pushes == 14 and wins(board, level.penguin, proven.moves)
    cut = [solve(board, level.penguin, PUSHES, max_states=3000, max_seconds=120,
                 engine="parallel") for _ in range(2)]
    assert not cut[0].complete and cut[0].moves is None
    assert cut[0].expanded == cut[1].expanded and cut[0].lower_bound == cut[1].lower_bound
    assert 0 < cut[0].lower_bound <= 14


@pytest.mark.slow
def test_kernel_shortest_in_moves_matches_the_reference_on_small_levels():
    rng = Rng("polar kernel moves")
    compared = 0
    while compared < 15:
        board, penguin = crowded_board(rng)
        reference = solve(board, penguin, MOVES, engine="python", **REFERENCE_MOVES)
        if not reference.complete or reference.moves is None:
            continue
        kernel = solve(board, penguin, MOVES, engine="fast", max_seconds=30)
        assert len(kernel.moves) == len(reference.moves) and kernel.optimal
        compared += 1


def test_bombable_mountains():
    rows = ["M..B", "TM..", "HM..", "MT.."]
    board = [EMPTY] * GRID.size
    codes = {".": EMPTY, "M": MOUNTAIN, "B": BOMB, "T": TREE, "H": HOUSE, "I": ICE, "+": HEART}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            board[r * 24 + c] = codes[ch]
    found = bombable_mountains(board)
    # (0,0): from the right, a bomb on (0,1) pushed from (0,2). (1,1): from the right or from
    # below. (2,1): from above is (1,1), a mountain that may go first, with (0,1) behind it.
    # (3,0) is walled in by the house, the tree and the edges: it stands forever.
    assert found == {0, 25, 49}
    assert bombable_mountains([EMPTY if t == BOMB else t for t in board]) == set()


def test_region_first_is_the_least_cell_the_penguin_can_walk_to():
    """The kernel's bit-mask flood fill (states are keyed by it when counting pushes) against
    the reference walk, on boards from open to nearly walled."""
    import numpy as np

    from gridgames.games.polar import fastsolver as fast
    from gridgames.games.polar.lines import walk_layers

    rng = Rng("polar region")
    for trial in range(400):
        walls = trial % 80  # up to 79 of the 96 cells blocked
        board = bytearray(GRID.size)
        cells = rng.shuffled(range(GRID.size))
        for cell in cells[:walls]:
            board[cell] = rng.choice([MOUNTAIN, ICE, HEART, HOUSE, BOMB])
        for cell in cells[walls:walls + 8]:
            board[cell] = TREE
        penguin = rng.choice([c for c in range(GRID.size) if board[c] in (EMPTY, TREE)])
        reached = 0
        for layer in walk_layers(bytes(board), penguin):
            reached |= layer
        least = (reached & -reached).bit_length() - 1
        row = np.zeros(fast.ROW_BYTES, np.uint8)
        row[:GRID.size] = np.frombuffer(bytes(board), np.uint8)
        assert fast.region_first(row, penguin) == least, (bytes(board), penguin)


@pytest.mark.slow
def test_a_search_below_a_known_line_proves_there_is_none_shorter():
    """`below`: A* over pushes only for lines shorter than a known one; ending without one
    proves the known line fewest (random boards, fewest pushes from the reference)."""
    rng = Rng("polar below")
    checked = 0
    while checked < 8:
        board, penguin = crowded_board(rng)
        reference = solve(board, penguin, PUSHES, engine="python", max_seconds=5)
        if not reference.complete or not reference.moves:
            continue
        for engine in ("fast", "parallel"):
            none = solve(board, penguin, PUSHES, below=reference.pushes, max_seconds=30,
                         engine=engine)
            assert none.complete and none.moves is None
            assert none.lower_bound == reference.pushes
            one = solve(board, penguin, PUSHES, below=reference.pushes + 1, max_seconds=30,
                        engine=engine)
            assert one.optimal and one.pushes == reference.pushes
        checked += 1


def test_a_two_core_search_given_little_memory_still_has_room_for_its_slices():
    """The reservation never goes below two slices' children a partition: given no memory
    at all, original level 1 (17k states) is still proven, and warm() (which compiles the
    kernels before a budget's clock starts) finishes its one-push search."""
    from gridgames.games.polar import parallel
    from gridgames.games.polar.analysis import NEVER
    from gridgames.games.polar.packs import builtin_pack
    from gridgames.games.polar.rules import NEXT as _NXT

    parallel.warm(_NXT)
    level = builtin_pack("original")[0]
    search = parallel.ParallelSearch(bytes(level.board), level.penguin, _NXT, 0)
    assert search.run(_NXT, NEVER, lambda: 120.0, 10**9) == parallel.SOLVED
    assert len(search.pushes(search.goal)) == 14


def test_the_game_and_every_search_move_by_the_one_copy_of_the_rules():
    """rules.py is the only place a move is written: the game's play, the kernels' and the
    reference's pushes call it (none keeps a copy of its own), and on random boards the game's
    outcome is the compiled rule's, whose `changes` agrees with what a push does (the moves
    search's walk bound asks it before pushing)."""
    import inspect

    import numpy as np

    from gridgames.games.polar import fastsolver, fastwalk, game, lines, parallel, rules
    from gridgames.games.polar.game import play

    assert "rules.move(" in inspect.getsource(game.play)
    for kernel in (fastsolver.run, parallel._expand):
        assert "rules.push(" in inspect.getsource(kernel.py_func)
    assert "rules.push(" in inspect.getsource(lines.push)
    assert "rules.changes(" in inspect.getsource(fastwalk.walk_to_push.py_func)

    rng = Rng("one rule")
    events = rules.new_events()
    pushes = moved = 0
    for _ in range(300):
        board, _ = crowded_board(rng)
        for target, tile in enumerate(board):
            if tile not in (ICE, HEART, BOMB):
                continue
            for d in range(4):
                stand = int(rules.NEXT[target, d ^ 1])
                if stand < 0 or board[stand] not in (EMPTY, TREE):
                    continue
                cells = np.frombuffer(board, np.uint8).copy()
                changes = rules.changes(cells, target, d, rules.NEXT)
                n = rules.push(cells, target, d, rules.NEXT, events)
                after, at, hearts, happened = play(tuple(board), stand, board.count(HEART),
                                                   rules.ORDER[d])
                assert after == tuple(cells.tolist()) and at == stand, (board, target, d)
                assert hearts == after.count(HEART)
                assert [event[0] for event in happened] == \
                    [rules.EVENT_NAMES[kind] for kind in events[:n, 0]]
                assert changes == rules.moved(events, n) == (after != tuple(board))
                pushes += 1
                moved += changes
    assert pushes > 1000 and 0 < moved < pushes  # both kinds of push were met
