"""The session's own entries in a game's history: Restart, Solve and Jump, each a `Marker`.

A history is kept and stored as text, so a marker has a text form (`!restart`, `!solve`
followed by the solution's moves, `!jump` followed by the game moves from the start that
reach an earlier position, with `!solve` before the first of them a Solve played, so that a
position reached with help stays so); it is read from and written to that form only where a
history comes in or goes out (a save, the database, a page).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from gridgames.core.errors import BadInput

PREFIX = "!"  # no game's move starts with it
RESTART, SOLVE, JUMP = "restart", "solve", "jump"
ACTIONS = (RESTART, SOLVE, JUMP)


@dataclass(frozen=True)
class Marker:
    action: str  # one of ACTIONS
    moves: tuple[str, ...] = ()  # a solution's moves, or a jump's moves from the start
    solved_from: int | None = None  # a jump: moves[solved_from:] were played by a Solve

    def __post_init__(self) -> None:
        # A game's moves are few distinct strings, so a long marker holds a pointer a move,
        # about what its text would take (the rooms' cache counts 8 bytes a move).
        object.__setattr__(self, "moves", tuple(map(sys.intern, self.moves)))

    @classmethod
    def parse(cls, text: str) -> Marker:
        """The marker a history entry's text says; BadInput when it says none."""
        action, *moves = text[len(PREFIX):].split(" ")
        helped = PREFIX + SOLVE
        solved_from = moves.index(helped) if action == JUMP and helped in moves else None
        if solved_from is not None:
            del moves[solved_from]
        if not is_marker(text) or action not in ACTIONS or "" in moves or \
                (action == RESTART and moves) or any(map(is_marker, moves)):
            raise BadInput(f"{text[:40]!r} is not a marker")
        return cls(action, tuple(moves), solved_from)

    def __str__(self) -> str:
        words = [PREFIX + self.action, *self.moves]
        if self.solved_from is not None:
            words.insert(self.solved_from + 1, PREFIX + SOLVE)
        return " ".join(words)

    @property
    def weight(self) -> int:
        """Game moves it counts for, towards a history's bound (a marker counts one at
        least)."""
        return max(1, len(self.moves))


def is_marker(text: str) -> bool:
    return text.startswith(PREFIX)
