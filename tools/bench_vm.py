#!/usr/bin/env python
"""Benchmark: the native VM against the Python runtime, in one run.

    python tools/bench_vm.py [--repeats R] [--games K] [--only TEXT] [--mcts N]

For each row the same work is done on both sides, interleaved (Python, VM, Python, VM, …), timed in CPU
time (``time.process_time``); the report gives each side's median over the repeats and the median of the
per-repeat ratios (Python time / VM time, higher is better).  The Python side is the reference interpreter
(``load_game(..., vm=False)``, the Python backend), driven as ``tabletop simulate`` drives it (``simulate.play_out``,
outcome included); the VM side plays the very same games in one call (``VmGame.playouts``).  Rows:

- ``simulate``: K whole games between the row's bots, the same seeds (and so the same games) on both sides;
- ``api loop``: one game driven from Python a decision at a time (``legal_actions()``, ``apply()``), the same
  actions on both sides;
- ``clone``, ``determinized``: copies of a state taken mid-game;
- ``mcts``: one information-set MCTS decision of N iterations (``--mcts``, default 1000) on a copy taken
  mid-game, the same search on both sides (the Python bot's own loop, and the VM's ``search``); its CPU
  seconds are the figure the targets name.

The clone's size is what a copy allocates (``VmState.clone_bytes``).
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
from engine.bots import MctsAgent, make_agent
from engine.lab.simulate import play_out
from engine.runtime import rng
from engine.runtime.lower import Unsupported, ir_bytes

ROWS = [  # (game, variant, players, bots)
    ("caty-mini", None, 2, "random"),
    ("caty-mini", None, 4, "random"),
    ("cat-town", None, 2, "random"),
    ("cat-town", None, 4, "random"),
    ("cats-mansion", None, 3, "greedy"),
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


def simulate_row(game, vm_game, players: int, bots: str, games: int, repeats: int):
    def python():
        for seed in range(games):
            agents = [make_agent(bots, seed=rng.derive(seed, "bot", s)) for s in range(players)]
            state, _, _ = play_out(game, players, seed, agents)
            state.outcome  # noqa: B018 - the tally reads it

    return interleaved(python, lambda: vm_game.playouts(players, list(range(games)), bots), repeats)


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


def mid_game(game, vm_game, players: int, decisions: int = 12):
    """The same state on both sides, ``decisions`` random decisions in."""
    rnd = random.Random(9)
    py, vm = game.new_game(players, 9), vm_game.new_game(players, 9)
    for _ in range(decisions):
        if py.is_terminal:
            break
        a = rnd.choice(py.legal_actions())
        py.apply(a)
        vm.apply(a)
    return py, vm


def copies_row(game, vm_game, players: int, repeats: int, copy, copies: int):
    py, vm = mid_game(game, vm_game, players)
    return interleaved(lambda: [copy(py) for _ in range(copies)], lambda: [copy(vm) for _ in range(copies)], repeats)


def mcts_row(game, vm_game, players: int, repeats: int, iterations: int):
    py, vm = mid_game(game, vm_game, players, 6)
    seat = py.pending["player"]
    py_copy, vm_copy = py.determinized(seat, 5), vm.determinized(seat, 5)

    def python():
        agent = MctsAgent(1, str(iterations))
        agent._on_vm = lambda *_: None  # the Python search itself, not its call of the VM
        agent.search(py_copy, seat)

    def native():
        agent = MctsAgent(1, str(iterations))
        generators = [list(agent.rng.getstate()[1]), list(agent.policy.rng.getstate()[1])]
        vm_copy.search(seat, [], f"{iterations}/{agent.rollout}", generators, agent.policy.explore)

    return interleaved(python, native, repeats)


def bench_game(label: str, game, vm_game, players: int, bots: str, args) -> None:
    """Every row of one game, printed as it is measured."""
    repeats = args.repeats
    rows = [
        (f"simulate {bots} ×{args.games}", lambda: simulate_row(game, vm_game, players, bots, args.games, repeats)),
        ("api loop (one game)", lambda: api_row(game, vm_game, players, repeats)),
        ("clone ×2000", lambda: copies_row(game, vm_game, players, repeats, lambda s: s.clone(), 2000)),
        ("determinized ×200", lambda: copies_row(game, vm_game, players, repeats, lambda s: s.determinized(0, 3), 200)),
    ]
    if args.mcts:
        rows.append((f"mcts {args.mcts} iterations", lambda: mcts_row(game, vm_game, players, 1, args.mcts)))
    for row, measure in rows:
        py_s, vm_s, ratio = measure()
        print(f"{label + ' ' + row:44} {py_s:10.4f} {vm_s:10.4f} {ratio:7.1f}×", flush=True)
    print(f"{label + ' clone size (bytes)':44} {'':10} {mid_game(game, vm_game, players)[1].clone_bytes():10}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--only", default="")
    parser.add_argument("--mcts", type=int, default=1000, help="iterations of the MCTS row (0: no such row)")
    args = parser.parse_args()
    print(f"{'row':44} {'python s':>10} {'vm s':>10} {'ratio':>8}")
    for name, variant, players, bots in ROWS:
        label = f"{name}{'/' + variant if variant else ''} {players}p"
        if args.only not in label:
            continue
        game = load_game(name, variant, vm=False)
        try:
            vm_game = _vm.VmGame(ir_bytes(load_game(name, variant, reference=True)))
        except (Unsupported, _vm.VmError) as exc:  # a game the VM does not run yet is reported, not fatal
            print(f"{label:44} not on the VM: {exc}")
            continue
        bench_game(label, game, vm_game, players, bots, args)


if __name__ == "__main__":
    main()
