"""The pages' shell, as the service worker keeps it: every file a page loads besides the API
(the pages, styles, scripts, icons, and each game's renderer files), under one version made
of their contents, so that a second visit opens from the browser's copy and a new version
replaces the whole copy at once. docs/server.md ("What browsers keep") says how.
"""

from __future__ import annotations

import hashlib
import json
import re
from importlib import resources
from pathlib import Path

from gridgames.core.game import Game
from gridgames.registry import Games

STATIC = Path(__file__).parent / "static"
WORKER = STATIC / "js" / "sw.js"
SHELL_HEADER = "X-Gridgames-Shell"  # the version of the shell a page belongs to
# The lines of sw.js the server fills in when it serves it.
VERSION_LINE, FILES_LINE = 'const VERSION = "dev";', "const SHELL = [];"
STATIC_ROUTE = "/static/{path:path}"  # the files of static/ (metrics count them as one route)
# A renderer's other scripts: `<module>.js` beside it, with a name of this form.
MODULE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
# Each file's Content-Type by its suffix, fixed here rather than read from the system's
# tables (on some systems .js is text/plain there, and a browser then refuses the module).
MEDIA_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html",
               ".svg": "image/svg+xml", ".png": "image/png", ".json": "application/json",
               ".webmanifest": "application/manifest+json", ".txt": "text/plain"}


def renderer_path(game: Game) -> Path:
    """The game's renderer module: package data beside the game's module."""
    package = type(game).__module__.rpartition(".")[0]
    return Path(str(resources.files(package) / game.renderer))


def shell_files(games: Games) -> dict[str, Path]:
    """Each URL of the shell, and the file it serves."""
    files = {f"/static/{path.relative_to(STATIC).as_posix()}": path
             for path in sorted(STATIC.rglob("*"))
             if path.is_file() and path != WORKER and path.suffix != ".map"}
    for name in games:
        renderer = renderer_path(games.get_game(name))
        files[f"/games/{name}/renderer.js"] = renderer
        if renderer.with_suffix(".css").is_file():
            files[f"/games/{name}/renderer.css"] = renderer.with_suffix(".css")
        for module in sorted(renderer.parent.glob("*.js")):
            if MODULE_NAME.fullmatch(module.stem):  # the renderer too, under its own name
                files[f"/games/{name}/{module.name}"] = module
    return files


def media_type(url: str) -> str:
    """The Content-Type a shell file is sent with."""
    return MEDIA_TYPES.get(Path(url).suffix, "application/octet-stream")


class Shell:
    """The shell's files, version and service worker, worked out once (at start)."""

    def __init__(self, games: Games) -> None:
        self.files = shell_files(games)
        # The files' contents, read once: the version is made of them, so the server answers
        # with these (a page's 35-40 files from memory, with no disk read or thread each).
        self.bodies = {url: path.read_bytes() for url, path in self.files.items()}
        digest = hashlib.sha256()
        for url, body in self.bodies.items():
            digest.update(url.encode() + b"\0" + body + b"\0")
        # A game without a stylesheet gets an empty one: it is in the shell too.
        urls = list(self.files) + [f"/games/{name}/renderer.css" for name in games
                                   if f"/games/{name}/renderer.css" not in self.files]
        self.version = digest.hexdigest()[:16]
        text = WORKER.read_text(encoding="utf-8")
        if VERSION_LINE not in text or FILES_LINE not in text:
            raise RuntimeError("sw.js has lost the lines the server fills in")
        self.worker = text.replace(VERSION_LINE, f"const VERSION = {json.dumps(self.version)};") \
            .replace(FILES_LINE, f"const SHELL = {json.dumps(sorted(urls))};")
