"""Long seeded runs: over 10,000 random Caty Mini games (2, 3 and 4 players, basic game and the
variant for older players) play to the end without an error, each with exactly 12 tiles laid
and at least one winner, the winners having the most points.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine import load_game

GAMES_PER_CHUNK = 835
CHUNKS = 2
CASES = [(players, variant) for players in (2, 3, 4) for variant in (None, "older-players")]
assert len(CASES) * CHUNKS * GAMES_PER_CHUNK >= 10_000


@cache
def game_of(variant):
    return load_game("caty-mini", variant=variant)


def random_game(game, players: int, seed: int):
    """One game with random legal actions, seeded for reproduction: random_game(game, players, seed)."""
    st = game.new_game(players=players, seed=seed)
    rnd = random.Random(seed)
    while not st.is_terminal:
        st.apply(rnd.choice(st.legal_actions()))
    return st


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players, variant", CASES)
def test_many_random_games_end_properly(players, variant, chunk):
    """End of the game: 12 rounds (12 'lay' decisions), then a winner with the most points."""
    game = game_of(variant)
    first = (players * 10 + CASES.index((players, variant))) * 100_000 + chunk * GAMES_PER_CHUNK
    for seed in range(first, first + GAMES_PER_CHUNK):
        st = random_game(game, players, seed)
        lays = sum(action.startswith("lay ") for action in st.actions)
        assert lays == 12, f"seed {seed}: {lays} tiles laid"
        scores, winners = st.scores, st.winners
        assert winners, f"seed {seed}: no winner"
        assert all(scores[w] == max(scores) for w in winners), f"seed {seed}: {scores} {winners}"
        assert all(p["string"] >= 0 for p in st.pvars), f"seed {seed}"
