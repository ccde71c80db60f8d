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
    """Takes the action the game's ``bots: greedy`` values rate highest for its seat.

    It rates the options on a determinized copy of the state
    (``State.determinized``): hidden cards are re-dealt, so it knows only what
    its seat may know, and the copy's generator is not the game's.  Each
    option is rated by the value the rules give its kind of decision
    (``choices``), else by the general ``value``; ``choice`` is the option
    itself, ``action`` its id.  Ties go to a seeded random pick among the
    best, except that declining (an option that is no value) wins ties: a bot
    with nothing to gain does not meddle.  Like any epsilon-greedy player it
    makes a random move now and then (``explore``), so two bots whose best
    moves block each other cannot stall forever.  A game without a greedy
    value plays randomly.
    """

    name = "greedy"
    needs_view = False
    needs_state = True
    explore = 0.05

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, view: dict, state=None) -> str:
        actions = view["decision"]["actions"]
        values = state.game.bot_values.get("greedy") if state is not None else None
        if not values or state.pending is None or self.rng.random() < self.explore:
            return self.rng.choice(actions)
        seat = view["decision"]["player"]
        pending = state.pending
        value = values.get(pending["kind"]) or values[""]
        options = dict(zip(pending["ids"], pending["values"]))
        state.memo.clear()
        scored = [(value(state, {"p": seat, "me": seat, "action": a, "choice": options[a]}), a)
                  for a in actions if a in options]
        if not scored:
            return self.rng.choice(actions)
        best = max(v for v, _ in scored)
        top = [a for v, a in scored if v == best]
        declines = [a for a in top if options[a] is None]
        return declines[0] if declines else self.rng.choice(top)


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(kind: str, seed: int = 0) -> Agent:
    """A bot by name; raises KeyError naming the known kinds."""
    try:
        return AGENTS[kind](seed)
    except KeyError:
        raise KeyError(f"unknown bot '{kind}' (known: {', '.join(sorted(AGENTS))})") from None
