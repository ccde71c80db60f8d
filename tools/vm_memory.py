#!/usr/bin/env python
"""Memory over many copies on the native VM: a search copies a state and plays on it, millions of times.

    python tools/vm_memory.py [--game NAME] [--players N] [--steps S]

Each step clones the current state and applies a random legal action to the clone, which becomes the
current state (a new game when it ends).  The resident memory is printed at every tenfold of steps: it
stays flat when nothing a copy leaves behind piles up.  Ends non-zero if it grew by more than 10% (and
4 MB) from the first print to the last.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import _vm, load_game
from engine.runtime.lower import ir_bytes


def resident_bytes() -> int:
    """The process's resident memory now (Linux /proc; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except OSError:
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cat-town")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=1_000_000)
    args = parser.parse_args()
    vm_game = _vm.VmGame(ir_bytes(load_game(args.game)))
    rnd = random.Random(1)
    state, games = vm_game.new_game(args.players, 0), 1
    marks, start, checkpoint = [], time.process_time(), 10_000
    print(f"{args.game} {args.players}p: one clone and one action a step; clone size {state.clone_bytes()} bytes")
    for step in range(1, args.steps + 1):
        copy = state.clone()
        legal = copy.legal_actions()
        copy.apply(legal[rnd.randrange(len(legal))])
        if copy.is_terminal():
            copy, games = vm_game.new_game(args.players, games), games + 1
        state = copy
        if step == checkpoint or step == args.steps:
            marks.append(resident_bytes())
            cpu = time.process_time() - start
            print(f"{step:>10} steps  {games:>7} games  RSS {marks[-1] / 2**20:8.1f} MB  {cpu:7.1f} CPU-s")
            checkpoint *= 10
    grew = marks[-1] - marks[0]
    return 1 if grew > max(0.1 * marks[0], 4 * 2**20) else 0


if __name__ == "__main__":
    sys.exit(main())
