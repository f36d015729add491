"""The JSON API and the pages. The server is the authority: pages send move strings, the
session applies them, and every answer carries the new `view` (see `payload`).

Errors are JSON `{"error": ...}`: 400 malformed input, 409 a move the rules or the turn order
refuse (the game is unchanged), 404 unknown game or session, 413 oversized body.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from gridgames import __version__
from gridgames.core.cache import BoundedCache
from gridgames.core.errors import BadInput, IllegalMove, UnknownName
from gridgames.core.game import Game, describe
from gridgames.core.result import Budget, Result
from gridgames.core.rng import Rng
from gridgames.registry import Games, default_games
from gridgames.session import Session
from gridgames.web.limits import BodyLimit
from gridgames.web.store import PERSON, MemoryStore, SessionStore, Table, check_seats

STATIC = Path(__file__).parent / "static"
# Swagger UI (5.x, which reads OpenAPI 3.1) as the fastapi-offline package ships it.
SWAGGER_UI = Path(str(resources.files("fastapi_offline") / "static"))
MAX_BODY = 64 * 1024
THINK_SECONDS = 10.0  # the default cap of one piece of machine play asked by a page


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewGame(_Body):
    game: str | None = Field(None, max_length=40, description="game name (or give `id`)")
    params: str = Field("", max_length=200, description="name=value pairs joined by commas")
    seed: str | None = Field(None, max_length=200)
    id: str | None = Field(None, max_length=10_000, description="a game ID to start from")
    moves: list[str] = Field(default_factory=list, max_length=5000,
                             description="moves to replay after the ID's start position")
    seats: list[str] | None = Field(None, description='per player: "person" or an AI level')


class Move(_Body):
    move: str = Field(max_length=64)


class AiRequest(_Body):
    level: str | None = Field(None, max_length=40)


class Seats(_Body):
    seats: list[str] = Field(max_length=4)


def payload(table: Table) -> dict[str, Any]:
    session = table.session
    game, state = session.game, session.state
    status = game.status(state)
    return {
        "session": table.id,
        "game": game.name,
        "title": game.title,
        "id": session.game_id,
        "seed_id": session.seed_id,
        "params": session.params.format(),
        "moves": session.moves,
        "cursor": session.cursor,
        "can_undo": session.can_undo,
        "can_redo": session.can_redo,
        "seats": table.seats,
        "player_names": list(game.player_names),
        "to_move": game.current_player(state),
        "status": {"kind": status.kind, "message": status.message, "winner": status.winner,
                   "score": status.score, "over": status.over},
        "legal_moves": game.legal_moves(state),
        "view": game.view(state),
    }


def create_app(store: SessionStore | None = None, games: Games | None = None,
               think_seconds: float = THINK_SECONDS) -> FastAPI:
    games = games if games is not None else default_games()
    # docs_url off: FastAPI's page loads Swagger UI from a CDN; ours serves it (see /docs).
    app = FastAPI(title="gridgames", version=__version__, docs_url=None, redoc_url=None,
                  description="Play grid-board games: the server applies moves, pages draw.")
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY)
    tables: SessionStore = store if store is not None else MemoryStore()
    budget = Budget(seconds=think_seconds)
    demos: BoundedCache[str, list[dict[str, Any]]] = BoundedCache(len(games) + 1)
    thinking: set[str] = set()  # tables whose AI move is being computed
    thinking_lock = threading.Lock()

    # --- errors: always {"error": ...} ---

    @app.exception_handler(IllegalMove)
    async def illegal(_: Request, err: IllegalMove) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=409)

    @app.exception_handler(BadInput)
    async def bad_input(_: Request, err: BadInput) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=400)

    @app.exception_handler(UnknownName)
    async def not_found(_: Request, err: UnknownName) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=404)

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_: Request, err: RequestValidationError) -> JSONResponse:
        first = err.errors()[0] if err.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        if first.get("type") == "json_invalid":
            message = "request body is not valid JSON"
        else:
            message = f"{where}: {first.get('msg', 'invalid')}"
        return JSONResponse({"error": message}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, err: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(err.detail)}, status_code=err.status_code)

    @app.exception_handler(Exception)
    async def crash(_: Request, err: Exception) -> JSONResponse:  # a bug: still JSON
        return JSONResponse({"error": f"internal error ({type(err).__name__})"},
                            status_code=500)

    # --- pages ---

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

    # --- games ---

    @app.get("/api/games", summary="Every game: name, params, AI levels, what it can do")
    def list_games() -> list[dict[str, Any]]:
        return [describe(game) for game in games.values()]

    @app.get("/api/games/{name}/demo", summary="A short machine-played game, for previews")
    def demo(name: str) -> dict[str, Any]:
        game = games.get_game(name)
        return {"views": demos.get_or_make(name, lambda: _demo_views(game, games))}

    @app.get("/api/games/{name}/levels", summary="The level packs, for games with levels")
    def levels(name: str) -> list[dict[str, Any]]:
        game = games.get_game(name)
        if game.levels is None:
            raise UnknownName(f"{game.title} has no levels")
        return game.levels.catalogue()

    # --- sessions ---

    def table_of(session_id: str) -> Table:
        return tables.get(session_id)

    def change(session_id: str, action: Callable[[Table], Any]) -> dict[str, Any]:
        """Run one change to a game under its lock, keep it, and answer the new view."""
        table = table_of(session_id)
        with table.lock:
            action(table)
            tables.put(table)
            return payload(table)

    @app.post("/api/sessions", status_code=201, summary="Start a game (new, or from an ID)")
    def new_session(body: NewGame) -> dict[str, Any]:
        if body.id is not None:
            session = Session.from_id(body.id, body.moves, games)
        elif body.game is not None:
            if body.moves:
                raise BadInput("moves need an id to start from")
            session = Session.new(body.game, body.params, body.seed, games)
        else:
            raise BadInput("give a game name or a game id")
        seats = check_seats(session.game, body.seats)
        table = tables.create(session, seats)
        return payload(table)

    @app.post("/api/sessions/load", status_code=201, summary="Start a game from a save file")
    async def load_session(request: Request) -> dict[str, Any]:
        session = Session.load(await request.body(), games)
        return payload(tables.create(session, check_seats(session.game, None)))

    @app.get("/api/sessions/{session_id}", summary="The current position")
    def get_session(session_id: str) -> dict[str, Any]:
        return payload(table_of(session_id))

    @app.get("/api/sessions/{session_id}/save", summary="The save file (JSON)")
    def save_session(session_id: str) -> dict[str, Any]:
        return table_of(session_id).session.to_dict()

    @app.post("/api/sessions/{session_id}/move", summary="Play a move (a person's turn)")
    def move(session_id: str, body: Move) -> dict[str, Any]:
        def play(table: Table) -> None:
            if table.seat_to_move() not in (None, PERSON):
                game = table.session.game
                who = game.player_names[game.current_player(table.session.state)]
                raise IllegalMove(f"it is {who}'s turn, and the AI plays {who}")
            table.session.play(body.move)

        return change(session_id, play)

    @app.post("/api/sessions/{session_id}/undo",
              summary="Undo; against the AI, back to the person's turn")
    def undo(session_id: str) -> dict[str, Any]:
        return change(session_id, lambda table: _step(table, back=True))

    @app.post("/api/sessions/{session_id}/redo", summary="Redo")
    def redo(session_id: str) -> dict[str, Any]:
        return change(session_id, lambda table: _step(table, back=False))

    def _step(table: Table, back: bool) -> None:
        session = table.session
        (session.undo if back else session.redo)()
        # Against the AI, stop only where a person is to move (or at an end).
        if PERSON in table.seats:
            while table.seat_to_move() not in (None, PERSON) and \
                    (session.can_undo if back else session.can_redo):
                (session.undo if back else session.redo)()

    @app.post("/api/sessions/{session_id}/restart", summary="Back to the start (undoable)")
    def restart(session_id: str) -> dict[str, Any]:
        return change(session_id, lambda table: table.session.restart())

    @app.post("/api/sessions/{session_id}/solve", summary="Play the solution (undoable)")
    def solve(session_id: str) -> dict[str, Any]:
        found: list[Result[list[str]]] = []
        answer = change(session_id, lambda table: found.append(table.session.solve(budget)))
        return {**answer, "result": found[0].to_dict()}

    def capability(session_id: str, entry: str, what: str) -> tuple[Session, Any]:
        session = table_of(session_id).session
        found = getattr(session.game, entry)
        if found is None:
            raise BadInput(f"{session.game.title} has no {what}")
        return session, found

    @app.get("/api/sessions/{session_id}/hint", summary="The move the game suggests")
    def hint(session_id: str) -> dict[str, Any]:
        session, hints = capability(session_id, "hints", "hints")
        found = hints.hint(session.state, budget)
        return {"hint": found.value.move if found.value else None,
                "why": found.value.why if found.value else found.note,
                "result": found.to_dict(), "moves": session.moves}

    @app.get("/api/sessions/{session_id}/check",
             summary="Moves made that no solution agrees with (puzzles that can check)")
    def check(session_id: str) -> dict[str, Any]:
        session, checker = capability(session_id, "checker", "check")
        found = checker.check(session.state, budget)
        return {"wrong": found.value, "result": found.to_dict(), "moves": session.moves}

    @app.get("/api/sessions/{session_id}/analysis",
             summary="The score of every move for the side to move (null: not known within "
             "the budget)")
    def analysis(session_id: str) -> dict[str, Any]:
        session, analyzer = capability(session_id, "analyzer", "analysis")
        found = analyzer.analyze(session.state, budget)
        return {"scores": found.value, "score_help": analyzer.score_help,
                "result": found.to_dict(), "moves": session.moves}

    @app.put("/api/sessions/{session_id}/seats", summary="Who plays each side")
    def set_seats(session_id: str, body: Seats) -> dict[str, Any]:
        def seat(table: Table) -> None:
            table.seats = check_seats(table.session.game, body.seats)

        return change(session_id, seat)

    @app.post("/api/sessions/{session_id}/ai",
              summary="The AI plays the current move (at the seat's level, or `level`)")
    def ai_move(session_id: str, body: AiRequest | None = None) -> dict[str, Any]:
        table = table_of(session_id)
        session, game = table.session, table.session.game
        with table.lock:
            state, cursor = session.state, session.cursor
            seat = table.seat_to_move()
        if seat is None or game.ai is None:
            raise IllegalMove("the game is over" if game.status(state).over
                              else f"{game.title} has no AI player")
        level = (body.level if body and body.level else None) or \
            (seat if seat != PERSON else game.ai.levels[-1])
        game.ai.check_level(level)
        with thinking_lock:
            if table.id in thinking:
                raise IllegalMove("the AI is already thinking about this game")
            thinking.add(table.id)
        try:  # the search runs outside the table lock: the page can still read the game
            rng = Rng(f"{session.game_id} {' '.join(session.moves)} {level}")
            found = game.ai.choose(state, level, rng, budget)
        finally:
            with thinking_lock:
                thinking.discard(table.id)
        with table.lock:
            if session.cursor != cursor or session.state != state:
                raise IllegalMove("the position changed while the AI was thinking")
            session.play(found.value)
            tables.put(table)
            return {**payload(table), "ai_move": found.value, "ai_level": level,
                    "result": found.to_dict()}

    return app


def _renderer_path(game: Game) -> Path:
    package = type(game).__module__.rpartition(".")[0]
    return Path(str(resources.files(package) / game.renderer))


def _demo_views(game: Game, games: Games) -> list[dict[str, Any]]:
    """A short game from the default start with a fixed seed: the AI against itself, or a
    puzzle played by its hints."""
    session = Session.new(game.name, "", seed="demo", games=games)
    rng = Rng("demo")
    budget = Budget(nodes=200_000, seconds=2.0)
    views = [game.view(session.state)]
    while not session.status().over and len(views) < 24:
        if game.ai:
            move = game.ai.choose(session.state, game.ai.default_level, rng, budget).value
        elif game.hints:
            found = game.hints.hint(session.state, budget).value
            move = found.move if found else None
        else:
            break
        if move is None:
            break
        session.play(move)
        views.append(game.view(session.state))
    return views
