"""gridgames: five grid-board games with pure engines, machine play, a CLI and a web app."""

__version__ = "0.1.0"
