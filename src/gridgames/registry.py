"""The games by name. A game is playable everywhere (CLI, web, conformance suite) once it is
listed here."""

from __future__ import annotations

from gridgames.core.errors import UnknownName
from gridgames.core.game import Game
from gridgames.games.ishido import Ishido
from gridgames.games.polar import Polar
from gridgames.games.tictactoe import TicTacToe
from gridgames.games.trilobite import Trilobite
from gridgames.games.twomino import TwoMino

GAMES: dict[str, Game] = {
    game.name: game for game in (TicTacToe(), Trilobite(), Ishido(), Polar(), TwoMino())
}


def get_game(name: str) -> Game:
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        shown = name if isinstance(name, str) and len(name) <= 40 else "that"
        raise UnknownName(f"unknown game {shown!r} (games: {', '.join(GAMES)})")
    return game
