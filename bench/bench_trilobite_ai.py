"""Trilobite AI: the search levels' time per move, and the perfect level in whole games.

Part 1 (`--levels`): the first 50 positions of the Connect-4 set Test_L2_R1 (data/connect4,
middle game) and a few 10x10 line-5 openings; one line per board and level:
`board level mean_ms_per_move nodes_per_s`.

Part 2 (games): the perfect level on 7x6 in whole games: time per perfect move (p50, p99,
max), how often it proved its move (book or solver) and how often it fell back on the hard
level's move, and the results against random play, the hard level and itself. Each perfect
move gets 10 s (a page's default, `gridgames serve --think-seconds`, is 2 s). Perfect
against perfect breaks ties between equal moves with a different seed each game; the first
player must win every such game with its 21st stone, its last one (the 41st on the board:
the empty board's score is 1).

Usage: python bench/bench_trilobite_ai.py [--levels | --games-only] [--random N] [--hard N]
  [--self N] [--first K] [--times FILE]
  (defaults 100, 100 and 20 games, as in docs/machine-play.md; `--random 4 --hard 0 --self 1` is a
  quick look; `--levels` alone runs part 1 only)
Standard output of part 2: one line per opponent, `opponent games wins draws losses`
(against itself also `first_player_wins_with_its_21st_stone K`), then
`losses_as_second_player L losses_after_a_fallback F`, then
`moves N proven P fallback F p50_s X p99_s Y max_s Z`, then `nodes p50 X p99 Y max Z` (the
solver's nodes a perfect move, the same at any load), then `slowest` and the five slowest
perfect moves as `MOVES:SECONDSs` (the columns played before the move, 1-7). `--first K`
starts at game K (games 0-49 and 50-99 in two processes are the games of one run of 100);
`--times FILE` appends every perfect move as `opponent seconds proven nodes moves`, to merge.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from gridgames.core.progress import progress
from gridgames.core.result import Budget
from gridgames.core.rng import Rng
from gridgames.games.trilobite import make_game
from gridgames.games.trilobite.ai import LEVELS, search
from gridgames.games.trilobite.bitboard import Bitboard

DATA = Path(__file__).resolve().parents[1] / "data" / "connect4"
GAME = make_game()
PARAMS = GAME.parse_params("")
BUDGET = Budget(seconds=10.0)


def positions(params: str, lines: list[str]):
    p = GAME.parse_params(params)
    for moves in lines:
        state = GAME.new_state(p, GAME.new_desc(p, Rng("b")))
        for move in GAME.split_moves(moves):
            state = GAME.apply(state, move)
        yield state


def measure_levels(label: str, params: str, lines: list[str]) -> None:
    states = list(positions(params, lines))
    for level in LEVELS:
        nodes = 0
        start = time.perf_counter()
        for state in progress(states, len(states), level):
            nodes += search(Bitboard.of(state), level).nodes
        elapsed = time.perf_counter() - start
        print(f"{label} {level} {elapsed / len(states) * 1000:.1f} {nodes / elapsed:.0f}",
              flush=True)


def levels() -> None:
    file = DATA / "Test_L2_R1"
    lines = [line.split()[0] for line in file.read_text().splitlines()[:50]] if file.exists() \
        else ["4453", "4444", "3344556"]
    measure_levels("7x6/4", "", lines)
    measure_levels("10x10/5", "width=10,height=10,line=5", ["55", "5566", "123456789a", "55544"])


def play(first: str, second: str, seed: str, times: list[tuple[float, str]],
         proven: list[bool], nodes: list[int]):
    """One game: (the winner's seat or None for a draw, stones on the board at the end).
    Perfect moves are timed, with the moves before them."""
    state = GAME.new_state(PARAMS, GAME.new_desc(PARAMS, Rng(seed)))
    rng = Rng(seed)
    seats = (first, second)
    stones = 0
    history = []
    while not GAME.status(state).over:
        level = seats[GAME.current_player(state)]
        if level == "random":
            move = rng.choice(GAME.legal_moves(state))
        else:
            tic = time.perf_counter()
            found = GAME.ai.choose(state, level, rng, BUDGET)
            if level == "perfect":
                times.append((time.perf_counter() - tic, "".join(history)))
                proven.append(found.proven)
                nodes.append(found.nodes)
            move = found.value
        state = GAME.apply(state, move)
        history.append(move)
        stones += 1
    return GAME.status(state).winner, stones


def games(opponent: str, count: int, first: int = 0, record: Path | None = None) -> None:
    times: list[tuple[float, str]] = []
    proven: list[bool] = []
    nodes: list[int] = []  # the solver's, per perfect move: the work, whatever the load
    wins = draws = losses = on_21 = lost_second = lost_after_fallback = 0
    for game in progress(range(first, first + count), count, opponent):
        # perfect takes each side in turn against the others; against itself seat 0 counts
        perfect_seat = game % 2 if opponent != "perfect" else 0
        seats = ["perfect", opponent] if perfect_seat == 0 else [opponent, "perfect"]
        before = len(proven)
        winner, stones = play(*seats, f"bench-{opponent}-{game}", times, proven,
                              nodes)
        if winner is None:
            draws += 1
        elif winner == perfect_seat:
            wins += 1
            on_21 += stones == 41  # its 21st stone
        else:
            losses += 1
            # The second player is lost from the first move against best play; a loss as
            # the first player comes only after a move that was not proven.
            lost_second += perfect_seat == 1
            lost_after_fallback += not all(proven[before:])
    if record is not None:  # each move, for merging shards
        with record.open("a") as out:
            for (t, moves), ok, n in zip(times, proven, nodes, strict=True):
                out.write(f"{opponent} {t:.4f} {int(ok)} {n} {moves or 'start'}\n")
    slowest = sorted(times, reverse=True)[:5]
    seconds = sorted(t for t, _ in times)
    p99 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))]
    extra = f" first_player_wins_with_its_21st_stone {on_21}" if opponent == "perfect" else ""
    print(f"{opponent} games {count} wins {wins} draws {draws} losses {losses}{extra}")
    print(f"  losses_as_second_player {lost_second} losses_after_a_fallback "
          f"{lost_after_fallback}")
    print(f"  moves {len(times)} proven {sum(proven)} fallback {len(proven) - sum(proven)} "
          f"p50_s {statistics.median(seconds):.3f} p99_s {p99:.3f} max_s {seconds[-1]:.3f}")
    work = sorted(nodes)
    print(f"  nodes p50 {statistics.median(work):.0f} p99 "
          f"{work[min(len(work) - 1, int(len(work) * 0.99))]} max {work[-1]}")
    # Where the time goes: the position (the moves before it) of the slowest perfect moves.
    where = " ".join(f"{moves or 'start'}:{t:.2f}s" for t, moves in slowest)
    print(f"  slowest {where}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--levels", action="store_true", help="only the search levels' timing")
    parser.add_argument("--games-only", action="store_true", help="skip the levels' timing")
    parser.add_argument("--random", type=int, default=100)
    parser.add_argument("--hard", type=int, default=100)
    parser.add_argument("--self", type=int, default=20)
    parser.add_argument("--first", type=int, default=0,
                        help="the first game's number (a shard of a longer run)")
    parser.add_argument("--times", type=Path, default=None,
                        help="append each perfect move's time to this file")
    args = parser.parse_args()
    if not args.games_only:
        levels()
    if args.levels:
        return
    GAME.analyzer.warm()
    for opponent, count in (("random", args.random), ("hard", args.hard),
                            ("perfect", args.self)):
        if count:
            games(opponent, count, args.first, args.times)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
