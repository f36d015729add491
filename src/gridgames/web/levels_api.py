"""The API of the page's level editor (`/api/v1/games/{name}/levels/...`), for a game whose
level packs offer one (Polar): a draft checked by the game, and a made level as a level file.
The game says what a level needs and writes the file, so the page knows no rule and no file
format; playing and solving a made level go through a session of its game ID, as any game.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Response
from pydantic import Field

from gridgames.core.errors import UnknownName
from gridgames.core.game import Game
from gridgames.core.text import check_text
from gridgames.registry import Games
from gridgames.web.api import PREFIX, Body
from gridgames.web.errors import errors


class Draft(Body):
    draft: dict[str, Any] = Field(description="the level being made, in the game's own shape "
                                  '(Polar: {"cells": [96 tile codes], "penguin": cell or null},'
                                  ' or {"desc": ...} to read a level)')


def editing(games: Games, name: str) -> Game:
    game = games.get_game(name)
    if game.levels is None or not game.levels.formats:
        raise UnknownName(f"{game.title} has no level editor")
    return game


def levels_router(games: Games) -> APIRouter:
    router = APIRouter(prefix=PREFIX, responses=errors(400, 404, 413, 500))

    @router.post("/games/{name}/levels/draft", summary="A level being made: what it still "
                 "needs, and once it needs nothing its desc, game ID and start")
    def check(name: str, body: Draft) -> dict[str, Any]:
        game = editing(games, name)
        answer = game.levels.check_draft(body.draft)
        desc = answer.get("desc")
        start = None
        if desc is not None:
            state = game.new_state(game.parse_params(""), desc)
            start = {**game.status(state).as_json(), "over": game.status(state).over}
        return {**answer, "id": f"{game.name}::{desc}" if desc is not None else None,
                "start": start, "formats": list(game.levels.formats)}

    @router.get("/games/{name}/levels/file", summary="A made level as a level file to "
                "download (a format of `formats`); refused while the level has a problem",
                response_class=Response,
                responses={200: {"content": {"text/plain": {}, "application/octet-stream": {}},
                                 "description": "the file, as an attachment"}})
    def level_file(name: str, desc: str = Query(max_length=400),
                   format: str = Query("pack", max_length=20),
                   level_name: str = Query("My level", alias="name", max_length=100)
                   ) -> Response:
        game = editing(games, name)
        file, media, data = game.levels.level_file(
            check_text(desc, "desc"), check_text(format, "format"),
            check_text(level_name, "name"))
        return Response(data, media_type=media,
                        headers={"Content-Disposition": f'attachment; filename="{file}"'})

    return router
