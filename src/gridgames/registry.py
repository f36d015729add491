"""The games, found through the entry-point group `gridgames.games`.

Every game registers the same way, the five built-ins included (see pyproject.toml): the
entry point names a callable (a Game class, or a `make_game` function) that returns the game
with its capabilities. An installed plugin is one more entry point; nothing here changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from importlib.metadata import entry_points

from gridgames.core.errors import BadInput
from gridgames.core.game import Game
from gridgames.core.ids import find_game

ENTRY_POINT_GROUP = "gridgames.games"
BUILTIN_ORDER = ("tictactoe", "trilobite", "ishido", "polar", "twomino")


class Games(Mapping[str, Game]):
    """An immutable registry: game name -> game object. The app and each command hold one."""

    def __init__(self, games: Iterable[Game]) -> None:
        self._games: dict[str, Game] = {}
        for game in games:
            if not isinstance(game, Game):
                raise TypeError(f"{game!r} is not a gridgames Game")
            self._games[game.name] = game

    @classmethod
    def installed(cls) -> Games:
        """Every game whose package declares a `gridgames.games` entry point."""
        found = []
        for point in entry_points(group=ENTRY_POINT_GROUP):
            game = point.load()()
            if game.name != point.name:
                raise TypeError(f"entry point {point.name!r} makes a game named {game.name!r}")
            found.append(game)
        rank = {name: i for i, name in enumerate(BUILTIN_ORDER)}
        found.sort(key=lambda g: (rank.get(g.name, len(rank)), g.name))
        return cls(found)

    def __getitem__(self, name: str) -> Game:
        return self._games[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    def get_game(self, name: object) -> Game:
        """The game called name; UnknownName (HTTP 404, CLI exit 2) listing the games."""
        return find_game(self, name)

    def with_level_files(self, paths: Iterable[str]) -> tuple[Games, list[str]]:
        """A registry whose games with level packs also offer these files' levels, and a line
        saying what was added from each file. A bad file is refused whole (BadInput)."""
        games = dict(self._games)
        said = []
        for path in paths:
            takers = [g for g in games.values() if g.levels is not None]
            if not takers:
                raise BadInput("no game here reads level files")
            game = takers[0]
            before = _level_count(game)
            game = game.replaced(levels=game.levels.adding(path))
            games[game.name] = game
            said.append(f"{game.title}: {_level_count(game) - before} levels added from {path}")
        return Games(games.values()), said


def _level_count(game: Game) -> int:
    return sum(len(pack["levels"]) for pack in game.levels.catalogue())


@lru_cache(maxsize=1)
def default_games() -> Games:
    """The installed games, loaded once (the registry is immutable; each game owns its own
    bounded caches)."""
    return Games.installed()
