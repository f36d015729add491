"""What can never change in a Polar level, and what follows from it.

Trees, houses and the mountains no bomb can reach never move. A relaxed game on those alone
gives, for a heart on each cell, a lower bound on the pushes it needs to reach a house
(rules.dead_hearts says which hearts never can, by the same game). `push_bound` adds the
objects that must move out of the way and the bombs the hearts' ways need; it never
overestimates, so A* stays exact. docs/machine-play.md ("Polar's bounds") explains it.
"""

from __future__ import annotations

from functools import lru_cache

from gridgames.games.polar.board import BOMB, GRID, HEART, HOUSE, ICE, MOUNTAIN, TREE, step
from gridgames.games.polar.rules import bombable_mountains, dead_hearts

NEVER = 1 << 20
DIRS = "UDLR"
BEHIND = {"U": "D", "D": "U", "L": "R", "R": "L"}


def fixed_layout(board: tuple[int, ...] | bytes) -> tuple[tuple[int, ...], ...]:
    trees = tuple(c for c, t in enumerate(board) if t == TREE)
    houses = tuple(c for c, t in enumerate(board) if t == HOUSE)
    bombable = bombable_mountains(board)
    lasting = tuple(c for c, t in enumerate(board) if t == MOUNTAIN and c not in bombable)
    return trees, houses, lasting


def heart_pushes(board: tuple[int, ...] | bytes) -> tuple[int, ...]:
    """For every cell: fewest pushes for a heart there to reach a house (NEVER if it can't)."""
    return _heart_pushes(*fixed_layout(board))


def _heart_pushes(trees: tuple[int, ...], houses: tuple[int, ...],
                  lasting: tuple[int, ...], sealed: bool = False) -> tuple[int, ...]:
    """With `sealed`, no push from a stand the penguin could only reach through the heart's
    own cell (see _access): true of every position a push made, not always of a start."""
    return _slides(trees, houses, lasting, (), sealed=sealed)


def _mountains_crossed(trees: tuple[int, ...], houses: tuple[int, ...],
                       lasting: tuple[int, ...], bombable: tuple[int, ...]) -> tuple[int, ...]:
    """For a heart on every cell: the fewest bombable mountains it must see bombed to get
    home, counted as the most that any one push of its way crosses or stands on."""
    return _slides(trees, houses, lasting, bombable, most=True)


def _bomb_pushes(trees: tuple[int, ...], houses: tuple[int, ...], lasting: tuple[int, ...],
                 bombable: tuple[int, ...]) -> tuple[int, ...]:
    """For a bomb on every cell: the fewest pushes to meet a standing bombable mountain in a
    relaxed game like the hearts' (it may stop anywhere on its line; trees, houses, lasting
    mountains and the edge stop it). Every mountain bombed takes a bomb of its own, so each
    such bomb makes at least this many pushes."""
    return _slides(trees, houses, lasting, bombable, bomb=True, sealed=False)


@lru_cache(maxsize=8192)  # one entry a layout of fixed tiles (and one walled cell) and question
def _slides(trees: tuple[int, ...], houses: tuple[int, ...], lasting: tuple[int, ...],
            standing: tuple[int, ...], bomb: bool = False, cap: int = NEVER,
            sealed: bool = True, most: bool = False) -> tuple[int, ...]:
    """The relaxed game every table here comes from, for an object on every cell. A push
    slides it in a line from a stand behind it (on the board, not a house or a lasting
    mountain); it may stop on any cell of the line, and ends its way on the first goal.

    A heart (not `bomb`): trees and lasting mountains stop it, a house is its goal, and the
    standing (bombable) mountains a push crosses or stands on are counted. A bomb: houses
    stop it too, a standing mountain is its goal, nothing is counted.
    `sealed`: a push also counts what the penguin needs to get to its stand (_access), and
    none is made from a stand it cannot get to. `cap`: no push counts more than this.
    The value: the fewest pushes home, or with `most` the fewest count, taken as the most
    that any one push of the way counts (a way may cross a cell twice: count it once)."""
    if bomb:
        walls, goals, counted = set(trees) | set(lasting) | set(houses), set(standing), set()
    else:
        walls, goals, counted = set(trees) | set(lasting), set(houses), set(standing)
    forever = set(houses) | set(lasting)  # no stand, and never walkable
    value = [NEVER] * GRID.size
    changed = True
    while changed:
        changed = False
        for cell in range(GRID.size):
            if cell in walls or cell in goals:
                continue
            best = value[cell]
            for d in DIRS:
                stand = step(cell, BEHIND[d])
                if stand is None or stand in forever:
                    continue
                access = _access(stand, cell, forever, counted) if sealed else 0
                if access >= NEVER:
                    continue
                count = int(stand in counted) + access
                at = step(cell, d)
                while at is not None and at not in walls and count <= cap:
                    if at in goals:
                        best = min(best, count if most else 1)
                        break
                    count += at in counted
                    if count <= cap:
                        best = min(best, max(count, value[at]) if most else 1 + value[at])
                    at = step(at, d)
            if best < value[cell]:
                value[cell] = best
                changed = True
    return tuple(value)


@lru_cache(maxsize=256)
def _joint_pushes(trees: tuple[int, ...], houses: tuple[int, ...],
                  lasting: tuple[int, ...], bombable: tuple[int, ...]) -> tuple[int, ...]:
    """For a heart on every cell: the least, over its ways home, of its pushes plus the
    bombable mountains the way needs bombed (counted as the most any one push crosses or
    stands on). A way may be short only through mountains: then its pushes and its bombs
    are both paid, which the hearts' pushes and the mountains crossed, each at its own
    least, do not see."""
    joint = [NEVER] * GRID.size
    free = _heart_pushes(trees, houses, lasting, True)
    cap = 0
    while True:  # the fewest pushes with no push crossing more than cap mountains
        capped = _slides(trees, houses, lasting, bombable, cap=cap)
        joint = [min(j, c + cap) for j, c in zip(joint, capped, strict=True)]
        if capped == free:  # no cap: more mountains allowed changes nothing
            return tuple(j if j < NEVER else NEVER for j in joint)
        cap += 1


def _least_bomb_pushes(board: tuple[int, ...] | bytes, bomb_far: tuple[int, ...],
                       needed: int) -> int:
    """The pushes of `needed` mountains bombed: as many bombs go off, each at least its own
    fewest pushes, so at least the sum of the `needed` least (NEVER: too few bombs can)."""
    ways = sorted(bomb_far[c] for c, t in enumerate(board) if t == BOMB)
    if needed > len(ways) or (needed and ways[needed - 1] >= NEVER):
        return NEVER
    return sum(ways[:needed])


def _access(stand: int, heart: int, forever: set[int], standing: tuple[int, ...] | set[int]) -> int:
    """What the penguin needs to get to `stand` to push a heart that came to `heart`: 0 when
    a neighbour other than the heart's cell may be walkable, 1 when only a bombable mountain
    (standing) is there (a bomb must go off: a mountain no other count of this push holds),
    NEVER when every other neighbour is the edge, a house or a lasting mountain. Exact for a
    heart that slid there, and for one already there unless the penguin stands on `stand`
    now: a push from `stand` empties `heart`'s cell, so no position a push made has both."""
    need = NEVER
    for d in DIRS:
        near = step(stand, d)
        if near is None or near == heart or near in forever:
            continue
        if near not in standing:
            return 0
        need = 1
    return need


def _penguin_sealed_in(board: tuple[int, ...] | bytes, penguin: int | None,
                       houses: tuple[int, ...], lasting: tuple[int, ...]) -> bool:
    """The penguin stands where, but for a heart beside it, it could not walk out: the one
    case _access does not cover (a start position)."""
    if penguin is None:
        return False
    forever = set(houses) | set(lasting)
    return any(near is not None and board[near] == HEART
               and _access(penguin, near, forever, ()) > 0
               for near in (step(penguin, d) for d in DIRS))


def push_bound(board: tuple[int, ...] | bytes, penguin: int | None = None) -> int:
    """A lower bound on the pushes left to win (NEVER when lost): every heart's relaxed
    pushes, plus a push for each ice block on a cell some heart cannot do without, plus the
    bombs that must be pushed: the most of those on such cells, of the mountains on such
    cells, of the mountains some heart's way needs bombed, and of the pushes some heart
    must make beyond its least to keep its way's bombs down (_joint_pushes). Mountains
    bombed count each bomb's own fewest pushes to meet one (_bomb_pushes)."""
    hearts = [c for c, t in enumerate(board) if t == HEART]
    if not hearts:
        return 0
    if dead_hearts(board):  # lost by the rules: the tables below would say so too, later
        return NEVER
    trees, houses, lasting = fixed_layout(board)
    if _penguin_sealed_in(board, penguin, houses, lasting):
        return len(hearts)  # a push each, at least
    far = _heart_pushes(trees, houses, lasting, True)
    total = sum(far[h] for h in hearts)
    if total >= NEVER:
        return NEVER
    standing = tuple(c for c, t in enumerate(board) if t == MOUNTAIN and c not in lasting)
    crossed = _mountains_crossed(trees, houses, lasting, standing)
    most_crossed = max(crossed[h] for h in hearts)
    joint = _joint_pushes(trees, houses, lasting, standing)
    # A heart's pushes plus the bombs its way needs: over the hearts' own least pushes, the
    # bombs pushed must make up the difference (on top of the other hearts' pushes and ice).
    way_bombs = max(joint[h] - far[h] for h in hearts)
    ice = bombs = mountains = 0
    for cell, tile in enumerate(board):
        if tile not in (ICE, BOMB, MOUNTAIN) or cell in lasting:
            continue
        walled = _heart_pushes(trees, houses, tuple(sorted(lasting + (cell,))), True)
        if any(walled[h] >= NEVER for h in hearts):  # it must go, or some heart never gets home
            ice += tile == ICE
            bombs += tile == BOMB
            mountains += tile == MOUNTAIN
    bomb_far = _bomb_pushes(trees, houses, lasting, standing)
    bombed = _least_bomb_pushes(board, bomb_far, max(mountains, most_crossed))
    if bombed >= NEVER:
        return NEVER
    return total + ice + max(bombs, bombed, way_bombs)
