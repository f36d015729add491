"""Train a tabular Q-learning agent at tic-tac-toe against our "random" AI, then play it
against "random" and "perfect" and print its win, draw and loss rates.

    pip install 'gridgames[rl]'
    python examples/rl_tictactoe.py [--episodes 30000] [--seed 0]

The agent plays X (it moves first) through `gridgames.envs.VsAiEnv`: the other seat is our
AI at the level asked, the observation is the board's two planes and the legal moves come in
`info["action_mask"]`. Q-learning keeps a value per (board, action) and learns from the
reward at the end of each game (+1 win, 0 draw, -1 loss). Against random play it learns to
win most games and, after enough games, to lose none; "perfect" cannot be beaten, so the best
it can do there is draw.
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from gridgames.envs import VsAiEnv


def key(observation: np.ndarray) -> bytes:
    return observation.tobytes()


def best(q: dict, state: bytes, legal: np.ndarray) -> int:
    values = q[state]
    return int(legal[np.argmax(values[legal])])


def train(episodes: int, seed: int, alpha: float = 0.3, gamma: float = 0.95) -> dict:
    """Q-learning with an exploration rate falling from 1 to 0.05."""
    rng = np.random.default_rng(seed)
    env = VsAiEnv("tictactoe", level="random", seat=0)
    q: dict[bytes, np.ndarray] = defaultdict(lambda: np.zeros(9))
    for episode in range(episodes):
        explore = max(0.05, 1 - episode / (0.7 * episodes))
        observation, info = env.reset(seed=int(rng.integers(1 << 30)))
        done = False
        while not done:
            state, legal = key(observation), np.flatnonzero(info["action_mask"])
            action = int(rng.choice(legal)) if rng.random() < explore else best(q, state, legal)
            observation, reward, done, _, info = env.step(action)
            future = 0.0
            if not done:
                future = q[key(observation)][np.flatnonzero(info["action_mask"])].max()
            q[state][action] += alpha * (reward + gamma * future - q[state][action])
    return q


def play(q: dict, level: str, games: int, seed: int) -> dict[str, int]:
    env = VsAiEnv("tictactoe", level=level, seat=0)
    rng = np.random.default_rng(seed)
    results = {"win": 0, "draw": 0, "loss": 0}
    for _ in range(games):
        observation, info = env.reset(seed=int(rng.integers(1 << 30)))
        done, reward = False, 0.0
        while not done:
            action = best(q, key(observation), np.flatnonzero(info["action_mask"]))
            observation, reward, done, _, info = env.step(action)
        results["win" if reward > 0 else "loss" if reward < 0 else "draw"] += 1
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    q = train(args.episodes, args.seed)
    print(f"trained on {args.episodes} games against random ({len(q)} boards seen)")
    for level in ("random", "perfect"):
        results = play(q, level, 100, args.seed + 1)
        print(f"against {level}: {results['win']} won, {results['draw']} drawn, "
              f"{results['loss']} lost of 100")


if __name__ == "__main__":
    main()
