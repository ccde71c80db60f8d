#!/usr/bin/env python
"""Benchmark: the native VM against the Python runtime, in one run.

    python tools/bench_vm.py [--repeats R] [--games K] [--only TEXT]

For each row the same work is done on both sides, interleaved (Python, VM, Python, VM, …), timed in CPU
time (``time.process_time``); the report gives each side's median over the repeats and the median of the
per-repeat ratios (Python time / VM time, higher is better).  The Python side is the runtime users run
today (``load_game``: the generated code), driven as ``tabletop simulate`` drives it (``simulate.play_out``
with random bots, outcome included); the VM side plays the same number of games in one call
(``VmGame.playouts``).  Rows:

- ``simulate``: K whole games between random bots (different seeds on each side: the bots draw differently);
- ``api loop``: one game driven from Python a decision at a time (``legal_actions()``, ``apply()``), the same
  actions on both sides;
- ``clone``: copies of a state taken mid-game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import _vm, load_game
from engine.bots.random_bot import RandomAgent
from engine.lab.simulate import play_out
from engine.runtime.lower import Unsupported, ir_bytes

ROWS = [  # (game, variant, players, bots)
    ("caty-mini", None, 2, "random"),
    ("caty-mini", None, 4, "random"),
    ("cat-town", None, 2, "random"),
    ("cat-town", None, 4, "random"),
    ("cats-mansion", None, 3, "random"),
    ("goofspiel", None, 2, "random"),
    ("whist", None, 4, "random"),
    ("hex", None, 2, "random"),
]


def cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def interleaved(python, vm, repeats: int) -> tuple[float, float, float]:
    """(median Python seconds, median VM seconds, median of the ratios)."""
    py_times, vm_times = [], []
    for _ in range(repeats):
        py_times.append(cpu(python))
        vm_times.append(cpu(vm))
    ratios = [p / max(v, 1e-9) for p, v in zip(py_times, vm_times)]
    return statistics.median(py_times), statistics.median(vm_times), statistics.median(ratios)


def simulate_row(game, vm_game, players: int, games: int, repeats: int):
    def python():
        for seed in range(games):
            state, _, _ = play_out(game, players, seed, [RandomAgent(seed * 31 + s) for s in range(players)])
            state.outcome  # noqa: B018 - the tally reads it

    return interleaved(python, lambda: vm_game.playouts(players, list(range(games))), repeats)


def api_row(game, vm_game, players: int, repeats: int):
    rnd = random.Random(5)
    state, actions = game.new_game(players, 5), []
    while not state.is_terminal:
        actions.append(rnd.choice(state.legal_actions()))
        state.apply(actions[-1])

    def drive(new):
        st = new()
        for a in actions:
            st.legal_actions()
            st.apply(a)

    return interleaved(
        lambda: drive(lambda: game.new_game(players, 5)), lambda: drive(lambda: vm_game.new_game(players, 5)), repeats
    )


def clone_row(game, vm_game, players: int, repeats: int, copies: int = 2000):
    rnd = random.Random(9)
    py, vm = game.new_game(players, 9), vm_game.new_game(players, 9)
    for _ in range(12):
        if py.is_terminal:
            break
        a = rnd.choice(py.legal_actions())
        py.apply(a)
        vm.apply(a)

    def py_clones():
        for _ in range(copies):
            py.clone()

    def vm_clones():
        for _ in range(copies):
            vm.clone()

    return interleaved(py_clones, vm_clones, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    print(f"{'row':44} {'python s':>10} {'vm s':>10} {'ratio':>8}")
    for name, variant, players, bots in ROWS:
        label = f"{name}{'/' + variant if variant else ''} {players}p"
        if args.only not in label:
            continue
        game = load_game(name, variant)
        try:
            vm_game = _vm.VmGame(ir_bytes(load_game(name, variant, reference=True)))
        except (Unsupported, _vm.VmError) as exc:  # a game the VM does not run yet is reported, not fatal
            print(f"{label:44} not on the VM: {exc}")
            continue
        for row, result in (
            (f"simulate {bots} ×{args.games}", simulate_row(game, vm_game, players, args.games, args.repeats)),
            ("api loop (one game)", api_row(game, vm_game, players, args.repeats)),
            ("clone ×2000", clone_row(game, vm_game, players, args.repeats)),
        ):
            py_s, vm_s, ratio = result
            print(f"{label + ' ' + row:44} {py_s:10.4f} {vm_s:10.4f} {ratio:7.1f}×", flush=True)


if __name__ == "__main__":
    main()
