"""The search bot against greedy bots on the two games that set its bar: Cat Town at 2 players (it should
win at least 65% of the games) and Cats' Mansion at 3 against two greedy bots (more often than chance, 1/3).
Seats rotated, seeded (``tools/bot_strength.py``'s blocks), played where ``simulate`` plays them (the VM),
in one process unless ``--jobs`` says more: the machine may be shared.

    python tools/mcts_match.py [--bot mcts:1000] [--games 200] [--only cat-town] [--jobs 2] [--first 0]

One JSON row per match (``bot_strength.strength``'s, with the bar), then a table: wins, the 95% interval,
the one-sided binomial p-value against chance, and whether the bar is met (Cat Town: the win rate; Cats'
Mansion: p < 0.05).  Expect minutes per hundred games at ``mcts:1000``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_strength import strength  # tools/, the folder of this script, is on the path when it is run

from engine import load_game

MATCHES = {"cat-town": (2, 0.65), "cats-mansion": (3, None)}  # players, the win rate to reach (None: chance)


def met(row: dict, bar: float | None) -> bool:
    return row["win_rate"] >= bar if bar is not None else row["p_value"] < 0.05


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bot", default="mcts:1000")
    p.add_argument("--rival", default="greedy")
    p.add_argument("--games", type=int, default=200, help="games per match, shared out over the seats")
    p.add_argument("--only", choices=sorted(MATCHES), action="append")
    p.add_argument("--limit", type=int, default=2000, help="decisions before a game is cut off")
    p.add_argument("--jobs", type=int, default=1, help="processes: the same games, shared out")
    p.add_argument("--first", type=int, default=0, help="first seed past each seat's block start")
    args = p.parse_args()
    rows = []
    for name in args.only or MATCHES:
        players, bar = MATCHES[name]
        row = strength(load_game(name), args.bot, args.games, args.limit, args.jobs, args.rival, players, args.first)
        row["bar"] = bar if bar is not None else f"> {row['share']} (p < 0.05)"
        row["met"] = met(row, bar)
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(f"\n{'game':13} {'p':>2} {'bot':14} {'wins':>9} {'rate':>5} {'95% interval':>13} {'p-value':>8}  bar met")
    for r in rows:
        low, high = r["win_rate_95"] or (0, 0)
        print(
            f"{r['game']:13} {r['players']:>2} {r['bot']:14} {r['wins']:>4}/{r['games']:<4} {r['win_rate']:>5.1%} "
            f"{low:>6.1%}–{high:<6.1%} {r['p_value']:>8.2g}  {'yes' if r['met'] else 'NO'}"
        )


if __name__ == "__main__":
    main()
