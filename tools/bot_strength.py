"""How much stronger than random is a bot?  Plays it against random bots at 2 players on every
shipped game, seats alternated, and prints win rates with 95% intervals and its search speed.

    python tools/bot_strength.py --games 40 --bot mcts:100 [--game caty-mini] [--limit 1000] [--jobs 2]

Each game seed ``s`` puts the bot in seat ``s % 2``; draws and cut-off games count as no win.
"""

from __future__ import annotations

import argparse
import json
import time

from engine import load_game
from engine.bots import make_agent
from engine.documents import known_games
from engine.simulate import simulate, wilson_interval


def iterations_per_second(game, spec: str, positions: int = 3) -> float | None:
    """Search iterations a second of an ``mcts`` spec, timed on the first decisions of a few games."""
    agent = make_agent(spec, 0)
    if not hasattr(agent, "search"):
        return None
    done, spent = 0, 0.0
    for seed in range(positions):
        state = game.new_game(players=2, seed=seed)
        seat = state.current_player
        start = time.perf_counter()
        agent.search(state.determinized(seat, seed), seat)
        spent += time.perf_counter() - start
        done += agent.iterations
    return round(done / spent, 1)


def strength(game, spec: str, games: int, limit: int, jobs: int) -> dict:
    first = simulate(game, 2, (games + 1) // 2, seed=0, bots=[spec, "random"], limit=limit, jobs=jobs)
    second = simulate(game, 2, games // 2, seed=10_000, bots=["random", spec], limit=limit, jobs=jobs)
    wins = first["wins"][0] + second["wins"][1]
    losses = first["wins"][1] + second["wins"][0]
    return {
        "game": game.id,
        "bot": spec,
        "games": games,
        "wins": wins,
        "losses": losses,
        "draws": first["draws"] + second["draws"],
        "cut_off": first["cut_off"] + second["cut_off"],
        "errors": first["errors"] + second["errors"],
        "error_samples": first["error_samples"] + second["error_samples"],
        "win_rate": round(wins / games, 3),
        "win_rate_95": wilson_interval(wins, games),
        "seconds": round(first["seconds"] + second["seconds"], 1),
        "iterations_per_second": iterations_per_second(game, spec),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bot", default="mcts:100")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--game", action="append", help="default: every shipped game")
    p.add_argument("--limit", type=int, default=2000, help="decisions before a game is cut off")
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args()
    for name in args.game or known_games():
        print(json.dumps(strength(load_game(name), args.bot, args.games, args.limit, args.jobs)), flush=True)


if __name__ == "__main__":
    main()
