#!/usr/bin/env python
"""Soak: many seeded games of every shipped game on the reference and on the native VM, compared.

    python tools/vm_soak.py [--games N] [--only TEXT] [--start SEED] [--bots KIND]

Each game is played from the same seeded random choices on both backends; the run reports every game whose
actions, log or final state differ (the first decision where they part), and ends non-zero if any did.  The
suite's tests/test_vm_differential.py plays a few games per case; this plays thousands.  With ``--bots`` (say
``greedy``), a bot of that kind plays each seat instead: the VM's playouts are compared with the games
`simulate` plays in Python (decisions, scores, results, why the game ended, or the same error).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import _vm, load_game
from engine.errors import TabletopError
from engine.lab.simulate import one_game
from engine.load.documents import data_root, known_games, known_variants
from engine.runtime.lower import ir_bytes


def parted(game, vm_game, players: int, seed: int) -> str | None:
    """Where the two backends part in this game (None: nowhere)."""
    ref, vm = game.new_game(players, seed), vm_game.new_game(players, seed)
    rnd = random.Random(seed)
    decision = 0
    while not ref.is_terminal:
        if ref.legal_actions() != vm.legal_actions() or ref.to_act != vm.to_act():
            return f"decision {decision}: the options differ"
        seat = rnd.choice(ref.to_act)
        action = rnd.choice(ref.legal_actions(seat))
        ref.apply(action, seat=seat)
        vm.apply(action, seat)
        decision += 1
    if not vm.is_terminal():
        return "the VM's game goes on after the reference's ended"
    if ref.to_data() != json.loads(vm.to_json()):
        return f"the final states differ (after {decision} decisions)"
    return None


def bots_parted(game, vm_game, players: int, seeds: range, kind: str) -> list[str]:
    """Where the VM's playouts of ``seeds`` between bots of ``kind`` differ from Python's games."""
    out = []
    for seed, on_vm in zip(seeds, vm_game.playouts(players, list(seeds), kind), strict=True):
        try:
            expected = one_game(game, players, seed, [kind] * players)
        except TabletopError as exc:
            expected = {"error": str(exc)}
        got = {k: on_vm.get(k) for k in expected}
        if got != expected:
            out.append(f"seed {seed}: Python {expected}, the VM {got}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--only", default="")
    parser.add_argument("--bots", default="", help="a bot kind to play every seat (default: seeded random choices)")
    args = parser.parse_args()
    failures = 0
    for name in known_games():
        for variant in [None, *known_variants(data_root() / "rules" / name)]:
            label = f"{name}{'/' + variant if variant else ''}"
            if args.only not in label:
                continue
            game = load_game(name, variant, reference=True)
            vm_game = _vm.VmGame(ir_bytes(game))
            for players in range(game.min_players, game.max_players + 1):
                start = time.process_time()
                seeds = range(args.start, args.start + args.games)
                if args.bots:
                    wheres = bots_parted(game, vm_game, players, seeds, args.bots)
                else:
                    wheres = [f"seed {seed}: {w}" for seed in seeds if (w := parted(game, vm_game, players, seed))]
                for where in wheres:
                    failures += 1
                    print(f"{label} {players}p {where}", flush=True)
                took = time.process_time() - start
                print(f"{label} {players}p: {args.games} games compared in {took:.1f} CPU-s", flush=True)
    print("all games alike" if not failures else f"{failures} games differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
