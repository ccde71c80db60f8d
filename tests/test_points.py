"""A seat's points are those the scoring rules give, on the VM, in clones and in determinized copies, and
follow the state at once: never a stale score."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import load_game

RULES = Path(__file__).resolve().parents[1] / "rules"
ALL_GAMES = sorted(p.name for p in RULES.iterdir() if (p / "game.yaml").is_file())


def fresh_points(state, p: int) -> int:
    """Seat ``p``'s points computed by the reference from the rules, term by term."""
    return sum(state._evaluate(s, p) for s in state.game.scoring)


@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_points_are_what_the_scoring_rules_give(game_id):
    """At every decision of random games (clones and copies included), a state's points equal the terms'."""
    game = load_game(RULES / game_id / "game.yaml")
    rnd = random.Random(5)
    checked = 0
    for seed in range(3):
        state = game.new_game(players=game.min_players if seed % 2 else game.max_players, seed=seed)
        for _ in range(250):  # decisions, not time
            copies = [state, state.clone()]
            if not state.is_terminal and rnd.random() < 0.3:
                copies.append(state.determinized(state.current_player, seed=rnd.randrange(1000)))
            for copy in copies:
                for p in range(state.n):
                    assert copy.score_of(p) == fresh_points(copy, p)
                    checked += 1
            if state.is_terminal:
                break
            state.apply(rnd.choice(state.legal_actions()))
    assert checked > 0


def test_points_follow_what_scoring_reads():
    """A card moved into the zone scoring reads changes the points at once, though they were read before."""
    game = load_game(RULES / "cat-town" / "game.yaml", overrides={"scoring.cats.points": "size(hand(p)) * 10"})
    state = game.new_game(players=2, seed=1)
    before = state.score_of(0)
    assert before == 10 * len(state.zones["hand:0"])
    card = state.zones["station"][-1]
    state.zones["station"].pop()
    state.zones["hand:0"].append(card)
    state.loc[card] = "hand:0"
    assert state.score_of(0) == before + 10
