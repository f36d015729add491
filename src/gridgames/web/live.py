"""Live pages: every page showing a game through a link holds a WebSocket, and gets the new
position as soon as a change is acknowledged, from whichever server process made it.

- One process (SQLite): a change is delivered to the pages this process holds at once.
- Several processes (PostgreSQL): a change is announced on PostgreSQL's own notification
  channel (NOTIFY with the game's ID); every process listens (LISTEN, on a thread of its own)
  and delivers to the pages it holds.

A page says which version it has (`hello`); it is sent the current position whenever that is
newer, so a page that reconnects after a drop catches up with nothing lost and nothing shown
twice. Pages holding a seat's link mark the seat as present (store: links.seen_at), which
tells the opponent's page whether they are connected and how long they have been gone.

Messages, as JSON objects with a `type`:
- from the page: {"type": "hello", "version": N} (answered with the state when newer),
  {"type": "ping"} (answered with {"type": "pong"});
- to the page: {"type": "state", "payload": {...}} (what GET /links/{token} answers),
  {"type": "pong"}, {"type": "error", "error": "..."} (a message of the wrong shape: the
  connection stays, nothing changes).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from gridgames.store import SqlStore
from gridgames.web.online import HEARTBEAT

log = logging.getLogger("gridgames")
MAX_MESSAGE = 1024  # bytes: a page's messages are tiny


class Viewer:
    def __init__(self, socket: WebSocket, token: str) -> None:
        self.socket = socket
        self.token = token
        self.game_id = ""
        self.shown = -1  # the version this page has
        self.shown_online: Any = None  # and what it was told of the players
        self.lock = asyncio.Lock()  # one send at a time


class Hub:
    """The live pages of this process, by game."""

    def __init__(self, store: SqlStore, state_of: Callable[[str], Awaitable[dict[str, Any]]],
                 states_of: Callable[[str, list[str]], Awaitable[dict[str, dict[str, Any]]]]
                 ) -> None:
        self.store = store
        self.state_of = state_of  # token -> what the link's page is shown (its payload)
        self.states_of = states_of  # the same for several links to one game, read once
        self.viewers: dict[str, set[Viewer]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._beat: asyncio.Task | None = None

    # --- running ---

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        if self.store.shared:
            listener = threading.Thread(target=self.store.listen, daemon=True,
                                        args=(self._from_elsewhere, self._stop),
                                        name="gridgames-listen")
            listener.start()
            self._threads.append(listener)
        self._beat = asyncio.create_task(self._heartbeat())

    def stop(self) -> None:
        self._stop.set()
        if self._beat:
            self._beat.cancel()
        for thread in self._threads:
            thread.join(timeout=5)

    # --- changes ---

    def changed(self, game_id: str) -> None:
        """A change of this game was acknowledged: tell its pages, here and in every other
        process. Called from a worker thread (with PostgreSQL it writes a NOTIFY)."""
        if self.store.shared:
            self.store.notify(game_id)  # comes back to us through the listener too
        elif self.loop is not None:
            self.loop.call_soon_threadsafe(self._deliver_soon, game_id)

    def _from_elsewhere(self, game_id: str) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._deliver_soon, game_id)

    def _deliver_soon(self, game_id: str) -> None:
        if self.viewers.get(game_id):
            asyncio.ensure_future(self._deliver(game_id))

    async def _deliver(self, game_id: str) -> None:
        viewers = list(self.viewers.get(game_id, ()))
        try:
            states = await self.states_of(game_id, [v.token for v in viewers])
        except Exception:  # the game went: each page is told by its own link below
            states = {}
        for viewer in viewers:
            await self._send_state(viewer, state=states.get(viewer.token))

    async def _send_state(self, viewer: Viewer, force: bool = False,
                          state: dict[str, Any] | None = None) -> None:
        try:
            state = state or await self.state_of(viewer.token)
        except Exception as err:  # the game went (removed): say so, once
            await self._send(viewer, {"type": "error", "error": str(err)[:200]})
            return
        if state["game_id"] != viewer.game_id:  # a rematch: the link leads to the next game
            self._leave(viewer)
            viewer.game_id = state["game_id"]
            viewer.shown = -1  # versions count from the start in each game
            self.viewers.setdefault(viewer.game_id, set()).add(viewer)
        payload = state["payload"]
        if force or payload["version"] > viewer.shown or payload["online"] != viewer.shown_online:
            viewer.shown = max(viewer.shown, payload["version"])
            viewer.shown_online = payload["online"]
            await self._send(viewer, {"type": "state", "payload": payload})

    async def _send(self, viewer: Viewer, message: dict[str, Any]) -> None:
        async with viewer.lock:
            try:
                await viewer.socket.send_text(json.dumps(message))
            except Exception:  # the page went; its receive loop ends it
                log.debug("send to a closed page")

    # --- a page's connection ---

    async def serve(self, socket: WebSocket, token: str) -> None:
        """Hold one page's live connection until it closes."""
        await socket.accept()
        viewer = Viewer(socket, token)
        try:
            state = await self.state_of(token)
        except Exception as err:
            await socket.send_text(json.dumps({"type": "error", "error": str(err)[:200]}))
            await socket.close(code=4404)
            return
        viewer.game_id = state["game_id"]
        self.viewers.setdefault(viewer.game_id, set()).add(viewer)
        try:
            await run_in_threadpool(self._present, [token], True, viewer.game_id)
            await self._send_state(viewer, force=True)
            await self._receive(viewer)
        finally:
            self._leave(viewer)
            if not self._holds(token):
                await run_in_threadpool(self._present, [token], False, viewer.game_id)

    def _present(self, tokens: list[str], here: bool, game_id: str) -> None:
        """Mark links as present (or gone), and tell the game's pages."""
        self.store.seen(tokens, here)
        self.changed(game_id)

    async def _receive(self, viewer: Viewer) -> None:
        while True:
            try:
                text = await viewer.socket.receive_text()
            except (WebSocketDisconnect, RuntimeError, KeyError):
                return
            message = _parse(text)
            if isinstance(message, str):
                await self._send(viewer, {"type": "error", "error": message})
            elif message["type"] == "ping":
                await self._send(viewer, {"type": "pong"})
            else:  # hello: the version the page has
                viewer.shown = message["version"]
                await self._send_state(viewer)

    def _leave(self, viewer: Viewer) -> None:
        group = self.viewers.get(viewer.game_id)
        if group is not None:
            group.discard(viewer)
            if not group:
                del self.viewers[viewer.game_id]

    def _holds(self, token: str) -> bool:
        return any(v.token == token for group in self.viewers.values() for v in group)

    async def _heartbeat(self) -> None:
        """Mark the links this process holds as present, every HEARTBEAT seconds."""
        while True:
            await asyncio.sleep(HEARTBEAT)
            tokens = sorted({v.token for group in self.viewers.values() for v in group})
            try:
                await run_in_threadpool(self.store.seen, tokens, True)
            except Exception:
                log.exception("could not mark the live pages as present")


def _parse(text: str) -> dict[str, Any] | str:
    """A page's message, or why it is refused."""
    if len(text) > MAX_MESSAGE:
        return f"a message is at most {MAX_MESSAGE} bytes"
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return "a message is a JSON object"
    if not isinstance(message, dict) or message.get("type") not in ("hello", "ping"):
        return 'a message is {"type": "hello", "version": N} or {"type": "ping"}'
    if message["type"] == "hello":
        version = message.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or not \
                -1 <= version < 2**62:
            return "hello needs the version the page has (a whole number)"
    return message
