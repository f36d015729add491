"""One log line for every request and every WebSocket upgrade (refusals included), and the
requests' counts and times for /metrics, by method, route and status.

The line names the route's path with link tokens hidden: a link is a secret that plays a
seat, and logs travel further than the database.
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

from gridgames.core.stats import Histograms
from gridgames.web.online_api import LIVE_PATH, LIVE_ROUTE
from gridgames.web.shell import STATIC_ROUTE

log = logging.getLogger("gridgames")
_TOKEN = re.compile(r"/links/[^/]+")


class AccessLog:
    """ASGI middleware, outermost: it sees every answer, the other middlewares' own too."""

    def __init__(self, app: Any, seconds: Histograms, log_lines: bool = True) -> None:
        self.app = app
        self.log_lines = log_lines
        self.seconds = seconds  # (method, route, status) -> request times

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # a bug that escapes everything is still one line here
        websocket = scope["type"] == "websocket"
        said = False

        def line() -> None:
            nonlocal said
            if said:
                return
            said = True
            took = time.perf_counter() - started
            method = "WS" if websocket else scope.get("method", "")
            self.seconds.observe((method, route_of(scope), str(status)), took)
            if self.log_lines and log.isEnabledFor(logging.INFO):
                # A record made here, not by log.info: that looks up its caller's file and
                # line in the stack, a good share of the time a page's connection costs.
                log.handle(log.makeRecord(
                    log.name, logging.INFO, __file__, 0, "%s %s %d %.1f ms",
                    (method, _TOKEN.sub("/links/…", scope["path"]), status, took * 1000),
                    None))

        async def watched(message: dict) -> None:
            nonlocal status
            kind = message["type"]
            if kind in ("http.response.start", "websocket.http.response.start"):
                status = message["status"]
            elif kind == "websocket.accept":
                status = 101
            elif kind == "websocket.close" and status == 500 and not said:
                status = 403  # closed before it was accepted: the server answers 403
            await send(message)
            if websocket and kind in ("websocket.accept", "websocket.close",
                                      "websocket.http.response.start"):
                line()  # a live connection is logged once, when it is answered

        try:
            await self.app(scope, receive, watched)
        finally:
            line()


def route_of(scope: dict) -> str:
    """The route's template (`/api/v1/sessions/{session_id}/move`), so that the counts do
    not grow with every game; files under a mount by the mount."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if path == STATIC_ROUTE:
        return "/static/*"
    if path:
        return path
    if LIVE_PATH.fullmatch(scope.get("path", "")):
        return LIVE_ROUTE
    for mount in ("/static/", "/docs-assets/"):
        if scope.get("path", "").startswith(mount):
            return mount + "*"
    return "other"
