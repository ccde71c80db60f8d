#!/usr/bin/env python
"""Where the native VM's work goes in a game's rules: the nodes each rule function and procedure evaluates.

    python tools/vm_profile.py GAME [--variant V] [--players N] [--games K] [--bot greedy] [--search ITERATIONS]

Plays K whole games between random (or greedy) bots in the VM, or one MCTS decision of ITERATIONS iterations
(`--search`), and prints each rule function's calls, each procedure's statements and the 20 costliest lines
of the rules, with the nodes they evaluated, the costliest first. Counts, not times: the same on every run, so
two versions of a rule can be compared by them. It builds the crate's examples with the feature `profile`
(engine/vm/src/profile.rs) and runs them on the game's IR.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import load_game
from engine.runtime.lower import ir_bytes

CRATE = Path(__file__).resolve().parent.parent / "engine" / "vm"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--variant")
    parser.add_argument("--players", type=int, help="default: the game's fewest")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bot", choices=["random", "greedy"], default="random")
    parser.add_argument("--search", type=int, metavar="ITERATIONS", help="one MCTS decision instead of games")
    args = parser.parse_args()
    game = load_game(args.game, args.variant, reference=True)
    players = str(args.players or game.min_players)
    with tempfile.TemporaryDirectory() as folder:
        ir = Path(folder) / "game.json"
        ir.write_bytes(ir_bytes(game))
        if args.search:
            example = ["search", "--", str(ir), players, str(args.search)]
        else:
            example = ["playouts", "--", str(ir), players, str(args.games)]
        command = ["cargo", "run", "--quiet", "--release", "--features", "profile", "--example", *example]
        return subprocess.run(command, cwd=CRATE, env={**os.environ, "BOT": args.bot}).returncode


if __name__ == "__main__":
    sys.exit(main())
