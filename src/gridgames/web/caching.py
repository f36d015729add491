"""What browsers may keep: pages and their files are checked on every load, API answers are
never kept.

Every GET or HEAD outside the API gets `Cache-Control: no-cache` and an ETag made of the
content itself, so a browser gets a 304 while nothing changed and every new file at once
after an upgrade. API answers get `Cache-Control: no-store`. docs/server.md ("What browsers
keep") says why.
"""

from __future__ import annotations

import hashlib
from typing import Any

API = "/api/"
CONDITIONAL = {b"if-none-match", b"if-modified-since", b"if-range"}
# What a 304 keeps of the answer it stands for (RFC 9110, 15.4.5); the rest is the body's.
KEPT_ON_304 = {b"cache-control", b"etag", b"vary", b"content-location", b"expires"}


class Caching:
    """ASGI middleware: Cache-Control on every answer, and content ETags with 304s on the
    pages and their files."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in ("GET", "HEAD") or scope["path"].startswith(API):
            await self.app(scope, receive, _adding_no_store(send))
            return
        wanted = b",".join(v for k, v in scope["headers"] if k == b"if-none-match")
        # The app answers in full (a HEAD as a GET, no conditions of its own: its ETags are
        # not ours), and this decides between 200 and 304.
        inner = {**scope, "method": "GET",
                 "headers": [(k, v) for k, v in scope["headers"] if k not in CONDITIONAL],
                 "extensions": {k: v for k, v in scope.get("extensions", {}).items()
                                if k != "http.response.pathsend"}}
        start: dict = {}
        chunks: list[bytes] = []

        async def keep(message: dict) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(inner, receive, keep)
        if "route" in inner:  # the route the router found, for the access log's counts
            scope["route"] = inner["route"]
        if not start:
            return
        body = b"".join(chunks)
        headers = [(k, v) for k, v in start.get("headers", [])
                   if k not in (b"etag", b"cache-control")]
        headers.append((b"cache-control", b"no-cache"))
        status = start["status"]
        if status == 200:
            etag = b'"' + hashlib.sha256(body).hexdigest()[:32].encode() + b'"'
            headers.append((b"etag", etag))
            if _matches(wanted, etag):
                status, body = 304, b""
                headers = [(k, v) for k, v in headers if k in KEPT_ON_304]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body",
                    "body": b"" if scope["method"] == "HEAD" else body})


def _matches(wanted: bytes, etag: bytes) -> bool:
    """If-None-Match's weak comparison: any listed tag, W/ or not, or *."""
    tags = {tag.strip().removeprefix(b"W/") for tag in wanted.split(b",")}
    return b"*" in tags or etag in tags


def _adding_no_store(send: Any) -> Any:
    async def with_header(message: dict) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*(h for h in message.get("headers", [])
                                    if h[0] != b"cache-control"),
                                  (b"cache-control", b"no-store")]
        await send(message)

    return with_header
