"""New Polar levels whose fewest pushes is proven, at a requested difficulty (a `Target`).

The generator hill-climbs from a random board, one change at a time, keeping a change when
the solver proves the new board's fewest pushes no smaller. Only proofs count: each
candidate gets an A* limited by expanded states (not seconds), so a level returned has a
proven optimum and a seed gives the same levels on any machine. docs/machine-play.md
("Polar's generator") has the details.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from gridgames.core.rng import Rng
from gridgames.games.polar.board import BOMB, EMPTY, GRID, HEART, HOUSE, ICE, MOUNTAIN, TREE
from gridgames.games.polar.packs import Level
from gridgames.games.polar.rules import dead_hearts
from gridgames.games.polar.solver import MOVES, PUSHES, solve

# A time limit only as a safety net: the budget that decides is the number of states, so
# that the outcome does not depend on the machine's speed or load.
SAFETY_SECONDS = 600.0
MAX_OBJECTS = 32  # non-empty cells: beyond this a board is a thicket, not a puzzle
SCENERY = (TREE, MOUNTAIN, ICE)  # what a change may add or take away


@dataclass(frozen=True)
class Target:
    min_pushes: int = 3
    hearts: int | None = None  # None: 1 to 3, at random
    bombs: int | None = None  # None: 0 to 2, at random
    states: int = 200_000  # per candidate: A* expansions allowed for its proof
    patience: int = 40  # changes without a rise before starting again


@dataclass(frozen=True)
class Generated:
    level: Level
    pushes: int  # fewest pushes (proven)
    solution: list[str]  # shortest in moves when that search finished, else fewest pushes
    moves_optimal: bool
    candidates: int = 0  # boards whose fewest pushes the generator tried to prove
    cpu_seconds: float = 0.0  # the generator's processor time for this level

    @property
    def moves(self) -> int:
        return len(self.solution)


def scatter(rng: Rng, ranges: list[tuple[int, int, int]]) -> tuple[tuple[int, ...], int]:
    """A board with lo to hi of each (tile, lo, hi) at random cells, and a free cell for the
    penguin."""
    board = [EMPTY] * GRID.size
    cells = rng.shuffled(range(GRID.size))
    at = 0
    for tile, lo, hi in ranges:
        for _ in range(rng.randint(lo, hi)):
            board[cells[at]] = tile
            at += 1
    return tuple(board), cells[at]


def random_board(rng: Rng, hearts: int | None = None,
                 bombs: int | None = None) -> tuple[tuple[int, ...], int]:
    heart_range = (1, 3) if hearts is None else (hearts, hearts)
    bomb_range = (0, 2) if bombs is None else (bombs, bombs)
    return scatter(rng, [(HOUSE, 1, 2), (HEART, *heart_range), (TREE, 3, 9), (MOUNTAIN, 0, 3),
                         (ICE, 1, 4), (BOMB, *bomb_range)])


def proven_pushes(board: tuple[int, ...], penguin: int, states: int) -> int | None:
    """The fewest pushes, when an A* within `states` expansions proves it; None when the
    level is lost, unsolved within the budget, or already won."""
    if HEART not in board or dead_hearts(board):
        return None
    found = solve(board, penguin, PUSHES, max_states=states, max_seconds=SAFETY_SECONDS)
    return found.pushes if found.moves is not None and found.optimal else None


def mutate(rng: Rng, board: tuple[int, ...], penguin: int) -> tuple[tuple[int, ...], int]:
    """The board with one random change; hearts and bombs are neither added nor removed, and
    at least one house stays."""
    cells = list(board)
    free = [c for c in range(GRID.size) if cells[c] == EMPTY and c != penguin]
    objects = [c for c in range(GRID.size) if cells[c] != EMPTY and c != penguin]
    kind = rng.below(5)
    if kind == 0 and objects and free:  # move an object
        source, goal = rng.choice(objects), rng.choice(free)
        cells[goal], cells[source] = cells[source], EMPTY
    elif kind == 1:  # move the penguin
        penguin = rng.choice([c for c in range(GRID.size) if cells[c] in (EMPTY, TREE)])
    elif kind == 2 and free and len(objects) < MAX_OBJECTS:  # add scenery
        cells[rng.choice(free)] = rng.choice(SCENERY)
    elif kind == 3:  # take away scenery, or a second house
        removable = [c for c in objects if cells[c] in SCENERY or
                     (cells[c] == HOUSE and cells.count(HOUSE) > 1)]
        if removable:
            cells[rng.choice(removable)] = EMPTY
    elif len(objects) >= 1:  # swap two cells of different contents
        a = rng.choice(objects)
        b = rng.choice([c for c in range(GRID.size) if c != penguin and cells[c] != cells[a]])
        cells[a], cells[b] = cells[b], cells[a]
    return tuple(cells), penguin


def climb(rng: Rng, target: Target) -> tuple[tuple[int, ...], int, int, int]:
    """(board, penguin, proven fewest pushes, candidates tried) of the first board the climb
    reaches with at least target.min_pushes."""
    tried = 0
    while True:
        hearts = target.hearts if target.hearts is not None else rng.randint(1, 3)
        bombs = target.bombs if target.bombs is not None else rng.randint(0, 2)
        board, penguin = random_board(rng, hearts, bombs)
        tried += 1
        best = proven_pushes(board, penguin, target.states)
        if best is None:
            continue
        stale = 0
        while best < target.min_pushes and stale < target.patience:
            after, at = mutate(rng, board, penguin)
            tried += 1
            value = proven_pushes(after, at, target.states)
            if value is not None and value >= best:
                stale = 0 if value > best else stale + 1
                board, penguin, best = after, at, value
            else:
                stale += 1
        if best >= target.min_pushes:
            return board, penguin, best, tried


def generate(rng: Rng, target: Target | None = None) -> Generated:
    """One level meeting the target, with a proven fewest pushes and its best known solution
    (a fewest-moves search gets the same state budget; past it, the fewest-pushes line)."""
    target = target or Target()
    cpu = time.process_time()
    board, penguin, pushes, tried = climb(rng, target)
    by_pushes = solve(board, penguin, PUSHES, max_states=target.states,
                      max_seconds=SAFETY_SECONDS)
    shortest = solve(board, penguin, MOVES, max_states=target.states,
                     max_seconds=SAFETY_SECONDS)
    fewest_moves = shortest.moves is not None and shortest.optimal
    solution = shortest.moves if fewest_moves else by_pushes.moves
    level = Level("", board, penguin, board.count(HEART))
    return Generated(level, pushes, list(solution or []), fewest_moves, tried,
                     time.process_time() - cpu)


def difficulty(item: Generated) -> tuple[int, int]:
    return item.pushes, item.moves
