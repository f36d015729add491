"""Polar: the game around the source's rules of a move (docs/rules/polar.md).

Moves are U, D, L, R; a move that would change nothing is refused with the reason. Won when
the heart count reaches 0; lost when a heart can never reach a house or no move changes
anything (undo or restart then). The rules themselves, the source's push_tile, collide and
slide, and which hearts are lost, are in rules.py, which the searches run too. The board's
codes are in board.py, the level packs in packs.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.game import LOST, ONGOING, WON, Game, Status, check_move_text
from gridgames.core.params import Params, param
from gridgames.core.rng import Rng
from gridgames.core.words import count
from gridgames.games.polar import rules
from gridgames.games.polar.board import (
    COLS,
    DIRECTIONS,
    EDGE,
    HEART,
    HOUSE,
    MOVABLE,
    NAMES,
    ROWS,
    step,
)
from gridgames.games.polar.packs import (
    DEFAULT_PACK,
    PACKS,
    Level,
    PolarPacks,
    format_level_rows,
    parse_desc,
)

# --- a move, by the source's rules ---

Event = tuple[Any, ...]

DIRECTION_WORDS = {"U": "up", "D": "down", "L": "left", "R": "right"}


def play(board: tuple[int, ...], penguin: int, hearts: int,
         direction: str) -> tuple[tuple[int, ...], int, int, tuple[Event, ...]]:
    """One move by the source's rules (rules.move): (board, penguin, hearts, events)
    afterwards. `hearts` before the move is the level's count, which packs.py checks equals
    the hearts on the board; afterwards it is the rules' own count (rules.hearts_left), so
    the level is won (status) exactly when the searches' rules say so. The events, for the
    page's animations: ("walk", from, to), ("slide", tile, start, end), ("crush", cell),
    ("home", heart's cell, house), ("boom", bomb's cell, mountain), ("bump", cell, the cell
    in the way or -1 for the edge)."""
    cells = rules.cells_of(board)
    events = rules.new_events()
    at, n = rules.move(cells, penguin, rules.ORDER.index(direction), rules.NEXT, events)
    happened = tuple((rules.EVENT_NAMES[kind], *row[:rules.EVENT_SIZES[kind]])
                     for kind, *row in events[:n].tolist())
    return tuple(cells.tolist()), int(at), int(rules.hearts_left(cells)), happened


# The smallest level there is (a heart one push from its house): what the compiled code is
# loaded with, the rules' here and the searches' in hints.py.
WARM_BOARD = tuple(HEART if cell == 1 else HOUSE if cell == 3 else 0
                   for cell in range(rules.CELLS))


def warm_rules() -> None:
    """Load (or compile, the first time) the rules' kernels: a move and the lost hearts."""
    play(WARM_BOARD, 0, 1, "R")
    rules.dead_hearts(WARM_BOARD)


def line_pushes(level: Any, moves: str) -> int | None:
    """The pushes of a line of moves from a level's start, replayed by the rules above (a
    move that leaves the penguin where it was pushed something); None when it does not win
    (a pack's stored line is trusted only this far)."""
    board, penguin, hearts, pushes = level.board, level.penguin, level.hearts, 0
    for move in moves:
        if move not in DIRECTIONS or hearts == 0:
            return None
        board, at, hearts, _ = play(board, penguin, hearts, move)
        pushes += at == penguin
        penguin = at
    return pushes if moves and hearts == 0 else None


# --- the game ---


@dataclass(frozen=True)
class PolarParams(Params):
    level: int = param(1, lo=1, hi=999, help="level number in the pack", label="Level")
    pack: str = param(DEFAULT_PACK, choices=tuple(PACKS),
                      help="gridgames: ours (and any added with --levels); original: the "
                      "1990 game's six levels by Go Endo; expert: ours, each proven to need 15 "
                      "pushes or more", label="Levels",
                      choice_labels={name: pack[1] for name, pack in PACKS.items()})


@dataclass(frozen=True)
class PolarState:
    params: PolarParams
    board: tuple[int, ...]
    penguin: int
    hearts: int
    facing: str = "L"
    moves: int = 0
    name: str = ""
    number: int = 0  # the pack's level this is, 0 for a level from elsewhere
    pack: str = ""
    # What the last move did, for the page's animations: (kind, cells...) tuples.
    events: tuple[tuple[Any, ...], ...] = field(default=(), compare=False)
    pushes: int = 0  # moves that pushed something (the penguin stayed where it was)
    # The level as it started, so a hint can compare this position with the start.
    start: Level | None = field(default=None, compare=False)


class Polar(Game):
    name = "polar"
    title = "Polar"
    summary = "Push every heart into a house on frictionless ice. Plan ahead: you can't pull."
    rules = ("Walk the penguin with the arrow keys. Walking into ice, a heart or a bomb pushes "
             "it: it slides until something stops it. A heart that slides into a house is "
             "home; ice that hits something when pushed is crushed; a bomb blows up a "
             "mountain. Bring every heart home, in as few moves as you can.")
    score_order = "lower"
    score_unit = "moves"
    params_type = PolarParams
    renderer = "polar.js"
    order = 40
    sample_params = ("level=2", "level=5", "pack=original,level=4")
    levels: PolarPacks

    def __init__(self, **capabilities: Any) -> None:
        super().__init__(**capabilities)
        if self.levels is None:  # the packs are the rules' own levels: always there
            self.levels = PolarPacks()

    def warm(self) -> None:
        warm_rules()

    def parse_params(self, text: str) -> PolarParams:
        params = PolarParams.parse(text)
        count = len(self.levels.pack(params.pack))
        if params.level > count:
            raise BadInput(f"level must be from 1 to {count} in pack {params.pack}, not "
                           f"{params.level}")
        return params

    def new_desc(self, params: PolarParams, rng: Rng) -> str:
        return self.levels.pack(params.pack)[params.level - 1].desc()

    def new_state(self, params: PolarParams, desc: str) -> PolarState:
        level = parse_desc(desc)
        found = self.levels.find(desc, params.pack, params.level)
        pack, number, name = (found[0], found[1], found[2].name) if found else \
            ("", 0, "Custom level")
        return PolarState(params, level.board, level.penguin, level.hearts, name=name,
                          number=number, pack=pack, start=level)

    def max_moves(self, params: PolarParams) -> int | None:
        return None  # the penguin may walk about for ever

    def split_moves(self, text: str) -> list[str]:
        """Every move is one letter, so `RRUL` is four moves (lower case too); spaces and
        commas are ignored."""
        return [ch.upper() for ch in text if ch not in " ,\t\n"]

    def legal_moves(self, state: PolarState) -> list[str]:
        if state.hearts == 0 or rules.dead_hearts(state.board):
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
                          state.name, state.number, state.pack, events,
                          state.pushes + (penguin == state.penguin), state.start)

    def _why_nothing(self, state: PolarState, move: str) -> str:
        target = step(state.penguin, move)
        tile = EDGE if target is None else state.board[target]
        if tile not in MOVABLE:
            return f"the penguin cannot go {move}: {NAMES[tile]} in the way"
        beyond = step(target, move)
        other = EDGE if beyond is None else state.board[beyond]
        return f"the {NAMES[tile]} does not move: {NAMES[other]} behind it"

    def move_words(self, move: str) -> str:
        return DIRECTION_WORDS.get(move, move)

    def status(self, state: PolarState) -> Status:
        if state.hearts == 0:
            return Status(WON, f"Level solved in {count(state.moves, 'move')}!",
                          score=state.moves)
        if rules.dead_hearts(state.board):
            return Status(LOST, "A heart can no longer reach a house: undo or restart",
                          score=state.moves)
        if not any(self._changes(state, d) for d in DIRECTIONS):
            return Status(LOST, "The penguin is stuck: undo or restart", score=state.moves)
        return Status(ONGOING, f"{count(state.hearts, 'heart')} to bring home · "
                      f"{count(state.moves, 'move')}", score=state.moves)

    def text(self, state: PolarState) -> str:
        rows = format_level_rows(state.board, state.penguin)
        return "\n".join(rows) + f"\nhearts {state.hearts}  moves {state.moves}"

    def own_view(self, state: PolarState) -> dict[str, Any]:
        info = self.levels.pack(state.pack)[state.number - 1].info if state.number else {}
        return {
            "kind": "polar",
            "rows": ROWS,
            "cols": COLS,
            "cells": list(state.board),
            "penguin": state.penguin,
            "facing": state.facing,
            "hearts": state.hearts,
            "moves": state.moves,
            "pushes": state.pushes,
            "name": state.name,
            "level": state.number or None,
            "pack": state.pack or None,
            "best": info.get("best"),  # moves of the best known line ("+": not proven)
            "fewest_pushes": info.get("pushes"),  # proven fewest pushes: what Solve finds
            "events": [list(e) for e in state.events],
            "dead": rules.dead_hearts(state.board),
            "legal": self.legal_moves(state),
        }
