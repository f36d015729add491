"""The home page's previews: a short game from the default start with a fixed seed, the AI
against itself or a puzzle played by its hints.

The built-in games' previews are prepared ahead: their moves are shipped in previews.json
(made by `python -m gridgames.compute.demo`), so a server replays them by the rules alone
(milliseconds) and the first home page after a fresh install paints its previews at once:
played by a compute worker, each would wait for the worker's start, which compiles the
solvers' kernels the first time (about 7 s each). A game without shipped moves (a plugin)
gets its preview played by a compute worker. tests/test_previews.py checks that the shipped moves
are still the ones the machine plays.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gridgames.core.game import Game
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.session import Session

DEMO_BUDGET = Budget(nodes=200_000, seconds=2.0)
DEMO_SEED = "demo"
MAX_VIEWS = 24
SHIPPED = Path(__file__).with_name("previews.json")


def demo_moves(game: Game, games: Mapping[str, Game]) -> list[str]:
    """The moves of a game's preview, played by its machine players (a compute job)."""
    session = Session.new(game.name, "", seed=DEMO_SEED, games=games)
    rng = Rng(DEMO_SEED)
    moves: list[str] = []
    while not session.status().over and len(moves) < MAX_VIEWS - 1:
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
        moves.append(move)
    return moves


def replay_views(game: Game, games: Mapping[str, Game], moves: list[str]) -> list[dict[str, Any]]:
    """The preview's positions: the start, then each move applied by the rules."""
    session = Session.new(game.name, "", seed=DEMO_SEED, games=games)
    views = [game.view(session.state)]
    for move in moves:
        session.play(move)
        views.append(game.view(session.state))
    return views


def demo_views(game: Game, games: Mapping[str, Game]) -> list[dict[str, Any]]:
    return replay_views(game, games, demo_moves(game, games))


def shipped_moves() -> dict[str, list[str]]:
    """The built-in games' preview moves, prepared ahead: game name -> moves."""
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


def main() -> None:
    """Write previews.json: every built-in game's preview moves, as the machine plays them
    now (run it after changing a game's start, rules or machine play)."""
    from gridgames.registry import default_games

    games = default_games()
    moves = {name: demo_moves(game, games) for name, game in games.items()}
    lines = ",\n".join(f" {json.dumps(name)}: {json.dumps(m)}" for name, m in moves.items())
    SHIPPED.write_text("{\n" + lines + "\n}\n", encoding="utf-8")
    print(f"wrote {SHIPPED}: {', '.join(f'{n} {len(m)} moves' for n, m in moves.items())}",
          file=sys.stdout)


if __name__ == "__main__":
    main()
