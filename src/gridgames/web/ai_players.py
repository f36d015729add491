"""The AI levels as players of the lobby: a player row for each level ("easy", "hard", ...;
names no person may take), rated games against people when a person challenges one, and
their moves made by the server in the compute pool.

A level's rating on a board starts from what the arena measured among the levels, with
"random" held at 1000 (docs/machine-play.md, "The arena"), and then moves with every rated
game against people; "random" never moves: it is the scale's fixed point. docs/server.md
("The AI levels in the lobby") has the rules.
"""

from __future__ import annotations

import logging
import secrets
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from gridgames.compute.jobs import Job
from gridgames.compute.pool import SERVER
from gridgames.core.errors import BadInput
from gridgames.core.glicko import Rating
from gridgames.core.result import Budget
from gridgames.players import name_key, secret_hash
from gridgames.registry import Games
from gridgames.store import NotFound, SqlStore, Unavailable
from gridgames.store.lobby import PlayerRecord
from gridgames.web import online
from gridgames.web.rooms import Room, Rooms

PREFIX = "ai-"  # an AI level's player id: ai-hard
ANCHOR = PREFIX + "random"  # held at its rating: the fixed point of every scale
# Measured by `gridgames arena ... --anchor random=1000` (the docs' tables): (rating, deviation)
MEASURED = {
    "trilobite:width=7,height=6,line=4": {"easy": (1352, 90), "medium": (1620, 85),
                                          "hard": (1808, 85), "perfect": (2185, 115)},
    "tictactoe:": {"random": (1000, 0), "easy": (1395, 95), "perfect": (1584, 105)},
}
RETRY_SECONDS = 30.0  # an AI move not made by then (its process died) is asked again
log = logging.getLogger("gridgames")


def ai_id(level: str) -> str:
    return PREFIX + level


def is_ai(player_id: str) -> bool:
    return player_id.startswith(PREFIX)


class AiPlayers:
    def __init__(self, store: SqlStore, rooms: Rooms, games: Games, compute: Any,
                 think_seconds: float) -> None:
        self.store = store
        self.rooms = rooms
        self.games = games
        self.compute = compute
        self.think_seconds = think_seconds
        self.applying = ThreadPoolExecutor(2, thread_name_prefix="gridgames-ai")
        self.ensured = False

    def ensure_once(self) -> None:
        """ensure(), until it has been done once."""
        if not self.ensured:
            self.ensure()

    def ensure(self) -> None:
        """Every level of every two-player game is a player, with its measured ratings
        (insert-if-absent: each server process may do it at start)."""
        levels = sorted({level for game in self.games.values() if game.players == 2 and
                         game.ai for level in game.ai.levels})
        self.store.keep_players(
            [(PlayerRecord(ai_id(level), level, bot=True),
              secret_hash(secrets.token_urlsafe(24)), name_key(level)) for level in levels],
            [(ai_id(level), kind, Rating(rating, max(deviation, 30)))
             for kind, measured in MEASURED.items()
             for level, (rating, deviation) in measured.items() if level in levels])
        self.ensured = True

    def check_offered(self, player_id: str, game_name: str, params_text: str) -> None:
        """An AI level plays this game on this board, or BadInput says it does not."""
        game = self.games[game_name]
        level = player_id[len(PREFIX):]
        offered = game.ai.offered(game.parse_params(params_text)) if game.ai else ()
        if level not in offered:
            raise BadInput(f"the AI level {level!r} does not play {game.title} on this board "
                           f"(it offers {', '.join(offered) or 'none'})")

    def play(self, room: Room, done: Any) -> None:
        """Ask the compute pool for the AI's move in this lobby game; `done(game_id,
        action)` applies it (in a thread of ours) through the usual change."""
        session = room.session
        level = online.ai_to_move(room)
        if level is None:
            return
        cursor, game_id = session.cursor, room.id
        seed = f"{session.game_id} {room.id} {' '.join(session.moves)} {level}"
        job = Job("ai", session.game.name, session.state, Budget(seconds=self.think_seconds),
                  level=level, seed=seed)
        try:
            future: Future = self.compute.submit(job, SERVER, game_id, self.think_seconds)
        except Exception as err:  # busy now: the deadline brings it back
            log.warning("AI move for %s not started: %s", game_id, err)
            return

        def apply(answer: Future) -> None:
            try:
                move = answer.result().value
            except Exception as err:
                log.warning("AI move for %s failed: %s", game_id, err)
                return

            def action(fresh: Room) -> bool:
                if fresh.session.cursor != cursor or online.ai_to_move(fresh) != level:
                    return False  # played meanwhile (another process), or over
                online.play_as(fresh, fresh.session.game.current_player(fresh.session.state),
                               move)
                return True

            try:
                done(game_id, action)
            except (NotFound, Unavailable) as err:
                log.warning("AI move for %s not kept: %s", game_id, err)
            except Exception:
                log.exception("AI move for %s not kept", game_id)

        future.add_done_callback(lambda answer: self.applying.submit(apply, answer))


def retry_at() -> float:
    return time.time() + RETRY_SECONDS
