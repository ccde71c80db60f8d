"""Train a small policy on Goofspiel through the Gymnasium adapter and show that it beats a random player.

    python tools/rl_example.py                        # 10,000 training games (about 30 s), then 1,000 to measure
    python tools/rl_example.py --episodes 200 --games 100

The learner is tabular Monte-Carlo control (epsilon-greedy, on the CPU, no library beyond numpy): its
state is the prize turned up (the observation's ``zone prize`` part), its action a bid (an index into
the game's action space, chosen among those the action mask allows).  The reward is the game's own
(+1 a win, −1 a loss, 0 a draw), given at the end.  Nothing here is written for the engine: an RL
author's loop over ``reset``/``step`` with the mask, unchanged.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.interop.gymnasium import make


class Learner:
    """Q values per (prize, bid), learned from whole episodes."""

    def __init__(self, env, seed: int, epsilon: float = 0.1, step: float = 0.05):
        prize = env.unwrapped.table.encoding.part("zone prize")
        self.prize = slice(prize.offset, prize.offset + prize.size)
        self.q = np.zeros((prize.size + 1, env.action_space.n))
        self.rng = np.random.default_rng(seed)
        self.epsilon, self.step = epsilon, step

    def key(self, observation) -> int:
        shown = np.flatnonzero(observation["observation"][self.prize])
        return int(shown[0]) if len(shown) else len(self.q) - 1

    def act(self, observation, explore: bool) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if explore and self.rng.random() < self.epsilon:
            return int(self.rng.choice(legal))
        values = self.q[self.key(observation), legal]
        return int(legal[np.argmax(values)])

    def learn(self, visited: list[tuple[int, int]], reward: float) -> None:
        for state, action in visited:
            self.q[state, action] += self.step * (reward - self.q[state, action])


def episode(env, choose, key, seed: int) -> tuple[float, list[tuple[int, int]]]:
    """One game: the reward at its end, and the (state key, action) of every decision taken."""
    observation, _ = env.reset(seed=seed)
    visited = []
    while True:
        action = choose(observation)
        visited.append((key(observation), action))
        observation, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return reward, visited


def win_rate(env, choose, key, games: int, seed: int) -> float:
    return sum(episode(env, choose, key, seed + g)[0] > 0 for g in range(games)) / games


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10_000, help="training games")
    parser.add_argument("--games", type=int, default=1000, help="games to measure each policy on")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = make("goofspiel", players=2, opponents="random")
    learner = Learner(env, args.seed)
    guesser = np.random.default_rng(args.seed + 1)  # the random policy
    for e in range(args.episodes):
        reward, visited = episode(env, lambda o: learner.act(o, explore=True), learner.key, args.seed + e)
        learner.learn(visited, reward)
    measured = 10**6  # games measured on seeds the training never saw
    trained = win_rate(env, lambda o: learner.act(o, explore=False), learner.key, args.games, measured)
    baseline = win_rate(
        env, lambda o: int(guesser.choice(np.flatnonzero(o["action_mask"]))), learner.key, args.games, measured
    )
    print(f"after {args.episodes} training games, against a random opponent over {args.games} games:")
    print(f"  trained policy wins {trained:.1%}")
    print(f"  random policy wins  {baseline:.1%}")
    return {"trained": trained, "random": baseline}


if __name__ == "__main__":
    main()
