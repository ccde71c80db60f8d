"""Adapters for reinforcement-learning and game-AI libraries (the extra ``tabletop[rl]``).

- ``engine.interop.pettingzoo``: ``env(game, players=…, variant=…)`` (AEC) and ``parallel_env(…)``;
- ``engine.interop.open_spiel``: ``load(game, players=…, variant=…)``, a pyspiel game;
- ``engine.interop.gymnasium``: ``make(game, players=…, seat=0, opponents="greedy")``, one seat against bots.

Each is written on the engine's public API alone (``GameDef.info``, ``action_space``, ``State``'s
legal actions, mask, explicit chance, ``determinized``, ``engine.runtime.observe``, ``engine.bots.make``),
and each imports its library only when used: a missing one is one line saying what to install.
"""

from __future__ import annotations

from engine.extras import optional_import
from engine.runtime.gamedef import GameDef, load_game

__all__ = ["game_of", "library"]

INSTALL = "'tabletop[rl]'"


def library(module: str, purpose: str):
    """``module`` of the ``rl`` extra, or one line saying how to install it."""
    return optional_import(module, INSTALL, purpose)


def game_of(game: str | GameDef, variant: str | None = None) -> GameDef:
    """A game definition from a loaded one, or from its name or path (and variant)."""
    return game if isinstance(game, GameDef) else load_game(game, variant=variant)
