"""Daily puzzles (`/api/v1/daily/...`): the start of each day's puzzle, the same for every
player on a UTC date (gridgames/daily.py says how each is made). An answer is the start as a
game ID and the seats; the page (or a script) starts a session of it with POST
/api/v1/sessions, as with any game ID.

Polar's level of a date is generated once, on the first request for it, by the compute pool
(the event loop only waits), and kept in the database: every request and every server
process then plays the same one. Requests that come while it is made wait for the same job;
two processes that make it at once keep the first one stored (insert-if-absent), and the
other reads it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from gridgames.compute.jobs import Job
from gridgames.compute.pool import SERVER
from gridgames.core.text import check_text
from gridgames.daily import (
    POLAR,
    TRILOBITE_PARAMS,
    Daily,
    all_dailies,
    find_daily,
    parse_day,
    today,
    trilobite_position,
)
from gridgames.web.api import PREFIX, Api
from gridgames.web.errors import errors

MAKE_SECONDS = 30.0  # Polar's daily level takes 2 s at most; this is the safety net
PERSON, PERFECT = "person", "perfect"


class DailyStarts:
    """The starts of the dailies whose making takes long (Polar's): from the database, or
    made by the compute pool once and stored."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self._making: dict[str, asyncio.Future] = {}

    async def polar(self, request: Request, day: dt.date) -> str:
        store = self.api.rooms.store
        text = day.isoformat()
        kept = await run_in_threadpool(store.daily, text, POLAR)
        if kept is not None:
            return kept
        making = self._making.get(text)
        if making is None:
            # A level made for a date nobody asked for yet costs a second of CPU: counted
            # as a new game of this client's (the same limit as any new game).
            self.api.may_create(request)
            making = asyncio.ensure_future(self._make(text))
            self._making[text] = making
            making.add_done_callback(lambda _: self._making.pop(text, None))
        return await asyncio.shield(making)

    async def _make(self, text: str) -> str:
        desc = await asyncio.wrap_future(self.api.compute.submit(
            Job("daily", POLAR, seed=text), SERVER, f"daily:{POLAR}:{text}", MAKE_SECONDS))
        return await run_in_threadpool(self.api.rooms.store.keep_daily, text, POLAR, desc)


def describe_daily(daily: Daily, title: str) -> dict[str, Any]:
    """What a page lists of a daily: its names and where it is played."""
    level = f" ({daily.level})" if daily.level else ""
    return {"date": daily.day.isoformat(), "game": daily.game, "level": daily.level,
            "puzzle": daily.key, "title": f"{title}{level}", "page": daily.path,
            "api": f"{PREFIX}{daily.path}"}


def daily_router(api: Api) -> APIRouter:
    router = APIRouter(prefix=PREFIX, responses=errors(400, 404, 500), tags=["daily"])
    starts = DailyStarts(api)
    games = api.games

    def listing(day: dt.date) -> dict[str, Any]:
        return {"date": day.isoformat(), "today": today().isoformat(),
                "dailies": [describe_daily(d, games.get_game(d.game).title)
                            for d in all_dailies(day) if d.game in games]}

    @router.get("/daily", summary="Today's daily puzzles (UTC): one a game, 2mino one a "
                "difficulty")
    def daily_today() -> dict[str, Any]:
        return listing(today())

    @router.get("/daily/{day}", summary="The daily puzzles of a date (YYYY-MM-DD, today or "
                "before)")
    def daily_of(day: str) -> dict[str, Any]:
        return listing(parse_day(check_text(day, "date")))

    async def start(request: Request, day_text: str, game: str, level: str | None
                    ) -> dict[str, Any]:
        day = parse_day(check_text(day_text, "date"))
        daily = find_daily(day, check_text(game, "game"),
                           None if level is None else check_text(level, "level"))
        found = games.get_game(daily.game)  # a server without the game: 404
        seats: list[str] | None = None
        about = ""
        if daily.game == POLAR:
            gid = f"{POLAR}::{await starts.polar(request, day)}"
            about = "A level made for this day: bring every heart home."
        elif daily.game == "trilobite":
            desc, mover = trilobite_position(day)
            gid = f"trilobite:{TRILOBITE_PARAMS}:{desc}"
            seats = [PERSON, PERFECT] if mover == 0 else [PERFECT, PERSON]
            about = (f"Win this against the perfect AI: you play {found.player_names[mover]}, "
                     "and there is a win.")
        else:
            params = "gen=unique,level=" + daily.level if daily.level else ""
            gid = f"{daily.game}:{found.parse_params(params).format()}#{daily.seed}"
            about = "The same deal for every player today." if daily.game == "ishido" else \
                "The same board for every player today."
        return {**describe_daily(daily, found.title), "id": gid, "seats": seats,
                "about": about}

    @router.get("/daily/{day}/{game}", summary="A daily puzzle's start: a game ID and the "
                "seats, for POST /sessions (Polar's level is made on the day's first request)",
                responses=errors(429, 503))
    async def daily_start(day: str, game: str, request: Request) -> dict[str, Any]:
        return await start(request, day, game, None)

    @router.get("/daily/{day}/{game}/{level}", summary="2mino's daily of a difficulty "
                "(trivial, basic, hard, extreme)", responses=errors(429, 503))
    async def daily_level(day: str, game: str, level: str, request: Request
                          ) -> dict[str, Any]:
        return await start(request, day, game, level)

    return router
