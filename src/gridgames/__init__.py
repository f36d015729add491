"""gridgames: grid-board games with pure engines, machine play, a command line and a web app.

The Python API (docs/python-api.md): `gridgames.registry.default_games()` for the games,
`gridgames.session.Session` to play one with undo, redo and save files.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("gridgames")
except PackageNotFoundError:  # a source tree that is not installed
    __version__ = "unknown"
