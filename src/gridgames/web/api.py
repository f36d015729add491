"""The JSON API, version 1 (`/api/v1/...`): games, and sessions (one game a browser tab or a
script plays). The server is the authority: pages send move strings, the session applies
them, and every answer carries the new `view` (see `payload`). Every change is in the
database before the answer goes out.

Machine play (AI moves, hints, solutions, checks, analysis, generated puzzles, previews)
runs in the compute pool, never in a request thread: its endpoints wait for the job without
holding a thread, so moves and reads never queue behind it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError
from starlette.concurrency import run_in_threadpool

from gridgames.compute.demo import replay_views, shipped_moves
from gridgames.compute.jobs import SOLUTION_STEPS, Job, capability
from gridgames.compute.pool import SERVER
from gridgames.core.cache import BoundedCache
from gridgames.core.errors import BadInput, IllegalMove, UnknownName
from gridgames.core.game import Game, describe
from gridgames.core.ids import GameId
from gridgames.core.result import BEST_FOUND, Budget, Result
from gridgames.core.rng import Rng
from gridgames.core.text import check_text
from gridgames.markers import is_marker
from gridgames.registry import Games
from gridgames.session import MAX_HISTORY, Session, no_solution
from gridgames.web import online
from gridgames.web.clients import RateLimit, client_of
from gridgames.web.config import ServerConfig
from gridgames.web.errors import RateLimited, errors
from gridgames.web.rooms import PERSON, Room, Rooms, check_seats

PREFIX = "/api/v1"
MAX_SAVE = 1024 * 1024  # a save file may be up to 1 MB; other bodies stay at 64 KiB
# Seconds of a job, by its work, as multiples of --think-seconds: a player waits for every
# AI move and hint (2 s by default), and asks for a solution once, so it may take longer (20 s
# by default, what it had before the think time came down from 10 s); generating a puzzle
# and the previews have their own budgets.
WORK_SHARE = {"ai": 1.0, "hint": 1.0, "check": 1.0, "analysis": 1.0, "solve": 10.0,
              "solution": 10.0}
GENERATE_SECONDS = 60.0
DEMO_SECONDS = 60.0
CLOCK = "clock_ms"  # in a game's extra: the time its page has been showing it, unfinished


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*")
    @classmethod
    def _storable(cls, value: Any) -> Any:
        """Every text of a body (a list's too) is text a store can keep, checked before any
        of it is used: a seed or seats go to the store without passing the session."""
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str):
                try:
                    check_text(text, "the value")
                except BadInput as err:  # the message as it is, without "Value error, "
                    raise PydanticCustomError("text", str(err)) from None
        return value


class NewGame(Body):
    game: str | None = Field(None, max_length=40, description="game name (or give `id`)")
    params: str = Field("", max_length=200, description="name=value pairs joined by commas")
    seed: str | None = Field(None, max_length=200)
    id: str | None = Field(None, max_length=10_000, description="a game ID to start from")
    moves: list[str] = Field(default_factory=list, max_length=5000,
                             description="moves to replay after the ID's start position")
    seats: list[str] | None = Field(None, max_length=4,
                                    description='per player: "person" or an AI level')


class Move(Body):
    move: str = Field(max_length=64)


class AiRequest(Body):
    level: str | None = Field(None, max_length=40)


class Seats(Body):
    seats: list[str] = Field(max_length=4)


class SolveRequest(Body):
    moves: list[str] | None = Field(
        None, max_length=MAX_HISTORY,
        description="the solution the page was shown (GET .../solution), checked by replaying "
        "it; without it the server solves again")


def last_move_words(game: Game, moves: list[str]) -> str | None:
    """The last move as a player says it, where it is a game move (not a marker)."""
    return game.move_words(moves[-1]) if moves and not is_marker(moves[-1]) else None


def payload(room: Room) -> dict[str, Any]:
    session = room.session
    game, state = session.game, session.state
    status = game.status(state)
    answer = {
        "session": room.id,
        "version": room.version,
        "game": game.name,
        "title": game.title,
        "id": session.game_id,
        "seed_id": session.seed_id,
        "params": session.params.format(),
        "moves": session.moves,
        "cursor": session.cursor,
        "helped": session.helped,  # a Solve played some of the moves that lead here
        "last_move_words": last_move_words(game, session.moves),
        "can_undo": session.can_undo,
        "can_redo": session.can_redo,
        "seats": room.seats,
        "player_names": list(game.player_names),
        "ai_levels": list(game.ai.offered(session.params)) if game.ai else [],
        "to_move": game.current_player(state),
        "status": {**status.as_json(), "over": status.over},
        "legal_moves": game.legal_moves(state),
        "view": game.view(state),
        "updated_at": room.updated_at,
        "positions": len(session.history),  # the redo tail's positions included
        "clock_ms": room.extra.get(CLOCK, 0),  # the player's elapsed time, as the page said
    }
    ended = online.status_of(room)  # an online game that ended by resigning, a draw...
    if ended:
        answer.update(status=ended, legal_moves=[], to_move=None)
    return answer


class Api:
    """The endpoints' shared parts: the rooms, the compute pool, the budgets, the limits."""

    def __init__(self, rooms: Rooms, games: Games, compute: Any, config: ServerConfig) -> None:
        self.rooms = rooms
        self.games = games
        self.compute = compute
        self.config = config
        self.trusted = frozenset(config.trusted_proxies)
        self.creating = RateLimit(config.games_per_minute, config.games_burst)
        self.hub: Any = None  # the live pages (web/live.py), set by the app
        self.demos: BoundedCache[str, list[dict[str, Any]]] = BoundedCache(len(games) + 4)
        self._demos_running: dict[str, asyncio.Future] = {}
        self.shipped_demos = shipped_moves()

    def client(self, request: Request) -> str:
        return client_of(request, self.trusted)

    def may_create(self, request: Request) -> None:
        """Every way of making a game asks here first (new, load, rematch; a lobby's games
        too, when there is one): one limit per client, whatever the door."""
        wait = self.creating.allow(self.client(request))
        if wait:
            raise RateLimited("too many new games from you: wait a little", int(wait) + 1)

    async def think(self, request: Request, job: Job, key: str, seconds: float) -> Any:
        """Run a job in the compute pool and wait for it without holding a thread."""
        future = self.compute.submit(job, self.client(request), key, seconds)
        return await asyncio.wrap_future(future)

    async def demo(self, name: str) -> list[dict[str, Any]]:
        """A game's preview, kept once made. A built-in game's moves were prepared ahead
        (compute/demo.py): replayed by the rules here, in milliseconds, so that the first home
        page paints at once. Another game's is played by the compute pool (as the server's
        own job, so that a page asking for every preview at once is not held to one client's
        share); requests that come while it is made wait for the same job."""
        views = self.demos.get(name)
        if views is not None:
            return views
        moves = self.shipped_demos.get(name)
        if moves is not None:
            views = await run_in_threadpool(replay_views, self.games[name], self.games, moves)
            self.demos.put(name, views)
            return views
        running = self._demos_running.get(name)
        if running is None:
            running = asyncio.wrap_future(self.compute.submit(
                Job("demo", name), SERVER, f"demo:{name}", DEMO_SECONDS))
            self._demos_running[name] = running

            def keep(done: asyncio.Future) -> None:
                del self._demos_running[name]
                if not done.cancelled() and done.exception() is None:
                    self.demos.put(name, done.result())

            running.add_done_callback(keep)
        return await asyncio.shield(running)

    def budget(self, work: str) -> Budget:
        return Budget(seconds=self.config.think_seconds * WORK_SHARE[work])

    async def room(self, session_id: str) -> Room:
        return await run_in_threadpool(self.rooms.get, session_id)

    async def change(self, session_id: str, action: Callable[[Room], Any]
                     ) -> tuple[dict[str, Any], Any]:
        """A change through the session ID (never of an online game: its seats' links change
        it); pages watching the game are told."""
        def guarded(room: Room) -> Any:
            if online.is_online(room):
                raise IllegalMove("this game is played online: play through your seat's link")
            return action(room)

        def run() -> tuple[dict[str, Any], Any]:
            (answer, watched), result = self.rooms.change(
                session_id, guarded, lambda t: (payload(t), t.extra.get("watched")))
            if watched and self.hub is not None:
                self.hub.changed(session_id)
            return answer, result

        return await run_in_threadpool(run)


def api_router(api: Api) -> APIRouter:
    router = APIRouter(prefix=PREFIX, responses=errors(400, 413, 500))
    games = api.games

    # --- games ---

    @router.get("/games", summary="Every game: name, params, AI levels, what it can do")
    def list_games() -> list[dict[str, Any]]:
        return [describe(game) for game in games.values()]

    @router.get("/games/{name}/demo", summary="A short machine-played game, for previews",
                responses=errors(404, 429, 503))
    async def demo(name: str) -> dict[str, Any]:
        return {"views": await api.demo(games.get_game(name).name)}

    @router.get("/games/{name}/ai-levels", summary="The AI levels offered on a board (`params`: "
                "name=value pairs joined by commas), weakest first", responses=errors(404))
    def ai_levels(name: str, params: str = Query("", max_length=200)) -> dict[str, Any]:
        game = games.get_game(name)
        if game.ai is None:
            return {"levels": [], "default": None}
        offered = game.ai.offered(game.parse_params(check_text(params, "params")))
        default = game.ai.default_level
        return {"levels": list(offered), "default": default if default in offered else
                offered[(len(offered) - 1) // 2]}

    @router.get("/games/{name}/levels", summary="The level packs, for games with levels",
                responses=errors(404))
    def levels(name: str) -> list[dict[str, Any]]:
        game = games.get_game(name)
        if game.levels is None:
            raise UnknownName(f"{game.title} has no levels")
        return game.levels.catalogue()

    # --- sessions ---

    @router.post("/sessions", status_code=201, summary="Start a game (new, or from an ID)",
                 responses=errors(404, 409, 429, 503))
    async def new_session(body: NewGame, request: Request) -> dict[str, Any]:
        api.may_create(request)
        if body.id is not None:
            gid = GameId.parse(body.id, games)
            desc = await generated(request, gid.game, gid.params, gid.seed)
            session = await run_in_threadpool(Session.from_id, body.id, body.moves, games, desc)
        elif body.game is not None:
            if body.moves:
                raise BadInput("moves need an id to start from")
            seed = body.seed if body.seed is not None else Rng.new_seed()
            desc = await generated(request, body.game, body.params, seed)
            session = Session.new(body.game, body.params, seed, games, desc)
        else:
            raise BadInput("give a game name or a game id")
        seats = check_seats(session.game, body.seats, session.params)
        return await run_in_threadpool(lambda: payload(api.rooms.create(session, seats)))

    async def generated(request: Request, name: str, params_text: str, seed: str | None
                        ) -> str | None:
        """The start a seed makes, for a game whose starts are generated: made by the compute
        pool, since a graded puzzle can take seconds. None where the game makes its start
        at once (the caller does)."""
        game = games.get_game(name)
        if seed is None or game.generator is None:
            return None
        params = game.parse_params(params_text)
        return await api.think(request, Job("new_desc", game.name, params=params.format(),
                                            seed=seed), f"new:{api.client(request)}",
                               GENERATE_SECONDS)

    @router.post("/sessions/load", status_code=201, summary="Start a game from a save file "
                 "(up to 1 MB)", responses=errors(404, 409, 429, 503))
    async def load_session(request: Request) -> dict[str, Any]:
        api.may_create(request)
        data = await run_in_threadpool(Session.parse_save, await request.body())
        desc = None
        if isinstance(data, dict) and isinstance(data.get("game"), str) and \
                isinstance(data.get("params"), str) and isinstance(data.get("seed"), str):
            desc = await generated(request, data["game"], data["params"], data["seed"])
        session = await run_in_threadpool(Session.from_dict, data, games, desc)
        return await run_in_threadpool(
            lambda: payload(api.rooms.create(session, check_seats(session.game, None))))

    @router.get("/sessions/{session_id}", summary="The current position",
                responses=errors(404))
    def get_session(session_id: str) -> dict[str, Any]:
        return api.rooms.read(session_id, payload)

    @router.get("/sessions/{session_id}/save", summary="The save file (JSON)",
                responses=errors(404))
    def save_session(session_id: str) -> dict[str, Any]:
        return api.rooms.read(session_id, lambda room: room.session.to_dict())

    @router.post("/sessions/{session_id}/move", summary="Play a move (a person's turn)",
                 responses=errors(404, 409))
    async def move(session_id: str, body: Move) -> dict[str, Any]:
        def play(room: Room) -> None:
            if room.seat_to_move() not in (None, PERSON):
                game = room.session.game
                who = game.player_names[game.current_player(room.session.state)]
                raise IllegalMove(f"it is {who}'s turn, and the AI plays {who}")
            room.session.play(body.move)

        return (await api.change(session_id, play))[0]

    @router.post("/sessions/{session_id}/undo",
                 summary="Undo; against the AI, back to the person's turn",
                 responses=errors(404, 409))
    async def undo(session_id: str) -> dict[str, Any]:
        return (await api.change(session_id, lambda room: _step(room, back=True)))[0]

    @router.post("/sessions/{session_id}/redo", summary="Redo", responses=errors(404, 409))
    async def redo(session_id: str) -> dict[str, Any]:
        return (await api.change(session_id, lambda room: _step(room, back=False)))[0]

    @router.post("/sessions/{session_id}/restart", summary="Back to the start (undoable)",
                 responses=errors(404, 409))
    async def restart(session_id: str) -> dict[str, Any]:
        return (await api.change(session_id, lambda room: room.session.restart()))[0]

    @router.put("/sessions/{session_id}/seats", summary="Who plays each side",
                responses=errors(404, 409))
    async def set_seats(session_id: str, body: Seats) -> dict[str, Any]:
        def seat(room: Room) -> None:
            room.seats = check_seats(room.session.game, body.seats, room.session.params)

        return (await api.change(session_id, seat))[0]

    # --- machine play: the compute pool ---

    async def ask(request: Request, session_id: str, work: str, **job: Any
                  ) -> tuple[Room, Any, Any]:
        """Run one job on the game's current position: (the room, its state then, the
        answer)."""
        room = await api.room(session_id)
        capability(room.session.game, work)  # refused here, before any job is queued
        fair_play(room)
        state = room.session.state
        found = await api.think(request, Job(work, room.session.game.name, state,
                                             api.budget(work), **job),
                                room.id, api.budget(work).seconds or 0.0)
        return room, state, found

    def unchanged(state: Any, cursor: int) -> Callable[[Room], None]:
        def check(fresh: Room) -> None:
            if fresh.session.cursor != cursor or fresh.session.state != state:
                raise IllegalMove("the position changed while the computer was thinking")
        return check

    @router.post("/sessions/{session_id}/solve", summary="Play the solution (undoable): the "
                 "one given (checked), or one found now", responses=errors(404, 409, 429, 503))
    async def solve(session_id: str, request: Request,
                    body: SolveRequest | None = None) -> dict[str, Any]:
        if body is not None and body.moves is not None:
            if not body.moves:
                raise BadInput("moves: a solution has at least one move")
            given = Result(list(body.moves), BEST_FOUND, note="the solution the page showed")
            answer, _ = await api.change(
                session_id, lambda room: room.session.apply_solution(given))
            return answer
        room, state, found = await ask(request, session_id, "solve")
        cursor = room.session.cursor

        def record(fresh: Room) -> None:
            unchanged(state, cursor)(fresh)
            fresh.session.apply_solution(found)

        answer, _ = await api.change(session_id, record)
        return {**answer, "result": found.to_dict()}

    @router.get("/sessions/{session_id}/solution",
                summary="A solution from the current position, not applied: its moves and the "
                f"view after each (the first {SOLUTION_STEPS}), to step through",
                responses=errors(404, 409, 429, 503))
    async def solution(session_id: str, request: Request) -> dict[str, Any]:
        room, state, (found, steps) = await ask(request, session_id, "solution")
        if found.value is None:  # why, and the search's result: proven none, or out of time
            return JSONResponse({"error": str(no_solution(found)), "result": found.to_dict()},
                                status_code=400)
        head = json.dumps({"moves": found.value, "start": room.session.game.view(state),
                           "cursor": room.session.cursor, "result": found.to_dict()})
        # The steps come from the compute worker as JSON text, passed on as they are.
        return Response(f'{head[:-1]}, "steps": {steps}}}', media_type="application/json")

    @router.get("/sessions/{session_id}/hint", summary="The move the game suggests",
                responses=errors(404, 409, 429, 503))
    async def hint(session_id: str, request: Request) -> dict[str, Any]:
        room = await api.room(session_id)
        if room.session.status().over:
            raise IllegalMove("the game is over: there is no move to suggest")
        room, _, found = await ask(request, session_id, "hint")
        move = found.value.move if found.value else None
        return {"hint": move, "hint_words": room.session.game.move_words(move) if move else None,
                "why": found.value.why if found.value else found.note,
                "result": found.to_dict(), "moves": room.session.moves}

    @router.get("/sessions/{session_id}/check",
                summary="Moves made that no solution agrees with (puzzles that can check)",
                responses=errors(404, 409, 429, 503))
    async def check(session_id: str, request: Request) -> dict[str, Any]:
        room, _, found = await ask(request, session_id, "check")
        return {"wrong": found.value, "result": found.to_dict(),
                "moves": room.session.moves}

    @router.get("/sessions/{session_id}/analysis",
                summary="The score of every move for the side to move (null: not known "
                "within the budget)", responses=errors(404, 409, 429, 503))
    async def analysis(session_id: str, request: Request) -> dict[str, Any]:
        room, _, found = await ask(request, session_id, "analysis")
        return {"scores": found.value, "score_help": room.session.game.analyzer.score_help,
                "result": found.to_dict(), "moves": room.session.moves}

    @router.post("/sessions/{session_id}/ai",
                 summary="The AI plays the current move (at the seat's level, or `level`)",
                 responses=errors(404, 409, 429, 503))
    async def ai_move(session_id: str, request: Request,
                      body: AiRequest | None = None) -> dict[str, Any]:
        room = await api.room(session_id)
        session, game = room.session, room.session.game
        seat = room.seat_to_move()
        if seat is None or game.ai is None:
            raise IllegalMove("the game is over" if game.status(session.state).over
                              else f"{game.title} has no AI player")
        fair_play(room)
        level = (body.level if body and body.level else None) or \
            (seat if seat != PERSON else game.ai.strongest(session.params))
        game.ai.check_level(level)
        if api.compute.busy(room.id):
            raise IllegalMove("the computer is already thinking about this game")
        cursor = session.cursor
        # The game's own seed (a new one each game), so that an AI with a choice among equal
        # moves varies from game to game (the start's id is the same for every tic-tac-toe
        # game, and the easy AI answered alike in each), and a game replays the same.
        origin = session.seed if session.seed is not None else room.id
        seed = f"{session.game_id} {origin} {' '.join(session.moves)} {level}"
        room, state, found = await ask(request, session_id, "ai", level=level, seed=seed)

        def play(fresh: Room) -> None:
            unchanged(state, cursor)(fresh)
            fresh.session.play(found.value)

        answer, _ = await api.change(session_id, play)
        return {**answer, "ai_move": found.value, "ai_move_words": game.move_words(found.value),
                "ai_level": level,
                "result": found.to_dict()}

    @router.post("/sessions/{session_id}/cancel",
                 summary="Stop the computer thinking about this game (frees its CPU at once)",
                 responses=errors(404))
    async def cancel(session_id: str) -> dict[str, Any]:
        room = await api.room(session_id)
        return {"cancelled": await run_in_threadpool(api.compute.cancel, room.id)}

    return router


def fair_play(room: Room) -> None:
    """No machine help in an online game still being played: not to its seats, not to its
    spectators, not through its session ID (after the end, all of it opens)."""
    if online.is_online(room) and not online.over(room):
        raise IllegalMove("this game is being played online: hints, analysis, solutions and "
                          "AI moves open when it ends")


def _step(room: Room, back: bool) -> None:
    session = room.session
    (session.undo if back else session.redo)()
    # Against the AI, stop only where a person is to move (or at an end).
    if PERSON in room.seats:
        while room.seat_to_move() not in (None, PERSON) and \
                (session.can_undo if back else session.can_redo):
            (session.undo if back else session.redo)()
