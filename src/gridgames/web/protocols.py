"""The server's connections as uvicorn runs them, with the deadlines a public server needs
and uvicorn does not keep by itself, counted in the client timeout T (`--client-timeout`).

Headers must arrive within T and a body within BODY_SHARE x T (else 408); a client that
reads nothing for BODY_SHARE x T is disconnected; a WebSocket can be ended at once; at most
UPGRADES handshakes are under way at once. `uvicorn_options()` is what every server of ours
runs with. docs/server.md ("Connections") has the details.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from gridgames.web.security import CSP, HEADERS

CLIENT_TIMEOUT = 10.0  # seconds: T above
BODY_SHARE = 3  # a body, or a stalled send, gets this many T
STATE_KEY = "gridgames.client_timeout"  # where the lifespan state carries T
WS_SEND_BUFFER = 64 * 1024  # bytes (the kernel doubles it): messages are small
MAX_FRAME = 4096  # bytes: a page's messages are tiny; a larger frame is refused unread (1009)
ABORT = "gridgames.abort"  # the scope's key of the function that ends a WebSocket at once
UPGRADES = 2  # WebSocket handshakes under way at once
GATE_KEY = "gridgames.upgrades"  # where the lifespan state carries the UpgradeGate


def uvicorn_options() -> dict[str, Any]:
    """uvicorn's settings for our app: these protocols, no proxy headers of uvicorn's own
    (web/clients.py honours X-Forwarded-For from --trusted-proxy addresses only), no Server
    header, no per-message compression (it costs each WebSocket tens of KB of zlib state for
    messages of a few hundred bytes), and frames limited before they are read."""
    return {"http": DeadlineHttp, "ws": DeadlineWebSocket, "proxy_headers": False,
            "server_header": False, "ws_per_message_deflate": False, "ws_max_size": MAX_FRAME,
            "ws_ping_interval": 20.0, "ws_ping_timeout": 20.0}


def client_timeout(app_state: dict[str, Any]) -> float:
    return float(app_state.get(STATE_KEY, CLIENT_TIMEOUT))


class UpgradeGate:
    """At most `size` WebSocket handshakes under way at once, of one server (its event loop:
    no lock needed); a turn that comes free goes to the first one waiting."""

    def __init__(self, size: int = UPGRADES) -> None:
        self.free = size
        self._waiting: deque[Callable[[], bool]] = deque()

    def enter(self, start: Callable[[], bool]) -> bool:
        """Whether a handshake may go on now; else `start` is called at its turn (and says
        whether it took it: its client may have gone meanwhile)."""
        if self.free > 0:
            self.free -= 1
            return True
        self._waiting.append(start)
        return False

    def leave(self) -> None:
        while self._waiting:
            if self._waiting.popleft()():
                return  # the turn went on to it
        self.free += 1


class Timer:
    """One call due after some seconds, which can be put off or dropped."""

    def __init__(self, loop: asyncio.AbstractEventLoop, then: Callable[[], None]) -> None:
        self._loop, self._then = loop, then
        self._handle: asyncio.TimerHandle | None = None

    @property
    def running(self) -> bool:
        return self._handle is not None

    def start(self, seconds: float) -> None:
        """Due `seconds` from now (no longer when it was due before)."""
        self.stop()
        self._handle = self._loop.call_later(seconds, self._due)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _due(self) -> None:
        self._handle = None
        self._then()


class _Stalls:
    """A timer that ends the connection when its send buffer stays full (the transport's
    pause_writing/resume_writing tell when)."""

    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    app_state: dict[str, Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._stalled = Timer(self.loop, lambda: self.transport.abort())

    def pause_writing(self) -> None:
        super().pause_writing()  # type: ignore[misc]
        if not self._stalled.running:
            self._stalled.start(BODY_SHARE * client_timeout(self.app_state))

    def resume_writing(self) -> None:
        super().resume_writing()  # type: ignore[misc]
        self._stalled.stop()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stalled.stop()
        super().connection_lost(exc)  # type: ignore[misc]


class DeadlineHttp(_Stalls, HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._waiting = Timer(self.loop, self._too_slow)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for(1)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._wait_for(1)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._wait_for(BODY_SHARE)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._stop_waiting()

    def handle_websocket_upgrade(self) -> None:
        gate = self.app_state.get(GATE_KEY)
        if gate is None or gate.enter(self._upgrade_in_turn):
            self._upgrade()
        else:  # its turn comes when a handshake under way ends (the request's deadline runs)
            self.transport.pause_reading()

    def _upgrade_in_turn(self) -> bool:
        if self.transport.is_closing():
            return False
        self.transport.resume_reading()
        self._upgrade()
        return True

    def _upgrade(self) -> None:
        self._stop_waiting()  # the WebSocket protocol takes the connection from here
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """Malformed HTTP (uvicorn's own answer lacks the security headers)."""
        self.transport.write(_answer(b"400 Bad Request", msg))
        self.transport.close()

    def _wait_for(self, timeouts: int) -> None:
        self._waiting.start(timeouts * client_timeout(self.app_state))

    def _stop_waiting(self) -> None:
        self._waiting.stop()

    def _too_slow(self) -> None:
        """The request did not arrive in time: 408 when no answer was started on the
        connection's latest request, and the connection ends either way."""
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is not None and cycle.response_started:  # a second answer would garble it
            self.transport.abort()
        else:
            self.transport.write(_answer(b"408 Request Timeout",
                                         "the request did not arrive in time"))
            self.transport.close()
            # A client that does not read the answer either is not waited for.
            self.loop.call_later(1.0, self.transport.abort)
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True  # the app's receive() answers http.disconnect
            cycle.message_event.set()


def _answer(status: bytes, error: str) -> bytes:
    """An answer the connection makes itself, before any app: JSON, with the security
    headers every answer carries, and the connection closed after it."""
    body = json.dumps({"error": error}).encode()
    headers = [(b"content-type", b"application/json"), (b"connection", b"close"),
               (b"content-length", str(len(body)).encode()), *HEADERS,
               (b"content-security-policy", CSP.encode())]
    head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
    return b"HTTP/1.1 " + status + b"\r\n" + head + b"\r\n" + body


class DeadlineWebSocket(_Stalls, WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._gate = self.app_state.get(GATE_KEY)  # made in its turn: it holds one

    def _leave_gate(self) -> None:
        if self._gate is not None:
            self._gate.leave()
            self._gate = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with suppress(OSError):  # not a TCP socket: nothing to bound
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, WS_SEND_BUFFER)

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the app's task starts after this returns: it sees the key
            scope[ABORT] = self.transport.abort

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()  # says why in a close frame, if the socket takes it
        self.transport.abort()

    async def send(self, message: Any) -> None:
        try:
            await super().send(message)
        finally:
            kind = message["type"]
            if kind in ("websocket.accept", "websocket.close") or (
                    kind == "websocket.http.response.body" and not message.get("more_body")):
                self._leave_gate()  # the handshake is over, one way or the other
                # Its request and answer (their headers) are not needed for the hours a
                # page may stay: a few KB a page.
                self.request = self.response = None
        if message["type"] == "websocket.http.response.body" and \
                not message.get("more_body", False):
            # A refusal (a denial response) completes the handshake: uvicorn would log
            # "returned without completing handshake" for every refused page.
            self.handshake_complete = True

    def connection_lost(self, exc: Exception | None) -> None:
        self._leave_gate()
        super().connection_lost(exc)
