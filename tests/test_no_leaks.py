"""No leaks: what a seat sees does not change when only what is hidden from it changes.

For random positions of every game and variant, every card hidden from a seat is dealt
again at random among the cards that look the same from the back (State.determinized);
the seat's view — zones, variables, decision, log, what it was shown — must be identical.
Finished games are left out: the final count reveals the scores, as at a real table.
"""
import random

import pytest

from engine import load_game

GAMES = [("caty-mini", None), ("caty-mini", "older-players"), ("cat-town", None), ("cat-town", "easy"),
         ("cat-town", "advanced"), ("cats-mansion", None)]


def _positions(game, players, seeds, moves=120):
    """Random positions along random games (a few per game)."""
    for seed in seeds:
        state = game.new_game(players=players, seed=seed)
        rnd = random.Random(seed)
        stops = set(rnd.sample(range(moves), 4))
        for step in range(moves):
            if state.is_terminal:
                break
            if step in stops:
                yield state
            state.apply(rnd.choice(state.legal_actions()))


@pytest.mark.parametrize("name,variant", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_ignore_hidden_information(name, variant, players):
    game = load_game(name, variant)
    changed = 0
    for state in _positions(game, players, seeds=range(4)):
        for seat in range(players):
            for k in range(3):
                other = state.determinized(seat, seed=k)
                if other.zones != state.zones:
                    changed += 1
                assert other.view(seat) == state.view(seat), f"seat {seat} sees a hidden change"
    assert changed > 0, "the hidden information never changed: the test would prove nothing"


def test_a_leak_would_be_caught():
    """The property can fail: seat 0 sees seat 1's hand, which determinizing for seat 0 changes."""
    game = load_game("cat-town")
    state = game.new_game(players=2, seed=3)
    other = state.determinized(0, seed=1)
    assert other.zones["hand:1"] != state.zones["hand:1"] or other.zones["deck"] != state.zones["deck"]
    assert other.view(1) != state.view(1) or other.zones["hand:1"] == state.zones["hand:1"]
