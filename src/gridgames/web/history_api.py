"""The API of a game's past and its clock (`/api/v1/sessions/{id}/...`): any recorded
position drawn by the server (a replay, step by step), "continue from here" (an undoable
jump), and the elapsed time the page reports, stored with the game.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import Field

from gridgames.web.api import CLOCK, PREFIX, Api, Body
from gridgames.web.errors import errors
from gridgames.web.rooms import Room

MAX_CLOCK_MS = 100 * 24 * 3600 * 1000  # 100 days: more is a page's mistake


class Jump(Body):
    ply: int = Field(ge=0, description="the position to continue from: 0 is the start, N the "
                     "position after the first N recorded moves")


class Clock(Body):
    elapsed_ms: int = Field(ge=0, le=MAX_CLOCK_MS,
                            description="how long the player has had this game in view")


def position(room: Room, ply: int) -> dict[str, Any]:
    session = room.session
    state = session.state_at(ply)
    history = session.history
    return {
        "session": room.id,
        "ply": ply,
        "positions": len(history),
        "cursor": session.cursor,
        "move": history[ply - 1] if ply else None,
        "view": session.game.view(state),
        "status": session.game.status(state).message,
    }


def history_router(api: Api) -> APIRouter:
    router = APIRouter(prefix=PREFIX, responses=errors(400, 413, 500))

    @router.get("/sessions/{session_id}/positions/{ply}",
                summary="The position after the first `ply` recorded moves (the redo tail "
                "included), drawn for a replay; the game is not changed",
                responses=errors(404))
    def get_position(session_id: str, ply: int) -> dict[str, Any]:
        return api.rooms.read(session_id, lambda room: position(room, ply))

    @router.post("/sessions/{session_id}/jump",
                 summary="Continue from an earlier position: it becomes the current one "
                 "(undoable)", responses=errors(404, 409))
    async def jump(session_id: str, body: Jump) -> dict[str, Any]:
        return (await api.change(session_id, lambda room: room.session.jump(body.ply)))[0]

    @router.put("/sessions/{session_id}/clock",
                summary="The time the player has spent on this game, kept with it (it never "
                "goes back: the larger of the stored and the given time is kept)",
                responses=errors(404, 409))
    async def set_clock(session_id: str, body: Clock) -> dict[str, int]:
        def store(room: Room) -> int:
            room.extra[CLOCK] = max(int(room.extra.get(CLOCK, 0)), body.elapsed_ms)
            return room.extra[CLOCK]

        return {"clock_ms": (await api.change(session_id, store))[1]}

    return router
