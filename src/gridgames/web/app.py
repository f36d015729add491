"""The web app: pages, the JSON API (api.py), health checks, and the wiring around them
(errors, limits, one log line a request, the database and its upkeep).

Errors are JSON `{"error": ...}`: 400 malformed input, 409 a move the rules or the turn order
refuse, or a change that met another one (the game is unchanged), 404 unknown game or
session, 413 oversized body.
"""

from __future__ import annotations

import html
import logging
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from gridgames import __version__
from gridgames.compute.pool import ComputePool
from gridgames.compute.service import RemoteCompute
from gridgames.core.game import Game
from gridgames.registry import Games, default_games
from gridgames.store import SqlStore, open_store
from gridgames.web.api import MAX_SAVE, PREFIX, Api, api_router
from gridgames.web.caching import Caching
from gridgames.web.config import ServerConfig
from gridgames.web.errors import describe_errors, install_error_handlers
from gridgames.web.history_api import history_router
from gridgames.web.limits import BodyLimit
from gridgames.web.online_api import Online, add_live_route, online_router
from gridgames.web.security import Security
from gridgames.web.tables import Tables

STATIC = Path(__file__).parent / "static"
# Swagger UI (5.x, which reads OpenAPI 3.1) as the fastapi-offline package ships it.
SWAGGER_UI = Path(str(resources.files("fastapi_offline") / "static"))
MAX_BODY = 64 * 1024
CLEANUP_EVERY = 3600.0  # seconds between two sweeps of idle games
log = logging.getLogger("gridgames")


def make_compute(config: ServerConfig) -> ComputePool | RemoteCompute:
    """The pool of this process, or the shared one of the parent (several processes)."""
    if config.compute_address:
        return RemoteCompute(config.compute_address, bytes.fromhex(config.compute_authkey))
    return ComputePool(config.compute_workers, config.levels, config.compute_memory_mb)


def create_app(config: ServerConfig | None = None, games: Games | None = None,
               store: SqlStore | None = None, compute: object | None = None) -> FastAPI:
    """The app over the database of `config` (or `store`). A database that cannot be opened
    stops here, with one line saying which and why (BadInput)."""
    config = config or ServerConfig()
    games = games if games is not None else default_games()
    store = store if store is not None else open_store(config.db)
    tables = Tables(store, games, config.cache_games, config.cache_mb * 1024 * 1024)
    compute = compute if compute is not None else make_compute(config)
    stop = threading.Event()

    api = Api(tables, games, compute, config)
    on = Online(api)
    api.hub = on.hub

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        sweeper = threading.Thread(target=_sweep, args=(store, config.keep_days, stop),
                                   name="gridgames-sweeper", daemon=True)
        sweeper.start()
        on.hub.start()
        yield
        stop.set()  # in-flight requests are done: uvicorn drains them before this
        on.hub.stop()
        sweeper.join(timeout=5)
        compute.close()
        store.close()

    # docs_url off: FastAPI's page loads Swagger UI from a CDN; ours serves it (see /docs).
    app = FastAPI(title="gridgames", version=__version__, docs_url=None, redoc_url=None,
                  lifespan=lifespan,
                  description="Play grid-board games: the server applies moves, pages draw.")
    app.state.tables = tables
    app.state.config = config
    app.state.compute = compute
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY,
                       larger={f"{PREFIX}/sessions/load": MAX_SAVE})
    app.add_middleware(Caching)  # inside the log line, which then shows the 304s
    if config.access_log:
        app.middleware("http")(_log_request)
    app.add_middleware(Security, public_origin=config.public_origin)
    install_error_handlers(app)
    _pages(app, games)
    app.include_router(api_router(api))
    app.include_router(history_router(api))
    app.include_router(online_router(api, on))
    add_live_route(app, on)
    describe_errors(app)

    @app.get("/healthz", summary="The process is alive", tags=["health"])
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz", summary="The database can be reached", tags=["health"],
             response_model=None, responses={503: {"description": "the database cannot "
                                                    "be reached"}})
    def readyz() -> dict[str, str] | JSONResponse:
        try:
            store.ping()
        except Exception as err:  # any failure of the database means not ready
            return JSONResponse({"status": "unavailable", "error": str(err)[:200]},
                                status_code=503)
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


async def _log_request(request: Request, call_next: Any) -> Any:
    started = time.perf_counter()
    status = 500  # a bug that escapes every handler is still one line here
    try:
        response = await call_next(request)
        status = response.status_code
        return response
    finally:
        log.info("%s %s %d %.1f ms", request.method, request.url.path, status,
                 (time.perf_counter() - started) * 1000)


def _pages(app: FastAPI, games: Games) -> None:
    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/play/{name}", include_in_schema=False, response_model=None)
    def game_page(name: str) -> FileResponse | HTMLResponse:
        if name not in games:
            return HTMLResponse(
                f"<!doctype html><title>Unknown game</title><p>There is no game called "
                f"{html.escape(name[:40])!r}. <a href='/'>See the games</a>.</p>",
                status_code=404)
        return FileResponse(STATIC / "game.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/docs-assets", StaticFiles(directory=SWAGGER_UI), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def docs() -> FileResponse:
        """The API's documentation, working with no internet: Swagger UI comes from the
        fastapi-offline package and is served here."""
        return FileResponse(STATIC / "docs.html")

    @app.get("/games/{name}/renderer.js", include_in_schema=False)
    def renderer(name: str) -> FileResponse:
        """A game's renderer module: package data beside the game's module, so that a plugin
        carries its own (docs/adding-a-game.md)."""
        return FileResponse(_renderer_path(games.get_game(name)),
                            media_type="text/javascript")


def _renderer_path(game: Game) -> Path:
    package = type(game).__module__.rpartition(".")[0]
    return Path(str(resources.files(package) / game.renderer))
