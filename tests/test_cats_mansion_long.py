"""Cats' Mansion, long runs: seeded games between greedy bots end in a win; random bots never
hit an error.

Greedy games use ``engine.lab.simulate.simulate`` one game at a time: ``simulate(game, players, 1,
seed=s, bots="greedy")`` plays exactly the game that ``simulate(game, players, G, seed=0)``
plays as its game ``s`` (game seed ``s``, bot seeds ``131·s + seat``), so the seed of every
stalled game is reported and reproduces with ``tabletop simulate cats-mansion --players N
--games 1 --seed s --bots greedy``.

TABLETOP_MANSION_GAMES sets the greedy games per player count (default 2,000); they run in
chunks of 250 so ``pytest -n`` spreads them.
"""

from __future__ import annotations

import os

import pytest
from mansion_helpers import mansion

from engine.bots import GreedyAgent
from engine.lab.simulate import simulate

GAMES = int(os.environ.get("TABLETOP_MANSION_GAMES", "2000"))
CHUNK = 250
RANDOM_GAMES = 30
RANDOM_PART = 10  # random games per test, so pytest -n spreads them
RANDOM_LIMIT = 2000

# Greedy games that stall until the 5,000-decision cut-off when the bots never make a random move: two
# cats, both identified, in each other's way at a door (seed 159 at 2 players: white on b5 and grey on
# b4, at the kitchen–library door), the greedy value measuring distance without pieces.  The bot's
# occasional random move (GreedyAgent.explore) ends them.
STALLING = [(2, 159), (2, 353), (2, 355), (2, 534), (3, 2)]


def play_greedy(players: int, seeds) -> tuple[int, list[int], list[str]]:
    """Wins, stalled seeds and error samples of the greedy games with these seeds."""
    game = mansion()
    wins, cut, errors = 0, [], []
    for s in seeds:
        r = simulate(game, players, 1, seed=s, bots="greedy")
        wins += sum(r["wins"])
        if r["cut_off"]:
            cut.append(s)
        if r["errors"]:
            errors += r["error_samples"]
    return wins, cut, errors


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(max(1, -(-GAMES // CHUNK))))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_games_end_in_a_win(players, chunk):
    """Every greedy game ends with exactly one winner, no rule error and no cut-off."""
    seeds = range(chunk * CHUNK, min(GAMES, (chunk + 1) * CHUNK))
    wins, cut, errors = play_greedy(players, seeds)
    assert errors == []
    assert cut == [], f"greedy games at {players} players stalled (cut off) with seeds {cut}"
    assert wins == len(seeds)


@pytest.mark.parametrize("players, seed", STALLING)
def test_greedy_games_that_stall_without_random_moves_end_in_a_win(players, seed, monkeypatch):
    r = simulate(mansion(), players, 1, seed=seed, bots="greedy")
    assert r["errors"] == 0
    assert r["cut_off"] == 0 and sum(r["wins"]) == 1
    monkeypatch.setattr(GreedyAgent, "explore", 0.0)
    assert simulate(mansion(), players, 1, seed=seed, bots="greedy")["cut_off"] == 1, "no longer a stalling game"


@pytest.mark.slow
@pytest.mark.parametrize("part", range(RANDOM_GAMES // RANDOM_PART))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_never_fail(players, part):
    """Random bots: no rule error in 30 games of up to 2,000 decisions per player count (cut-offs
    are allowed: random moves seldom walk a cat onto its object); every game that ended has one
    winner."""
    r = simulate(
        mansion(), players, RANDOM_PART, seed=1000 * players + RANDOM_PART * part, bots="random", limit=RANDOM_LIMIT
    )
    assert r["errors"] == 0, r["error_samples"]
    assert sum(r["wins"]) == RANDOM_PART - r["cut_off"]
    assert r["ties"] == 0
