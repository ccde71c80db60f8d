"""Bots.  A bot sees only its seat's view, like a player at the table."""
from __future__ import annotations

import random
from typing import Protocol


class Agent(Protocol):
    needs_view: bool
    needs_state: bool

    def act(self, view: dict, state=None) -> str:
        """Pick one of ``view["decision"]["actions"]``; ``state`` is a determinized copy if asked for."""


class RandomAgent:
    """Uniformly random among the legal actions; seeded for reproducible simulations."""

    name = "random"
    needs_view = False  # the legal actions are all it looks at; simulate skips building views
    needs_state = False

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, view: dict, state=None) -> str:
        return self.rng.choice(view["decision"]["actions"])


class GreedyAgent:
    """Takes the action the game's ``bots: greedy: value`` rates highest for its seat.

    It rates actions on a determinized copy of the state (``State.determinized``):
    hidden cards are re-dealt at random, so it knows only what its seat's view
    shows.  Ties go to a seeded random pick among the best, except that ``pass``
    and ``done`` win ties (a bot with nothing to gain does not meddle).  Like any
    epsilon-greedy player it makes a random move now and then (``explore``), so
    two bots whose best moves block each other cannot stall forever.  A game
    without a greedy value plays randomly.
    """

    name = "greedy"
    needs_view = False
    needs_state = True
    explore = 0.05

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, view: dict, state=None) -> str:
        actions = view["decision"]["actions"]
        value = state.game.bot_values.get("greedy") if state is not None else None
        if value is None or self.rng.random() < self.explore:
            return self.rng.choice(actions)
        seat = view["decision"]["player"]
        state.memo.clear()
        scored = [(value(state, {"p": seat, "me": seat, "action": a}), a) for a in actions]
        best = max(v for v, _ in scored)
        top = [a for v, a in scored if v == best]
        for quiet in ("pass", "done"):
            if quiet in top:
                return quiet
        return self.rng.choice(top)


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(kind: str, seed: int = 0) -> Agent:
    """A bot by name; raises KeyError naming the known kinds."""
    try:
        return AGENTS[kind](seed)
    except KeyError:
        raise KeyError(f"unknown bot '{kind}' (known: {', '.join(sorted(AGENTS))})") from None
