"""`gridgames serve`: run the app with uvicorn, print the URL, open a browser if there is one."""

from __future__ import annotations

import argparse
import os
import socket
import sys
import threading
import webbrowser
from typing import TextIO

from gridgames.core.errors import BadInput
from gridgames.registry import Games


def _has_display() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def add_serve_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default=os.environ.get("GRIDGAMES_HOST", "127.0.0.1"),
                   help="address to bind (default 127.0.0.1, env GRIDGAMES_HOST)")
    p.add_argument("--port", type=int, default=_env_port(),
                   help="port (default 8000, env GRIDGAMES_PORT)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--levels", metavar="PATH", action="append",
                   help="a Polar level file to add to the level select (repeatable)")


def _env_port() -> int:
    raw = os.environ.get("GRIDGAMES_PORT", "8000")
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise BadInput(f"GRIDGAMES_PORT must be a port number, not {raw!r}")
    return int(raw)


def serve(host: str, port: int, games: Games, open_browser: bool = True,
          out: TextIO | None = None) -> None:
    import uvicorn

    from gridgames.web.app import create_app

    if not 0 < port < 65536:
        raise BadInput(f"port must be from 1 to 65535, not {port}")
    _check_free(host, port)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/"
    print(f"gridgames: serving on {url}  (Ctrl+C to stop)", file=out or sys.stdout, flush=True)
    if open_browser and _has_display():
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(games=games), host=host, port=port, log_level="warning")


def _check_free(host: str, port: int) -> None:
    """Fail with one clear line when the address cannot be bound (uvicorn would log and exit)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as err:
        raise BadInput(f"cannot serve on {host}: {err}") from err
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            raise BadInput(f"cannot serve on {host}:{port}: {err.strerror or err}") from err
