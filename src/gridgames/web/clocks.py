"""Clocks of online games: a time for each player's whole game, or a time for each move.

A clock is part of the game's online state (`extra["online"]["clock"]`): its kind, its
seconds, each side's time left (a game clock) and when the side to move began to think. It
runs from the game's start. A move that arrives after its side's time ran out loses on time;
the server also ends such a game by itself (web/online_api.py: Online.flag_due), from the
store's `deadlines`, with no page open and whichever process finds it first. docs/server.md
("Clocks") has the rules.
"""

from __future__ import annotations

from typing import Any

from gridgames.core.errors import BadInput

# The seconds a clock may have, by kind: a blitz game to a long one; a quick move to a day
# and a half (correspondence).
LIMITS = {"game": (60, 3 * 3600), "move": (10, 36 * 3600)}


def check(clock: Any) -> dict[str, Any] | None:
    """A seek's clock as the lobby keeps it ({"kind", "seconds"}), or None for no clock."""
    if clock is None:
        return None
    if not isinstance(clock, dict) or set(clock) != {"kind", "seconds"}:
        raise BadInput('a clock is {"kind": "game" or "move", "seconds": N}')
    kind, seconds = clock["kind"], clock["seconds"]
    if not isinstance(kind, str) or kind not in LIMITS:
        raise BadInput('a clock\'s kind is "game" (time for the whole game) or "move"')
    low, high = LIMITS[kind]
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not low <= seconds <= high:
        raise BadInput(f"a {kind} clock has {low} to {high} seconds, a whole number")
    return {"kind": kind, "seconds": seconds}


def start(clock: dict[str, Any], now: float) -> dict[str, Any]:
    """A running clock, from a seek's."""
    running = {"kind": clock["kind"], "seconds": clock["seconds"], "since": now}
    if clock["kind"] == "game":
        running["left"] = [float(clock["seconds"])] * 2
    return running


def left(clock: dict[str, Any], seat: int, to_move: int | None, now: float) -> float:
    """Seconds `seat` has left now (its time runs only on its turn)."""
    thinking = now - clock["since"] if seat == to_move else 0.0
    base = clock["left"][seat] if clock["kind"] == "game" else clock["seconds"]
    return base - thinking


def moved(clock: dict[str, Any], seat: int, now: float) -> None:
    """`seat` has moved: its thinking comes off its time; the other side's turn begins."""
    if clock["kind"] == "game":
        clock["left"][seat] -= now - clock["since"]
    clock["since"] = now


def turn_restarts(clock: dict[str, Any], now: float) -> None:
    """A takeback: the side to move begins again (time spent stays spent)."""
    clock["since"] = now


def deadline(clock: dict[str, Any], to_move: int) -> float:
    """When the side to move runs out of time, if it does not move."""
    return clock["since"] + left(clock, to_move, to_move, clock["since"])


def view(clock: dict[str, Any], to_move: int | None, now: float) -> dict[str, Any]:
    """What a page shows: each side's seconds left now, and whose clock runs."""
    return {"kind": clock["kind"], "seconds": clock["seconds"], "running": to_move,
            "left": [max(0.0, round(left(clock, seat, to_move, now), 1)) for seat in (0, 1)]}
