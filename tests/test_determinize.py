"""Dealing determinized copies fast changes no copy.

The deal keeps what it found of the hidden zones, and the copy's log and history, from one
decision to the next (``knowledge._hidden``, ``knowledge._grown``), and shuffles with the
numbers ``random.Random.shuffle`` draws: the copies a seed deals are pinned by the games
greedy bots play (tests/test_same_games.py), so they must be the ones a fresh deal gives.
"""

import random

import pytest

from engine import load_game
from engine.load.catalogue import list_games
from engine.runtime import sight


def fresh_copy(state, seat: int, seed: int) -> str:
    """The copy dealt with nothing kept from earlier deals."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sight, "_TABLES", {})
        return state.determinized(seat, seed).to_json()


@pytest.mark.parametrize("name", [entry["id"] for entry in list_games()])
def test_a_copy_dealt_as_the_game_goes_is_the_copy_dealt_afresh(name):
    game = load_game(name)
    for players in sorted({game.min_players, max(game.min_players, min(game.max_players, 3))}):
        state = game.new_game(players=players, seed=1)
        moves = random.Random(1)
        for step in range(120):
            if state.is_terminal:
                break
            for seat in range(players):
                assert state.determinized(seat, step).to_json() == fresh_copy(state, seat, step)
            state.apply(moves.choice(state.legal_actions()))
