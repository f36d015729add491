"""Safe by default: security headers on every response, and no state-changing request from
another origin.

- Content-Security-Policy: everything from this server only, no inline script; frames from
  nowhere (frame-ancestors 'none'); nosniff; a Referrer-Policy. On every answer the app
  makes: pages, errors, a refused WebSocket upgrade, and the 500 of a bug (caught here, so
  that no answer leaves without them).
- A POST, PUT, PATCH or DELETE (and a WebSocket upgrade) whose Origin is not this server's
  own (or the configured public origin, behind a proxy), or whose Sec-Fetch-Site says
  cross-site, is refused with 403. Requests that carry neither header (scripts, curl) are
  not browsers acting for a page, and are accepted.
"""

from __future__ import annotations

import json
import logging
from typing import Any

log = logging.getLogger("gridgames")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
# Swagger UI (/docs) sets inline styles; its scripts are still this server's files only.
DOCS_CSP = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
CHANGES = {"POST", "PUT", "PATCH", "DELETE"}


def origin_allowed(headers: dict[bytes, bytes], scheme: str, public_origin: str | None) -> bool:
    origin = headers.get(b"origin", b"").decode("latin-1")
    site = headers.get(b"sec-fetch-site", b"").decode("latin-1")
    if site == "cross-site":
        return False
    if not origin:
        return True
    if origin == "null":
        return False
    host = headers.get(b"host", b"").decode("latin-1")
    own = {f"{scheme}://{host}", f"{'wss' if scheme == 'https' else scheme}://{host}"}
    if public_origin:
        own.add(public_origin.rstrip("/"))
    return origin in own


class Security:
    """ASGI middleware: the headers on every answer, the origin check on every change, and
    the last word on a bug (a JSON 500 with the headers, and its traceback in the log)."""

    def __init__(self, app: Any, public_origin: str | None = None) -> None:
        self.app = app
        self.public_origin = public_origin

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        changing = scope["type"] == "websocket" or scope.get("method") in CHANGES
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        if changing and not origin_allowed(headers, scheme, self.public_origin):
            await _refuse(scope, send)
            return
        csp = DOCS_CSP if scope.get("path", "").startswith("/docs") else CSP
        started = False

        async def with_headers(message: dict) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                started = True
                message["headers"] = [*message.get("headers", []), *HEADERS,
                                      (b"content-security-policy", csp.encode())]
            elif message["type"] == "websocket.accept":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, with_headers)
        except Exception:
            log.exception("error in %s %s", scope.get("method", "WEBSOCKET"),
                          scope.get("path", ""))
            if started:
                raise  # the answer is under way: the server ends the connection
            await _answer(scope, send, 500, "internal error: a bug in the server, which "
                          "has been logged")


async def _refuse(scope: dict, send: Any) -> None:
    """(The access log's line says it was refused: 403.)"""
    await _answer(scope, send, 403, "refused: this request comes from another site")


async def _answer(scope: dict, send: Any, status: int, error: str) -> None:
    """An answer of the middleware's own, with the headers: over HTTP, or refusing a
    WebSocket's upgrade (the ASGI denial response, where the server has it)."""
    body = json.dumps({"error": error}).encode()
    start = {"status": status, "headers": [(b"content-type", b"application/json"), *HEADERS,
                                           (b"content-security-policy", CSP.encode())]}
    if scope["type"] == "http":
        await send({"type": "http.response.start", **start})
        await send({"type": "http.response.body", "body": body})
    elif "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", **start})
        await send({"type": "websocket.http.response.body", "body": body})
    else:  # closed before it is accepted: the server answers 403
        await send({"type": "websocket.close", "code": 1008})
