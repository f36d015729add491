"""The walking the fewest moves must contain, for the A* that counts moves.

Every push of a heart is made from the cell behind it, so the penguin's walk passes through
the stands of each heart's pushes, in order. The least such walk in a relaxed game never
overestimates the walking of a real solution; added to the pushes left it bounds the moves
left. docs/machine-play.md ("Polar's bounds") explains why.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from gridgames.games.polar.analysis import NEVER, fixed_layout, push_bound
from gridgames.games.polar.board import GRID, HEART, step

DIRS = "UDLR"
ROUTE_HEARTS = 6  # the route through every heart is worked out for up to this many hearts
BEHIND = {"U": "D", "D": "U", "L": "R", "R": "L"}


def move_bound(board: tuple[int, ...] | bytes, penguin: int) -> int:
    """A lower bound on the moves left to win from the penguin on `penguin` (NEVER: lost)."""
    pushes = push_bound(board, penguin)
    if pushes == 0 or pushes >= NEVER:
        return pushes
    return min(NEVER, pushes + heart_walk(board, penguin))


def heart_walk(board: tuple[int, ...] | bytes, penguin: int) -> int:
    """The walk left: the most, over the hearts, of the least relaxed walk one heart's way
    home needs; with up to ROUTE_HEARTS hearts, at least the least route (_route)."""
    layout = fixed_layout(board)
    apart, walk, after = _walk_tables(*layout)
    hearts = [heart for heart, t in enumerate(board) if t == HEART]
    one = max((walk[heart][penguin] for heart in hearts), default=0)
    if not hearts or len(hearts) > ROUTE_HEARTS:
        return one
    return max(one, _route(hearts, penguin, apart, after))


def _route(hearts: list[int], penguin: int, apart: list[list[int]],
           after: dict[int, tuple[tuple[int, int], ...]]) -> int:
    """Every heart is pushed at least once from a stand beside the cell it is on now, so the
    walk passes through one such stand of each heart, in the order of their first pushes, and
    after the last of them goes on at least as far as the rest of that heart's relaxed way
    needs (`after`). The least such walk, by subsets of hearts visited (NEVER: none)."""
    full = (1 << len(hearts)) - 1
    route: dict[tuple[int, int, int], int] = {}  # (hearts visited, the last, its stand) -> walk
    for i, heart in enumerate(hearts):
        for stand, _ in after[heart]:
            route[1 << i, i, stand] = apart[penguin][stand]
    for visited in range(1, full):
        for (seen, _, stand), walked in [item for item in route.items() if item[0][0] == visited]:
            for j, heart in enumerate(hearts):
                for next_stand, _ in after[heart] if not seen >> j & 1 else ():
                    key = (seen | 1 << j, j, next_stand)
                    route[key] = min(route.get(key, NEVER), walked + apart[stand][next_stand])
    rest = {(i, stand): left for i, heart in enumerate(hearts) for stand, left in after[heart]}
    return min((walked + rest[last, stand] for (seen, last, stand), walked in route.items()
                if seen == full), default=NEVER)


@lru_cache(maxsize=256)
def _walk_tables(trees: tuple[int, ...], houses: tuple[int, ...], lasting: tuple[int, ...]):
    """The relaxed walking distances [from][to]; for [heart's cell][penguin's cell] the least
    walk through the stands of a relaxed way home (NEVER: none); and for each heart's cell,
    its pushes as (stand, the least walk left once it is made). The value of a push from a
    stand is the walk to it plus the least value where the heart may stop, with the penguin
    left on the stand; a push into a house ends."""
    apart = _walk_distances(set(houses) | set(lasting))
    slides = _slides(trees, houses, lasting)
    walk = [[NEVER] * GRID.size for _ in range(GRID.size)]
    after: dict[int, tuple[tuple[int, int], ...]] = {}
    changed = True
    while changed:
        changed = False
        for cell, pushes in slides.items():
            rests: dict[int, int] = {}  # stand -> the least walk left once the push is made
            for stand, line, home in pushes:
                rest = 0 if home else min((walk[at][stand] for at in line), default=NEVER)
                rests[stand] = min(rest, rests.get(stand, NEVER))
            after[cell] = tuple((s, rest) for s, rest in rests.items() if rest < NEVER)
            for penguin in range(GRID.size):
                best = min((apart[penguin][s] + rest for s, rest in after[cell]), default=NEVER)
                if best < walk[cell][penguin]:
                    walk[cell][penguin] = best
                    changed = True
    return apart, walk, after


def _slides(trees: tuple[int, ...], houses: tuple[int, ...],
            lasting: tuple[int, ...]) -> dict[int, list[tuple[int, list[int], bool]]]:
    """For each cell a heart can be on, its pushes: (the stand, the cells of the line it may
    stop on, whether the line ends in a house). The stand is on the board, not on a house or
    a lasting mountain; trees and lasting mountains end the line."""
    walls, house_set = set(trees) | set(lasting), set(houses)
    slides: dict[int, list[tuple[int, list[int], bool]]] = {}
    for cell in range(GRID.size):
        if cell in walls or cell in house_set:
            continue
        slides[cell] = []
        for d in DIRS:
            stand, line, at = step(cell, BEHIND[d]), [], step(cell, d)
            while at is not None and at not in walls and at not in house_set:
                line.append(at)
                at = step(at, d)
            if stand is not None and stand not in house_set and stand not in lasting:
                slides[cell].append((stand, line, at in house_set))
    return slides


def _walk_distances(never_walkable: set[int]) -> list[list[int]]:
    """Breadth-first walking distances between every two cells, through every cell but
    `never_walkable` (NEVER: no way)."""
    apart = [[NEVER] * GRID.size for _ in range(GRID.size)]
    for start in range(GRID.size):
        if start in never_walkable:
            continue
        apart[start][start] = 0
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for d in DIRS:
                near = step(cell, d)
                if near is not None and near not in never_walkable \
                        and apart[start][near] >= NEVER:
                    apart[start][near] = apart[start][cell] + 1
                    queue.append(near)
    return apart
