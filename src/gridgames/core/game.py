"""The game protocol: what every game implements, and what the session, CLI and web rely on.

A game is a stateless object (one per game, in the registry) whose methods are pure functions
of immutable states. Every change of state goes through `apply(state, move)`, with moves as
short strings: undo, redo, save files, replays, the web protocol and fuzzing all reuse it.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.params import Params
from gridgames.core.rng import Rng

ONGOING, WON, LOST, DRAW = "ongoing", "won", "lost", "draw"
MAX_MOVE_LEN = 64
# Move strings are printable tokens without spaces, so that a move list can be written
# separated by spaces or commas and put in a URL.
_MOVE_CHARS = re.compile(r"[A-Za-z0-9_.:+\-=/]+")


@dataclass(frozen=True)
class Status:
    kind: str  # ONGOING, WON, LOST or DRAW (WON for two-player games: `winner` says who)
    message: str  # what the status line shows: "It's X's turn", "O wins!", "Draw"
    winner: int | None = None  # two-player games: 0 moved first, 1 second
    score: int | None = None  # scored games

    @property
    def over(self) -> bool:
        return self.kind != ONGOING


def check_move_text(move: Any) -> str:
    """Refuse anything that cannot be a move string of any game, before a game parses it."""
    if not isinstance(move, str):
        raise IllegalMove("a move is a string")
    if not move or len(move) > MAX_MOVE_LEN or not _MOVE_CHARS.fullmatch(move):
        shown = move if len(move) <= MAX_MOVE_LEN else move[:MAX_MOVE_LEN] + "..."
        raise IllegalMove(f"{shown!r} is not a move")
    return move


class Game(ABC):
    """One game's rules. Subclasses fill in the class attributes and the abstract methods."""

    name: ClassVar[str]  # registry key, used in game IDs and URLs
    title: ClassVar[str]
    summary: ClassVar[str]  # one line for menus
    params_type: ClassVar[type[Params]]
    players: ClassVar[int] = 1
    player_names: ClassVar[tuple[str, ...]] = ()
    ai_levels: ClassVar[tuple[str, ...]] = ()  # two-player games: weakest first
    can_solve: ClassVar[bool] = False
    can_hint: ClassVar[bool] = False
    # A module with `register(subparsers)` adding `gridgames <name> ...` commands, if any.
    cli_module: ClassVar[str | None] = None
    # Parameter strings the conformance suite plays besides the defaults.
    sample_params: ClassVar[tuple[str, ...]] = ()

    # --- parameters and the initial position ---

    def parse_params(self, text: str) -> Params:
        return self.params_type.parse(text)

    @abstractmethod
    def new_desc(self, params: Params, rng: Rng) -> str:
        """The initial position as a canonical string (drawn from rng where it is random)."""

    @abstractmethod
    def new_state(self, params: Params, desc: str) -> Any:
        """The state a desc describes; BadInput with a clear reason when the desc is bad."""

    @abstractmethod
    def max_moves(self, params: Params) -> int | None:
        """A bound on the length of any game (the conformance suite checks it), or None for a
        game that can go on for ever (walking about in Polar)."""

    # --- moves ---

    @abstractmethod
    def legal_moves(self, state: Any) -> list[str]:
        """Every legal move, unique, sorted by `move_order`; empty once the game is over."""

    @abstractmethod
    def apply(self, state: Any, move: str) -> Any:
        """The state after `move`; IllegalMove with a reason (the input is never changed)."""

    def move_order(self, move: str) -> Any:
        """Sort key of legal moves."""
        return move

    def split_moves(self, text: str) -> list[str]:
        """Read a written move list: moves separated by spaces or commas."""
        return text.replace(",", " ").split()

    # --- reading a state ---

    @abstractmethod
    def status(self, state: Any) -> Status: ...

    @abstractmethod
    def text(self, state: Any) -> str:
        """A plain-text board."""

    @abstractmethod
    def view(self, state: Any) -> dict[str, Any]:
        """Everything the web page draws, as JSON: no rule is left for the page to work out."""

    def current_player(self, state: Any) -> int | None:
        """Two-player games: whose turn it is (0 moved first); None when over or solitaire."""
        return None

    # --- machine play (optional) ---

    def choose(self, state: Any, level: str, rng: Rng) -> str:
        """The AI's move at `level` (one of ai_levels)."""
        raise BadInput(f"{self.title} has no AI player")

    def solve(self, state: Any) -> list[str] | None:
        """Moves that win from state, or None when there is no solution from here."""
        raise BadInput(f"{self.title} has no solver")

    def hint(self, state: Any) -> str | None:
        raise BadInput(f"{self.title} has no hints")

    def hint_info(self, state: Any) -> dict[str, Any]:
        """The hint with what the page may show about it: at least {"move": ...}; games that
        can say why add "why"."""
        return {"move": self.hint(state)}

    can_check: ClassVar[bool] = False
    can_analyze: ClassVar[bool] = False

    def analysis(self, state: Any) -> list[int | None] | None:
        """Exact score of each move for the side to move (games with a solver that can tell);
        None when it would take too long."""
        raise BadInput(f"{self.title} has no analysis")

    def check(self, state: Any) -> list[str]:
        """Moves already made that no solution agrees with (puzzles that can tell)."""
        raise BadInput(f"{self.title} has no check")

    def convert_foreign_id(self, text: str) -> str | None:
        """A game ID in another program's format turned into ours, or None if it is not one."""
        return None

    def catalogue(self) -> list[dict[str, Any]] | None:
        """Games with built-in levels: the list (number, name, ...); None for the others."""
        return None

    def add_levels(self, path: str) -> int:
        """Games with level files: add a user's file to the levels (`--levels PATH`); returns
        how many were added. Bad files are refused whole."""
        raise BadInput(f"{self.title} has no level files")

    def check_level(self, level: str) -> str:
        if level not in self.ai_levels:
            if not self.ai_levels:
                raise BadInput(f"{self.title} has no AI player")
            raise BadInput(f"unknown AI level {level!r} (levels: {', '.join(self.ai_levels)})")
        return level

    def describe(self) -> dict[str, Any]:
        """The game's card for `gridgames list`, menus and the API."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "players": self.players,
            "player_names": list(self.player_names),
            "params": self.params_type.describe(),
            "ai_levels": list(self.ai_levels),
            "can_solve": self.can_solve,
            "can_hint": self.can_hint,
            "can_check": self.can_check,
            "can_analyze": self.can_analyze,
        }
