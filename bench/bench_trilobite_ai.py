"""Trilobite search AI: time per move and nodes per second at each level.

Positions: the first 50 of the Connect-4 set Test_L2_R1 (data/connect4, middle game)
and a few 10x10 line-5 openings. Prints one line per level and board:
`board level mean_ms_per_move nodes_per_s`.
"""

from __future__ import annotations

import time
from pathlib import Path

from gridgames.core.progress import progress
from gridgames.core.rng import Rng
from gridgames.games.trilobite.ai import LEVELS, search
from gridgames.games.trilobite.bitboard import Bitboard
from gridgames.games.trilobite.game import Trilobite

DATA = Path(__file__).resolve().parents[1] / "data" / "connect4"
GAME = Trilobite()


def positions(params: str, lines: list[str]):
    p = GAME.parse_params(params)
    for moves in lines:
        state = GAME.new_state(p, GAME.new_desc(p, Rng("b")))
        for move in GAME.split_moves(moves):
            state = GAME.apply(state, move)
        yield state


def measure(label: str, params: str, lines: list[str]) -> None:
    states = list(positions(params, lines))
    for level in LEVELS:
        nodes = 0
        start = time.perf_counter()
        for state in progress(states, len(states), level):
            nodes += search(Bitboard.of(state), level).nodes
        elapsed = time.perf_counter() - start
        print(f"{label} {level} {elapsed / len(states) * 1000:.1f} {nodes / elapsed:.0f}")


def main() -> None:
    file = DATA / "Test_L2_R1"
    lines = [line.split()[0] for line in file.read_text().splitlines()[:50]] if file.exists() \
        else ["4453", "4444", "3344556"]
    measure("7x6/4", "", lines)
    measure("10x10/5", "width=10,height=10,line=5", ["55", "5566", "123456789a", "55544"])


if __name__ == "__main__":
    main()
