"""Ishido players over fixed deals, for each rule set.

Prints one line per rules and player:
`rules player deals placed_all_share mean_score mean_fourways ms_per_game`, then the seeds of
the deals the player did not clear (`not cleared: bench-1 bench-25 ...`), if any.

Players: `ai` (games/ishido/ai.py), `heuristic` (the same AI without its rollouts: what it was
before them), `greedy` (the highest-scoring valid cell: the baseline) and `greedy-neighbours`
(the most neighbours: the same as greedy under seed rules; under classic rules, where edge
cells score 0, it is the stronger greedy player). ms_per_game is CPU time in the worker
processes: compare players within one run, the machine's load moves it.
docs/machine-play.md ("Ishido") has the figures.

Usage: python bench/bench_ishido.py [DEALS] [--prefix P] [--players ai,heuristic] [--rules classic]
(default: 1000 deals with seeds bench-0 ... bench-999; deal P-i is the one
`gridgames new ishido --seed P-i` starts, so any one can be replayed)
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from gridgames.core.progress import progress
from gridgames.core.rng import Rng
from gridgames.games.ishido.ai import best_cell
from gridgames.games.ishido.game import GRID, Ishido, neighbour_tiles, valid_cells

GAME = Ishido()
PLAYERS = ("ai", "heuristic", "greedy", "greedy-neighbours")
RULES = ("seed", "classic")


def play(args: tuple[str, str, str]) -> tuple[bool, int, int, float]:
    seed, rules, player = args
    params = GAME.parse_params(f"rules={rules}")
    state = GAME.new_state(params, GAME.new_desc(params, Rng(seed)))
    rng = Rng(f"greedy {seed}")
    start = time.process_time()
    while not state.over:
        if player in ("ai", "heuristic"):
            cell = best_cell(state.board, state.pouch, rules, state.fourways,
                             rollouts=player == "ai")
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deals", type=int, nargs="?", default=1000)
    parser.add_argument("--prefix", default="bench", help="deal i has seed PREFIX-i")
    parser.add_argument("--players", default=",".join(PLAYERS))
    parser.add_argument("--rules", default=",".join(RULES))
    args = parser.parse_args()
    seeds = [f"{args.prefix}-{i}" for i in range(args.deals)]
    print(f"deals {seeds[0]} .. {seeds[-1]}", flush=True)
    with ProcessPoolExecutor(max_workers=2) as pool:
        for rules in args.rules.split(","):
            for player in args.players.split(","):
                jobs = [(seed, rules, player) for seed in seeds]
                results = list(progress(pool.map(play, jobs, chunksize=10), len(jobs),
                                        f"{rules} {player}"))
                n = len(results)
                share = sum(r[0] for r in results) / n
                score = sum(r[1] for r in results) / n
                fourways = sum(r[2] for r in results) / n
                ms = sum(r[3] for r in results) / n * 1000
                print(f"{rules} {player} {n} {share:.3f} {score:.1f} {fourways:.2f} {ms:.1f}",
                      flush=True)
                lost = [seed for seed, r in zip(seeds, results, strict=True) if not r[0]]
                if lost and player in ("ai", "heuristic"):
                    print(f"  not cleared: {' '.join(lost)}", flush=True)


if __name__ == "__main__":
    main()
