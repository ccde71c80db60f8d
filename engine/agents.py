"""Bots: kept importable here; they live in ``engine.bots``."""

from .bots import AGENTS, Agent, GreedyAgent, MctsAgent, RandomAgent, make_agent

__all__ = ["AGENTS", "Agent", "GreedyAgent", "MctsAgent", "RandomAgent", "make_agent"]
