"""A server's settings: what `gridgames serve` takes as options and environment variables."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ServerConfig:
    db: str | None = None  # path, sqlite:///path or postgresql://...; None: GRIDGAMES_DB/data dir
    think_seconds: float = 10.0  # cap on one piece of machine play asked by a page
    keep_days: float = 30.0  # games nobody has changed for this long are removed
    cache_games: int = 5000  # live games kept in memory (the database is the truth)
    cache_mb: int = 256
    levels: tuple[str, ...] = field(default_factory=tuple)  # level files (Polar)
    access_log: bool = True  # one line per request
