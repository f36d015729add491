"""The Polar lower bound (analysis.push_bound, and the kernel's copy in fastsolver.py) never
overestimates: on many small random boards every position the pushes can reach is searched
exhaustively, the true fewest pushes to a win is worked out backwards from the won
positions, and the bound of every position is checked against it. A* over pushes is exact
only while this holds."""

import heapq
from collections import deque

import pytest

from gridgames.core.rng import Rng
from gridgames.games.polar import analysis, walking
from gridgames.games.polar import fastsolver as fast
from gridgames.games.polar.analysis import NEVER, fixed_layout, push_bound
from gridgames.games.polar.board import BOMB, GRID, HEART, HOUSE, ICE, MOUNTAIN, TREE
from gridgames.games.polar.generator import scatter
from gridgames.games.polar.lines import NEXT, push, walk_layers
from gridgames.games.polar.packs import builtin_pack
from gridgames.games.polar.rules import NEXT as _NXT
from gridgames.games.polar.walking import heart_walk, move_bound


def region_key(cells: bytes, penguin: int, regions: dict | None = None) -> bytes:
    """The position counting pushes only: the board and the first cell the penguin can
    walk to (where it stands in its region makes no difference). `regions` keeps each
    board's regions walked so far (their cells, their key): a search meets the same board
    from many pushes, and a stand in a region already walked needs no walk of its own."""
    known = regions.setdefault(cells, []) if regions is not None else []
    for reach, key in known:
        if reach >> penguin & 1:
            return key
    reach = 0
    for layer in walk_layers(cells, penguin):
        reach |= layer
    key = cells + bytes([(reach & -reach).bit_length() - 1])
    known.append((reach, key))
    return key


_MOVABLE = bytes.maketrans(bytes(range(256)),
                           bytes(1 if tile in (ICE, HEART, BOMB) else 0 for tile in range(256)))


def movables(cells: bytes) -> list[int]:
    """The cells of the tiles a push can move (ice, hearts, bombs), in order: found by
    bytes.find, not by looking at each of the 96 cells in Python."""
    marks, found, at = cells.translate(_MOVABLE), [], -1
    while (at := marks.find(1, at + 1)) >= 0:
        found.append(at)
    return found


def successors(key: bytes, regions: dict):
    cells = key[:-1]
    reach = next(reach for reach, known in regions[cells] if known == key)
    for target in movables(cells):
        for d in range(4):
            stand = NEXT[target][d ^ 1]
            if stand >= 0 and reach >> stand & 1:
                after = push(cells, target, d)
                if after is not None:
                    yield region_key(after, stand, regions)


def fewest_pushes_everywhere(board: bytes, penguin: int, cap: int) -> dict[bytes, int] | None:
    """Every position reachable from the start, with its true fewest pushes to a win (NEVER:
    none); None when there are more than cap positions."""
    regions: dict[bytes, list[tuple[int, bytes]]] = {}
    start = region_key(board, penguin, regions)
    parents: dict[bytes, list[bytes]] = {start: []}
    queue = deque([start])
    while queue:
        key = queue.popleft()
        if HEART not in key[:-1]:
            continue  # won: the game ends here
        for child in successors(key, regions):
            if child not in parents:
                if len(parents) >= cap:
                    return None
                parents[child] = []
                queue.append(child)
            parents[child].append(key)
    distance = {key: NEVER for key in parents}
    won = [key for key in parents if HEART not in key[:-1]]
    for key in won:
        distance[key] = 0
    queue = deque(won)
    while queue:  # backwards from the wins: each push costs one
        key = queue.popleft()
        for parent in parents[key]:
            if distance[parent] == NEVER:
                distance[parent] = distance[key] + 1
                queue.append(parent)
    return distance


def bound_of(key: bytes, start: bytes, penguin: int) -> int:
    """The bound of a searched position: the start knows where the penguin stands (a
    position a push made needs not: see analysis._access)."""
    return push_bound(key[:-1], penguin if key == start else None)


def small_board(rng: Rng) -> tuple[bytes, int]:
    board, penguin = scatter(rng, [(HOUSE, 1, 2), (HEART, 1, 2), (TREE, 2, 10),
                                   (MOUNTAIN, 1, 6), (ICE, 1, 4), (BOMB, 0, 2)])
    return bytes(board), penguin


def checked_positions(rng: Rng, make_board, boards: int):
    """Every position of `boards` exhaustively searched boards (some won), with its true
    fewest pushes and its bound, once the bound is checked: never above the truth, and the
    kernel's the same as the reference's."""
    while boards > 0:
        board, penguin = make_board(rng)
        distance = fewest_pushes_everywhere(board, penguin, cap=1500)
        if distance is None or all(d == NEVER for d in distance.values()):
            continue
        boards -= 1
        search = fast.Search(board, penguin, True)
        start = region_key(board, penguin)
        for key, true in distance.items():
            cells = key[:-1]
            bound = bound_of(key, start, penguin)
            assert bound <= true, (cells, bound, true)
            # the same question as bound_of's but at the start (no penguin given)
            reference = bound if key != start else push_bound(cells)
            assert fast.bound(cells, search, _NXT) == reference
            yield key, start, penguin, true, bound


@pytest.mark.slow
def test_the_bound_never_overestimates_on_exhaustively_searched_boards():
    positions = solvable = tight = above_hearts = 0
    for key, _, _, true, bound in checked_positions(Rng("polar bound"), small_board, 15):
        cells = key[:-1]
        positions += 1
        if true < NEVER:
            solvable += 1
            tight += bound == true
            above_hearts += bound > hearts_only(cells)
    assert positions > 6000 and solvable > 1500
    # The bound must say something: exact on some won-able positions, above the hearts' sum
    # (the old bound's main part) on others.
    assert tight > solvable // 10 and above_hearts > solvable // 50


def mountain_board(rng: Rng) -> tuple[bytes, int]:
    """Boards thick with mountains and bombs, where a heart's short way home often needs
    mountains bombed and a longer one does not."""
    board, penguin = scatter(rng, [(HOUSE, 1, 2), (HEART, 1, 2), (TREE, 0, 4),
                                   (MOUNTAIN, 10, 20), (ICE, 0, 1), (BOMB, 2, 3)])
    return bytes(board), penguin


@pytest.mark.slow
def test_the_bound_with_bombs_on_the_way_never_overestimates(monkeypatch):
    positions = lifted = travelled = 0
    rng = Rng("polar bound mountains")
    for key, start, penguin, _, bound in checked_positions(rng, mountain_board, 15):
        positions += 1
        with monkeypatch.context() as patch:  # the bound without the ways' bombs
            patch.setattr(analysis, "_joint_pushes", lambda *layout: (0,) * GRID.size)
            lifted += bound > bound_of(key, start, penguin)
        with monkeypatch.context() as patch:  # ... and without the bombs' own pushes
            patch.setattr(analysis, "_bomb_pushes", lambda *layout: (1,) * GRID.size)
            travelled += bound > bound_of(key, start, penguin)
    # The ways' bombs and the bombs' pushes must count: they lift the bound on some positions.
    assert positions > 3000 and lifted > positions // 50 and travelled > positions // 100


def hearts_only(cells: bytes) -> int:
    """The old bound's main part: the hearts' relaxed pushes alone."""
    from gridgames.games.polar.analysis import heart_pushes

    far = heart_pushes(cells)
    return sum(far[c] for c, t in enumerate(cells) if t == HEART)


def test_the_kernel_and_the_reference_bound_agree_on_the_original_levels():
    for level in builtin_pack("original"):
        board = bytes(level.board)
        search = fast.Search(board, level.penguin, True)
        assert fast.bound(board, search, _NXT) == push_bound(board)


def test_an_ice_block_no_heart_can_get_round_costs_a_push():
    # The heart's only way home is along row 1 through the ice block: it must move first.
    rows = ["TTTTTTTTTTTTTTTTTTTTTTTT",
            ".+....I................H",
            "TTTTTTTTTTTTTTTTTTTTTTTT",
            "........................"]
    codes = {".": 0, "T": TREE, "H": HOUSE, "I": ICE, "+": HEART, "M": MOUNTAIN}
    board = bytes(codes[ch] for row in rows for ch in row)
    assert push_bound(board) == 2  # one push for the heart, one for the ice



def board_of(rows: list[str]) -> bytes:
    codes = {".": 0, "T": TREE, "H": HOUSE, "I": ICE, "+": HEART, "M": MOUNTAIN, "B": BOMB}
    return bytes(codes[ch] for row in rows for ch in row)


def test_a_bomb_counts_its_own_pushes_to_the_mountain():
    # The heart's only way home crosses the mountain; the bomb needs two pushes to meet it
    # (down onto row 2, then right), so 1 push for the heart and 2 for the bomb.
    rows = ["TTTTTTTTTTTTTTTTTTTTTTTT",
            "TTTT..B...TTTTTTTTTTTTTT",
            "..+.......M...........H.",
            "TTTTTTTTTTTTTTTTTTTTTTTT"]
    board, penguin = board_of(rows), 2 * 24
    assert push_bound(board) == 3
    assert fewest_pushes_everywhere(board, penguin, cap=5000)[region_key(board, penguin)] == 3



def fewest_moves_everywhere(board: bytes, penguin: int, cap: int) -> dict[bytes, int] | None:
    """Every position (board, the penguin's cell) reachable from the start, counting moves:
    a push costs the walk to its stand and the push itself; with its true fewest moves to a
    win (NEVER: none), worked out backwards from the wins (Dijkstra); None: over cap."""
    start = board + bytes([penguin])
    parents: dict[bytes, list[tuple[bytes, int]]] = {start: []}
    queue = deque([start])
    while queue:
        key = queue.popleft()
        cells = key[:-1]
        if HEART not in cells:
            continue
        layers = walk_layers(cells, key[-1])
        reach = 0
        for layer in layers:
            reach |= layer
        for target in movables(cells):
            for d in range(4):
                stand = NEXT[target][d ^ 1]
                if stand < 0 or not reach >> stand & 1:
                    continue  # no stand, or one the penguin cannot walk to
                after = push(cells, target, d)
                if after is None:
                    continue
                walked = 0  # the layer of the stand: the walk to it
                while not layers[walked] >> stand & 1:
                    walked += 1
                child = after + bytes([stand])
                if child not in parents:
                    if len(parents) >= cap:
                        return None
                    parents[child] = []
                    queue.append(child)
                parents[child].append((key, walked + 1))
    distance = {key: NEVER for key in parents}
    heap = [(0, key) for key in parents if HEART not in key[:-1]]
    while heap:
        moves, key = heapq.heappop(heap)
        if moves >= distance[key]:
            continue
        distance[key] = moves
        for parent, cost in parents[key]:
            if moves + cost < distance[parent]:
                heapq.heappush(heap, (moves + cost, parent))
    return distance


@pytest.mark.slow
def test_the_moves_bound_never_overestimates_on_exhaustively_searched_boards():
    """walking.move_bound (the pushes left plus the walk left: one heart's way, or the route
    through every heart) against the true fewest moves; the kernel's copy (in an A* over
    moves) against it."""
    positions = solvable = walked = routed = tight = 0
    for seed, make_board in (("polar moves bound", small_board),
                             ("polar moves bound mountains", mountain_board),
                             ("polar moves bound hearts", hearts_board)):
        rng, boards = Rng(seed), 0
        while boards < 6:
            board, penguin = make_board(rng)
            distance = fewest_moves_everywhere(board, penguin, cap=3000)
            if distance is None or all(d == NEVER for d in distance.values()):
                continue
            boards += 1
            search = fast.Search(board, penguin, False)
            pushes_of: dict[bytes, int] = {}  # push_bound of a board: the same wherever the
            for key, true in distance.items():  # penguin stands, asked once
                cells, at = key[:-1], key[-1]
                bound = move_bound(cells, at)
                assert bound <= true, (cells, at, bound, true)
                if cells not in pushes_of:
                    pushes_of[cells] = push_bound(cells)
                pushes, walk = pushes_of[cells], heart_walk(cells, at)
                if HEART in cells and pushes < NEVER:
                    assert fast.bound(cells, search, _NXT, at) == min(NEVER, pushes + walk)
                positions += 1
                if true < NEVER:
                    solvable += 1
                    tight += bound == true
                    walked += bound > push_bound(cells, at)
                    routed += walk > one_heart_walk(cells, at)
    assert positions > 3000 and solvable > 1000
    # The walk must count: it lifts the bound over the pushes on most positions still to
    # win, and the route through every heart lifts it over one heart's way on some.
    assert walked > solvable // 2 and tight > solvable // 20 and routed > solvable // 100


def hearts_board(rng: Rng) -> tuple[bytes, int]:
    """Boards with two or three hearts, where the route through every heart can count."""
    board, penguin = scatter(rng, [(HOUSE, 1, 2), (HEART, 2, 3), (TREE, 2, 10),
                                   (MOUNTAIN, 1, 4), (ICE, 0, 2), (BOMB, 0, 1)])
    return bytes(board), penguin


def one_heart_walk(cells: bytes, penguin: int) -> int:
    """The walk left counting one heart's way alone (the route through every heart left out)."""
    walk = walking._walk_tables(*fixed_layout(cells))[1]
    return max((walk[heart][penguin] for heart, t in enumerate(cells) if t == HEART), default=0)
