"""Polar, from the seed `002_1e813132e21882de.txt` (Dylan): the game protocol around the
seed's rules (physics.py). Moves are U, D, L, R; a move that would change nothing is refused
with the reason. Won when the heart count reaches 0; lost when a heart can never reach a house
or no move changes anything (undo or restart then)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.game import LOST, ONGOING, WON, Game, Status, check_move_text
from gridgames.core.params import Params, param
from gridgames.core.rng import Rng
from gridgames.games.polar.analysis import dead_hearts
from gridgames.games.polar.board import (
    COLS,
    DIRECTIONS,
    EDGE,
    HEART,
    MOVABLE,
    NAMES,
    ROWS,
    step,
)
from gridgames.games.polar.levels import (
    Level,
    add_levels,
    format_level_rows,
    level_pack,
    parse_desc,
)
from gridgames.games.polar.physics import play
from gridgames.games.polar.solver import solve_moves


@dataclass(frozen=True)
class PolarParams(Params):
    level: int = param(1, lo=1, hi=999, help="built-in levels, then any added with --levels")

    def check(self) -> None:
        count = len(level_pack())
        if self.level > count:
            raise BadInput(f"level must be from 1 to {count}, not {self.level}")


@dataclass(frozen=True)
class PolarState:
    params: PolarParams
    board: tuple[int, ...]
    penguin: int
    hearts: int
    facing: str = "L"
    moves: int = 0
    name: str = ""
    number: int = 0  # the built-in level this is, 0 for a level from elsewhere
    # What the last move did, for the page's animations: (kind, cells...) tuples.
    events: tuple[tuple[Any, ...], ...] = field(default=(), compare=False)


class Polar(Game):
    name = "polar"
    title = "Polar"
    summary = "Push every heart into a house on frictionless ice. Plan ahead: you can't pull."
    params_type = PolarParams
    can_solve = True
    can_hint = True
    sample_params = ("level=2", "level=5")
    cli_module = "gridgames.games.polar.commands"

    def new_desc(self, params: PolarParams, rng: Rng) -> str:
        return level_pack()[params.level - 1].desc()

    def new_state(self, params: PolarParams, desc: str) -> PolarState:
        level = parse_desc(desc)
        number = next((i for i, lv in enumerate(level_pack(), 1) if lv.desc() == desc), 0)
        name = level_pack()[number - 1].name if number else "Custom level"
        return PolarState(params, level.board, level.penguin, level.hearts, name=name,
                          number=number)

    def level_of(self, state: PolarState) -> Level:
        return Level(state.name, state.board, state.penguin, state.hearts)

    def max_moves(self, params: PolarParams) -> int | None:
        return None  # the penguin may walk about for ever

    def legal_moves(self, state: PolarState) -> list[str]:
        if state.hearts == 0 or dead_hearts(state.board):
            return []
        return [d for d in sorted(DIRECTIONS) if self._changes(state, d)]

    def _changes(self, state: PolarState, direction: str) -> bool:
        board, penguin, _, _ = play(state.board, state.penguin, state.hearts, direction)
        return board != state.board or penguin != state.penguin

    def apply(self, state: PolarState, move: str) -> PolarState:
        check_move_text(move)
        if move not in DIRECTIONS:
            raise IllegalMove(f"{move!r} is not a move: use U, D, L or R")
        status = self.status(state)
        if status.over:
            raise IllegalMove(f"the level is over: {status.message}")
        board, penguin, hearts, events = play(state.board, state.penguin, state.hearts, move)
        if board == state.board and penguin == state.penguin:
            raise IllegalMove(self._why_nothing(state, move))
        return PolarState(state.params, board, penguin, hearts, move, state.moves + 1,
                          state.name, state.number, events)

    def _why_nothing(self, state: PolarState, move: str) -> str:
        target = step(state.penguin, move)
        tile = EDGE if target is None else state.board[target]
        if tile not in MOVABLE:
            return f"the penguin cannot go {move}: {NAMES[tile]} in the way"
        beyond = step(target, move)
        other = EDGE if beyond is None else state.board[beyond]
        return f"the {NAMES[tile]} does not move: {NAMES[other]} behind it"

    def status(self, state: PolarState) -> Status:
        if state.hearts == 0:
            return Status(WON, f"Level solved in {state.moves} moves!", score=state.moves)
        if dead_hearts(state.board):
            return Status(LOST, "A heart can no longer reach a house: undo or restart",
                          score=state.moves)
        if not any(self._changes(state, d) for d in DIRECTIONS):
            return Status(LOST, "The penguin is stuck: undo or restart", score=state.moves)
        plural = "s" if state.hearts != 1 else ""
        return Status(ONGOING, f"{state.hearts} heart{plural} to bring home · {state.moves} "
                      "moves", score=state.moves)

    def text(self, state: PolarState) -> str:
        rows = format_level_rows(state.board, state.penguin)
        return "\n".join(rows) + f"\nhearts {state.hearts}  moves {state.moves}"

    def view(self, state: PolarState) -> dict[str, Any]:
        return {
            "kind": "polar",
            "rows": ROWS,
            "cols": COLS,
            "cells": list(state.board),
            "penguin": state.penguin,
            "facing": state.facing,
            "hearts": state.hearts,
            "moves": state.moves,
            "name": state.name,
            "level": state.number or None,
            "best": level_pack()[state.number - 1].info.get("best") if state.number else None,
            "events": [list(e) for e in state.events],
            "dead": dead_hearts(state.board),
            "legal": self.legal_moves(state),
        }

    def add_levels(self, path: str) -> int:
        return add_levels(path)

    def catalogue(self) -> list[dict[str, Any]]:
        return [{"number": i, "name": lv.name, "best": lv.info.get("best"),
                 "pushes": lv.info.get("pushes")} for i, lv in enumerate(level_pack(), 1)]

    def solve(self, state: PolarState) -> list[str] | None:
        return _solutions.get(state.board, state.penguin)

    def hint(self, state: PolarState) -> str | None:
        solution = self.solve(state) if not self.status(state).over else None
        return solution[0] if solution else None


class _SolutionCache:
    """Solutions by position, bounded. A solution also answers for every position along it,
    so a player who follows the hints gets each next one at once."""

    def __init__(self, size: int = 2000) -> None:
        self.size = size
        self.known: OrderedDict[tuple[tuple[int, ...], int], list[str] | None] = OrderedDict()

    def get(self, board: tuple[int, ...], penguin: int) -> list[str] | None:
        key = (board, penguin)
        if key in self.known:
            self.known.move_to_end(key)
            return self.known[key]
        solution = solve_moves(board, penguin, board.count(HEART))
        if solution is None:
            self._remember(key, None)
        else:
            self.seed(board, penguin, solution)
        return solution

    def seed(self, board: tuple[int, ...], penguin: int, solution: list[str]) -> None:
        """Record a known solution for a position and every position along it."""
        hearts = board.count(HEART)
        self._remember((board, penguin), solution)
        for index, move in enumerate(solution[:-1]):
            board, penguin, hearts, _ = play(board, penguin, hearts, move)
            self._remember((board, penguin), solution[index + 1:])

    def _remember(self, key: tuple[tuple[int, ...], int], solution: list[str] | None) -> None:
        self.known[key] = solution
        while len(self.known) > self.size:
            self.known.popitem(last=False)


_solutions = _SolutionCache()
for _level in level_pack():  # the shipped levels' known solutions answer at once
    if "solution" in _level.info:
        _solutions.seed(_level.board, _level.penguin, list(_level.info["solution"]))
