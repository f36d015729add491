"""Safe by default: security headers on every response, and no state-changing request from
another origin.

- Content-Security-Policy: everything from this server only, no inline script; frames from
  nowhere (frame-ancestors 'none'); nosniff; a Referrer-Policy.
- A POST, PUT, PATCH or DELETE (and a WebSocket upgrade) whose Origin is not this server's
  own (or the configured public origin, behind a proxy), or whose Sec-Fetch-Site says
  cross-site, is refused with 403. Requests that carry neither header (scripts, curl) are
  not browsers acting for a page, and are accepted.
"""

from __future__ import annotations

import json
from typing import Any

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
    """ASGI middleware: the headers on every answer, the origin check on every change."""

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
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        csp = DOCS_CSP if scope.get("path", "").startswith("/docs") else CSP

        async def with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS,
                                      (b"content-security-policy", csp.encode())]
            await send(message)

        await self.app(scope, receive, with_headers)


async def _refuse(scope: dict, send: Any) -> None:
    body = json.dumps({"error": "refused: this request comes from another site"}).encode()
    if scope["type"] == "websocket":  # closed before it is accepted: the server answers 403
        await send({"type": "websocket.close", "code": 1008})
        return
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"application/json"), *HEADERS,
                            (b"content-security-policy", CSP.encode())]})
    await send({"type": "http.response.body", "body": body})
