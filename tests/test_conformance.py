"""The shared invariants, over every shipped game, variant and player count (a bounded soak).

tools/soak.py runs the same check over 100,000+ games.
"""
import pytest

from engine import load_game
from engine.conformance import ConformanceError, check_cards, playout
from engine.documents import known_games, known_variants, resolve

CELLS = [(name, variant, n)
         for name in known_games()
         for variant in [None] + known_variants(resolve(name)[0].parent)
         for n in range(2, 5)]


@pytest.mark.parametrize("name,variant,players", CELLS)
def test_invariants_hold_along_random_playouts(name, variant, players):
    game = load_game(name, variant)
    for seed in range(3):
        result = playout(game, players, seed, limit=250)
        assert result.decisions > 0


def test_every_shipped_game_is_covered():
    assert {"caty-mini", "cat-town", "cats-mansion"} <= {c[0] for c in CELLS}
    assert {("cat-town", "easy"), ("cat-town", "advanced"), ("caty-mini", "older-players")} <= \
        {(c[0], c[1]) for c in CELLS}


def test_a_broken_invariant_is_reported_with_its_seed():
    """The checker itself can fail: a card moved without updating its location is caught."""
    game = load_game("caty-mini")
    state = game.new_game(players=2, seed=1)
    card = state.zones["hand:0"][0]
    state.zones["hand:0"].remove(card)
    state.zones["table"].append(card)
    assert "recorded in hand:0" in check_cards(game, state)
    with pytest.raises(ConformanceError, match="seed 1"):
        from engine.conformance import _fail
        _fail(game, 2, 1, 0, "example")
