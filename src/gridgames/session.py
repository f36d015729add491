"""The session (Simon Tatham's "midend"), one for all games: a history of moves with a cursor.

Undo and redo move the cursor; a new move drops the redo tail; Restart, Solve and Jump are
recorded as markers (markers.py) so they can be undone. Every state is reached by replaying
moves through `game.apply`, so a save file is a replay and loading one checks every move.
The session keeps its moves, the current state and a checkpoint every CHECKPOINT moves, so
memory does not grow with the number of states. More in docs/architecture.md ("The session
(`session.py`)"); game IDs in core/ids.py.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from gridgames.core.errors import BadInput, IllegalMove
from gridgames.core.game import Game, Status
from gridgames.core.ids import GameId, find_game
from gridgames.core.params import Params
from gridgames.core.result import Budget, Result
from gridgames.core.rng import Rng
from gridgames.core.text import check_text
from gridgames.markers import JUMP, RESTART, SOLVE, Marker, is_marker
from gridgames.registry import default_games

SAVE_FORMAT = "gridgames-save"
SAVE_VERSION = 1
MAX_HISTORY = 20_000  # moves a game keeps, the moves of recorded solutions included, so
# that replaying any game (a load, a game read back from the database) is bounded work
CHECKPOINT = 64  # a state is kept every this many moves
Games = Mapping[str, Game]
Entry = str | Marker  # a history's entry: a game move, or the session's own marker


class Session:
    def __init__(self, game: Game, params: Params, desc: str, seed: str | None = None) -> None:
        self.game = game
        self.params = params
        self.desc = desc
        self.seed = seed
        self.initial = game.new_state(params, desc)
        self._entries: list[Entry] = []  # _entries[i] leads from state i to state i + 1
        self._applied = [0]  # _applied[i]: game moves _entries[:i] apply (solutions count)
        self._checkpoints: dict[int, Any] = {0: self.initial}  # state i, i % CHECKPOINT == 0
        self._state = self.initial  # state `cursor`
        self.cursor = 0

    # --- making sessions ---

    @classmethod
    def new(cls, game_name: str, params_text: str = "", seed: str | None = None,
            games: Games | None = None, desc: str | None = None) -> Session:
        """A new game from a seed (a fresh one when None). `desc`: the start the seed makes,
        when the caller has generated it already."""
        game = find_game(games or default_games(), game_name)
        params = game.parse_params(check_text(params_text, "params"))
        seed = check_text(seed, "seed") if seed is not None else Rng.new_seed()
        return cls(game, params, desc if desc is not None else
                   game.new_desc(params, Rng(seed)), seed)

    @classmethod
    def restore(cls, game: Game, params_text: str, desc: str, seed: str | None,
                history: list[Any], cursor: int) -> Session:
        """A stored game (a save, a database record): its history replayed, every entry
        checked, and the cursor where it was."""
        session = cls(game, game.parse_params(params_text), desc, seed)
        session.replay(history)
        session.go_to(cursor)
        return session

    @classmethod
    def from_id(cls, text: str, moves: list[str] | None = None,
                games: Games | None = None, desc: str | None = None) -> Session:
        """A session at the position the ID gives, after `moves` (all checked). `desc`: the
        start a seeded ID makes, when the caller has generated it already."""
        games = games or default_games()
        gid = GameId.parse(text, games)
        game, params, desc = gid.start(games, desc)
        session = cls(game, params, desc, gid.seed)
        session.replay(moves or [])
        return session

    # --- reading ---

    @property
    def state(self) -> Any:
        return self._state

    @property
    def moves(self) -> list[str]:
        """The moves that lead to the current state."""
        return [str(entry) for entry in self._entries[:self.cursor]]

    @property
    def history(self) -> list[str]:
        """Every recorded move, the redo tail included (markers as their text)."""
        return [str(entry) for entry in self._entries]

    @property
    def recorded(self) -> int:
        """How many entries the history holds, the redo tail included."""
        return len(self._entries)

    @property
    def checkpoints(self) -> int:
        """How many states the session keeps (for an estimate of its memory)."""
        return len(self._checkpoints)

    @property
    def applied(self) -> int:
        """Game moves the whole history applies (a recorded solution's moves counted)."""
        return self._applied[-1]

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
        return self.cursor < len(self._entries)

    # --- changing ---

    def play(self, move: str) -> Any:
        """Apply a move of the game at the cursor (markers are refused: they are the
        session's own, see `restart` and `solve`)."""
        if not isinstance(move, str) or is_marker(move):
            raise IllegalMove(f"{str(move)[:40]!r} is not a move")
        return self._record(move)

    def undo(self) -> Any:
        if not self.can_undo:
            raise BadInput("nothing to undo")
        self.go_to(self.cursor - 1)
        return self.state

    def redo(self) -> Any:
        if not self.can_redo:
            raise BadInput("nothing to redo")
        self.go_to(self.cursor + 1)
        return self.state

    def state_at(self, index: int) -> Any:
        """The state after the first `index` recorded moves (the redo tail included), the
        cursor unmoved: a replay of a finished or unfinished game, one position at a time."""
        self._check_position(index)
        start = self._checkpoint_before(index)
        state = self._checkpoints[start]
        for at in range(start, index):
            state = self._after(state, self._entries[at])
        return state

    def _check_position(self, index: int) -> None:
        if not 0 <= index <= len(self._entries):
            raise BadInput(f"no position {index}: this game has positions 0 to "
                           f"{len(self._entries)}")

    def _checkpoint_before(self, index: int) -> int:
        start = index - index % CHECKPOINT
        while start not in self._checkpoints:
            start -= CHECKPOINT
        return start

    def game_moves_to(self, index: int) -> list[str]:
        """The game moves from the start position that reach position `index` (markers
        unfolded: a restart empties the list, a solution or a jump gives its moves)."""
        moves: list[str] = []
        for entry in self._entries[:index]:
            if isinstance(entry, str):
                moves.append(entry)
            elif entry.action == SOLVE:
                moves.extend(entry.moves)
            else:
                moves = list(entry.moves)
        return moves

    def jump(self, index: int) -> Any:
        """Make an earlier (or redo-tail) position the current one, recorded as a `!jump`
        marker so that Undo comes back here."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise BadInput("a position is a whole number")
        if index == self.cursor:
            raise BadInput("this is the current position already")
        self.state_at(index)  # the range check
        return self._record(Marker(JUMP, tuple(self.game_moves_to(index)),
                                   self.solved_from(index)))

    def solved_from(self, index: int) -> int | None:
        """How many game moves come before the first one a Solve played on the way to
        position `index`, or None where Solve played none of them (a restart forgets it, a
        jump says it): a game that ends so is "solved with help"."""
        at, solved = 0, None
        for entry in self._entries[:index]:
            if isinstance(entry, str):
                at += 1
            elif entry.action == RESTART:
                at, solved = 0, None
            elif entry.action == JUMP:
                at, solved = len(entry.moves), entry.solved_from
            else:
                solved = at if solved is None else solved
                at += len(entry.moves)
        return solved

    @property
    def helped(self) -> bool:
        """Whether a Solve played some of the moves that lead to the current position."""
        return self.solved_from(self.cursor) is not None

    def go_to(self, index: int) -> None:
        """Move the cursor to a recorded position (no marker: a stored cursor, undo, redo),
        replaying from the nearest checkpoint at or before `index` (or from the current
        state, when that is nearer)."""
        self._check_position(index)
        start = self._checkpoint_before(index)
        if start <= self.cursor <= index:
            start, state = self.cursor, self._state
        else:
            state = self._checkpoints[start]
        for at in range(start, index):
            state = self._after(state, self._entries[at])
            self._keep(at + 1, state)
        self.cursor, self._state = index, state

    def _keep(self, index: int, state: Any) -> None:
        if index % CHECKPOINT == 0:
            self._checkpoints[index] = state

    def restart(self) -> Any:
        """Back to the start position, recorded as a marker so that it can be undone."""
        if self.state == self.initial:
            raise BadInput("already at the start")
        return self._record(Marker(RESTART))

    def solve(self, budget: Budget) -> Result[list[str]]:
        """Play the game's solution from here, as one marker that can be undone; the solver's
        result says whether it is proven."""
        if self.game.solver is None:
            raise BadInput(f"{self.game.title} has no solver")
        return self.apply_solution(self.game.solver.solve(self.state, budget))

    def apply_solution(self, found: Result[list[str]]) -> Result[list[str]]:
        """Record a solver's answer for the current state (found here or in a compute
        worker): its moves, checked by replaying them, as one `!solve` marker."""
        if found.value is None:
            raise no_solution(found)
        if found.value:
            self._record(Marker(SOLVE, tuple(found.value)))
        return found

    def _after(self, state: Any, entry: Entry) -> Any:
        if isinstance(entry, str):
            return self.game.apply(state, entry)
        if entry.action != SOLVE:  # a restart, or a jump from the start
            state = self.initial
        for step in entry.moves:
            state = self.game.apply(state, step)
        return state

    def _record(self, entry: Entry) -> Any:
        """Apply a move or a marker at the cursor and record it (the redo tail goes)."""
        check_text(str(entry), "move")  # the history is stored as it is
        applied = self._applied[self.cursor] + \
            (1 if isinstance(entry, str) else entry.weight)
        if applied > MAX_HISTORY:
            raise BadInput(f"a game keeps at most {MAX_HISTORY} moves (a recorded solution's "
                           "moves included)")
        state = self._after(self._state, entry)
        del self._entries[self.cursor:]
        del self._applied[self.cursor + 1:]
        self._applied.append(applied)
        for index in [i for i in self._checkpoints if i > self.cursor]:
            del self._checkpoints[index]
        self._entries.append(entry)
        self.cursor += 1
        self._state = state
        self._keep(self.cursor, state)
        return state

    def replay(self, history: list[Any]) -> None:
        """Record a history's entries from the cursor on, as text (a save's, a stored
        game's, an ID's moves): markers included, each entry checked; BadInput naming the
        first that is refused."""
        for number, text in enumerate(history, self.cursor + 1):
            try:
                if not isinstance(text, str):
                    raise IllegalMove("a move is a string")
                self._record(Marker.parse(text) if is_marker(text) else text)
            except BadInput as err:
                raise BadInput(f"move {number} ({str(text)[:40]!r}): {err}") from err

    # --- save files ---

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game.name,
            "params": self.params.format(),
            "desc": self.desc,
            "seed": self.seed,
            "moves": self.history,
            "cursor": self.cursor,
        }

    def save(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def load(cls, text: str | bytes, games: Games | None = None) -> Session:
        """A session from a save; BadInput naming the first problem, and no session at all."""
        return cls.from_dict(cls.parse_save(text), games)

    @classmethod
    def parse_save(cls, text: str | bytes) -> dict[str, Any]:
        """A save's JSON, its fields checked (a caller may generate the seed's start from it
        before from_dict)."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as err:
            raise BadInput(f"save file is not JSON: {str(err)[:80]}") from None
        return cls._check_save(data)

    @staticmethod
    def _check_save(data: Any) -> dict[str, Any]:
        """The save's fields have their types and their text can be stored (the moves are
        checked as they are replayed); BadInput naming the first that does not."""
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
        for key in ("game", "params", "desc", "seed"):
            if data.get(key) is not None:
                check_text(data[key], f"save file: {key!r}")
        moves, cursor = data["moves"], data["cursor"]
        if len(moves) > MAX_HISTORY:
            raise BadInput(f"save file has more than {MAX_HISTORY} moves")
        if not 0 <= cursor <= len(moves):
            raise BadInput(f"save file: cursor {cursor} is outside 0..{len(moves)}")
        return data

    @classmethod
    def from_dict(cls, data: Any, games: Games | None = None,
                  seed_desc: str | None = None) -> Session:
        """A session from a parsed save. `seed_desc`: the start the save's seed makes, when
        the caller has generated it already (it is checked against the save's desc)."""
        data = cls._check_save(data)
        seed = data.get("seed")
        game = find_game(games or default_games(), data["game"])
        params = game.parse_params(data["params"])
        if seed is not None and (seed_desc if seed_desc is not None else
                                 game.new_desc(params, Rng(seed))) != data["desc"]:
            raise BadInput("save file: the desc does not match the seed")
        try:
            session = cls(game, params, data["desc"], seed)
        except BadInput as err:
            raise BadInput(f"save file: {err}") from err
        session.replay(data["moves"])
        session.go_to(data["cursor"])
        return session


def no_solution(found: Result[list[str]]) -> BadInput:
    """Why a solver's answer without a solution gives none: proven none, or none in time."""
    return BadInput(found.note if found.proven and found.note else
                    "no solution from this position: undo or restart" if found.proven
                    else f"no solution found within {found.seconds:.1f} s")
