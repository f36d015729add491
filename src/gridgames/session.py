"""The session (Simon Tatham's "midend"), one for all games: a history of moves with a cursor.

Undo and redo move the cursor; a new move drops the redo tail. Restart and Solve are recorded
as moves (`!restart`, and `!solve` followed by the solution's moves) so that they can be
undone, and every state is reached by replaying moves through `game.apply`: a save file is a
replay, and loading one checks every move. A bad save or game ID is refused whole.

Game IDs are shareable strings: `game:params:desc` (an exact start position) or
`game:params#seed` (generate the start from a seed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.game import Game, Status
from gridgames.core.params import Params
from gridgames.core.rng import Rng
from gridgames.registry import GAMES, get_game

RESTART = "!restart"
SOLVE = "!solve"
SAVE_FORMAT = "gridgames-save"
SAVE_VERSION = 1
MAX_ID_LEN = 10_000
MAX_HISTORY = 20_000


@dataclass(frozen=True)
class GameId:
    game: str
    params: str  # canonical params string
    desc: str | None = None
    seed: str | None = None

    @classmethod
    def parse(cls, text: str) -> GameId:
        if not isinstance(text, str) or not text.strip():
            raise BadInput("a game ID is game:params:desc or game:params#seed")
        text = text.strip()
        if len(text) > MAX_ID_LEN:
            raise BadInput("game ID is too long")
        if text.partition(":")[0] not in GAMES:  # another program's ID, for a game that reads it
            for game in GAMES.values():
                if (converted := game.convert_foreign_id(text)) is not None:
                    text = converted
                    break
        name, colon, rest = text.partition(":")
        game = get_game(name)
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


class Session:
    def __init__(self, game: Game, params: Params, desc: str, seed: str | None = None) -> None:
        self.game = game
        self.params = params
        self.desc = desc
        self.seed = seed
        self.initial = game.new_state(params, desc)
        self._moves: list[str] = []  # _moves[i] leads from _states[i] to _states[i + 1]
        self._states: list[Any] = [self.initial]
        self.cursor = 0

    # --- making sessions ---

    @classmethod
    def new(cls, game_name: str, params_text: str = "", seed: str | None = None) -> Session:
        game = get_game(game_name)
        params = game.parse_params(params_text)
        seed = seed if seed is not None else Rng.new_seed()
        return cls(game, params, game.new_desc(params, Rng(seed)), seed)

    @classmethod
    def from_id(cls, text: str, moves: list[str] | None = None) -> Session:
        """A session at the position the ID gives, after `moves` (all checked)."""
        gid = GameId.parse(text)
        game = get_game(gid.game)
        params = game.parse_params(gid.params)
        if gid.desc is not None:
            session = cls(game, params, gid.desc)
        else:
            session = cls(game, params, game.new_desc(params, Rng(gid.seed)), gid.seed)
        for number, move in enumerate(moves or [], 1):
            session._replay_one(move, number)
        return session

    # --- reading ---

    @property
    def state(self) -> Any:
        return self._states[self.cursor]

    @property
    def moves(self) -> list[str]:
        """The moves that lead to the current state."""
        return self._moves[:self.cursor]

    @property
    def history(self) -> list[str]:
        """Every recorded move, the redo tail included."""
        return list(self._moves)

    @property
    def game_id(self) -> str:
        return GameId(self.game.name, self.params.format(), desc=self.desc).format()

    @property
    def seed_id(self) -> str | None:
        if self.seed is None:
            return None
        return GameId(self.game.name, self.params.format(), seed=self.seed).format()

    def status(self) -> Status:
        return self.game.status(self.state)

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < len(self._moves)

    # --- changing ---

    def play(self, move: str) -> Any:
        """Apply a game move (or a recorded `!restart` / `!solve ...`) at the cursor."""
        self._record(move, self._after(self.state, move))
        return self.state

    def undo(self) -> Any:
        if not self.can_undo:
            raise BadInput("nothing to undo")
        self.cursor -= 1
        return self.state

    def redo(self) -> Any:
        if not self.can_redo:
            raise BadInput("nothing to redo")
        self.cursor += 1
        return self.state

    def restart(self) -> Any:
        """Back to the start position, recorded as a move so that it can be undone."""
        if self.state == self.initial:
            raise BadInput("already at the start")
        return self.play(RESTART)

    def solve(self) -> Any:
        """Play the game's solution from here, as one move that can be undone."""
        if not self.game.can_solve:
            raise BadInput(f"{self.game.title} has no solver")
        solution = self.game.solve(self.state)
        if solution is None:
            raise BadInput("no solution from this position: undo or restart")
        return self.play(" ".join([SOLVE, *solution]))

    def _after(self, state: Any, move: str) -> Any:
        if not isinstance(move, str):
            raise IllegalMove("a move is a string")
        if move == RESTART:
            return self.initial
        if move.startswith(SOLVE + " ") or move == SOLVE:
            for step in move.split()[1:]:
                state = self.game.apply(state, step)
            return state
        return self.game.apply(state, move)

    def _record(self, move: str, state: Any) -> None:
        if self.cursor >= MAX_HISTORY:
            raise BadInput(f"a game keeps at most {MAX_HISTORY} moves")
        del self._moves[self.cursor:]
        del self._states[self.cursor + 1:]
        self._moves.append(move)
        self._states.append(state)
        self.cursor += 1

    def _replay_one(self, move: Any, number: int) -> None:
        try:
            self.play(move)
        except BadInput as err:
            raise BadInput(f"move {number} ({str(move)[:40]!r}): {err}") from err

    # --- save files ---

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game.name,
            "params": self.params.format(),
            "desc": self.desc,
            "seed": self.seed,
            "moves": list(self._moves),
            "cursor": self.cursor,
        }

    def save(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def load(cls, text: str | bytes) -> Session:
        """A session from a save; BadInput naming the first problem, and no session at all."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as err:
            raise BadInput(f"save file is not JSON: {err}") from err
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Session:
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise BadInput("not a gridgames save file")
        if data.get("version") != SAVE_VERSION:
            raise BadInput(f"save file version {data.get('version')!r} is not supported")
        for key, kind in (("game", str), ("params", str), ("desc", str), ("moves", list),
                          ("cursor", int)):
            if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
                raise BadInput(f"save file: {key!r} is missing or not a {kind.__name__}")
        seed = data.get("seed")
        if seed is not None and not isinstance(seed, str):
            raise BadInput("save file: 'seed' must be a string or null")
        moves, cursor = data["moves"], data["cursor"]
        if len(moves) > MAX_HISTORY:
            raise BadInput(f"save file has more than {MAX_HISTORY} moves")
        if not 0 <= cursor <= len(moves):
            raise BadInput(f"save file: cursor {cursor} is outside 0..{len(moves)}")
        game = get_game(data["game"])
        params = game.parse_params(data["params"])
        if seed is not None and game.new_desc(params, Rng(seed)) != data["desc"]:
            raise BadInput("save file: the desc does not match the seed")
        try:
            session = cls(game, params, data["desc"], seed)
        except BadInput as err:
            raise BadInput(f"save file: {err}") from err
        for number, move in enumerate(moves, 1):
            session._replay_one(move, number)
        session.cursor = cursor
        return session
