"""The web app: pages, the JSON API (api.py), health checks, and the wiring around them
(errors, limits, one log line a request, the database and its upkeep).

Errors are JSON `{"error": ...}`: 400 malformed input, 409 a move the rules or the turn order
refuse, or a change that met another one (the game is unchanged), 404 unknown game or
session, 413 oversized body.
"""

from __future__ import annotations

import asyncio
import html
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from gridgames import __version__
from gridgames.compute.pool import ComputePool
from gridgames.compute.service import RemoteCompute
from gridgames.compute.warm import warm_game
from gridgames.core.errors import BadInput, UnknownName
from gridgames.core.stats import Histograms
from gridgames.daily import find_daily, parse_day, today
from gridgames.registry import Games, default_games
from gridgames.store import NotFound, SqlStore, Unavailable, open_store
from gridgames.web.access import AccessLog
from gridgames.web.api import MAX_SAVE, PREFIX, Api, api_router
from gridgames.web.caching import Caching
from gridgames.web.clients import client_address
from gridgames.web.config import ServerConfig
from gridgames.web.daily_api import daily_router
from gridgames.web.errors import describe_errors, install_error_handlers
from gridgames.web.history_api import history_router
from gridgames.web.levels_api import levels_router
from gridgames.web.limits import BodyLimit
from gridgames.web.lobby_api import lobby_router
from gridgames.web.metrics import (
    Family,
    Metrics,
    Pauses,
    family,
    histogram_family,
    may_read,
)
from gridgames.web.online_api import LIVE_PATH, Online, live_endpoint, online_router
from gridgames.web.protocols import GATE_KEY, STATE_KEY, UpgradeGate
from gridgames.web.rooms import Rooms
from gridgames.web.security import Security
from gridgames.web.shell import SHELL_HEADER, STATIC_ROUTE, Shell, media_type

# Swagger UI (5.x, which reads OpenAPI 3.1) as the fastapi-offline package ships it.
SWAGGER_UI = Path(str(resources.files("fastapi_offline") / "static"))
MAX_BODY = 64 * 1024
CLEANUP_EVERY = 3600.0  # seconds between two sweeps of idle games
FLAG_EVERY = 0.5  # seconds between two looks for games due: an AI's move, out of time
READY_SECONDS = 1.0  # /readyz answers within this, ready or not
log = logging.getLogger("gridgames")


class GamesApp(FastAPI):
    """The app, with the live pages' WebSockets answered ahead of FastAPI's own stack: a page
    holds its connection for hours, and each layer of the stack (routing, dependencies,
    exception handlers) would keep a frame of it all that time (about 12 KB a page) and add
    to every handshake. They get the same access log line and security check as the rest."""

    live: Any = None  # the live connections' own short chain, set by create_app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket" and self.live is not None and \
                LIVE_PATH.fullmatch(scope["path"]):
            await self.live(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def make_compute(config: ServerConfig) -> ComputePool | RemoteCompute:
    """The pool of this process, or the shared one of the parent (several processes)."""
    if config.compute_address:
        return RemoteCompute(config.compute_address, bytes.fromhex(config.compute_authkey))
    return ComputePool(config.compute_workers, config.levels, config.compute_memory_mb,
                       warm=config.warm_compute)


def create_app(config: ServerConfig | None = None, games: Games | None = None,
               store: SqlStore | None = None, compute: object | None = None) -> FastAPI:
    """The app over the database of `config` (or `store`). A database that cannot be opened
    stops here, with one line saying which and why (BadInput)."""
    config = config or ServerConfig()
    games = games if games is not None else default_games()
    for game in games.values():  # compiled rules load before the first move, not during it
        warm_game(game, searches=False)
    store = store if store is not None else open_store(config.db, config.db_timeout)
    rooms = Rooms(store, games, config.cache_games, config.cache_mb * 1024 * 1024)
    compute = compute if compute is not None else make_compute(config)
    stop = threading.Event()

    api = Api(rooms, games, compute, config)
    on = Online(api)
    api.hub = on.hub
    requests = Histograms()  # the access log's: (method, route, status) -> seconds
    pauses = Pauses()

    def numbers() -> list[Family]:
        hub, stats = on.hub.stats, store.stats
        return [histogram_family("gridgames_requests_seconds", ("method", "route", "status"),
                                 requests.snapshot()),
                family("gridgames_live_pages", (), {(): on.hub.pages}),
                family("gridgames_live_refused_total", ("reason",), hub.refused.snapshot()),
                family("gridgames_live_dropped_total", ("reason",), hub.dropped.snapshot()),
                family("gridgames_live_sent_total", ("kind",), hub.sent.snapshot()),
                histogram_family("gridgames_store_seconds", ("kind",), stats.seconds.snapshot()),
                family("gridgames_store_failures_total", ("reason",),
                       stats.failures.snapshot()),
                family("gridgames_cache_games", (), {(): len(rooms.cache)}),
                family("gridgames_cache_bytes", (), {(): rooms.cache.bytes}),
                *pauses.families()]

    metrics = Metrics(numbers, compute, config.metrics_dir)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[dict[str, Any]]:
        sweeper = threading.Thread(target=_sweep, args=(store, config.keep_days, stop),
                                   name="gridgames-sweeper", daemon=True)
        sweeper.start()
        with suppress(Unavailable):  # a database away now: the loop below tries again
            await run_in_threadpool(on.ai.ensure)
        flagger = threading.Thread(target=_act_due, args=(on, stop),
                                   name="gridgames-clocks", daemon=True)
        flagger.start()
        on.hub.start()
        watchers = [asyncio.create_task(metrics.export()),
                    asyncio.create_task(pauses.watch_loop())]
        pauses.watch_gc()
        # to the server's connections (web/protocols.py)
        yield {STATE_KEY: config.client_timeout, GATE_KEY: UpgradeGate()}
        stop.set()  # in-flight requests are done: uvicorn drains them before this
        pauses.unwatch_gc()
        for watcher in watchers:
            watcher.cancel()
        on.hub.stop()
        sweeper.join(timeout=5)
        flagger.join(timeout=5)
        compute.close()
        store.close()

    # docs_url off: FastAPI's page loads Swagger UI from a CDN; ours serves it (see /docs).
    app = GamesApp(title="gridgames", version=__version__, docs_url=None, redoc_url=None,
                   lifespan=lifespan,
                   description="Play grid-board games: the server applies moves, pages draw.")
    app.live = AccessLog(Security(live_endpoint(on), public_origin=config.public_origin),
                         seconds=requests, log_lines=config.access_log)
    app.state.rooms = rooms
    app.state.lobby = on.lobby
    app.state.config = config
    app.state.compute = compute
    # Innermost first: bodies are limited, pages are checked by their content (304s), every
    # answer gets the security headers, and the access log, outermost, sees every answer
    # (refusals, 304s and 500s included).
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY,
                       larger={f"{PREFIX}/sessions/load": MAX_SAVE})
    app.add_middleware(Caching)
    app.add_middleware(Security, public_origin=config.public_origin)
    app.add_middleware(AccessLog, seconds=requests, log_lines=config.access_log)
    install_error_handlers(app)
    _pages(app, games)
    app.include_router(api_router(api))
    app.include_router(history_router(api))
    app.include_router(levels_router(games))
    app.include_router(daily_router(api))
    app.include_router(online_router(api, on))
    app.include_router(lobby_router(api, on))
    describe_errors(app)

    @app.get("/metrics", summary="Prometheus metrics (by default to this machine's clients "
             "only: --metrics)", tags=["health"], response_class=PlainTextResponse,
             responses={403: {"description": "not for this client (--metrics)"},
                        404: {"description": "metrics are off (--metrics off)"}})
    async def prometheus(request: Request) -> PlainTextResponse:
        if config.metrics == "off":
            raise UnknownName("metrics are off on this server (--metrics)")
        if not may_read(client_address(request, api.trusted), config.metrics):
            return JSONResponse({"error": "metrics are for this machine's clients only "
                                 "(--metrics public opens them)"}, status_code=403)
        text = await run_in_threadpool(metrics.render)
        return PlainTextResponse(text, media_type="text/plain; version=0.0.4")

    @app.get("/healthz", summary="The process is alive", tags=["health"])
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz", summary="The database can be read and written, and machine play "
             "has its searches loaded", tags=["health"], response_model=None,
             responses={503: {"description": "not ready now, and why"}})
    async def readyz() -> dict[str, str] | JSONResponse:
        try:
            await asyncio.wait_for(run_in_threadpool(store.check), READY_SECONDS)
            reason = await asyncio.wait_for(run_in_threadpool(compute.starting), READY_SECONDS)
        except (Unavailable, TimeoutError) as err:
            reason = str(err) or "the database or the compute pool does not answer"
        except (OSError, EOFError) as err:
            reason = f"the compute service cannot be reached: {err}"
        if reason:
            return JSONResponse({"status": "unavailable", "error": reason[:200]},
                                status_code=503, headers={"Retry-After": "2"})
        return {"status": "ok", "database": store.where}

    return app


def _sweep(store: SqlStore, keep_days: float, stop: threading.Event) -> None:
    """Remove games nobody has touched for keep_days, now and then every hour."""
    while True:
        try:
            gone = store.delete_idle(keep_days * 86400)
            if gone:
                log.info("removed %d games idle for %g days", gone, keep_days)
        except Exception:
            log.exception("could not remove idle games")
        if stop.wait(CLEANUP_EVERY):
            return


def _act_due(on: Online, stop: threading.Event) -> None:
    """Twice a second: the AI levels' moves in lobby games, and the games whose player to
    move has run out of time."""
    while not stop.wait(FLAG_EVERY):
        try:
            on.ai.ensure_once()
            on.act_due()
        except Unavailable as err:
            log.warning("clocks: %s", err)
        except Exception:
            log.exception("clocks: could not end a game on time")


def _pages(app: FastAPI, games: Games) -> None:
    shell = Shell(games)
    mark = {SHELL_HEADER: shell.version}  # the service worker compares it with its own

    def shell_file(url: str, headers: dict[str, str] | None = None) -> Response:
        """A file of the shell, from memory (Shell.bodies); NotFound when there is none.
        The routes that answer with one are coroutines: nothing in them waits."""
        body = shell.bodies.get(url)
        if body is None:
            raise NotFound(f"there is no file {url[:80]!r}")
        return Response(body, media_type=media_type(url), headers=headers)

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return shell_file("/static/index.html", mark)

    @app.get("/play/{name}", include_in_schema=False, response_model=None)
    async def game_page(name: str) -> Response:
        if name not in games:
            return HTMLResponse(
                f"<!doctype html><title>Unknown game</title><p>There is no game called "
                f"{html.escape(name[:40])!r}. <a href='/'>See the games</a>.</p>",
                status_code=404)
        return shell_file("/static/game.html", mark)

    def daily(day: str, name: str, level: str | None) -> Response:
        """A daily puzzle's page: the game page, which asks the API for the day's start."""
        try:
            find_daily(parse_day(day), name, level)
            if name not in games:
                raise UnknownName(f"there is no game called {name[:40]!r} on this server")
        except BadInput as err:  # UnknownName too
            status = 404 if isinstance(err, UnknownName) else 400
            return HTMLResponse(
                f"<!doctype html><title>No such daily puzzle</title><p>{html.escape(str(err))}"
                f". <a href='/'>See today's ({today().isoformat()}) on the home page</a>.</p>",
                status_code=status)
        return shell_file("/static/game.html", mark)

    @app.get("/daily/{day}/{name}", include_in_schema=False, response_model=None)
    def daily_page(day: str, name: str) -> Response:
        return daily(day, name, None)

    @app.get("/daily/{day}/{name}/{level}", include_in_schema=False, response_model=None)
    def daily_level_page(day: str, name: str, level: str) -> Response:
        return daily(day, name, level)

    @app.get("/play/{name}/edit", include_in_schema=False, response_model=None)
    def editor_page(name: str) -> Response:
        """The level editor of a game whose levels offer one: a page of its own, which loads
        the game's editor module (`<renderer>-edit.js`) beside its renderer."""
        game = games.get(name)
        if game is None or game.levels is None or not game.levels.formats:
            return HTMLResponse(
                f"<!doctype html><title>No level editor</title><p>There is no level editor "
                f"for {html.escape(name[:40])!r}. <a href='/'>See the games</a>.</p>",
                status_code=404)
        return shell_file("/static/edit.html", mark)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return shell_file("/static/favicon.svg")

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> Response:
        return shell_file("/static/manifest.webmanifest")

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> Response:
        """At the root, so that the worker's scope is every page."""
        return Response(shell.worker, media_type="text/javascript")

    @app.get(STATIC_ROUTE, include_in_schema=False)
    async def static(path: str) -> Response:
        return shell_file(f"/static/{path}")

    app.mount("/docs-assets", StaticFiles(directory=SWAGGER_UI), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        """The API's documentation, working with no internet: Swagger UI comes from the
        fastapi-offline package and is served here."""
        return shell_file("/static/docs.html")

    @app.get("/games/{name}/renderer.js", include_in_schema=False)
    async def renderer(name: str) -> Response:
        """A game's renderer module: package data beside the game's module, so that a plugin
        carries its own (docs/adding-a-game.md)."""
        games.get_game(name)  # UnknownName for a game not here
        return shell_file(f"/games/{name}/renderer.js")

    @app.get("/games/{name}/{module}.js", include_in_schema=False)
    async def renderer_module(name: str, module: str) -> Response:
        """Another ES module of the game's renderer (`<module>.js` beside it), which the
        renderer imports by a relative path."""
        game = games.get_game(name)
        url = f"/games/{name}/{module}.js"
        if url not in shell.bodies:
            raise NotFound(f"{game.title} has no script {module[:40]!r}")
        return shell_file(url)

    @app.get("/games/{name}/renderer.css", include_in_schema=False, response_model=None)
    async def renderer_css(name: str) -> Response:
        """The renderer's stylesheet, `<name>.css` beside its module; an empty one for a game
        that has none, so that the page links every game's alike."""
        games.get_game(name)
        url = f"/games/{name}/renderer.css"
        if url not in shell.bodies:
            return Response(b"", media_type="text/css")
        return shell_file(url)
