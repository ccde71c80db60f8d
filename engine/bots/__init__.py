"""Bots, by name.  Each sees only what its seat may know: its options, or its view, or a
determinized copy of the state (``State.determinized``) — never the true state.

A bot is named by a spec ``KIND[:PARAM]``: ``random``, ``greedy``, ``mcts:200`` (200 iterations
a decision), ``mcts:0.2s`` (0.2 CPU seconds a decision) or either with ``/R``, rollouts of at most
R decisions (``mcts:1000/30``).  ``make(kind, seat, seed)`` gives one playing a
seat: ``bot.act(state)`` hands it what that seat may know of the true state, and returns its action.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.bots.greedy import GreedyAgent
from engine.bots.mcts import MctsAgent
from engine.bots.random_bot import RandomAgent
from engine.errors import TabletopError, quoted
from engine.runtime import rng

__all__ = [
    "AGENTS",
    "Agent",
    "BotSpecError",
    "GreedyAgent",
    "MctsAgent",
    "RandomAgent",
    "SeatedBot",
    "check_spec",
    "make",
    "make_agent",
]


class Agent(Protocol):
    needs_view: bool
    needs_state: bool

    def act(self, view: dict, state=None) -> str:
        """Pick one of ``view["decision"]["actions"]``; ``state`` is a determinized copy if asked for."""


class BotSpecError(TabletopError):
    """A bot spec that names no bot, or a parameter the bot cannot take."""


AGENTS: dict[str, Any] = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MctsAgent}


def check_spec(spec: str, game=None) -> str:
    """``spec`` if it names a bot that can play ``game``; raises BotSpecError in one line otherwise."""
    make_agent(spec, 0, game)
    return spec


def make_agent(spec: str, seed: int = 0, game=None) -> Agent:
    """A bot from its spec ``KIND[:PARAM]``; with ``game``, also checks the bot can play it."""
    kind, sep, param = str(spec).partition(":")
    cls = AGENTS.get(kind)
    if cls is None:
        raise BotSpecError(f"unknown bot {quoted(kind)} (known: {', '.join(sorted(AGENTS))}; e.g. mcts:200)")
    if sep and not getattr(cls, "takes", None):
        raise BotSpecError(f"bot '{kind}' takes no parameter, got {quoted(spec)}")
    try:
        agent = cls(seed, param) if sep else cls(seed)
    except ValueError as exc:
        raise BotSpecError(f"bot {quoted(spec)}: {exc}") from None
    if game is not None and hasattr(agent, "check"):
        agent.check(game)
    return agent


class SeatedBot:
    """A bot playing one seat: it is given only what that seat may know of the true state."""

    def __init__(self, agent: Agent, seat: int, seed: int):
        self.agent, self.seat, self.seed = agent, seat, seed
        self.decisions = 0  # each copy it is given is dealt from its own seed

    def act(self, state) -> str:
        """The bot's action for its seat, which must be one of ``state.to_act``."""
        seat, agent = self.seat, self.agent
        if seat not in state.to_act:
            raise TabletopError(f"seat {seat} is not to act: seats {state.to_act} are")
        if agent.needs_view:
            view = state.view(seat)
        else:
            view = {"decision": {"player": seat, "actions": state.legal_actions(seat)}}
        copy = state.determinized(seat, rng.derive(self.seed, "copy", self.decisions)) if agent.needs_state else None
        self.decisions += 1
        return agent.act(view, copy)


def make(kind: str, seat: int, seed: int = 0, game=None) -> SeatedBot:
    """The bot ``kind`` (a spec ``KIND[:PARAM]``) playing ``seat``, seeded from ``seed``; with ``game``, checked
    that it can play it.  BotSpecError in one line for a spec that names no bot."""
    return SeatedBot(make_agent(kind, rng.derive(seed, "bot", seat), game), seat, seed)
