"""Dots and Boxes' AI levels: heuristics, so every answer is BEST_FOUND, never proven.

random: any line; greedy: takes a box when it can, else any line; careful: takes a box when
it can, else draws a line that gives no box its third side, else the line that hands the
opponent the fewest boxes (counted by letting the opponent take greedily after it). None of
them knows the chain rule or double-dealing, which a strong player uses to win the endgame.
"""

from __future__ import annotations

from gridgames.core.capabilities import AiPlayer
from gridgames.core.result import BEST_FOUND, Budget, Meter, Result, game_over
from gridgames.core.rng import Rng
from gridgames_dotsandboxes.game import (
    UNDRAWN,
    DotsAndBoxes,
    DotsState,
    boxes_closed_by,
    layout,
    line_name,
    sides_drawn,
)

NOTES = {"random": "the random level draws any line",
         "greedy": "the greedy level takes a box when it can",
         "careful": "the careful level takes boxes and avoids giving a third side: a "
                    "heuristic, not a search"}


def open_lines(state: DotsState) -> list[int]:
    return [line for line, drawer in enumerate(state.lines) if drawer == UNDRAWN]


def gives_third_side(state: DotsState, line: int) -> bool:
    """Whether drawing `line` leaves a box with three sides, for the opponent to take."""
    boxes = layout(state.params.rows, state.params.cols).boxes_of[line]
    return any(sides_drawn(state, box) == 2 for box in boxes)


class DotsAi(AiPlayer):
    levels = ("random", "greedy", "careful")

    def __init__(self, game: DotsAndBoxes) -> None:
        self.game = game

    def choose(self, state: DotsState, level: str, rng: Rng, budget: Budget) -> Result[str]:
        self.check_level(level)
        meter = Meter(budget)
        candidates = open_lines(state)
        if not candidates:
            return game_over(meter)
        if level != "random":
            taking = [line for line in candidates if boxes_closed_by(state, line)]
            if taking:
                candidates = taking
            elif level == "careful":
                candidates = self._least_given(state, candidates, meter)
        line = rng.choice(candidates)
        return meter.result(line_name(state.params, line), BEST_FOUND, NOTES[level])

    def _least_given(self, state: DotsState, lines: list[int], meter: Meter) -> list[int]:
        """Lines that give no third side; when every line does, those after which a greedy
        opponent takes the fewest boxes (each line tried counts as a node; the lines the
        budget leaves untried are not candidates)."""
        safe = [line for line in lines if not gives_third_side(state, line)]
        if safe:
            return safe
        best: list[int] = []
        fewest = None
        for line in lines:
            if best and (meter.nodes_left(None) == 0 or meter.out_of_time()):
                break
            meter.nodes += 1
            given = self._greedy_run(self.game.apply(state, line_name(state.params, line)))
            if fewest is None or given < fewest:
                best, fewest = [line], given
            elif given == fewest:
                best.append(line)
        return best

    def _greedy_run(self, state: DotsState) -> int:
        """How many boxes the player to move takes by drawing fourth sides while it can."""
        mover, taken = state.to_move, 0
        while not state.over and state.to_move == mover:
            line = next((ln for ln in open_lines(state) if boxes_closed_by(state, ln)), None)
            if line is None:
                break
            before = state.score(mover)
            state = self.game.apply(state, line_name(state.params, line))
            taken += state.score(mover) - before
        return taken


def position_key(state: DotsState) -> str:
    """A position as a string: the hint's tie-break seed (HintsFromAi)."""
    drawn = "".join("0" if drawer == UNDRAWN else "1" for drawer in state.lines)
    return f"{state.params.format()}:{drawn}:{state.to_move}"
