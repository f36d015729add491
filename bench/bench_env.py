"""Steps a second of the environments (gridgames.envs) with random legal actions, and of
PettingZoo's own `tictactoe_v3` and `connect_four_v3` in the same run, with the ratio (ours
over theirs: above 1 is faster).

Needs the bench extra: pip install -e '.[bench]' (Gymnasium, PettingZoo, and pygame, which
PettingZoo's classic environments import).

Usage: python bench/bench_env.py [--steps 20000]
Prints one line per environment: `name steps_per_s`, then the ratios.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gridgames.core.progress import progress
from gridgames.envs import PuzzleEnv, TwoPlayerEnv


def aec_rate(make: Callable[[], Any], steps: int, seed: int = 0) -> float:
    """Random legal actions in an AEC environment, resetting at each end."""
    rng = np.random.default_rng(seed)
    env = make()
    env.reset(seed=seed)
    started = time.perf_counter()
    for _ in progress(range(steps), steps, "steps"):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset(seed=int(rng.integers(1 << 30)))
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return steps / (time.perf_counter() - started)


def gym_rate(env: Any, steps: int, seed: int = 0) -> float:
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    started = time.perf_counter()
    for _ in progress(range(steps), steps, "steps"):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(rng.choice(legal)) if len(legal)
                                                     else 0)
        if terminated or truncated:
            _, info = env.reset(seed=int(rng.integers(1 << 30)))
    return steps / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20_000)
    args = parser.parse_args()
    from pettingzoo.classic import connect_four_v3, tictactoe_v3

    rates = {
        "gridgames_tictactoe": aec_rate(lambda: TwoPlayerEnv("tictactoe"), args.steps),
        "pettingzoo_tictactoe_v3": aec_rate(tictactoe_v3.env, args.steps),
        "gridgames_trilobite_7x6": aec_rate(lambda: TwoPlayerEnv("trilobite"), args.steps),
        "pettingzoo_connect_four_v3": aec_rate(connect_four_v3.env, args.steps),
        "gridgames_trilobite_10x10_line5": aec_rate(
            lambda: TwoPlayerEnv("trilobite", "width=10,height=10,line=5"), args.steps),
        "gridgames_polar_level1": gym_rate(PuzzleEnv("polar"), args.steps),
        "gridgames_twomino_n6": gym_rate(PuzzleEnv("twomino", "n=6"), args.steps),
        "gridgames_ishido": gym_rate(PuzzleEnv("ishido"), args.steps),
    }
    for name, rate in rates.items():
        print(f"{name} {rate:.0f}", flush=True)
    print(f"ratio tictactoe ours/pettingzoo "
          f"{rates['gridgames_tictactoe'] / rates['pettingzoo_tictactoe_v3']:.2f}")
    print(f"ratio connect-four ours/pettingzoo "
          f"{rates['gridgames_trilobite_7x6'] / rates['pettingzoo_connect_four_v3']:.2f}")


if __name__ == "__main__":
    main()
