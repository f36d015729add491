"""The game protocol: what every game implements, and what the session, CLI and web rely on.

A game is an object whose methods are pure functions of immutable states. Every change of
state goes through `apply(state, move)`, with moves as short strings: undo, redo, save files,
replays, the web protocol and fuzzing all reuse it.

The required part is small (below). What a game can do besides its rules (an AI, a solver,
hints, ...) are optional capability entries (core/capabilities.py), given when the game is
made and None otherwise.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from gridgames.core.capabilities import (
    CAPABILITIES,
    AiPlayer,
    Analyzer,
    Checker,
    Commands,
    Encoding,
    ForeignIds,
    Generator,
    Hinter,
    LevelPacks,
    Solver,
)
from gridgames.core.envelope import Place, default_place, envelope, grid_of_view
from gridgames.core.errors import IllegalMove
from gridgames.core.grid import Grid
from gridgames.core.params import Params
from gridgames.core.rng import Rng

ONGOING, WON, LOST, DRAW = "ongoing", "won", "lost", "draw"
MAX_MOVE_LEN = 64
# Move strings are printable tokens without spaces, so that a move list can be written
# separated by spaces or commas and put in a URL.
_MOVE_CHARS = re.compile(r"[A-Za-z0-9_.:+\-=/]+")


@dataclass(frozen=True)
class Status:
    outcome: str  # ONGOING, WON, LOST or DRAW (WON for two-player games: `winner` says who)
    message: str  # what the status line shows: "It's X's turn", "O wins!", "It's a Draw"
    winner: int | None = None  # two-player games: 0 moved first, 1 second
    score: int | None = None  # scored games

    @property
    def over(self) -> bool:
        return self.outcome != ONGOING

    def as_json(self) -> dict[str, Any]:
        """The status as views and the API write it (its outcome under the key `kind`)."""
        return {"kind": self.outcome, "message": self.message, "winner": self.winner,
                "score": self.score}


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
    # How to play, in a few sentences for the page's help (the summary when empty).
    rules: ClassVar[str] = ""
    # Which way the status's score is better ("higher", "lower"), for a page's best scores;
    # None where the score ranks nothing (a two-player game, a count that ends the same).
    score_order: ClassVar[str | None] = None
    score_unit: ClassVar[str] = ""  # what the score counts, plural ("points", "moves")
    params_type: ClassVar[type[Params]]
    players: ClassVar[int] = 1
    player_names: ClassVar[tuple[str, ...]] = ()
    # Against the AI a page says the status in a person's words ("Your turn", "You win!");
    # a game whose status words are its source's own (tic-tac-toe) keeps them.
    person_words: ClassVar[bool] = True
    # The JS module that draws the game's view, a file beside the game's module (package
    # data, so that an installed plugin carries its own; docs/adding-a-game.md).
    renderer: ClassVar[str]
    # Parameter strings the conformance suite plays besides the defaults.
    sample_params: ClassVar[tuple[str, ...]] = ()
    # Where the game comes in lists (the home page, `gridgames list`): lower first, ties by
    # name. The built-ins take 10 to 50; a plugin that says nothing comes after them.
    order: ClassVar[int] = 100

    # Optional capabilities: plain entries, None where the game has none.
    ai: AiPlayer | None = None
    solver: Solver | None = None
    hints: Hinter | None = None
    analyzer: Analyzer | None = None
    checker: Checker | None = None
    levels: LevelPacks | None = None
    foreign_ids: ForeignIds | None = None
    generator: Generator | None = None
    commands: Commands | None = None
    encoding: Encoding | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The envelope is built once, here; a game that wrote its own `view` would drop it.
        if "view" in cls.__dict__:
            raise TypeError(f"{cls.__name__} defines view(): a game defines own_view(), and "
                            "Game.view adds the envelope (docs/adding-a-game.md)")

    def __init__(self, **capabilities: Any) -> None:
        for key, value in capabilities.items():
            if key not in CAPABILITIES:
                raise TypeError(f"{key!r} is not a capability ({', '.join(CAPABILITIES)})")
            setattr(self, key, value)

    def capabilities(self) -> dict[str, Any]:
        """The entries this game has."""
        return {key: getattr(self, key) for key in CAPABILITIES
                if getattr(self, key) is not None}

    def replaced(self, **capabilities: Any) -> Game:
        """The same game with some capability entries replaced (a user's level packs)."""
        return type(self)(**{**self.capabilities(), **capabilities})

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

    def warm(self) -> None:
        """Load what the rules run on (compiled code, tables) now, so that no move waits
        for it: a server calls this before it says ready. Most games have nothing to load."""
        return

    # --- moves ---

    @abstractmethod
    def legal_moves(self, state: Any) -> list[str]:
        """Every legal move, unique, in the game's own order; empty once the game is over."""

    @abstractmethod
    def apply(self, state: Any, move: str) -> Any:
        """The state after `move`; IllegalMove with a reason (the input is never changed)."""

    def move_words(self, move: str) -> str:
        """A move as a player says it ("column 4", "right"), where its notation alone would
        not say what it does; by default the notation itself (a cell name such as `a1`)."""
        return move

    def split_moves(self, text: str) -> list[str]:
        """Read a written move list: moves separated by spaces or commas."""
        return text.replace(",", " ").split()

    # --- reading a state ---

    @abstractmethod
    def status(self, state: Any) -> Status: ...

    def current_player(self, state: Any) -> int | None:
        """Two-player games: whose turn it is (0 moved first); None when over or solitaire."""
        return None

    @abstractmethod
    def text(self, state: Any) -> str:
        """A plain-text board."""

    @abstractmethod
    def own_view(self, state: Any) -> dict[str, Any]:
        """Everything the game's renderer draws, as JSON, with `kind`, `rows` and `cols`: no
        rule is left for the page to work out."""

    def place(self, state: Any, move: str, grid: Grid) -> Place | None:
        """What a legal move acts on: a `Cell`, an `Edge` or None (core/envelope.py). By
        default a move written as a cell name of the view's grid acts on that cell."""
        return default_place(grid, move)

    def view(self, state: Any) -> dict[str, Any]:
        """The game's own view with the envelope every game shares: `status`, and `actions`
        (the legal moves, each with its place)."""
        own = self.own_view(state)
        grid = grid_of_view(own)
        return envelope(own, self.status(state),
                        ((move, self.place(state, move, grid)) for move in self.legal_moves(state)))


def describe(game: Game) -> dict[str, Any]:
    """The game's card for `gridgames list`, menus and the API."""
    return {
        "name": game.name,
        "title": game.title,
        "summary": game.summary,
        "players": game.players,
        "player_names": list(game.player_names),
        "person_words": game.person_words,
        "params": game.params_type.describe(),
        # The levels offered on the default board (GET /games/{name}/ai-levels: on others).
        "ai_levels": list(game.ai.offered(game.params_type())) if game.ai else [],
        "default_ai_level": game.ai.default_level if game.ai else None,
        "capabilities": [key for key in game.capabilities()
                         if key not in ("commands", "encoding")],  # not the page's business
        "score_help": game.analyzer.score_help if game.analyzer else None,
        "rules": game.rules or game.summary,
        "score_order": game.score_order,
        "score_unit": game.score_unit,
    }
