"""Helpers for the gallery games' tests (breakthrough, whist, goofspiel, crazy-eights).

Zones are lists of card indexes with the TOP LAST.  A scenario arranges the table while a decision
is pending and then calls ``reoffer``, which asks the same decision again, so the options offered
match the arranged table (the gallery games compute their options inside the ``choose``).
"""

from __future__ import annotations

import random
from functools import cache

from table import put

from engine import load_game

__all__ = ["card", "fetch", "game", "ids", "random_games", "reoffer"]


@cache
def game(name: str):
    """A gallery game's rules (loaded once)."""
    return load_game(name)


def reoffer(st) -> None:
    """Ask the pending decision again, on the table as it now lies."""
    assert st.pending is not None, "no decision is pending"
    st.pending = None
    st._run()


def ids(st, zone: str) -> list[str]:
    """Card ids of a zone, TOP FIRST."""
    return [st.game.card_ids[c] for c in reversed(st.zones[zone])]


def card(st, cid: str) -> int:
    """The index of the card with this id (the first, if it has copies)."""
    return st.game.first_card[cid]


def fetch(st, cid: str, zone: str, bottom: bool = False, source: str | None = None) -> int:
    """Move the card with this id (a copy not yet in ``zone``; from ``source`` if given) onto ``zone``."""
    for i, c in enumerate(st.game.card_ids):
        if c == cid and st.loc[i] != zone and (source is None or st.loc[i] == source):
            put(st, i, zone, bottom)
            return i
    raise AssertionError(f"no {cid} outside {zone}")


def random_games(name: str, players: int, seeds, limit: int = 3000):
    """Seeded random playouts to the end; yields each finished state (bounded by ``limit`` decisions)."""
    g = game(name)
    for seed in seeds:
        st = g.new_game(players=players, seed=seed)
        rnd = random.Random(seed)
        steps = 0
        while not st.is_terminal:
            assert steps < limit, f"{name} seed {seed} did not end in {limit} decisions"
            st.apply(rnd.choice(st.legal_actions()))
            steps += 1
        yield st
