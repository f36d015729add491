"""A stored game, and the errors of the store."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gridgames.core.errors import BadInput, UnknownName


class NotFound(UnknownName):
    """No game with that ID (HTTP 404)."""


class Conflict(BadInput):
    """The game changed since it was read (another process wrote it first): HTTP 409."""


CHANGED_MEANWHILE = "that changed at the same moment elsewhere: try again"
DISK_FULL = "the database's disk is full"  # an Unavailable's reason the store treats apart


class Unavailable(RuntimeError):
    """The database cannot be used now: it cannot be reached, refuses writes (read-only, a
    full disk), is corrupt, or did not answer within the store's timeout. HTTP 503 with
    Retry-After; a write that meets it was not committed (or, for a connection lost during
    its commit, was not acknowledged), so nothing acknowledged is lost."""

    def __init__(self, reason: str, retry_after: int = 2) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


@dataclass
class GameRecord:
    id: str
    game: str
    params: str
    desc: str
    seed: str | None
    moves: list[str]  # every recorded move, the redo tail included
    cursor: int
    seats: list[str]
    extra: dict[str, Any] = field(default_factory=dict)  # online seats and the like
    version: int = 0  # bumped by every change: a change is written only over its own
    created_at: float = 0.0
    updated_at: float = 0.0


SPECTATOR = -1  # a link's seat when it only watches


@dataclass(frozen=True)
class Link:
    """A secret way into a game: a seat's (who holds it plays that side) or a spectator's."""
    token: str
    game_id: str
    seat: int  # the player's index, or SPECTATOR
    seen_at: float | None = None  # when a page last held this link's live connection
    connected: bool = False
