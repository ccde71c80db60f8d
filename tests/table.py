"""Low-level helpers shared by the scenario tests of every game: laying cards by hand.

Zones are lists of card indexes with the TOP LAST.
"""

from __future__ import annotations

import random

from engine.lab.conformance import check_cards

# The three cat games and their variants: what the property tests run over.
GAMES = [
    ("caty-mini", None),
    ("caty-mini", "older-players"),
    ("cat-town", None),
    ("cat-town", "easy"),
    ("cat-town", "advanced"),
    ("cats-mansion", None),
]


def put(st, card: int, zone: str, bottom: bool = False) -> None:
    """Move card index ``card`` onto the top (or bottom) of ``zone``, keeping zones and loc consistent."""
    st.zones[st.loc[card]].remove(card)
    if bottom:
        st.zones[zone].insert(0, card)
    else:
        st.zones[zone].append(card)
    st.loc[card] = zone


def accounted(st) -> bool:
    """Every card index is in exactly one zone, and loc says which."""
    return check_cards(st.game, st) is None


def all_strings(data) -> list[str]:
    """Every string value (not dict key) inside plain data."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in all_strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in all_strings(v)]
    return []


def shows_only_own(state, seat: int, families: tuple[str, ...] = ("hand",)) -> bool:
    """The seat's view shows its own cards of each per-player zone family and only the backs of
    the others'; it is offered actions exactly when it is deciding."""
    view = state.view(seat)
    ids = state.game.card_ids
    for p in range(state.n):
        for family in families:
            zone = f"{family}:{p}"
            real = [ids[c] for c in state.zones[zone]]
            if view["zones"][zone] != (real if p == seat else [None] * len(real)):
                return False
    decision = view["decision"]
    return decision is None or ("actions" in decision) == (decision["player"] == seat)


def random_playout(st, rnd: random.Random, limit: int = 5000) -> int:
    """Random legal actions to the end; returns the number of decisions."""
    steps = 0
    while not st.is_terminal:
        assert steps < limit, "game did not end"
        st.apply(rnd.choice(st.legal_actions()))
        steps += 1
    return steps
