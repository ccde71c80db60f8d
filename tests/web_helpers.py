"""Helpers shared by the web table's tests: reaching a decision by random moves."""

from __future__ import annotations

import random

from engine.web.table import Table


def play_until(table: Table, kind: str, rng: random.Random, limit: int = 300) -> None:
    """Random moves at the table (host key) until a decision of ``kind`` is pending."""
    for _ in range(limit):
        if table.state.pending and table.state.pending["kind"] == kind:
            return
        table.act(table.host_key, table.state.current_player, rng.choice(table.state.legal_actions()))
    raise AssertionError(f"no {kind} decision in {limit} moves")
