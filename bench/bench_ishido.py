"""Ishido players over fixed deals, for each rule set.

Prints one line per rules and player:
`rules player deals placed_all_share mean_score mean_fourways ms_per_game`.

Players: `ai` (games/ishido/ai.py), `greedy` (the highest-scoring valid cell: the baseline)
and `greedy-neighbours` (the most neighbours: the same as greedy under seed rules; under
classic rules, where edge cells score 0, it is the stronger greedy player).
docs/machine-play.md ("Ishido") has the figures.

Usage: python bench/bench_ishido.py [DEALS]   (default 1000; deals are seeds bench-0 ...)
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor

from gridgames.core.progress import progress
from gridgames.core.rng import Rng
from gridgames.games.ishido.ai import best_cell
from gridgames.games.ishido.game import GRID, Ishido, neighbour_tiles, valid_cells

GAME = Ishido()
PLAYERS = ("ai", "greedy", "greedy-neighbours")


def play(args: tuple[str, str, str]) -> tuple[bool, int, int, float]:
    seed, rules, player = args
    params = GAME.parse_params(f"rules={rules}")
    state = GAME.new_state(params, GAME.new_desc(params, Rng(seed)))
    rng = Rng(f"greedy {seed}")
    start = time.process_time()
    while not state.over:
        if player == "ai":
            cell = best_cell(state.board, state.pouch, rules, state.fourways)
        else:
            choices = valid_cells(state.board, state.pouch[0], rules, state.fourways)
            if player == "greedy":
                key = {c: p for c, p in choices}
            else:
                key = {c: len(neighbour_tiles(state.board, c)) for c, _ in choices}
            best = max(key.values())
            cell = rng.choice([c for c in key if key[c] == best])
        state = GAME.apply(state, GRID.cell_name(cell))
    return not state.pouch, state.score, state.fourways, time.process_time() - start


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with ProcessPoolExecutor(max_workers=2) as pool:
        for rules in ("seed", "classic"):
            for player in PLAYERS:
                jobs = [(f"bench-{i}", rules, player) for i in range(deals)]
                results = list(progress(pool.map(play, jobs, chunksize=25), len(jobs),
                                        f"{rules} {player}"))
                n = len(results)
                share = sum(r[0] for r in results) / n
                score = sum(r[1] for r in results) / n
                fourways = sum(r[2] for r in results) / n
                ms = sum(r[3] for r in results) / n * 1000
                print(f"{rules} {player} {n} {share:.3f} {score:.1f} {fourways:.2f} {ms:.1f}",
                      flush=True)


if __name__ == "__main__":
    main()
