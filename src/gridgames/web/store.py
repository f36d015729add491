"""Where the web app keeps live games.

A `Table` is one browser tab's game: the session (history, undo, save) plus who sits in each
seat (a person or an AI level) and a lock, because a request for the AI's move may still be
running when the next request for the same game arrives.

`SessionStore` is the interface the API uses. `MemoryStore` keeps tables in memory (bounded,
least recently used dropped first). Persistence across restarts is a store that also writes
`table.to_dict()` on `put` and reads it back in `get`; online play is a store shared by two
browsers, plus a push channel. Neither changes the API or the pages.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any, Protocol

from gridgames.core.errors import BadInput, UnknownName
from gridgames.core.game import Game
from gridgames.session import Session

PERSON = "person"


class NotFound(UnknownName):
    """An unknown session ID: HTTP 404."""


def check_seats(game: Game, seats: Any) -> list[str]:
    """Seats are a list with one entry per player: "person" or an AI level of the game."""
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
    return list(seats)


class Table:
    def __init__(self, table_id: str, session: Session, seats: list[str]) -> None:
        self.id = table_id
        self.session = session
        self.seats = seats
        self.lock = threading.Lock()

    def seat_to_move(self) -> str | None:
        player = self.session.game.current_player(self.session.state)
        return None if player is None else self.seats[player]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "seats": self.seats, "save": self.session.to_dict()}


class SessionStore(Protocol):
    def create(self, session: Session, seats: list[str]) -> Table: ...

    def get(self, table_id: str) -> Table: ...

    def put(self, table: Table) -> None:
        """Called after every change, for stores that persist."""


class MemoryStore:
    def __init__(self, capacity: int = 2000) -> None:
        self.capacity = capacity
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()

    def create(self, session: Session, seats: list[str]) -> Table:
        table = Table(secrets.token_urlsafe(12), session, seats)
        with self._lock:
            self._tables[table.id] = table
            while len(self._tables) > self.capacity:
                self._tables.popitem(last=False)
        return table

    def get(self, table_id: str) -> Table:
        with self._lock:
            table = self._tables.get(table_id)
            if table is None:
                raise NotFound(f"no game {table_id[:40]!r} on this server (it may have expired)")
            self._tables.move_to_end(table_id)
            return table

    def put(self, table: Table) -> None:
        pass

    def __len__(self) -> int:
        return len(self._tables)
