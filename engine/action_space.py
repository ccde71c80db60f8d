"""Every action id a game can offer, derived from the rules' types (placeholder until domains land)."""
from __future__ import annotations


def action_space(game, players: int) -> list[str]:
    raise NotImplementedError
