"""The home page's previews: a short game from the default start with a fixed seed, the AI
against itself or a puzzle played by its hints."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridgames.core.game import Game
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.session import Session

DEMO_BUDGET = Budget(nodes=200_000, seconds=2.0)


def demo_views(game: Game, games: Mapping[str, Game]) -> list[dict[str, Any]]:
    session = Session.new(game.name, "", seed="demo", games=games)
    rng = Rng("demo")
    views = [game.view(session.state)]
    while not session.status().over and len(views) < 24:
        if game.ai:
            move = game.ai.choose(session.state, game.ai.default_level, rng, DEMO_BUDGET).value
        elif game.hints:
            found = game.hints.hint(session.state, DEMO_BUDGET).value
            move = found.move if found else None
        else:
            break
        if move is None:
            break
        session.play(move)
        views.append(game.view(session.state))
    return views
