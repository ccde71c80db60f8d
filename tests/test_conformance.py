"""The shared invariants, over every shipped game, variant and player count (a bounded soak).

tools/soak.py runs the same check over 100,000+ games.
"""

import pytest

from engine import load_game
from engine.lab.conformance import ConformanceError, playout
from engine.load.documents import known_games, known_variants, resolve
from engine.runtime.gamedef import GameDef


def _player_counts(name: str) -> range:
    """The game's own player counts, from 2 to 5 at most (Whist is for 4 only, Breakthrough for 2)."""
    game = load_game(name)
    return range(max(2, game.min_players), min(5, game.max_players) + 1)


CELLS = [
    (name, variant, n)
    for name in known_games()
    for variant in [None] + known_variants(resolve(name)[0].parent)
    for n in _player_counts(name)
]


@pytest.mark.parametrize("name,variant,players", CELLS)
def test_invariants_hold_along_random_playouts(name, variant, players):
    game = load_game(name, variant)
    for seed in range(3):
        result = playout(game, players, seed, limit=250)
        assert result.decisions > 0


def test_every_shipped_game_is_covered():
    assert {"caty-mini", "cat-town", "cats-mansion"} <= {c[0] for c in CELLS}
    assert {("cat-town", "easy"), ("cat-town", "advanced"), ("caty-mini", "older-players")} <= {
        (c[0], c[1]) for c in CELLS
    }


def test_a_broken_invariant_is_reported_with_its_seed(monkeypatch):
    """The checker itself can fail: a playout whose state has a card moved without updating its location
    raises ConformanceError naming the game, the seed and the fault."""
    game = load_game("caty-mini")
    real_new_game = GameDef.new_game

    def new_game_with_a_stray_card(self, players, seed):
        state = real_new_game(self, players=players, seed=seed)
        card = state.zones["hand:0"][0]
        state.zones["hand:0"].remove(card)
        state.zones["table"].append(card)
        return state

    monkeypatch.setattr(GameDef, "new_game", new_game_with_a_stray_card)  # a game's facts are frozen
    with pytest.raises(ConformanceError, match=r"caty-mini, 2 players, seed 1, after 0 actions: .*recorded in hand:0"):
        playout(game, 2, 1)
