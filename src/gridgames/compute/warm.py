"""`gridgames warm`: compile machine play's kernels now. numba keeps each compiled kernel on
disk beside its source (or in NUMBA_CACHE_DIR), so a server, its compute workers and the
command line load them in about a second; without this a fresh install compiles them where
they are first needed, 20 to 40 s of CPU on the first AI move, hint or solution. `make run`
and `make test` run it once after installing (docs/operations.md, "The server and its
options")."""

from __future__ import annotations

import logging
import multiprocessing
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor

from gridgames.core.game import Game

log = logging.getLogger("gridgames")


def warm_game(game: Game, searches: bool = True) -> None:
    """A game's compiled rules and (`searches`) the searches behind its AI levels, hints
    and analyses. One that fails is logged and left to fail where it is used: a plugin's
    fault stays that plugin's."""
    try:
        game.warm()
        for entry in game.capabilities().values() if searches else ():
            if hasattr(entry, "warm"):
                entry.warm()
    except Exception:
        log.exception("%s: its compiled code did not load", game.name)


def warm_games(games: Iterable[Game]) -> None:
    """What a compute worker loads as it starts (compute/jobs.py)."""
    for game in games:
        warm_game(game)


def play_kernels() -> None:
    from gridgames.registry import default_games

    warm_games(default_games().values())


def polar_command_kernels() -> None:
    """The command line's own Polar searches: A* on every core and the compact-state proof."""
    from gridgames.games.polar import parallel
    from gridgames.games.polar.packs import builtin_pack
    from gridgames.games.polar.proof import prove
    from gridgames.games.polar.rules import NEXT

    parallel.warm(NEXT)
    level = builtin_pack("original")[0]
    prove(bytes(level.board), level.penguin, 14, max_seconds=60, slots=1024)


def warm_all() -> float:
    """Both groups at once, in processes of their own (each compiles on one core); the
    seconds it took."""
    began = time.monotonic()
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=spawn) as pool:
        for done in [pool.submit(play_kernels), pool.submit(polar_command_kernels)]:
            done.result()
    return time.monotonic() - began
