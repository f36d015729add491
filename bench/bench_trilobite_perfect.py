"""The perfect Trilobite level on 7x6 in whole games: time per move (p50, p99, max), how
often it proved its move (book or solver) and how often it had to fall back on the hard
level's move, and the results against random play, the hard level and itself.

Each perfect move gets the page's budget (10 s, `gridgames serve --think-seconds`' default).
Perfect against perfect breaks ties between equal moves with a different seed each game; the
first player must win every such game, with its 21st stone (score 1).

Usage: python bench/bench_trilobite_perfect.py [--random N] [--hard N] [--self N]
  (defaults 100, 100 and 20: the issue's counts; a few of each give a quick look)
Standard output: one line per opponent, `opponent games wins draws losses`, then
`moves N proven P fallback F p50_s X p99_s Y max_s Z`.
"""

from __future__ import annotations

import argparse
import statistics
import time

from gridgames.core.progress import progress
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.games.trilobite import make_game

GAME = make_game()
PARAMS = GAME.parse_params("")
BUDGET = Budget(seconds=10.0)


def play(first: str, second: str, seed: str, times: list[float], proven: list[bool]
         ) -> int | None:
    """One game; the winner's seat (0 or 1) or None for a draw. Perfect moves are timed."""
    state = GAME.new_state(PARAMS, GAME.new_desc(PARAMS, Rng(seed)))
    rng = Rng(seed)
    levels = (first, second)
    while not GAME.status(state).over:
        level = levels[GAME.current_player(state)]
        if level == "random":
            move = rng.choice(GAME.legal_moves(state))
        else:
            tic = time.perf_counter()
            found = GAME.ai.choose(state, level, rng, BUDGET)
            if level == "perfect":
                times.append(time.perf_counter() - tic)
                proven.append(found.proven)
            move = found.value
        state = GAME.apply(state, move)
    return GAME.status(state).winner


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--random", type=int, default=100)
    parser.add_argument("--hard", type=int, default=100)
    parser.add_argument("--self", type=int, default=20)
    args = parser.parse_args()
    GAME.analyzer.warm()
    for opponent, count in (("random", args.random), ("hard", args.hard),
                            ("perfect", args.self)):
        if not count:
            continue
        times: list[float] = []
        proven: list[bool] = []
        wins = draws = losses = 0
        for game in progress(range(count), count, opponent):
            # perfect takes each side in turn against the others; against itself seat 0
            perfect_seat = game % 2 if opponent != "perfect" else 0
            seats = ["perfect", opponent] if perfect_seat == 0 else [opponent, "perfect"]
            winner = play(*seats, f"bench-{opponent}-{game}", times, proven)
            if winner is None:
                draws += 1
            elif winner == perfect_seat:
                wins += 1
            else:
                losses += 1
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"{opponent} games {count} wins {wins} draws {draws} losses {losses}")
        print(f"  moves {len(times)} proven {sum(proven)} fallback {len(proven) - sum(proven)} "
              f"p50_s {statistics.median(times):.3f} p99_s {p99:.3f} max_s {times[-1]:.3f}",
              flush=True)


if __name__ == "__main__":
    main()
