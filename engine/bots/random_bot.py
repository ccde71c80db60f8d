"""The random bot: the baseline every other bot is measured against."""

from __future__ import annotations

import random


class RandomAgent:
    """Uniformly random among the legal actions; seeded for reproducible simulations."""

    name = "random"
    needs_view = False  # the legal actions are all it looks at; simulate skips building views
    needs_state = False

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._bits = self.rng.getrandbits

    def act(self, view: dict, state=None) -> str:
        """``rng.choice(actions)`` written out: the very numbers it draws, without its two Python calls."""
        actions = view["decision"]["actions"]
        n = len(actions)
        k = n.bit_length()
        r = self._bits(k)
        while r >= n:
            r = self._bits(k)
        return actions[r]
