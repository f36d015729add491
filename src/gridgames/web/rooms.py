"""The games a server holds, each in a `Room`: the session, who sits in each seat and the
version it was stored at. Rooms are kept in the database (store/) and cached in memory with a
bound.

The database is the truth. `get` checks the stored version (one indexed read) and reloads a
game another process changed; `change` runs an action on a game under its lock and writes the
result over the version it was computed from, committed before the caller answers. When
another process wrote first, the game is read again and the action run again.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from gridgames.core.errors import BadInput
from gridgames.core.game import Game
from gridgames.core.ids import find_game
from gridgames.session import Session
from gridgames.store import Conflict, GameRecord, NotFound, SqlStore

PERSON = "person"
ID_BYTES = 16  # 128 bits: a game's ID cannot be guessed
_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
RETRIES = 3
T = TypeVar("T")


def new_id() -> str:
    """A game's ID, or a link's token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(ID_BYTES)


def check_seats(game: Game, seats: Any, params: Any = None) -> list[str]:
    """Seats are a list with one entry per player: "person" or an AI level of the game. With
    the board's params, a level the game plays but does not offer there (a link or a saved
    game from before, naming "perfect" on a board where it cannot prove its moves in time)
    becomes the strongest level offered, so that the seat is named for what plays."""
    if seats is None:
        return [PERSON] * game.players
    if not isinstance(seats, list) or len(seats) != game.players or \
            not all(isinstance(s, str) for s in seats):
        raise BadInput(f"seats must be a list of {game.players} entries")
    for seat in seats:
        if seat != PERSON:
            if game.ai is None:
                raise BadInput(f"{game.title} has no AI player")
            game.ai.check_level(seat)
    if params is None or game.ai is None:
        return list(seats)
    offered = game.ai.offered(params)
    return [seat if seat == PERSON or seat in offered else offered[-1] for seat in seats]


class Room:
    def __init__(self, room_id: str, session: Session, seats: list[str], version: int = 0,
                 extra: dict[str, Any] | None = None, updated_at: float = 0.0) -> None:
        self.id = room_id
        self.session = session
        self.seats = seats
        self.version = version
        self.extra = extra or {}
        self.updated_at = updated_at
        self.lock = threading.Lock()

    def seat_to_move(self) -> str | None:
        player = self.session.game.current_player(self.session.state)
        return None if player is None else self.seats[player]

    def record(self) -> GameRecord:
        s = self.session
        return GameRecord(self.id, s.game.name, s.params.format(), s.desc, s.seed, s.history,
                          s.cursor, list(self.seats), dict(self.extra), self.version)

    @classmethod
    def of_record(cls, record: GameRecord, games: Mapping[str, Game]) -> Room:
        session = Session.restore(find_game(games, record.game), record.params, record.desc,
                                  record.seed, record.moves, record.cursor)
        return cls(record.id, session, record.seats, record.version, record.extra,
                   record.updated_at)

    def approx_bytes(self) -> int:
        """A rough size, for the cache's bound: moves (a recorded solution's steps counted),
        and checkpoint states."""
        s = self.session
        return 2048 + 64 * s.recorded + 8 * s.applied + 4096 * s.checkpoints


class RoomCache:
    """Rooms recently used, least recently used dropped first, bounded in count and bytes."""

    def __init__(self, max_games: int, max_bytes: int) -> None:
        self.max_games, self.max_bytes = max_games, max_bytes
        self._rooms: OrderedDict[str, tuple[Room, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, room_id: str) -> Room | None:
        with self._lock:
            found = self._rooms.get(room_id)
            if found is None:
                return None
            self._rooms.move_to_end(room_id)
            return found[0]

    def put(self, room: Room) -> None:
        size = room.approx_bytes()
        with self._lock:
            self._drop(room.id)
            self._rooms[room.id] = (room, size)
            self._bytes += size
            while self._rooms and (len(self._rooms) > self.max_games
                                    or self._bytes > self.max_bytes):
                self._drop(next(iter(self._rooms)))

    def drop(self, room_id: str) -> None:
        with self._lock:
            self._drop(room_id)

    def _drop(self, room_id: str) -> None:
        found = self._rooms.pop(room_id, None)
        if found is not None:
            self._bytes -= found[1]

    def __len__(self) -> int:
        return len(self._rooms)

    @property
    def bytes(self) -> int:
        return self._bytes


class Rooms:
    def __init__(self, store: SqlStore, games: Mapping[str, Game], max_games: int = 5000,
                 max_bytes: int = 256 * 1024 * 1024) -> None:
        self.store = store
        self.games = games
        self.cache = RoomCache(max_games, max_bytes)

    def create(self, session: Session, seats: list[str],
               extra: dict[str, Any] | None = None) -> Room:
        room = Room(new_id(), session, seats, extra=extra)
        record = self.store.create(room.record())
        room.version, room.updated_at = record.version, record.updated_at
        self.cache.put(room)
        return room

    def get(self, room_id: Any) -> Room:
        if not isinstance(room_id, str) or not _ID.fullmatch(room_id):
            raise NotFound(f"no game {str(room_id)[:40]!r} on this server")
        version = self.store.version(room_id)
        room = self.cache.get(room_id)
        if room is None or room.version != version:
            room = Room.of_record(self.store.load(room_id), self.games)
            self.cache.put(room)
        return room

    def read(self, room_id: Any, look: Callable[[Room], T]) -> T:
        """What `look` reads of a game, under its lock: never a change still being stored."""
        room = self.get(room_id)
        with room.lock:
            return look(room)

    def change(self, room_id: str, action: Callable[[Room], T],
               answer: Callable[[Room], Any] = lambda room: room) -> tuple[Any, T]:
        """Run action on the game under its lock and store the result before returning
        (what `answer` reads of the game then, still under the lock, and the action's
        result). The action runs again on a fresh copy when another process changed the
        game first; it must change nothing when it raises."""
        for _ in range(RETRIES):
            room = self.get(room_id)
            with room.lock:
                before = room.session.history
                try:
                    result = action(room)
                    record = room.record()
                    first = _common_prefix(before, record.moves)
                    room.version = self.store.update(record, first, len(before))
                    room.updated_at = record.updated_at
                    answered = answer(room)
                except Conflict:
                    self.cache.drop(room_id)
                    continue
                except BadInput:
                    raise  # a refused action changes nothing (the session's own promise)
                except BaseException:
                    self.cache.drop(room_id)  # read it afresh: nothing half-done stays
                    raise
            self.cache.put(room)  # its size may have changed
            return answered, result
        raise Conflict("the game keeps changing in other places: reload it")


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n
