"""The game's Solve and Hint: the fewest pushes from the current position, proven where the
budget allows.

Walking is free, so the moves shown walk the shortest way between pushes and are not
claimed to be the fewest moves. Along a pack's stored line only A* runs, looking for a
shorter line. A player off every optimal line is told how far off. docs/machine-play.md
("Polar's Hint and Solve") says how the search is split.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Any

from gridgames.core.cache import BoundedCache
from gridgames.core.capabilities import Hint, Hinter, Solver
from gridgames.core.result import BEST_FOUND, NONE, PROVEN, Budget, Meter, Result, game_over
from gridgames.core.words import count
from gridgames.games.polar.anytime import anytime
from gridgames.games.polar.board import HEART, MOUNTAIN
from gridgames.games.polar.game import WARM_BOARD, line_pushes, play, warm_rules
from gridgames.games.polar.packs import Level
from gridgames.games.polar.solver import KERNEL_MOUNTAINS, MOVES, PUSHES, solve

DEFAULT_SECONDS = 20.0  # a caller that gives no seconds (the CLI's play, a script)
DEFAULT_STATES = 3_000_000  # A*'s states when the budget gives no nodes (~140 bytes each)
ASTAR_SHARE = 1 / 3  # along a stored line, A*'s share of the seconds (PROVE_STORED_SECONDS at most)
PROVE_STORED_SECONDS = 2.0  # A*'s try to prove a pack's stored line fewest, at most

Key = tuple[bytes, int]  # (board, penguin cell)


@dataclass(frozen=True)
class Line:
    """A solution from a position: line[at:] are its moves from there."""

    line: tuple[str, ...] | None  # None: no solution (proven when `proven`)
    at: int
    pushes: int  # pushes left on the line
    proven: bool  # no solution from here has fewer pushes
    lower: int  # proven: no solution from here has fewer pushes than this
    # A search ran on this board (walking since does not change the fewest pushes), so
    # searching again with a like budget would not do better.
    settled: bool = False
    first: float = -1.0  # seconds the search that found it took to a first line (-1: none)

    @property
    def moves(self) -> list[str]:
        return [] if self.line is None else list(self.line[self.at:])


class PolarHints(Solver, Hinter):
    """The `solver` and `hints` entries. Lines are kept by position in a bounded cache this
    object owns; a proven line also answers for every position along it (the rest of a
    fewest-pushes line is fewest from there), so a player who follows the hints gets each next
    one at once. A line that is only the best found is searched again after a push (a smaller
    problem may now be proven) and kept when the new search does no better."""

    def __init__(self, known: list[tuple[Level, list[str]]] = (), cache_size: int = 2000) -> None:
        self._lines: BoundedCache[Key, Line] = BoundedCache(cache_size)
        # The packs' stored lines, kept whole (the shipped packs bound their size): in the
        # cache, a few thousand positions along them would push each other out.
        self._known: dict[Key, Line] = {}
        # Replayed when first needed (half a second for the shipped packs): a process that
        # never asks for a line, such as most of the command line's commands, skips it.
        self._unseeded = list(known)
        self._seeding = threading.Lock()  # a thread that asks meanwhile waits for them all

    def warm(self) -> None:
        """Load (or compile, the first time) the compiled kernel before it is needed, and
        the rules', and replay the packs' stored lines."""
        solve(bytes(WARM_BOARD), 0, PUSHES, max_seconds=60)
        warm_rules()
        self._seed_all()

    def _seed_all(self) -> None:
        if not self._unseeded:
            return
        with self._seeding:
            for level, moves in self._unseeded:  # in order: a later pack's line for a level wins
                self._seed(level, moves)
            self._unseeded = []

    # --- the capabilities ---

    def solve(self, state: Any, budget: Budget, objective: str = PUSHES,
              engine: str = "fast") -> Result[list[str]]:
        """The fewest pushes (`objective` MOVES: moves, searched afresh, not cached), by the
        one-core kernel (`engine` "parallel": A* over pushes on both cores, for the
        command line)."""
        if objective == MOVES:
            return self._solve_moves(state, budget, engine)
        meter, found, ended = self._look(state, budget, engine)
        if ended is not None:
            return ended
        moves = found.moves
        if found.proven:
            note = f"{_pushes(found.pushes)}, the fewest; {count(len(moves), 'move')}"
            return self._extra(meter.result(moves, PROVEN, note), found)
        note = f"{_pushes(found.pushes)}, {count(len(moves), 'move')}" + \
            _bound(found.lower, found.pushes, "push", "pushes")
        return self._extra(meter.result(moves, BEST_FOUND, note), found)

    def hint(self, state: Any, budget: Budget) -> Result[Hint]:
        meter, found, ended = self._look(state, budget)
        if ended is not None:
            return ended
        why = self._why(state, found, meter)
        status = PROVEN if found.proven else BEST_FOUND
        return self._extra(meter.result(Hint(found.moves[0], why), status), found)

    def _solve_moves(self, state: Any, budget: Budget, engine: str) -> Result[list[str]]:
        """anytime.anytime counting moves: its line, proven fewest moves or the best found
        with the lower bound on moves A* proved; `pushes_proven` when its pushes are."""
        meter = Meter(budget)
        if state.hearts == 0:
            return game_over(meter, "the level is solved")
        seconds = meter.seconds_left
        found = anytime(bytes(state.board), state.penguin, MOVES,
                        max_states=meter.nodes_left(DEFAULT_STATES) or 1,
                        max_seconds=DEFAULT_SECONDS if seconds is None else seconds,
                        engine=engine)
        meter.nodes += found.expanded
        if found.moves is None:
            return meter.result(None, PROVEN, "no solution from here: undo or restart") \
                if found.complete else \
                meter.result(None, NONE, "no solution found within the budget")
        moves = count(len(found.moves), "move")
        note = f"{moves}, the fewest" if found.optimal else \
            moves + _bound(found.lower_bound, len(found.moves), "move")
        result = meter.result(found.moves, PROVEN if found.optimal else BEST_FOUND,
                              f"{note}; {_pushes(found.pushes)}")
        result.extra.update(objective=MOVES, pushes=found.pushes,
                            pushes_proven=found.pushes_optimal,
                            lower_bound=len(found.moves) if found.optimal else found.lower_bound)
        if found.first_seconds >= 0:
            result.extra["first_line_seconds"] = round(found.first_seconds, 4)
        return result

    def _look(self, state: Any, budget: Budget,
              engine: str = "fast") -> tuple[Meter, Line | None, Result | None]:
        """The line from this position, or the answer when there is no line to give (none
        found within the budget, or proven none)."""
        meter = Meter(budget)
        if state.hearts == 0:
            return meter, None, game_over(meter, "the level is solved")
        found = self._line(bytes(state.board), state.penguin, meter, engine)
        if found is None:
            return meter, None, meter.result(None, NONE, "no solution found within the budget")
        if found.line is None:
            return meter, None, meter.result(None, PROVEN,
                                             "no solution from here: undo or restart")
        return meter, found, None

    # --- the words ---

    def _why(self, state: Any, found: Line, meter: Meter) -> str:
        """Where the hint's line stands: proven fewest from here, and against the level's
        fewest when the player has pushed already (both proven, else nothing is compared)."""
        left = _pushes(found.pushes)
        if not found.proven:
            bound = _bound(found.lower, found.pushes, "push", "pushes")
            return f"on the best line found: {left} left{bound}"
        made = state.pushes
        start = state.start
        if made == 0 or start is None:
            return f"on an optimal line: {left} left"
        fewest = self._line(bytes(start.board), start.penguin, meter)
        if fewest is None or not fewest.proven or fewest.line is None:
            return (f"fewest from here: {left} left ({_pushes(made)} made; the "
                    "level's fewest is not proven within the budget)")
        total = made + found.pushes
        if total == fewest.pushes:
            return f"on an optimal line: {left} left ({made} made, {total} in all, the fewest)"
        return (f"off the optimal line: {_pushes(made)} made + {found.pushes} left = {total}, "
                f"the level's fewest is {fewest.pushes}; {found.pushes} is the fewest from here")

    @staticmethod
    def _extra(result: Result[Any], found: Line) -> Result[Any]:
        result.extra.update(objective=PUSHES, pushes=found.pushes, pushes_proven=found.proven,
                            lower_bound=found.pushes if found.proven else found.lower)
        if found.first >= 0:
            result.extra["first_line_seconds"] = round(found.first, 4)
        return result

    # --- the search and its cache ---

    def _line(self, board: bytes, penguin: int, meter: Meter,
              engine: str = "fast") -> Line | None:
        """The line from this position: cached when proven, else searched within what is
        left of the budget (the better of that and a cached line). None: nothing found."""
        if HEART not in board:
            return Line((), 0, 0, True, 0)
        cached = self._lines.get((board, penguin))
        self._seed_all()
        stored = self._known.get((board, penguin)) if cached is None else None
        cached = cached or stored
        if cached is not None and (cached.proven or cached.settled):
            return cached
        # Along a pack's stored line (the best of long searches), a hint only tries, briefly,
        # to prove a line fewest: a page's search would not find a shorter one.
        fresh = self._search(board, penguin, meter, stored, engine)
        best = _better(cached, fresh)
        if best is not None:
            self._remember(board, penguin, best)
        return best

    def _search(self, board: bytes, penguin: int, meter: Meter, stored: Line | None = None,
                engine: str = "fast") -> Line | None:
        """anytime.anytime: a line at once, then proving and bettering it with the rest of
        the budget. With a pack's `stored` line only A*, briefly, below it: none shorter
        proves it fewest (else the stored line stands, with A*'s bound, and is not searched
        again from here)."""
        seconds = meter.seconds_left
        if seconds == 0:
            return None
        seconds = DEFAULT_SECONDS if seconds is None else seconds
        states = meter.nodes_left(DEFAULT_STATES) or 1
        # A* below a line needs the compiled engine: past its mountains the stored line is
        # only the line to beat.
        if stored is None or board.count(MOUNTAIN) > KERNEL_MOUNTAINS:
            found = anytime(board, penguin, PUSHES, max_states=states, max_seconds=seconds,
                            engine=engine)
            meter.nodes += found.expanded
            if found.moves is None:  # a finished search: there is none
                return _line_of(None, 0, True, 0) if found.complete else None
            return replace(_line_of(found.moves, found.pushes, found.optimal, found.lower_bound),
                           first=found.first_seconds)
        first = solve(board, penguin, PUSHES, max_states=states,
                      max_seconds=min(seconds * ASTAR_SHARE, PROVE_STORED_SECONDS),
                      below=stored.pushes, engine=engine)
        meter.nodes += first.expanded
        if first.complete and first.moves is None:
            # Nothing shorter than the stored line: it is fewest from here.
            return Line(stored.line, stored.at, stored.pushes, True, stored.pushes, True)
        if first.complete:  # A* finished below the stored line: its line is fewest
            return _line_of(first.moves, first.pushes, True, first.pushes)
        lower = max(stored.lower, first.lower_bound)
        return Line(stored.line, stored.at, stored.pushes, stored.pushes <= lower, lower, True)

    def _remember(self, board: bytes, penguin: int, found: Line, known: bool = False) -> None:
        """The line for this position and for every position along it (in the cache, or
        with the packs' stored lines)."""
        put = self._known.__setitem__ if known else self._lines.put
        put((board, penguin), found)
        if found.line is None:
            return
        cells, hearts, pushes = tuple(board), board.count(HEART), found.pushes
        for index in range(found.at, len(found.line) - 1):
            after, at, hearts, _ = play(cells, penguin, hearts, found.line[index])
            pushes -= at == penguin
            cells, penguin = after, at
            put((bytes(cells), penguin),
                Line(found.line, index + 1, pushes, found.proven,
                     max(0, found.lower - (found.pushes - pushes)),
                     found.settled and pushes == found.pushes))

    def _seed(self, level: Level, moves: list[str]) -> None:
        """A pack's stored solution: a proven line from the level's start when its pushes
        equal the pack's fewest pushes (found by our finished search when the pack was made),
        else the best line known so far (the original levels past the first), so a hint has
        a line at once and a search can still do better."""
        fewest = level.info.get("pushes", "")
        pushes = line_pushes(level, "".join(moves))
        if pushes is None:
            return  # not a solution: nothing to trust
        proven = fewest.isdigit() and pushes == int(fewest)
        self._remember(bytes(level.board), level.penguin,
                       Line(tuple(moves), 0, pushes, proven, pushes if proven else 0, proven),
                       known=True)


def _pushes(number: int) -> str:
    return count(number, "push", "pushes")


def _bound(lower: int, value: int, one: str, many: str | None = None) -> str:
    """What is proven of a line that is the best found: the least the fewest can be, and so
    how many it may have too many ('' when nothing is proven)."""
    if not lower:
        return ""
    return (f"; at least {count(lower, one, many)} needed, so at most "
            f"{count(value - lower, one, many)} too many")


def _line_of(moves: list[str] | None, pushes: int, proven: bool, lower: int) -> Line:
    return Line(None if moves is None else tuple(moves), 0, pushes, proven, lower, True)


def _better(cached: Line | None, fresh: Line | None) -> Line | None:
    """The fresh search's line unless the cached one has fewer pushes; the best lower bound
    of the two either way."""
    if cached is None or cached.line is None:
        return fresh
    if fresh is None:
        return cached
    lower = max(cached.lower, fresh.lower)
    if fresh.proven or fresh.line is None or fresh.pushes <= cached.pushes:
        return Line(fresh.line, fresh.at, fresh.pushes, fresh.proven, lower, True, fresh.first)
    return Line(cached.line, cached.at, cached.pushes, cached.pushes <= lower, lower, True)
