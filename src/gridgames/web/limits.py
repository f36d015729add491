"""Refuse oversized request bodies before any handler reads them (HTTP 413)."""

from __future__ import annotations

import json
from typing import Any

Scope = dict[str, Any]


class BodyLimit:
    """ASGI middleware: reads the body up to `max_bytes` (or the larger limit of a path in
    `larger`) and replays it to the app, or answers 413 with a JSON error. Counting the bytes
    (not trusting Content-Length) also covers chunked uploads."""

    def __init__(self, app: Any, max_bytes: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = larger or {}

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.max_bytes)
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _too_large(send, limit)
            return
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > limit:
                await _too_large(send, limit)
                return
            if not message.get("more_body"):
                break
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _too_large(send: Any, limit: int) -> None:
    data = json.dumps({"error": f"request body is larger than {limit} bytes"})
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": data.encode()})
