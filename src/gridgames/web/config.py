"""A server's settings: what `gridgames serve` takes as options and environment variables
(docs/operations.md: "The server and its options")."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def default_compute_workers() -> int:
    """One less than the cores, at least one: a core stays for the server itself."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class ServerConfig:
    db: str | None = None  # path, sqlite:///path or postgresql://...; None: GRIDGAMES_DB/data dir
    # Cap on one piece of machine play a page asks for: a player waits for every AI move and
    # hint, so 2 s (at 10 s a 10x10 board's every reply took 9.6 s); a solution gets
    # web/api.py's WORK_SHARE times it.
    think_seconds: float = 2.0
    keep_days: float = 30.0  # games nobody has changed for this long are removed
    cache_games: int = 5000  # rooms kept in memory (the database is the truth)
    cache_mb: int = 256
    levels: tuple[str, ...] = field(default_factory=tuple)  # level files (Polar)
    access_log: bool = True  # one line per request
    compute_workers: int = field(default_factory=default_compute_workers)
    compute_memory_mb: int = 2048  # each compute worker's address space
    warm_compute: bool = True  # compute workers start with the server, not the first job
    compute_address: str | None = None  # a shared pool's socket (several server processes)
    compute_authkey: str | None = None  # its secret, in hex
    trusted_proxies: tuple[str, ...] = field(default_factory=tuple)
    public_origin: str | None = None  # behind a proxy: the origin the pages come from
    games_per_minute: float = 60.0  # new games a client may start a minute...
    games_burst: int = 120  # ...after this many at once
    claim_seconds: float = 60.0  # online: how long an opponent is gone before a claim
    db_timeout: float = 1.0  # seconds a database connection or write lock is waited for
    client_timeout: float = 10.0  # seconds for a request's headers (web/protocols.py)
    metrics: str = "loopback"  # who may read /metrics: loopback, public or off
    metrics_dir: str | None = None  # several processes: where each leaves its numbers
    live_pages: int = 5000  # live connections (WebSockets) this server process holds...
    live_pages_per_client: int = 50  # ...and holds for one client
