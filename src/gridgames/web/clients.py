"""Who is asking, and how often: a client is the remote address, or the address a trusted
proxy forwards (X-Forwarded-For from anyone else is ignored); game creation is rate-limited
per client, so that no one client can fill the database."""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import OrderedDict

from starlette.requests import HTTPConnection


def client_of(connection: HTTPConnection, trusted_proxies: frozenset[str]) -> str:
    peer = connection.client.host if connection.client else "unknown"
    if peer in trusted_proxies:
        forwarded = connection.headers.get("x-forwarded-for", "")
        # The last hop a trusted proxy added is the one it saw; earlier ones can be forged.
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        for hop in reversed(hops):
            if hop not in trusted_proxies:
                try:
                    return str(ipaddress.ip_address(hop))
                except ValueError:
                    break
    return peer


class RateLimit:
    """A token bucket per client: `burst` at once, then `per_minute` a minute. Buckets of
    clients not seen for a while go (the table is bounded)."""

    def __init__(self, per_minute: float, burst: int, max_clients: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, client: str) -> float:
        """0 when the client may go on (a token is taken), else seconds until it may."""
        now = time.monotonic()
        with self._lock:
            tokens, at = self._buckets.pop(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - at) * self.rate)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate
            self._buckets[client] = (tokens - 1 if tokens >= 1 else tokens, now)
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)
            return wait
