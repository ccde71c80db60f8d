"""Cat Town, long runs: seeded random games in every mode and player count end without error.

Each game is dealt with ``seed`` and played by random players drawing from
``random.Random(seed)`` — the same scheme as ``tools/soak.py`` (``--only cat-town``), so a failing seed
from either reproduces in the other.  TABLETOP_LONG_GAMES sets the games per (mode,
players) cell (default 300); they run in chunks of 100 so ``pytest -n`` spreads them.
The full-size run (10,000 per cell) is ``python tools/soak.py --only cat-town --games 10000``.
"""

from __future__ import annotations

import os
import random

import pytest
from cat_town_helpers import cat_town
from table import accounted

GAMES = int(os.environ.get("TABLETOP_LONG_GAMES", "300"))
CHUNK = 100
LIMIT = 5000  # decisions; a real game takes a few hundred — reaching this is a failure


def play_one(mode: str | None, players: int, seed: int):
    """One random game to its end; returns the final state (raises if it does not end)."""
    state = cat_town(mode).new_game(players=players, seed=seed)
    rnd = random.Random(seed)
    for _ in range(LIMIT):
        if state.is_terminal:
            return state
        state.apply(rnd.choice(state.legal_actions()))
    raise AssertionError(f"no end after {LIMIT} decisions")


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(max(1, -(-GAMES // CHUNK))))
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["normal", "easy", "advanced"])
def test_random_games_end_by_the_rules(mode, players, chunk):
    """Every game ends (terminal, no cut-off) by a rule — a player (team) with 6 points or
    only 3 Blocks left — with winners and all 100 cards accounted for."""
    variant = None if mode == "normal" else mode
    game = cat_town(variant)
    failures = []
    for seed in range(chunk * CHUNK, min(GAMES, (chunk + 1) * CHUNK)):
        try:
            state = play_one(variant, players, seed)
            best = max(sum(state.scores[m] for m in game.team_of(players, p)) for p in range(players))
            assert best >= 6 or len(state.vars["ring"]) <= 3, "ended without a reason"
            assert state.winners, "no winners"
            assert accounted(state), "cards lost or doubled"
        except Exception as exc:
            failures.append(f"seed {seed}: {type(exc).__name__}: {exc}")
    assert not failures, "\n".join(failures[:10])
