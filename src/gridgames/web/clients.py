"""Who is asking, and how often: a client is the remote address, or the address a trusted
proxy forwards (X-Forwarded-For from anyone else is ignored, loopback included: the server
runs uvicorn with its own proxy-header handling off); game creation is rate-limited per
client, so that no one client can fill the database.

An IPv6 client is its /64 network: one subscriber is usually given a whole /64, so keying on
the full address would make one person 2^64 clients. An IPv4 address mapped into IPv6 is the
IPv4 address."""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import OrderedDict

from starlette.requests import HTTPConnection

IPV6_NETWORK = 64  # prefix length an IPv6 client is known by


def client_of(connection: HTTPConnection, trusted_proxies: frozenset[str]) -> str:
    """The key of the client behind a request or a WebSocket (see the module's notes)."""
    address = client_address(connection, trusted_proxies)
    try:
        return client_key(address)
    except ValueError:  # not an IP address (a Unix socket, a test client): as it is
        return address


def client_address(connection: HTTPConnection, trusted_proxies: frozenset[str]) -> str:
    """The address of the client behind a request: the peer's, or the one a trusted proxy
    says it saw."""
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


def client_key(address: str) -> str:
    """An address as a client: IPv4 as it is, IPv6 by its /64 network."""
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/{IPV6_NETWORK}", strict=False))
    return str(ip)


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
