"""The figures issue notes quote for the information model: each game's action space per player count,
and the CPU cost of one ``determinized`` call at random points of random games.

Run: ``python tools/measure_information.py [--games K]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import load_game
from engine.load.catalogue import list_games


def measure(game, players: int, games: int) -> tuple[int, float]:
    """(action space size, mean CPU milliseconds per ``determinized`` call)."""
    space = len(game.action_space(players))
    spent, calls = 0.0, 0
    for seed in range(games):
        state = game.new_game(players=players, seed=seed)
        rnd = random.Random(seed)
        for step in range(300):
            if state.is_terminal:
                break
            if step % 10 == 0:
                seat = state.current_player
                start = time.process_time()
                state.determinized(seat, seed=step)
                spent += time.process_time() - start
                calls += 1
            state.apply(rnd.choice(state.legal_actions()))
    return space, 1000 * spent / max(calls, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    print(f"{'game':<28}{'players':>8}{'action space':>14}{'determinized ms':>17}")
    for entry in list_games():
        for variant in [None, *(v["id"] for v in entry["variants"])]:
            game = load_game(entry["id"], variant)
            for players in range(game.min_players, game.max_players + 1):
                space, ms = measure(game, players, args.games)
                name = entry["id"] + (f" ({variant})" if variant else "")
                print(f"{name:<28}{players:>8}{space:>14}{ms:>17.2f}")


if __name__ == "__main__":
    main()
