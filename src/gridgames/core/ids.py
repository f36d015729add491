"""Game IDs: shareable strings that reproduce a game.

`game:params:desc` is an exact start position; `game:params#seed` generates the start from a
seed. Another program's ID (Simon Tatham's Dominosa `n:desc`) is read by the game whose
`foreign_ids` entry knows it. IDs are parsed against a mapping of game name -> game (the
registry the caller runs with), so this module knows no game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gridgames.core.errors import BadInput, UnknownName
from gridgames.core.game import Game
from gridgames.core.params import Params
from gridgames.core.rng import Rng
from gridgames.core.text import check_text

MAX_ID_LEN = 10_000


def find_game(games: Mapping[str, Game], name: Any) -> Game:
    game = games.get(name) if isinstance(name, str) else None
    if game is None:
        shown = name if isinstance(name, str) and len(name) <= 40 else "that"
        raise UnknownName(f"unknown game {shown!r} (games: {', '.join(games)})")
    return game


@dataclass(frozen=True)
class GameId:
    game: str
    params: str  # canonical params string
    desc: str | None = None
    seed: str | None = None

    @classmethod
    def parse(cls, text: Any, games: Mapping[str, Game]) -> GameId:
        if not isinstance(text, str) or not text.strip():
            raise BadInput("a game ID is game:params:desc or game:params#seed")
        text = text.strip()
        if len(text) > MAX_ID_LEN:
            raise BadInput("game ID is too long")
        check_text(text, "game ID")  # its desc and seed are stored as they are
        if text.partition(":")[0] not in games:  # another program's ID, for a game that reads it
            for game in games.values():
                converted = game.foreign_ids.convert(text) if game.foreign_ids else None
                if converted is not None:
                    text = converted
                    break
        name, colon, rest = text.partition(":")
        game = find_game(games, name)
        cut = min((i for i in (rest.find(":"), rest.find("#")) if i >= 0), default=-1)
        if not colon or cut < 0:
            raise BadInput(f"{text[:60]!r} is not a game ID: write game:params:desc or "
                           "game:params#seed")
        params = game.parse_params(rest[:cut]).format()
        if rest[cut] == "#":
            seed = rest[cut + 1:]
            if not seed:
                raise BadInput("game ID has an empty seed after #")
            return cls(game.name, params, seed=seed)
        return cls(game.name, params, desc=rest[cut + 1:])

    def format(self) -> str:
        if self.desc is not None:
            return f"{self.game}:{self.params}:{self.desc}"
        return f"{self.game}:{self.params}#{self.seed}"

    def start(self, games: Mapping[str, Game], generated: str | None = None
              ) -> tuple[Game, Params, str]:
        """The game, its params and the start desc (generated from the seed if need be, or
        `generated`: the caller's, made from the seed already)."""
        game = find_game(games, self.game)
        params = game.parse_params(self.params)
        desc = self.desc if self.desc is not None else \
            generated if generated is not None else game.new_desc(params, Rng(self.seed))
        return game, params, desc

    def start_state(self, games: Mapping[str, Game]) -> tuple[Game, Any]:
        game, params, desc = self.start(games)
        return game, game.new_state(params, desc)
