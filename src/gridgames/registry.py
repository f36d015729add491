"""The games, found through the entry-point group `gridgames.games`.

Every game registers the same way, the five built-ins included (see pyproject.toml): the
entry point names a callable (a Game class, or a `make_game` function) that returns the game
with its capabilities. An installed plugin is one more entry point; nothing here changes. A
plugin that fails to load is logged and listed in `Games.failed`; the others still load.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points

from gridgames.core.errors import BadInput
from gridgames.core.game import Game
from gridgames.core.ids import find_game

ENTRY_POINT_GROUP = "gridgames.games"
log = logging.getLogger(__name__)


class Games(Mapping[str, Game]):
    """An immutable registry: game name -> game object. The app and each command hold one."""

    def __init__(self, games: Iterable[Game], failed: Mapping[str, str] | None = None) -> None:
        games = list(games)
        for game in games:
            if not isinstance(game, Game):
                raise TypeError(f"{game!r} is not a gridgames Game")
        # The games' own `order` sets the order of every list (the home page's first).
        self._games = {g.name: g for g in sorted(games, key=lambda g: (g.order, g.name))}
        # Entry point name -> why it did not load, for `gridgames list` to say.
        self.failed: dict[str, str] = dict(failed or {})

    @classmethod
    def installed(cls) -> Games:
        """Every game whose package declares a `gridgames.games` entry point and loads."""
        found, failed = [], {}
        for point in entry_points(group=ENTRY_POINT_GROUP):
            try:
                found.append(_load(point))
            except Exception as err:  # any plugin's fault stays that plugin's
                failed[point.name] = f"{type(err).__name__}: {err}"
                log.error("game %r (%s) did not load: %s", point.name, point.value,
                          failed[point.name])
        return cls(found, failed)

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
        return Games(games.values(), self.failed), said


def _load(point: EntryPoint) -> Game:
    game = point.load()()
    if not isinstance(game, Game):
        raise TypeError(f"it made {type(game).__name__}, not a gridgames Game")
    if game.name != point.name:
        raise TypeError(f"entry point {point.name!r} makes a game named {game.name!r}")
    return game


def _level_count(game: Game) -> int:
    return sum(len(pack["levels"]) for pack in game.levels.catalogue())


@lru_cache(maxsize=1)
def default_games() -> Games:
    """The installed games, loaded once (the registry is immutable; each game owns its own
    bounded caches)."""
    return Games.installed()
