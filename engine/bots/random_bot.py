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
        self._below = self.rng._randbelow  # type: ignore[attr-defined]  # what choice() draws with: the same picks, one call less

    def act(self, view: dict, state=None) -> str:
        actions = view["decision"]["actions"]
        return actions[self._below(len(actions))]
