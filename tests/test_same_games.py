"""Speed work changes how the rules run, never which games they play.

For every shipped game and variant, at every player count, a few seeded games
between random bots (and one between greedy bots) are reduced to a digest of
their actions and final scores.  The digests are pinned in
``tests/data/pinned_games.json``: a change that makes a seed play another game
fails here and names the game.  When a change is meant to alter games (new
rules, a new ruling), say so in its commit and pin again:

    python tests/test_same_games.py --pin
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from engine import load_game
from engine.bots import make_agent
from engine.lab.simulate import play_out
from engine.load.catalogue import list_games
from engine.runtime import rng

PINNED = Path(__file__).parent / "data" / "pinned_games.json"
SEEDS = range(3)
DECISIONS = 400  # per game: the digest covers the game so far if it runs longer


def cases() -> list[tuple[str, str | None]]:
    return [(g["id"], None) for g in list_games()] + [(g["id"], v["id"]) for g in list_games() for v in g["variants"]]


def digest(game, players: int, seed: int, bots: str) -> str:
    """The actions and final scores of one seeded game, as a short hash."""
    agents = [make_agent(bots, seed=rng.derive(seed, "bot", s)) for s in range(players)]
    state, _, _ = play_out(game, players, seed, agents, DECISIONS)
    text = "\n".join(state.actions) + f"\n{state.scores}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digests(name: str, variant: str | None) -> dict[str, str]:
    game = load_game(name, variant)
    out = {}
    for players in range(game.min_players, game.max_players + 1):
        for seed in SEEDS:
            out[f"{players}p seed {seed}"] = digest(game, players, seed, "random")
        out[f"{players}p greedy"] = digest(game, players, 0, "greedy")
    return out


def key(name: str, variant: str | None) -> str:
    return name if variant is None else f"{name}/{variant}"


@pytest.mark.parametrize("name, variant", cases(), ids=[key(n, v) for n, v in cases()])
def test_the_same_seeds_play_the_same_games(name, variant):
    pinned = json.loads(PINNED.read_text())
    assert key(name, variant) in pinned, f"{key(name, variant)} is not pinned: run python {__file__} --pin"
    assert digests(name, variant) == pinned[key(name, variant)]


if __name__ == "__main__" and sys.argv[1:] == ["--pin"]:
    PINNED.write_text(json.dumps({key(n, v): digests(n, v) for n, v in cases()}, indent=1, sort_keys=True) + "\n")
