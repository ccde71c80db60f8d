"""How much stronger than random (or another bot) is a bot?  Plays it against random bots (``--rival``:
another kind, e.g. greedy) on every game that ``tabletop list`` shows, at 2 players (or the game's
smallest count, or ``--players``), seats rotated, and prints its win rate with a 95% interval and a
p-value against its share by chance, and its search speed.

    python tools/bot_strength.py --games 40 --bot mcts:100 [--rival greedy] [--game caty-mini] [--players 3]
        [--limit 1000] [--jobs 2]

Game seed ``s`` of seat ``k``'s block puts the bot in seat ``k``; draws and cut-off games count
as no win.  The share by chance is the bot's side's size over the players (1/2 at 2 players, 1/2
for a seat in one of two partnerships).  "clearly above" means the interval's lower end is above
that share; the p-value is the one-sided binomial chance of at least as many wins at that share.
Search speed is iterations per CPU second (``time.process_time``, so other load on a shared machine
does not lower it), timed on the first decisions of a few games.  The games run where ``simulate``
runs them (the VM for its bots), on ``--jobs`` processes: one by default, for a shared machine.
"""

from __future__ import annotations

import argparse
import json
import math
import time

from engine import load_game
from engine.bots import make_agent
from engine.lab.simulate import simulate, wilson_interval
from engine.load.documents import known_games


def iterations_per_second(game, players: int, spec: str, positions: int = 3) -> float | None:
    """Search iterations per CPU second of an ``mcts`` spec on the first decisions of a few games."""
    agent = make_agent(spec, 0)
    if not hasattr(agent, "search"):
        return None
    done, spent = 0, 0.0
    for seed in range(positions):
        state = game.new_game(players=players, seed=seed)
        seat = state.current_player
        start = time.process_time()
        agent.search(state.determinized(seat, seed), seat)
        spent += time.process_time() - start
        done += agent.iterations or 0
    return round(done / spent, 1) if spent > 0 else None


def binomial_p(wins: int, games: int, share: float) -> float:
    """The chance of at least ``wins`` wins in ``games`` games won each at ``share``, by chance alone."""
    return min(1.0, sum(math.comb(games, k) * share**k * (1 - share) ** (games - k) for k in range(wins, games + 1)))


def strength(
    game,
    spec: str,
    games: int,
    limit: int,
    jobs: int,
    rival: str = "random",
    players: int | None = None,
    first: int = 0,
) -> dict:
    """The bot's record against ``rival`` bots, ``games`` games shared out over the seats.

    Seat k plays the seeds 10,000·k + ``first`` onwards: another ``first`` gives games disjoint from a run
    before (a fresh sample, not more of the same)."""
    players = players or max(2, game.min_players)
    wins = losses = draws = cut_off = errors = 0
    by_seat = []
    samples: list[str] = []
    seconds = 0.0
    for seat in range(players):
        count = games // players + (seat < games % players)
        if not count:
            continue
        bots = [rival] * players
        bots[seat] = spec
        run = simulate(game, players, count, seed=10_000 * seat + first, bots=bots, limit=limit, jobs=jobs)
        wins += run["wins"][seat]
        by_seat.append(f"{run['wins'][seat]}/{count}")
        draws += run["draws"]
        cut_off += run["cut_off"]
        errors += run["errors"]
        samples += run["error_samples"]
        losses += run["finished"] - run["draws"] - run["wins"][seat]
        seconds += run["seconds"]
    share = len(game.team_of(players, 0)) / players
    interval = wilson_interval(wins, games)
    return {
        "game": game.id,
        "players": players,
        "bot": spec,
        "rival": rival,
        "games": games,
        "first": first,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "cut_off": cut_off,
        "errors": errors,
        "error_samples": samples[:3],
        "wins_by_seat": by_seat,
        "win_rate": round(wins / games, 3),
        "win_rate_95": interval,
        "share": round(share, 3),
        "clearly_above": bool(interval and interval[0] > share),
        "p_value": float(f"{binomial_p(wins, games, share):.3g}"),
        "seconds": round(seconds, 1),
        "iterations_per_second": iterations_per_second(game, players, spec),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bot", default="mcts:100")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--rival", default="random", help="the bot in every other seat (default random)")
    p.add_argument("--game", action="append", help="default: every game `tabletop list` shows")
    p.add_argument("--players", type=int, help="default: 2, or the game's smallest count")
    p.add_argument("--limit", type=int, default=2000, help="decisions before a game is cut off")
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args()
    rows = []
    for name in args.game or known_games():
        row = strength(load_game(name), args.bot, args.games, args.limit, args.jobs, args.rival, args.players)
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(f"\n{'game':14} {'p':>2} {'bot':10} {'wins':>9} {'95% interval':>13} {'share':>5}  clearly  p-value  it/s")
    for r in rows:
        low, high = r["win_rate_95"] or (0, 0)
        print(
            f"{r['game']:14} {r['players']:>2} {r['bot']:10} {r['wins']:>4}/{r['games']:<4} "
            f"{low:>6.0%}–{high:<5.0%} {r['share']:>5}  {'yes' if r['clearly_above'] else 'NO':7}  "
            f"{r['p_value']:<7.2g}  {r['iterations_per_second']}"
        )


if __name__ == "__main__":
    main()
