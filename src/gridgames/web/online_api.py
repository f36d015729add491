"""The API of online play (`/api/v1/...`): a game made online or shared for watching, and
everything a seat's link or a spectator's link can do, the live connection included.

A link is a secret token in a URL (`/play/<game>?link=TOKEN`): a seat's link plays that side
(from a page or from a script: the same endpoints), a spectator's link only reads. The
session ID of an online game no longer changes it; a spectator is never shown it.
"""

from __future__ import annotations

import re
import time
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from gridgames.session import Session
from gridgames.store import SPECTATOR, Link, NotFound
from gridgames.web import online
from gridgames.web.ai_players import AiPlayers, retry_at
from gridgames.web.api import PREFIX, Api, Body, Move, payload
from gridgames.web.errors import errors
from gridgames.web.live import Hub
from gridgames.web.lobby import Lobby
from gridgames.web.rooms import PERSON, Room, new_id

_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


class GoOnline(Body):
    seat: int = Field(0, ge=0, le=1, description="the side you play (0 moves first)")


class Offer(Body):
    kind: str = Field(max_length=16, description="takeback, draw or rematch")


class Reply(Body):
    kind: str = Field(max_length=16)
    accept: bool


def link_url(room: Room, token: str) -> str:
    return f"/play/{room.session.game.name}?link={token}"


class Online:
    """Links, their payloads, and the changes a link may make."""

    def __init__(self, api: Api, hub: Hub | None = None) -> None:
        self.api = api
        self.store = api.rooms.store
        config = api.config
        self.ai = AiPlayers(self.store, api.rooms, api.games, api.compute,
                            api.config.think_seconds)
        self.lobby = Lobby(self.store, api.rooms, api.games, self.ai)
        self.hub = hub or Hub(self.store, self.read_state, self.read_states, api.trusted,
                              config.live_pages, config.live_pages_per_client,
                              config.client_timeout)
        self.lobby.announce = self.hub.lobby_news

    def link(self, token: Any) -> Link:
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            raise NotFound("no game has this link")
        return self.store.link(token)

    def link_payload(self, room: Room, link: Link) -> dict[str, Any]:
        return self._for_link(payload(room), room, link, self.store.links_of(room.id))

    def _for_link(self, base: dict[str, Any], room: Room, link: Link, links: list[Link]
                  ) -> dict[str, Any]:
        answer = dict(base)
        answer["session"] = None  # a link's page changes the game through its link only
        answer["link"] = link.token
        answer["online"] = online.view(room, link, links, self.api.config.claim_seconds)
        if link.seat == SPECTATOR:
            answer["legal_moves"] = []
        return answer

    def read_state(self, token: str) -> dict[str, Any]:
        """What the page of a link is shown: {"game_id", "seat", "payload"}."""
        link = self.link(token)
        return {"game_id": link.game_id, "seat": link.seat,
                "payload": self.api.rooms.read(
                    link.game_id, lambda room: self.link_payload(room, link))}

    async def state_of(self, token: str) -> dict[str, Any]:
        return await run_in_threadpool(self.read_state, token)

    def read_states(self, game_id: str, tokens: list[str]) -> dict[str, dict[str, Any]]:
        """What the pages of these links to one game are shown, read once for all of them
        (a link that has gone to another game, a rematch's, is left out)."""
        wanted = set(tokens)

        def look(room: Room) -> dict[str, dict[str, Any]]:
            links = self.store.links_of(game_id)
            base = payload(room)
            return {link.token: {"game_id": game_id, "seat": link.seat,
                                 "payload": self._for_link(base, room, link, links)}
                    for link in links if link.token in wanted}

        return self.api.rooms.read(game_id, look)

    def act_due(self) -> int:
        """Do what is due in games nobody is asking about: an AI level's move (asked of the
        compute pool), a loss on time. Any process may find a game due: a change is
        written only over the version it read. How many games ended on time here."""
        rooms, ended = self.api.rooms, 0
        for game_id in self.store.due(time.time()):
            try:
                room = rooms.get(game_id)
                with room.lock:
                    when, level = online.deadline(room), online.ai_to_move(room)
                if level is not None:  # asked again only if the move never comes
                    self.store.set_deadline(game_id, retry_at())
                    self.ai.play(room, self.apply)
                    continue
                if when is not None and when <= time.time():
                    _, fell, timed = self.apply(game_id, online.flag)
                    when = timed[0] if timed else None
                    ended += fell
            except NotFound:
                when = None
            self.store.set_deadline(game_id, when)
        return ended

    def apply(self, game_id: str, action: Any, answer: Any = lambda room: None
              ) -> tuple[Any, Any, Any]:
        """Run action(room) on a game, store it, and then what follows a change: the
        server's next look at it (clocks, an AI's move), a rated end's ratings, every live
        page told. (what `answer` read of the game, the action's result, its timing)."""
        shown, (result, settled, timed) = self.api.rooms.change(
            game_id, lambda t: (action(t), self.lobby.settle(t), timing(t)), answer)
        if timed:
            self.store.set_deadline(game_id, timed[0])
        if settled:  # a rated game has just ended
            self.lobby.rate(game_id, settled)
        self.hub.changed(game_id)
        return shown, result, timed

    async def change(self, token: str, action: Any) -> tuple[dict[str, Any], Any]:
        """Run action(room, link) on the link's game, store it, tell every live page."""
        def run() -> tuple[dict[str, Any], Any]:
            link = self.link(token)
            shown, result, _ = self.apply(link.game_id, lambda t: action(t, link),
                                          lambda t: self.link_payload(t, link))
            return shown, result

        return await run_in_threadpool(run)


def timing(room: Room) -> tuple[float | None] | None:
    """For a game the server looks at by itself (a clock, an AI level's seat): (when it
    must next,) as the game now stands; None for other games."""
    if not online.is_online(room):
        return None
    mine = online.state(room)
    if not mine.get("clock") and not any(p.get("ai") for p in mine.get("players", ())):
        return None
    return (online.deadline(room),)


def online_router(api: Api, on: Online) -> APIRouter:
    router = APIRouter(prefix=PREFIX, responses=errors(400, 403, 413, 500), tags=["online"])
    rooms, store = api.rooms, on.store

    @router.post("/sessions/{session_id}/online", summary="Play this two-player game online: "
                 "a secret link for each seat, and one for spectators",
                 responses=errors(404, 409))
    async def go_online(session_id: str, body: GoOnline) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            room, _ = rooms.change(session_id, online.start)
            tokens = [new_id(), new_id(), new_id()]
            store.add_links(room.id, [(tokens[0], 0), (tokens[1], 1),
                                       (tokens[2], SPECTATOR)])
            mine = tokens[body.seat]
            seen = rooms.read(room.id, lambda t: on.link_payload(t, store.link(mine)))
            return {**seen,
                    "links": {"you": link_url(room, mine),
                              "opponent": link_url(room, tokens[1 - body.seat]),
                              "watch": link_url(room, tokens[2])}}

        return await run_in_threadpool(run)

    @router.post("/sessions/{session_id}/watch", summary="A spectator's link to this game "
                 "(any game, puzzles too): it shows every move live, and changes nothing",
                 responses=errors(404))
    async def watch_link(session_id: str) -> dict[str, str]:
        def run() -> dict[str, str]:
            room = rooms.get(session_id)
            found = next((x for x in store.links_of(room.id) if x.seat == SPECTATOR), None)
            if found is None:
                found = Link(new_id(), room.id, SPECTATOR)
                store.add_links(room.id, [(found.token, SPECTATOR)])
                rooms.change(room.id, lambda t: t.extra.update(watched=True))
            return {"watch": link_url(room, found.token)}

        return await run_in_threadpool(run)

    @router.get("/links/{token}", summary="The game a link leads to, as its holder sees it",
                responses=errors(404))
    async def read_link(token: str) -> dict[str, Any]:
        return (await on.state_of(token))["payload"]

    @router.post("/links/{token}/move", summary="Play a move with a seat's link (on its turn)",
                 responses=errors(404, 409))
    async def link_move(token: str, body: Move) -> dict[str, Any]:
        return (await on.change(token, lambda t, link: online.play(t, link, body.move)))[0]

    @router.post("/links/{token}/offer", summary="Offer a takeback, a draw, or (after the "
                 "end) a rematch", responses=errors(404, 409))
    async def offer(token: str, body: Offer) -> dict[str, Any]:
        answer, _ = await on.change(token, lambda t, link: online.offer(t, link, body.kind))
        you = answer["online"]["you"]
        if you is None or not answer["online"]["players"][1 - you].get("ai"):
            return answer
        # An AI level answers at once: another game, yes; a takeback or a draw, no.
        if body.kind == "rematch":
            return await rematch(token)
        return (await on.change(token, lambda t, link: online.reply(
            t, Link("", link.game_id, 1 - link.seat), body.kind, False)))[0]

    @router.post("/links/{token}/reply", summary="Accept or decline the opponent's offer",
                 responses=errors(404, 409, 429))
    async def reply(token: str, body: Reply, request: Request) -> dict[str, Any]:
        if body.kind == "rematch" and body.accept:
            api.may_create(request)  # a rematch makes a game: the same limit as a new one
        answer, kind = await on.change(
            token, lambda t, link: online.reply(t, link, body.kind, body.accept))
        if kind != "rematch":
            return answer
        return await rematch(token)

    async def rematch(token: str) -> dict[str, Any]:
        """A new game of the same kind; the links go to it with the sides swapped."""
        def run() -> str:
            link = on.link(token)
            old = rooms.get(link.game_id)
            game = old.session.game
            session = Session.new(game.name, old.session.params.format(), None, api.games)
            extra = {online.ONLINE: online.rematch_of(online.state(old))}
            if old.extra.get("watched"):
                extra["watched"] = True
            fresh = rooms.create(session, [PERSON, PERSON], extra)
            if timing(fresh):
                store.set_deadline(fresh.id, online.deadline(fresh))
            rooms.change(old.id, lambda t: online.state(t).update(next=True))
            store.move_links(old.id, fresh.id)
            return old.id

        await run_in_threadpool(lambda: on.hub.changed(run()))  # its pages follow their links
        return (await on.state_of(token))["payload"]

    @router.post("/links/{token}/withdraw", summary="Withdraw your open offer",
                 responses=errors(404, 409))
    async def withdraw(token: str) -> dict[str, Any]:
        return (await on.change(token, online.withdraw))[0]

    @router.post("/links/{token}/resign", summary="Resign", responses=errors(404, 409))
    async def resign(token: str) -> dict[str, Any]:
        return (await on.change(token, online.resign))[0]

    @router.post("/links/{token}/claim", summary="Claim the game when your opponent has been "
                 "gone too long", responses=errors(404, 409))
    async def claim(token: str) -> dict[str, Any]:
        def action(room: Room, link: Link) -> None:
            opponent = next((x for x in store.links_of(room.id) if x.seat == 1 - link.seat),
                            None)
            online.claim(room, link, opponent, api.config.claim_seconds)

        return (await on.change(token, action))[0]

    return router


LIVE_ROUTE = f"{PREFIX}/links/{{token}}/live"  # a page's live connection (a WebSocket)
LIVE_PATH = re.compile(f"{PREFIX}/links/([^/]+)/live")


def live_endpoint(on: Online) -> Any:
    """The live connection as a plain ASGI app: the app answers it before FastAPI's own
    stack (app.py: GamesApp)."""
    async def live(scope: dict, receive: Any, send: Any) -> None:
        token = LIVE_PATH.fullmatch(scope["path"]).group(1)  # type: ignore[union-attr]
        await on.hub.serve(WebSocket(scope, receive, send), token)

    return live
