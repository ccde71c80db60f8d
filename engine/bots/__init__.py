"""Bots, by name.  Each sees only what its seat may know: its options, or its view, or a
determinized copy of the state (``State.determinized``) — never the true state.

A bot is named by a spec ``KIND[:PARAM]``: ``random``, ``greedy``, ``mcts:200`` (200 iterations
a decision) or ``mcts:2s`` (two seconds a decision).
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.bots.greedy import GreedyAgent
from engine.bots.mcts import MctsAgent
from engine.bots.random_bot import RandomAgent
from engine.errors import TabletopError, quoted

__all__ = ["AGENTS", "Agent", "BotSpecError", "GreedyAgent", "MctsAgent", "RandomAgent", "check_spec", "make_agent"]


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
