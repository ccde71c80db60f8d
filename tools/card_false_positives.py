"""Does the playtest's "cards that decide games" list cards by luck?  Plays blocks of random games on
disjoint seeds and lists, per block, the cards the report calls deciding.  Random bots pick cards
at random, so a card that truly decides games is listed in most blocks, and a card listed in one
block only is a false positive: at the family-wise 5% level, at most about one block in twenty.

    python tools/card_false_positives.py [--game caty-mini] [--players 2] [--blocks 12] [--games 1000] [--jobs 2]

Exits 1 when a card is listed in more than one block.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from engine.lab.games import Arm, load_arm
from engine.lab.playtest import Plan, measure, run


def deciding_per_block(game: str, players: int, blocks: int, games: int, jobs: int = 1, seed: int = 0) -> list:
    """The deciding cards (with the use that decides) of each block of ``games`` random games, block ``b``
    on seeds ``seed + b·games`` on."""
    compiled = [load_arm(game, Arm())]
    out = []
    for b in range(blocks):
        plan = Plan(game, [Arm()], players, games, seed + b * games, ["random"] * players)
        records, info = run(plan, compiled, jobs)
        deciding = measure(plan, compiled, records, info)["arms"][0]["choice"]["deciding_cards"]
        out.append([f"{c['card']} ({c['use']})" for c in deciding])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="caty-mini")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--blocks", type=int, default=12)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    blocks = deciding_per_block(args.game, args.players, args.blocks, args.games, args.jobs)
    for b, cards in enumerate(blocks):
        print(f"block {b}: {', '.join(cards) or 'no card decides'}")
    listed = Counter(c for cards in blocks for c in set(cards))
    flagged = sum(bool(cards) for cards in blocks)
    print(f"{flagged} of {len(blocks)} blocks list a card; listed in more than one block: {_more(listed)}")
    return 1 if any(n > 1 for n in listed.values()) else 0


def _more(listed: Counter) -> str:
    return ", ".join(f"{c} ({n})" for c, n in listed.items() if n > 1) or "none"


if __name__ == "__main__":
    sys.exit(main())
