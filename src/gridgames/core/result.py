"""What machine play answers: the value found, how sure it is, and what it cost.

Every AI move, solution, hint, analysis and check is a `Result` whose `status` is PROVEN (a
search that finished backs it; only then may a program say "proven", "optimal", "perfect"
or "exact"), BEST_FOUND (the best when the budget ended, or a heuristic's answer: `note`
says which) or NONE. A `Budget` bounds the work: nodes decide the answer, so it is the same
on every machine; seconds only cap a search, and an answer cut by the clock is BEST_FOUND.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

T = TypeVar("T")

PROVEN = "proven"
BEST_FOUND = "best found"
NONE = "none within budget"
STATUSES = (PROVEN, BEST_FOUND, NONE)
GAME_OVER = "the game is over"


@dataclass(frozen=True)
class Budget:
    nodes: int | None = None  # decides the answer: the same on every machine
    seconds: float | None = None  # caps the search; a result cut by it is BEST_FOUND
    memory_mb: float | None = None  # bounds the tables a search builds

    def capped(self, seconds: float | None) -> Budget:
        """This budget with its seconds cut to at most `seconds` (None: unchanged)."""
        if seconds is None or (self.seconds is not None and self.seconds <= seconds):
            return self
        return replace(self, seconds=seconds)


UNLIMITED = Budget()


class Meter:
    """A search's clock and node count against its budget. `out_of_time()` is the only place
    the clock is read, so a search that never consults it is machine-independent."""

    def __init__(self, budget: Budget = UNLIMITED) -> None:
        self.budget = budget
        self.started = time.monotonic()
        self.nodes = 0
        self.timed_out = False

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    @property
    def seconds_left(self) -> float | None:
        if self.budget.seconds is None:
            return None
        return max(0.0, self.budget.seconds - self.seconds)

    def nodes_left(self, default: int | None = None) -> int | None:
        cap = self.budget.nodes if self.budget.nodes is not None else default
        return None if cap is None else max(0, cap - self.nodes)

    def out_of_time(self) -> bool:
        if self.budget.seconds is not None and self.seconds >= self.budget.seconds:
            self.timed_out = True
        return self.timed_out

    def result(self, value: Any, status: str, note: str = "") -> Result[Any]:
        if status == PROVEN and value is None and note == "":
            note = "a finished search found none"
        return Result(value, status, round(self.seconds, 4), self.nodes, note)


@dataclass(frozen=True)
class Result(Generic[T]):
    value: T | None
    status: str  # PROVEN, BEST_FOUND or NONE
    seconds: float = 0.0  # wall time used
    nodes: int = 0  # work used (positions or states searched)
    note: str = ""  # what a reader should know: why not proven, what was played instead
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown result status {self.status!r}")

    @property
    def proven(self) -> bool:
        return self.status == PROVEN

    @property
    def found(self) -> bool:
        return self.value is not None

    def words(self) -> str:
        """The status as the CLI and the page print it: 'proven', 'best found in 1.2 s',
        'none within 3.0 s'."""
        if self.status == PROVEN:
            return PROVEN
        spent = f"{self.seconds:.1f} s"
        return f"best found in {spent}" if self.status == BEST_FOUND else f"none within {spent}"

    def with_value(self, value: Any) -> Result[Any]:
        return replace(self, value=value)

    def to_dict(self) -> dict[str, Any]:
        """The JSON the API and `--json` outputs carry beside the value."""
        out = {"status": self.status, "proven": self.proven, "words": self.words(),
               "seconds": self.seconds, "nodes": self.nodes}
        if self.note:
            out["note"] = self.note
        out.update(self.extra)
        return out


def game_over(meter: Meter | None = None, note: str = GAME_OVER) -> Result[Any]:
    """What machine play answers on a finished position (won, lost, drawn, solved): no move
    (None, whatever the kind: a move, a hint, a solution, an analysis), proven, and why."""
    return (meter or Meter()).result(None, PROVEN, note)
