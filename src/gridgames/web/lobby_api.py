"""The API of players and the lobby (`/api/v1/players...`, `/api/v1/lobby`, `/api/v1/seeks...`).

A player is known by `Authorization: Bearer SECRET`: the secret given once when the player
is made (a page keeps it in the browser; a bot's is its API token). `GET /players/me/events`
is one stream (server-sent events) of what a player waits for: the game a seek became and
each change of the player's games, so that a bot needs nothing else to play the lobby.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from gridgames.core.errors import BadInput, IllegalMove, UnknownName
from gridgames.players import check_name, name_key, new_secret, secret_hash
from gridgames.store import Unavailable
from gridgames.store.lobby import PlayerRecord
from gridgames.web.api import PREFIX, Api, Body
from gridgames.web.errors import RateLimited, Unauthorized, errors
from gridgames.web.lobby import UNSEEN_SECONDS, Lobby, seek_view
from gridgames.web.online_api import Online
from gridgames.web.rooms import new_id

_SECRET = re.compile(r"[A-Za-z0-9_-]{16,64}")
# Seconds between two looks of an event stream at the player's news, at most: a challenge to
# the player, or its seek becoming a game, wakes it at once (Hub.lobby_news, from any server
# process); a move in one of its games is seen at the next look.
STREAM_LOOK = 1.0
STREAM_PING = 15.0  # seconds between two keep-alive comments on an idle stream
STREAM_SECONDS = 3600.0  # a stream ends after this (a client reconnects); none lingers
RECENT_SECONDS = 2 * 86400.0  # an opening stream is sent the unfinished games of this long


class NewPlayer(Body):
    name: str = Field(max_length=200, description="2-20 letters and digits")
    bot: bool = Field(False, description="a program that plays through the API")


class ChangePlayer(Body):
    name: str | None = Field(None, max_length=200)
    bot: bool | None = None


class Block(Body):
    name: str = Field(max_length=64, description="the player not to meet")


class NewSeek(Body):
    game: str = Field(max_length=40)
    params: str = Field("", max_length=200, description="the board: name=value pairs")
    rated: bool = True
    seat: str = Field("any", max_length=8, description="first, second or any")
    quick: bool = Field(False, description="let the server pair you with anyone in range")
    clock: dict[str, Any] | None = Field(None, description='none, or {"kind": "game" or '
                                         '"move", "seconds": N}: a time for the whole game '
                                         "or for each move")
    opponent: str | None = Field(None, max_length=64, description="a challenge: the name of "
                                 "the only player who may accept it")


def player_view(player: PlayerRecord, store: Any) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "bot": player.bot,
            "ratings": [{"kind": kind, "rating": round(r.rating), "deviation": round(
                r.deviation), "games": games} for kind, r, games in store.player_ratings(
                    player.id)]}


class Players:
    """Who a request comes from."""

    def __init__(self, api: Api) -> None:
        self.store = api.rooms.store
        self.reserved = {level for game in api.games.values() if game.ai
                         for level in game.ai.levels}

    def optional(self, request: Request) -> PlayerRecord | None:
        given = request.headers.get("authorization")
        if given is None:
            return None
        kind, _, secret = given.partition(" ")
        if kind.lower() != "bearer" or not _SECRET.fullmatch(secret.strip()):
            raise Unauthorized("Authorization must be 'Bearer SECRET', a player's secret")
        found = self.store.player(secret_hash(secret.strip()))
        if found is None:
            raise Unauthorized("no player has this secret (deleted, or from another server)")
        return found

    def required(self, request: Request) -> PlayerRecord:
        found = self.optional(request)
        if found is None:
            raise Unauthorized("choose a name first: this needs a player (Authorization: "
                               "Bearer SECRET)")
        return found

    def named(self, name: str) -> PlayerRecord:
        found = self.store.player_named(name_key(name)) if isinstance(name, str) else None
        if found is None:
            raise UnknownName(f"no player {str(name)[:40]!r}")
        return found


def lobby_router(api: Api, on: Online) -> APIRouter:
    router = APIRouter(prefix=PREFIX, responses=errors(400, 401, 403, 413, 500),
                       tags=["players and lobby"])
    store, lobby, players = api.rooms.store, on.lobby, Players(api)
    streams = StreamCount(api.config.live_pages_per_client, api.config.live_pages)

    def thread(work: Any) -> Any:
        return run_in_threadpool(work)

    @router.post("/players", status_code=201, summary="Become a player: a name, and a secret "
                 "to keep (shown once)", responses=errors(409, 429))
    async def new_player(body: NewPlayer, request: Request) -> dict[str, Any]:
        api.may_create(request)  # a player is a row: the same limit as a new game

        def run() -> dict[str, Any]:
            name, key = check_name(body.name, players.reserved)
            secret = new_secret()
            made = PlayerRecord(new_id()[:12], name, body.bot)
            if not store.add_player(made, secret_hash(secret), key):
                raise IllegalMove(f"the name {name!r} is taken (or one too like it)")
            return {**player_view(made, store), "secret": secret}

        return await thread(run)

    @router.get("/players/me", summary="You: name, whether a bot, blocked players, ratings")
    async def me(request: Request) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            player = players.required(request)
            blocked = [found.name for x in player.blocked
                       if (found := store.player_by_id(x)) is not None]
            return {**player_view(player, store), "blocked": blocked}

        return await thread(run)

    @router.patch("/players/me", summary="Rename, or mark as a bot (or not)",
                  responses=errors(409))
    async def change_me(body: ChangePlayer, request: Request) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            player = players.required(request)
            if body.name is not None:
                name, key = check_name(body.name, players.reserved)
                if not store.rename_player(player.id, name, key):
                    raise IllegalMove(f"the name {name!r} is taken (or one too like it)")
            if body.bot is not None:
                store.set_player(player.id, bot=body.bot)
            return player_view(players.required(request), store)

        return await thread(run)

    @router.delete("/players/me", summary="Delete your player: name, seeks, ratings (games "
                   "played stay, without your name on your seat)")
    async def delete_me(request: Request) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            store.delete_player(players.required(request).id)
            return {"deleted": True}

        return await thread(run)

    @router.post("/players/me/blocks", summary="Block a player: no seeks or games from them",
                 responses=errors(404))
    async def block(body: Block, request: Request) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            player, other = players.required(request), players.named(body.name)
            if other.id == player.id:
                raise BadInput("you cannot block yourself")
            if other.id not in player.blocked:
                if len(player.blocked) >= MOST_BLOCKED:
                    raise BadInput(f"you may block {MOST_BLOCKED} players at most")
                store.set_player(player.id, blocked=[*player.blocked, other.id])
            return {"blocked": other.name}

        return await thread(run)

    @router.delete("/players/me/blocks/{name}", summary="Unblock a player",
                   responses=errors(404))
    async def unblock(name: str, request: Request) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            player, other = players.required(request), players.named(name)
            store.set_player(player.id, blocked=[x for x in player.blocked if x != other.id])
            return {"unblocked": other.name}

        return await thread(run)

    @router.get("/players/{name}", summary="A player's name and ratings",
                responses=errors(404))
    async def read_player(name: str) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            found = players.named(name)
            view = player_view(found, store)
            view.pop("id")
            return view

        return await thread(run)

    @router.get("/lobby", summary="The open seeks; with a player: yours (kept open by "
                "looking) and the game one became")
    async def read_lobby(request: Request) -> dict[str, Any]:
        return await thread(lambda: lobby.look(players.optional(request)))

    @router.post("/seeks", status_code=201, summary="Seek a game (open, or quick pairing)",
                 responses=errors(404, 409, 429))
    async def seek(body: NewSeek, request: Request) -> dict[str, Any]:
        api.may_create(request)
        return await thread(lambda: lobby.seek(players.required(request), body.game,
                                               body.params, body.rated, body.seat,
                                               body.quick, body.clock, body.opponent))

    @router.delete("/seeks", summary="Withdraw all your seeks")
    async def cancel_all(request: Request) -> dict[str, Any]:
        return {"withdrawn": await thread(lambda: lobby.cancel(players.required(request),
                                                                None))}

    @router.delete("/seeks/{seek_id}", summary="Withdraw a seek, or decline a challenge",
                   responses=errors(404))
    async def cancel(seek_id: str, request: Request) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            if not lobby.cancel(players.required(request), seek_id):
                raise UnknownName("you have no such seek (paired, withdrawn or expired)")
            return {"withdrawn": 1}

        return await thread(run)

    @router.post("/seeks/{seek_id}/accept", summary="Accept a seek: an online game starts; "
                 "your seat's link", responses=errors(404, 409, 429))
    async def accept(seek_id: str, request: Request) -> dict[str, Any]:
        api.may_create(request)
        return await thread(lambda: lobby.accept(players.required(request), seek_id))

    @router.get("/players/me/events", summary="Server-sent events: `challenge` (a seek "
                "only you may accept), `paired` (a seek became a game: its link) and `game` "
                "(a game of yours changed: what its link shows); holding it keeps your seeks "
                "open", responses=errors(429))
    async def events(request: Request) -> StreamingResponse:
        player = await thread(lambda: players.required(request))
        client = api.client(request)
        if not streams.open(client):
            raise RateLimited("too many event streams (from you, or on this server)", 5)
        stream = event_stream(request, player, lobby, on, lambda: streams.close(client))
        return StreamingResponse(stream, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    return router


MOST_BLOCKED = 200


class StreamCount:
    """Event streams open now, by client: at most `most` each and `total` in all."""

    def __init__(self, most: int, total: int) -> None:
        self.most = most
        self.total = total
        self.open_now: dict[str, int] = {}

    def open(self, client: str) -> bool:
        if self.open_now.get(client, 0) >= self.most or \
                sum(self.open_now.values()) >= self.total:
            return False
        self.open_now[client] = self.open_now.get(client, 0) + 1
        return True

    def close(self, client: str) -> None:
        left = self.open_now.get(client, 1) - 1
        if left <= 0:
            self.open_now.pop(client, None)
        else:
            self.open_now[client] = left


def sse(kind: str, data: Any) -> bytes:
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class PlayerGone(Exception):
    """The stream's player was deleted: the stream ends."""


class News:
    """What one event stream has sent: each game's version, and when the seeks were last
    marked seen."""

    def __init__(self, player: PlayerRecord, lobby: Lobby, on: Online) -> None:
        self.player, self.lobby, self.on = player, lobby, on
        self.seen: dict[str, int] = {}  # link token -> the version last sent
        # At the start, every unfinished game of the last RECENT_SECONDS (a stream that
        # reconnects catches up); later, every change.
        self.since = time.time() - RECENT_SECONDS
        self.first = True
        self.touched = 0.0
        self.challenges: set[str] = set()  # the challenges told of

    def look(self) -> list[bytes]:
        """What has happened since the last look (the player read afresh: blocks change)."""
        out = []
        player = self.lobby.store.player_by_id(self.player.id)
        if player is None:
            raise PlayerGone
        self.player = player
        links = self.lobby.store.player_links(self.player.id, self.since)
        if time.monotonic() - self.touched > UNSEEN_SECONDS / 3:
            # The stream is the bot's presence: its seeks stay open, its seats are there.
            self.lobby.store.touch_seeks(self.player.id)
            self.lobby.store.seen([token for token, *_ in links], True)
            self.touched = time.monotonic()
        paired = self.lobby.delivered(self.player) or self.lobby.pair_quick(self.player)
        if paired:
            out.append(sse("paired", paired))
        for challenge in self.lobby.store.seeks(target=self.player.id):
            if challenge.id not in self.challenges and \
                    challenge.player_id not in self.player.blocked:
                self.challenges.add(challenge.id)
                out.append(sse("challenge", seek_view(challenge)))
        for token, _, _, version in links:
            if self.seen.get(token) != version:
                self.seen[token] = version
                try:
                    state = self.on.read_state(token)
                except UnknownName:
                    continue  # removed meanwhile
                if not (self.first and state["payload"]["status"]["over"]):
                    out.append(sse("game", state))
        self.first = False
        return out

    def gone(self) -> None:
        """The stream has ended: its seats are no longer there."""
        self.lobby.store.seen(list(self.seen), False)


async def event_stream(request: Request, player: PlayerRecord, lobby: Lobby, on: Online,
                       done: Any) -> AsyncIterator[bytes]:
    """The player's news (News), looked for once a STREAM_LOOK, until the client goes or
    STREAM_SECONDS have passed."""
    news = News(player, lobby, on)
    following = on.hub.follow(player.id)
    started = last_sent = time.monotonic()
    try:
        yield sse("hello", {"name": player.name, "bot": player.bot})
        while time.monotonic() - started < STREAM_SECONDS and \
                not await request.is_disconnected():
            since = following.mark  # a wake while looking makes the next look come at once
            try:
                out = await run_in_threadpool(news.look)
            except Unavailable as err:  # the database is away: say so, and keep the stream
                out = [sse("unavailable", {"error": str(err), "retry_after": err.retry_after})]
            except PlayerGone:
                yield sse("deleted", {"error": "this player was deleted"})
                return
            if not out and time.monotonic() - last_sent > STREAM_PING:
                out.append(b": still here\n\n")
            for chunk in out:
                yield chunk
                last_sent = time.monotonic()
            await following.news(since, STREAM_LOOK)
    finally:
        on.hub.unfollow(player.id)
        done()
        with contextlib.suppress(Unavailable):
            await run_in_threadpool(news.gone)
