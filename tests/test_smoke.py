"""Every shipped game loads and plays to the end with random bots."""

import random

import pytest

from engine import load_game


@pytest.mark.parametrize("variant", [None, "older-players"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_caty_mini_plays_to_the_end(players, variant):
    game = load_game("caty-mini", variant=variant)
    state = game.new_game(players=players, seed=players)
    rnd = random.Random(players)
    while not state.is_terminal:
        state.apply(rnd.choice(state.legal_actions()))
    best = max(state.scores)
    assert state.outcome.reason == "all rounds played"
    assert state.winners == [
        p
        for p in range(players)
        if state.scores[p] == best
        and state.pvars[p]["string"] == max(state.pvars[q]["string"] for q in range(players) if state.scores[q] == best)
    ]
    assert len(state.actions) > 12
