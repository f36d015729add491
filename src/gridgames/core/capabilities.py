"""Optional capabilities: what a game can do besides its rules.

A game object carries them as plain entries (`game.ai`, `game.solver`, ...: see
`core/game.py`), set when the game is made (its package's `make_game`), None where the game
has none, as Simon Tatham's `struct game` carries optional functions. Nothing asks a game
whether it can do something: code reads the entry. Each interface is small, and machine play
takes a `Budget` and answers a `Result` (core/result.py): proven, best found or none.
"""

from __future__ import annotations

import argparse
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from gridgames.core.errors import BadInput, UnknownName
from gridgames.core.result import Budget, Result
from gridgames.core.rng import Rng

if TYPE_CHECKING:
    from gridgames.core.params import Params

CAPABILITIES = ("ai", "solver", "hints", "analyzer", "checker", "levels", "foreign_ids",
                "generator", "commands", "encoding")


class AiPlayer(ABC):
    """Plays a move of a two-player game at a named level."""

    levels: tuple[str, ...] = ()  # weakest first: every level it plays (saved games name them)

    def offered(self, params: Params) -> tuple[str, ...]:
        """The levels a page offers for these params, weakest first: by default all of them.
        A game leaves out a level whose name would not be true there (a "perfect" level that
        cannot prove its moves in a page's time); it still plays it when asked."""
        return self.levels

    def strongest(self, params: Params) -> str:
        return self.offered(params)[-1]

    @property
    def default_level(self) -> str:
        """The level an opponent plays unless told: the middle one."""
        return self.levels[(len(self.levels) - 1) // 2]

    def check_level(self, level: Any) -> str:
        if level not in self.levels:
            raise BadInput(f"unknown AI level {str(level)[:40]!r} "
                           f"(levels: {', '.join(self.levels)})")
        return level

    @abstractmethod
    def choose(self, state: Any, level: str, rng: Rng, budget: Budget) -> Result[str]:
        """A move for the side to move. PROVEN only when the move is proven best."""


class Solver(ABC):
    """Finds the moves that win a puzzle from a position."""

    @abstractmethod
    def solve(self, state: Any, budget: Budget) -> Result[list[str]]:
        """Moves from state to a win. PROVEN with a value: a finished search proved it best
        (fewest moves, or the only solution); PROVEN with None: proven unsolvable from here."""


@dataclass(frozen=True)
class Hint:
    move: str
    why: str = ""  # a reason the page may show ("cell c4 can only be 3-5")


class Hinter(ABC):
    @abstractmethod
    def hint(self, state: Any, budget: Budget) -> Result[Hint]:
        """A good next move, with a reason where the game can give one."""


class Analyzer(ABC):
    """Scores every move of the side to move."""

    score_help: str = ""  # what the numbers mean, for the page and the API

    @abstractmethod
    def analyze(self, state: Any, budget: Budget) -> Result[dict[str, int | None]]:
        """Move -> score (None: not known within the budget). PROVEN when every score is
        exact."""


class Checker(ABC):
    @abstractmethod
    def check(self, state: Any, budget: Budget) -> Result[list[str]]:
        """Moves already made that no solution agrees with."""


class LevelPacks(ABC):
    """Built-in level packs, and level files a user adds."""

    @abstractmethod
    def catalogue(self) -> list[dict[str, Any]]:
        """The packs: each {"name", "title", "credit", "levels": [{"number", "name", ...}]}."""

    @abstractmethod
    def adding(self, path: str) -> LevelPacks:
        """These packs plus a user's level file (BadInput when the file is bad)."""

    # A game whose levels a person can make in the page's editor names the level file
    # formats it writes and answers the two methods below; () means no editor.
    formats: tuple[str, ...] = ()

    def check_draft(self, draft: Any) -> dict[str, Any]:
        """A level being made, as the game reads it: `problems` (why it is not a level yet,
        [] when it is) and `desc` (None until it is), beside the draft's own fields."""
        raise UnknownName("this game has no level editor")

    def level_file(self, desc: str, fmt: str, name: str) -> tuple[str, str, bytes]:
        """A made level as a file of a format of `formats`: (file name, media type, bytes);
        BadInput for a level with a problem."""
        raise UnknownName("this game has no level editor")


class ForeignIds(ABC):
    @abstractmethod
    def convert(self, text: str) -> str | None:
        """Another program's game ID as ours, or None when text is not one."""


class Generator(ABC):
    @abstractmethod
    def new_desc(self, params: Params, rng: Rng) -> str:
        """A start position the rules cannot make alone (a graded puzzle)."""


class Subcommands(Protocol):
    """What commands are added to: the object argparse's `add_subparsers` gives."""

    def add_parser(self, name: str, **options: Any) -> argparse.ArgumentParser: ...


class Commands(ABC):
    @abstractmethod
    def register(self, subparsers: Subcommands) -> None:
        """Add `gridgames <game> ...` commands (`command_group` makes the `<game>` level).
        Each sets `run(args, out)`; `args.registry` is the registry the command line runs
        with."""


def command_group(subparsers: Subcommands, name: str, help: str, metavar: str = "COMMAND"
                  ) -> Subcommands:
    """`gridgames NAME COMMAND ...`: the group a game's commands are added to (the chosen
    command in `args.NAME_command`)."""
    parser = subparsers.add_parser(name, help=help)
    return parser.add_subparsers(dest=f"{name}_command", metavar=metavar, required=True,
                                 parser_class=type(parser))


class Encoding(ABC):
    """How a game looks to a learning agent (gridgames.envs), where it wants its own actions
    and observations rather than the ones every game gets from its view's envelope. Actions
    are a fixed list for the game's parameters; which move each stands for may change with
    the position. The observation is any Gymnasium space (imported inside the methods, so
    that the game loads without the `rl` extra)."""

    @abstractmethod
    def action_count(self, params: Params) -> int:
        """How many actions there are for these parameters."""

    @abstractmethod
    def action_moves(self, state: Any) -> list[str | None]:
        """The move each action stands for in this position (None: none); the environment
        masks those that are not legal now."""

    @abstractmethod
    def observation_space(self, params: Params) -> Any:
        """The Gymnasium space of `observe`'s answers for these parameters."""

    @abstractmethod
    def observe(self, state: Any, seat: int | None) -> Any:
        """What the agent sees; `seat` is the observing player of a two-player game (None in
        a puzzle)."""

    def max_steps(self, params: Params, bound: int | None) -> int | None:
        """After how many steps a puzzle's episode is cut short (None: never); by default
        `bound`, the game's own bound on its length (`Game.max_moves`)."""
        return bound


class HintsFromAi(Hinter):
    """Two-player games: the hint is the move of the strongest AI level offered for the
    board, its ties broken the same way every time for a position (the rng is seeded by the
    position). (Their states carry their params.)"""

    def __init__(self, ai: AiPlayer, position_key: Any) -> None:
        self.ai = ai
        self.position_key = position_key  # state -> a string naming the position

    def hint(self, state: Any, budget: Budget) -> Result[Hint]:
        found = self.ai.choose(state, self.ai.strongest(state.params),
                               Rng(self.position_key(state)), budget)
        return found.with_value(None if found.value is None else Hint(found.value))
