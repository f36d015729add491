"""The JSON API: games, and sessions (one game a browser tab plays). The server is the
authority: pages send move strings, the session applies them, and every answer carries the
new `view` (see `payload`). Every change is in the database before the answer goes out."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from gridgames.core.cache import BoundedCache
from gridgames.core.errors import BadInput, IllegalMove, UnknownName
from gridgames.core.game import Game, describe
from gridgames.core.result import Budget, Result
from gridgames.core.rng import Rng
from gridgames.registry import Games
from gridgames.session import Session
from gridgames.web.tables import PERSON, Table, Tables, check_seats

MAX_SAVE = 1024 * 1024  # a save file may be up to 1 MB; other bodies stay at 64 KiB


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
        "version": table.version,
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
        "updated_at": table.updated_at,
    }


def api_router(tables: Tables, games: Games, budget: Budget) -> APIRouter:
    api = APIRouter(prefix="/api")
    demos: BoundedCache[str, list[dict[str, Any]]] = BoundedCache(len(games) + 1)
    thinking: set[str] = set()  # tables whose AI move is being computed
    thinking_lock = threading.Lock()

    # --- games ---

    @api.get("/games", summary="Every game: name, params, AI levels, what it can do")
    def list_games() -> list[dict[str, Any]]:
        return [describe(game) for game in games.values()]

    @api.get("/games/{name}/demo", summary="A short machine-played game, for previews")
    def demo(name: str) -> dict[str, Any]:
        game = games.get_game(name)
        return {"views": demos.get_or_make(name, lambda: _demo_views(game, games))}

    @api.get("/games/{name}/levels", summary="The level packs, for games with levels")
    def levels(name: str) -> list[dict[str, Any]]:
        game = games.get_game(name)
        if game.levels is None:
            raise UnknownName(f"{game.title} has no levels")
        return game.levels.catalogue()

    # --- sessions ---

    def change(session_id: str, action: Callable[[Table], Any]) -> tuple[dict[str, Any], Any]:
        """One change to a game, stored before the answer: the new view and what the
        action returned."""
        table, result = tables.change(session_id, action)
        return payload(table), result

    @api.post("/sessions", status_code=201, summary="Start a game (new, or from an ID)")
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
        return payload(tables.create(session, seats))

    @api.post("/sessions/load", status_code=201, summary="Start a game from a save file")
    async def load_session(request: Request) -> dict[str, Any]:
        session = Session.load(await request.body(), games)
        return payload(tables.create(session, check_seats(session.game, None)))

    @api.get("/sessions/{session_id}", summary="The current position")
    def get_session(session_id: str) -> dict[str, Any]:
        return payload(tables.get(session_id))

    @api.get("/sessions/{session_id}/save", summary="The save file (JSON)")
    def save_session(session_id: str) -> dict[str, Any]:
        return tables.get(session_id).session.to_dict()

    @api.post("/sessions/{session_id}/move", summary="Play a move (a person's turn)")
    def move(session_id: str, body: Move) -> dict[str, Any]:
        def play(table: Table) -> None:
            if table.seat_to_move() not in (None, PERSON):
                game = table.session.game
                who = game.player_names[game.current_player(table.session.state)]
                raise IllegalMove(f"it is {who}'s turn, and the AI plays {who}")
            table.session.play(body.move)

        return change(session_id, play)[0]

    @api.post("/sessions/{session_id}/undo",
              summary="Undo; against the AI, back to the person's turn")
    def undo(session_id: str) -> dict[str, Any]:
        return change(session_id, lambda table: _step(table, back=True))[0]

    @api.post("/sessions/{session_id}/redo", summary="Redo")
    def redo(session_id: str) -> dict[str, Any]:
        return change(session_id, lambda table: _step(table, back=False))[0]

    @api.post("/sessions/{session_id}/restart", summary="Back to the start (undoable)")
    def restart(session_id: str) -> dict[str, Any]:
        return change(session_id, lambda table: table.session.restart())[0]

    @api.post("/sessions/{session_id}/solve", summary="Play the solution (undoable)")
    def solve(session_id: str) -> dict[str, Any]:
        answer, found = change(session_id, lambda table: table.session.solve(budget))
        return {**answer, "result": found.to_dict()}

    def capability(session_id: str, entry: str, what: str) -> tuple[Session, Any]:
        session = tables.get(session_id).session
        found = getattr(session.game, entry)
        if found is None:
            raise BadInput(f"{session.game.title} has no {what}")
        return session, found

    @api.get("/sessions/{session_id}/hint", summary="The move the game suggests")
    def hint(session_id: str) -> dict[str, Any]:
        session, hints = capability(session_id, "hints", "hints")
        found = hints.hint(session.state, budget)
        return {"hint": found.value.move if found.value else None,
                "why": found.value.why if found.value else found.note,
                "result": found.to_dict(), "moves": session.moves}

    @api.get("/sessions/{session_id}/check",
             summary="Moves made that no solution agrees with (puzzles that can check)")
    def check(session_id: str) -> dict[str, Any]:
        session, checker = capability(session_id, "checker", "check")
        found = checker.check(session.state, budget)
        return {"wrong": found.value, "result": found.to_dict(), "moves": session.moves}

    @api.get("/sessions/{session_id}/analysis",
             summary="The score of every move for the side to move (null: not known within "
             "the budget)")
    def analysis(session_id: str) -> dict[str, Any]:
        session, analyzer = capability(session_id, "analyzer", "analysis")
        found = analyzer.analyze(session.state, budget)
        return {"scores": found.value, "score_help": analyzer.score_help,
                "result": found.to_dict(), "moves": session.moves}

    @api.put("/sessions/{session_id}/seats", summary="Who plays each side")
    def set_seats(session_id: str, body: Seats) -> dict[str, Any]:
        def seat(table: Table) -> None:
            table.seats = check_seats(table.session.game, body.seats)

        return change(session_id, seat)[0]

    @api.post("/sessions/{session_id}/ai",
              summary="The AI plays the current move (at the seat's level, or `level`)")
    def ai_move(session_id: str, body: AiRequest | None = None) -> dict[str, Any]:
        table = tables.get(session_id)
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
            found: Result[str] = game.ai.choose(state, level, rng, budget)
        finally:
            with thinking_lock:
                thinking.discard(table.id)

        def play(fresh: Table) -> None:
            if fresh.session.cursor != cursor or fresh.session.state != state:
                raise IllegalMove("the position changed while the AI was thinking")
            fresh.session.play(found.value)

        answer, _ = change(session_id, play)
        return {**answer, "ai_move": found.value, "ai_level": level,
                "result": found.to_dict()}

    return api


def _step(table: Table, back: bool) -> None:
    session = table.session
    (session.undo if back else session.redo)()
    # Against the AI, stop only where a person is to move (or at an end).
    if PERSON in table.seats:
        while table.seat_to_move() not in (None, PERSON) and \
                (session.can_undo if back else session.can_redo):
            (session.undo if back else session.redo)()


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
