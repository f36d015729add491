"""Live pages: every page showing a game through a link holds a WebSocket, and gets the new
position as soon as a change is acknowledged, from whichever server process made it (one
process: at once; several: through PostgreSQL's LISTEN/NOTIFY).

A page says which version it has (`hello`) and is sent the current position whenever that
is newer, so a page that reconnects catches up. No reader can slow another. The messages
are in docs/api.md; how the hub keeps pages apart is in docs/server.md ("Live pages").
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from fastapi.responses import JSONResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from gridgames.core.errors import UnknownName
from gridgames.core.stats import Counts
from gridgames.store import SPECTATOR, SqlStore, Unavailable
from gridgames.web.clients import client_of
from gridgames.web.online import HEARTBEAT
from gridgames.web.protocols import ABORT

log = logging.getLogger("gridgames")
MAX_MESSAGE = 1024  # bytes: a page's messages are tiny
# Brackets a message may hold: a page's are one flat object. More are refused before the
# JSON parser sees them: a message nested a thousand deep would run it into Python's
# recursion limit, where a garbage collection that happens to run in it fails too.
MAX_BRACKETS = 8
OUTBOX = 8  # messages waiting for one page before it counts as fallen behind
PRESENCE_SECONDS = 0.25  # arrivals and departures are written together, this often
WATCHERS_SECONDS = 5.0  # how often a game's pages may be told a new count of watchers
MESSAGES_PER_MINUTE = 600  # from one page; beyond it the connection is closed (1008)
THREADS = 2  # the hub's own threads for its database work
FAN_OUT = 100  # pages a delivery sends to before it lets the loop do other work
# The notification of news in the lobby for some players ("*lobby:ID,ID": a challenge to
# them, or their seek became a game); a game's ID never starts with "*".
LOBBY = "*lobby:"

# state: {"game_id", "seat", "payload"} as Online reads it for a link
ReadState = Callable[[str], dict[str, Any]]
ReadStates = Callable[[str, list[str]], dict[str, dict[str, Any]]]


@dataclass(frozen=True)
class Shown:
    """A position ready to send to one link's page: what it is, and its JSON text."""
    game_id: str
    seat: int  # the link's: a player's index, or SPECTATOR
    version: int
    online: Any
    text: str


class Viewer:
    __slots__ = ("socket", "token", "client", "game_id", "seat", "shown", "shown_online",
                 "outbox", "sending", "sending_since", "closed", "budget", "budget_at")

    def __init__(self, socket: WebSocket, token: str, client: str) -> None:
        self.socket = socket
        self.token = token
        self.client = client
        self.game_id = ""
        self.seat = SPECTATOR
        self.shown = -1  # the version this page has
        self.shown_online: Any = None  # and what it was told of the players
        self.outbox: deque[tuple[str, str]] = deque()  # (kind, text) not sent yet
        self.sending: asyncio.Task | None = None
        self.sending_since: float | None = None  # when the send under way began
        self.closed = False
        self.budget = float(MESSAGES_PER_MINUTE)  # messages it may still send
        self.budget_at = time.monotonic()


class LiveStats:
    """For /metrics: pages refused, dropped and sent to."""

    def __init__(self) -> None:
        self.refused = Counts()  # by reason: client, total
        self.dropped = Counts()  # by reason: behind, deadline, gone, messages
        self.sent = Counts()  # by kind: state, pong, error


class Following:
    """What wakes one player's event streams in this process: `mark` counts the wakes, so a
    stream that was busy looking when one came does not wait for the next."""

    def __init__(self) -> None:
        self.streams = 0
        self.mark = 0
        self._event = asyncio.Event()

    def wake(self) -> None:
        self.mark += 1
        self._event.set()
        self._event = asyncio.Event()

    async def news(self, since: int, seconds: float) -> bool:
        """Wait until a wake after mark `since` (True at once if one came already), or for
        `seconds` (False)."""
        if self.mark != since:
            return True
        try:
            await asyncio.wait_for(self._event.wait(), seconds)
        except TimeoutError:
            return False
        return True


class Hub:
    """The live pages of this process, by game."""

    def __init__(self, store: SqlStore, read_state: ReadState, read_states: ReadStates,
                 trusted_proxies: frozenset[str] = frozenset(), max_pages: int = 5000,
                 max_per_client: int = 50, send_seconds: float = 10.0) -> None:
        self.store = store
        self.read_state = read_state  # token -> what the link's page is shown
        self.read_states = read_states  # the same for several links to one game, read once
        self.trusted = trusted_proxies
        self.max_pages = max_pages
        self.max_per_client = max_per_client
        self.send_seconds = send_seconds  # a send that takes longer drops the page
        self.viewers: dict[str, set[Viewer]] = {}
        self.pages = 0
        self.by_client: Counter[str] = Counter()
        self.stats = LiveStats()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._tasks: list[asyncio.Task] = []
        self._dirty: set[str] = set()  # games whose pages are owed a delivery
        self._delivering: set[str] = set()
        self._presence: dict[str, bool] = {}  # token -> here, not written yet
        self._presence_games: set[str] = set()  # a player came or went: tell them soon
        self._watchers_games: set[str] = set()  # a spectator did: tell them in a while
        self._presence_due = asyncio.Event()
        self._following: dict[str, Following] = {}  # player ID -> its event streams here

    # --- running ---

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._executor = ThreadPoolExecutor(THREADS, thread_name_prefix="gridgames-live")
        self._presence_due = asyncio.Event()
        if self.store.shared:
            listener = threading.Thread(target=self.store.listen, daemon=True,
                                        args=(self._from_elsewhere, self._stop),
                                        name="gridgames-listen")
            listener.start()
            self._threads.append(listener)
        self._tasks = [asyncio.create_task(self._heartbeat()),
                       asyncio.create_task(self._write_presence()),
                       asyncio.create_task(self._announce_watchers()),
                       asyncio.create_task(self._deadlines())]

    def stop(self) -> None:
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        for thread in self._threads:
            thread.join(timeout=5)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    async def _run(self, work: Callable[..., Any], *args: Any) -> Any:
        """Database work of the live pages, on the hub's own threads."""
        assert self.loop is not None and self._executor is not None
        return await self.loop.run_in_executor(self._executor, work, *args)

    # --- changes ---

    def changed(self, game_id: str) -> None:
        """A change of this game was acknowledged: tell its pages, here and in every other
        process. Called from a worker thread after the change was committed, so it never
        fails the change: news that cannot be sent now (the database went) is caught up by
        the pages' next hello or the next change."""
        if self.store.shared:
            try:
                self.store.notify(game_id)  # comes back to us through the listener too
            except Unavailable as err:
                log.warning("could not announce a change of a game: %s", err)
        elif self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._deliver_soon, game_id)

    def lobby_news(self, player_ids: list[str]) -> None:
        """These players have news in the lobby (committed): wake their event streams, here
        and in every other process. Called from a worker thread; it never fails the change
        (a stream looks again within a second anyway)."""
        if not player_ids:
            return
        if self.store.shared:
            try:
                self.store.notify(LOBBY + ",".join(sorted(set(player_ids))))
            except Unavailable as err:
                log.warning("could not announce news in the lobby: %s", err)
        elif self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._wake, player_ids)

    def follow(self, player_id: str) -> Following:
        """An event stream of this player starts: what wakes it (unfollow when it ends)."""
        following = self._following.setdefault(player_id, Following())
        following.streams += 1
        return following

    def unfollow(self, player_id: str) -> None:
        following = self._following.get(player_id)
        if following is not None:
            following.streams -= 1
            if following.streams <= 0:
                del self._following[player_id]

    def _wake(self, player_ids: list[str] | None) -> None:
        """In the loop: the streams of these players (None: of every player) look now."""
        for player_id in list(self._following) if player_ids is None else player_ids:
            following = self._following.get(player_id)
            if following is not None:
                following.wake()

    def _from_elsewhere(self, game_id: str | None) -> None:
        """From the listener's thread: a game changed (None: any may have), or some players
        have news in the lobby."""
        if self.loop is not None and not self.loop.is_closed():
            if game_id is not None and game_id.startswith(LOBBY):
                self.loop.call_soon_threadsafe(self._wake, game_id[len(LOBBY):].split(","))
                return
            if game_id is None:
                self.loop.call_soon_threadsafe(self._wake, None)
                for known in list(self.viewers):
                    self.loop.call_soon_threadsafe(self._deliver_soon, known)
            else:
                self.loop.call_soon_threadsafe(self._deliver_soon, game_id)

    def _deliver_soon(self, game_id: str) -> None:
        """Deliveries of one game run one at a time; changes that come meanwhile make one
        more delivery, not one each."""
        if not self.viewers.get(game_id):
            return
        self._dirty.add(game_id)
        if game_id not in self._delivering:
            self._delivering.add(game_id)
            asyncio.ensure_future(self._deliver(game_id))

    async def _deliver(self, game_id: str) -> None:
        try:
            while game_id in self._dirty:
                self._dirty.discard(game_id)
                viewers = list(self.viewers.get(game_id, ()))
                if not viewers:
                    return
                try:
                    shown = await self._run(self._read_shown, game_id,
                                            [v.token for v in viewers])
                except Unavailable as err:  # the pages catch up at the next change or hello
                    log.debug("delivery of a game waits for the database: %s", err)
                    return
                except UnknownName:  # the game went: each page is told by its own link
                    shown = {}
                for number, viewer in enumerate(viewers, 1):
                    found = shown.get(viewer.token)
                    if found is not None:
                        self._show(viewer, found)
                    elif not viewer.closed:  # its link went on to a rematch, or the game went
                        asyncio.ensure_future(self._refresh(viewer))
                    if number % FAN_OUT == 0:  # the rest after the loop's other work
                        await asyncio.sleep(0)
        finally:
            self._delivering.discard(game_id)

    def _read_shown(self, game_id: str, tokens: list[str]) -> dict[str, Shown]:
        return {token: _shown(state)
                for token, state in self.read_states(game_id, tokens).items()}

    async def _refresh(self, viewer: Viewer, force: bool = False) -> None:
        """Read the link's position afresh and show it when it is news."""
        try:
            found = await self._run(lambda: _shown(self.read_state(viewer.token)))
        except UnknownName as err:  # the game was removed: say so, once
            self._send(viewer, "error", json.dumps({"type": "error", "error": str(err)[:200]}))
            return
        except Exception as err:  # the database: the page catches up at its next hello
            log.debug("reading a live page's position failed: %s", err)
            return
        self._show(viewer, found, force)

    def _show(self, viewer: Viewer, shown: Shown, force: bool = False) -> None:
        if shown.game_id != viewer.game_id:  # a rematch: the link leads to the next game
            self._leave(viewer)
            viewer.game_id = shown.game_id
            viewer.shown = -1  # versions count from the start in each game
            self.viewers.setdefault(viewer.game_id, set()).add(viewer)
        if force or shown.version > viewer.shown or shown.online != viewer.shown_online:
            viewer.shown = max(viewer.shown, shown.version)
            viewer.shown_online = shown.online
            self._send(viewer, "state", shown.text)

    # --- sending: each page on its own ---

    def _send(self, viewer: Viewer, kind: str, text: str) -> None:
        if viewer.closed:
            return
        if kind == "state":  # only the latest position matters
            for index, (waiting, _) in enumerate(viewer.outbox):
                if waiting == "state":
                    del viewer.outbox[index]
                    break
        if len(viewer.outbox) >= OUTBOX:
            self._drop(viewer, "behind")
            return
        viewer.outbox.append((kind, text))
        if viewer.sending is None:
            viewer.sending = asyncio.ensure_future(self._flush(viewer))

    async def _flush(self, viewer: Viewer) -> None:
        try:
            while viewer.outbox and not viewer.closed:
                kind, text = viewer.outbox.popleft()
                viewer.sending_since = time.monotonic()
                await viewer.socket.send_text(text)
                viewer.sending_since = None
                self.stats.sent.add((kind,))
        except Exception:  # the page went (or was dropped); its receive loop ends it
            self._drop(viewer, "gone")
        finally:
            viewer.sending = None

    async def _deadlines(self) -> None:
        """Drop the pages whose send has taken longer than send_seconds (looked at every
        half of it: a timer for every send would cost more than the send)."""
        while True:
            await asyncio.sleep(self.send_seconds / 2)
            late = time.monotonic() - self.send_seconds
            for group in list(self.viewers.values()):
                for viewer in list(group):
                    if viewer.sending_since is not None and viewer.sending_since < late:
                        self._drop(viewer, "deadline")

    def _drop(self, viewer: Viewer, why: str) -> None:
        """End a page's connection at once (it does not read, or sends too much)."""
        if viewer.closed:
            return
        viewer.closed = True
        viewer.outbox.clear()
        self.stats.dropped.add((why,))
        abort = viewer.socket.scope.get(ABORT)
        if abort is not None:
            abort()
        else:  # a server without our protocols (the tests' client): a polite close
            asyncio.ensure_future(_close(viewer.socket, 1008, self.send_seconds))

    # --- a page's connection ---

    async def serve(self, socket: WebSocket, token: str) -> None:
        """Hold one page's live connection until it closes."""
        client = client_of(socket, self.trusted)
        if self.pages >= self.max_pages:
            self.stats.refused.add(("total",))
            await _deny(socket, 503, "the server holds as many live pages as it can: the "
                        "page will try again", 10)
            return
        if self.by_client[client] >= self.max_per_client:
            self.stats.refused.add(("client",))
            await _deny(socket, 429, f"you have {self.max_per_client} live pages open "
                        "already: close some", 30)
            return
        self.pages += 1
        self.by_client[client] += 1
        try:
            await self._hold(socket, Viewer(socket, token, client))
        finally:
            self.pages -= 1
            self.by_client[client] -= 1
            if self.by_client[client] <= 0:
                del self.by_client[client]

    async def _hold(self, socket: WebSocket, viewer: Viewer) -> None:
        await socket.accept()
        try:
            first = await self._run(lambda: _shown(self.read_state(viewer.token)))
        except (UnknownName, Unavailable) as err:
            await socket.send_text(json.dumps({"type": "error", "error": str(err)[:200]}))
            # 4404: no such link (the page stops); 1013: try again later (it reconnects)
            await _close(socket, 4404 if isinstance(err, UnknownName) else 1013,
                         self.send_seconds)
            return
        viewer.game_id, viewer.seat = first.game_id, first.seat
        self.viewers.setdefault(viewer.game_id, set()).add(viewer)
        self._mark(viewer, True)
        try:
            self._show(viewer, first, force=True)
            del first  # its text would stay with the connection for as long as it is held
            await self._receive(viewer)
        finally:
            viewer.closed = True
            if viewer.sending is not None:
                viewer.sending.cancel()
            self._leave(viewer)
            if not self._holds(viewer.token):
                self._mark(viewer, False)

    async def _receive(self, viewer: Viewer) -> None:
        socket = viewer.socket
        while not viewer.closed:
            try:
                message = await socket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            if not self._may_send(viewer):
                self._drop(viewer, "messages")
                return
            text = message.get("text")
            if text is None:
                await _close(socket, 1003, self.send_seconds)  # text messages only
                return
            if len(text) > MAX_MESSAGE:
                await _close(socket, 1009, self.send_seconds)
                return
            parsed = _parse(text)
            if isinstance(parsed, str):
                self._send(viewer, "error", json.dumps({"type": "error", "error": parsed}))
            elif parsed["type"] == "ping":
                self._send(viewer, "pong", '{"type": "pong"}')
            else:  # hello: the version the page has
                viewer.shown = parsed["version"]
                asyncio.ensure_future(self._refresh(viewer))

    def _may_send(self, viewer: Viewer) -> bool:
        """A token bucket: MESSAGES_PER_MINUTE, refilled as time goes."""
        now = time.monotonic()
        viewer.budget = min(float(MESSAGES_PER_MINUTE),
                            viewer.budget + (now - viewer.budget_at) * MESSAGES_PER_MINUTE / 60)
        viewer.budget_at = now
        viewer.budget -= 1
        return viewer.budget >= 0

    def _leave(self, viewer: Viewer) -> None:
        group = self.viewers.get(viewer.game_id)
        if group is not None:
            group.discard(viewer)
            if not group:
                del self.viewers[viewer.game_id]

    def _holds(self, token: str) -> bool:
        return any(v.token == token for group in self.viewers.values() for v in group)

    # --- presence: written in batches, on the hub's threads ---

    def _mark(self, viewer: Viewer, here: bool) -> None:
        self._presence[viewer.token] = here
        told = self._presence_games if viewer.seat != SPECTATOR else self._watchers_games
        told.add(viewer.game_id)
        self._presence_due.set()

    async def _write_presence(self) -> None:
        while True:
            await self._presence_due.wait()
            await asyncio.sleep(PRESENCE_SECONDS)  # let a burst of arrivals gather
            self._presence_due.clear()
            marks, games = self._presence, self._presence_games
            self._presence, self._presence_games = {}, set()
            try:
                await self._run(self._write_marks, marks, games)
            except Exception as err:  # the database: try again with the next batch
                log.warning("could not mark live pages as present or gone: %s", err)
                for token, here in marks.items():
                    self._presence.setdefault(token, here)
                self._presence_games |= games
                self._presence_due.set()
                await asyncio.sleep(1.0)

    def _write_marks(self, marks: dict[str, bool], games: set[str]) -> None:
        for here in (True, False):
            self.store.seen([t for t, mark in marks.items() if mark is here], here)
        for game_id in games:
            self.changed(game_id)  # the opponent's page shows who is there

    async def _announce_watchers(self) -> None:
        """The count of watchers, to the pages of the games it changed in, now and then
        (the presence written meanwhile is in what they are sent)."""
        while True:
            await asyncio.sleep(WATCHERS_SECONDS)
            games, self._watchers_games = self._watchers_games, set()
            if games:
                try:
                    await self._run(self._write_marks, {}, games)
                except Exception as err:
                    log.warning("could not tell the pages their watchers: %s", err)

    async def _heartbeat(self) -> None:
        """Mark the links this process holds as present, every HEARTBEAT seconds."""
        while True:
            await asyncio.sleep(HEARTBEAT)
            tokens = sorted({v.token for group in self.viewers.values() for v in group})
            try:
                await self._run(self.store.seen, tokens, True)
            except Exception as err:
                log.warning("could not mark the live pages as present: %s", err)


def _shown(state: dict[str, Any]) -> Shown:
    payload = state["payload"]
    return Shown(state["game_id"], state["seat"], payload["version"], payload["online"],
                 json.dumps({"type": "state", "payload": payload}))


async def _deny(socket: WebSocket, status: int, message: str, retry_after: int) -> None:
    """Refuse an upgrade with an HTTP answer (the ASGI denial response, where the server has
    it), else close before accepting."""
    if "websocket.http.response" in socket.scope.get("extensions", {}):
        await socket.send_denial_response(JSONResponse(
            {"error": message}, status_code=status, headers={"Retry-After": str(retry_after)}))
    else:
        await socket.close(code=1013)


async def _close(socket: WebSocket, code: int, seconds: float) -> None:
    try:
        await asyncio.wait_for(socket.close(code=code), seconds)
    except Exception:  # gone already, or not reading: the server's deadlines end it
        abort = socket.scope.get(ABORT)
        if abort is not None:
            abort()


def _parse(text: str) -> dict[str, Any] | str:
    """A page's message, or why it is refused."""
    if text.count("[") + text.count("{") > MAX_BRACKETS:
        return "a message is a JSON object"
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
