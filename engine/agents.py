"""Bots.  A bot sees only its seat's view, like a player at the table."""
from __future__ import annotations

import random
from typing import Protocol


class Agent(Protocol):
    needs_view: bool

    def act(self, view: dict) -> str:
        """Pick one of ``view["decision"]["actions"]``."""


class RandomAgent:
    """Uniformly random among the legal actions; seeded for reproducible simulations."""

    name = "random"
    needs_view = False  # the legal actions are all it looks at; simulate skips building views

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, view: dict) -> str:
        return self.rng.choice(view["decision"]["actions"])


AGENTS = {"random": RandomAgent}


def make_agent(kind: str, seed: int = 0) -> Agent:
    """A bot by name; raises KeyError naming the known kinds."""
    try:
        return AGENTS[kind](seed)
    except KeyError:
        raise KeyError(f"unknown bot '{kind}' (known: {', '.join(sorted(AGENTS))})") from None
