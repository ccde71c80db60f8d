"""One revision's side of ``tools/bench.py --against``: measures on request, in CPU time.

Run as ``python bench_worker.py TREE``: TREE goes first on sys.path, so the
engine measured is that tree's.  Each line on stdin is a JSON job; each answer
is one JSON line ``{"seconds": cpu, "units": done}``.  ``python bench_worker.py
TREE JOB`` runs the one job given and exits: run under valgrind, its count of
instructions (``bench.py --instructions``).  Only the public surface
(``load_game``, ``new_game``, ``clone``, ``determinized``, ``apply``, ``legal_actions``, ``make_agent``) and
``simulate`` (``engine/lab/simulate.py``, or ``engine/simulate.py`` in older trees) are used, so any
revision since the baseline runs it.  A tree with the native VM (``engine.runtime.lower.native_game``)
plays the ``api``, ``clone`` and ``determinized`` jobs on it (its ``VmState`` has the same methods), as
``simulate`` and the MCTS bot do on their own, unless the job's ``surface`` is ``State``: then on the public
``State`` over it, as a tool author's loop calls them.
"""

from __future__ import annotations

import json
import random
import sys
import time

sys.path.insert(0, sys.argv[1])

from engine import load_game

try:
    from engine.lab.simulate import simulate
except ModuleNotFoundError:  # a revision from before engine/ was layered by stage
    from engine.simulate import simulate

_games: dict = {}


def _game(name: str, variant: str | None):
    key = (name, variant)
    if key not in _games:
        _games[key] = load_game(f"{sys.argv[1]}/rules/{name}/game.yaml", variant)
    return _games[key]


def _new_game(job: dict):
    """A new game of the job: a public ``State`` for the surface "State", else on the tree's fastest runtime, its
    native ``VmState`` where the tree has one."""
    game = _game(job["game"], job["variant"])
    try:
        from engine.runtime.lower import native_game
    except ModuleNotFoundError:  # a tree from before the VM
        native_game = None
    vm = native_game(game)[0] if native_game and job.get("surface") != "State" else None
    return (vm or game).new_game(job["players"], job["seed"])


def _mid_game(job: dict, rnd: random.Random):
    """The job's game ``warmup`` random decisions in (a fresh start if it ended before)."""
    state = _new_game(job)
    for _ in range(job["warmup"]):
        actions = state.legal_actions()
        if not actions:
            return _new_game(job)
        state.apply(rnd.choice(actions))
    return state if state.legal_actions() else _new_game(job)


def api(job: dict) -> dict:
    """``count`` whole games driven a decision at a time (``legal_actions()``, ``apply()``), random actions."""
    rnd = random.Random(job["seed"])
    start = time.process_time()
    for i in range(job["count"]):
        state = _new_game({**job, "seed": job["seed"] + i})
        for _ in range(job["limit"]):
            actions = state.legal_actions()
            if not actions:
                break
            state.apply(rnd.choice(actions))
    return {"seconds": time.process_time() - start, "units": job["count"]}


def copies(job: dict) -> dict:
    """``count`` copies (``clone()`` or ``determinized(0, seed)``, the job's kind) of a mid-game state."""
    state = _mid_game(job, random.Random(job["seed"]))
    copy = state.clone if job["kind"] == "clone" else lambda: state.determinized(0, job["seed"])
    start = time.process_time()
    for _ in range(job["count"]):
        copy()
    return {"seconds": time.process_time() - start, "units": job["count"]}


def mcts(job: dict) -> dict:
    """``count`` MCTS decisions of ``iterations`` iterations each (the ``mcts:N`` bot's own search) on a
    determinized copy of a mid-game state; the units are iterations."""
    from engine.bots import make_agent

    game = _game(job["game"], job["variant"])
    rnd = random.Random(job["seed"])
    state = game.new_game(players=job["players"], seed=job["seed"])
    for _ in range(job["warmup"]):
        if state.is_terminal:
            break
        state.apply(rnd.choice(state.legal_actions()))
    seat = state.current_player
    copy = state.determinized(seat, job["seed"])
    start = time.process_time()
    for i in range(job["count"]):
        make_agent(f"mcts:{job['iterations']}", seed=job["seed"] + i).search(copy, seat)
    return {"seconds": time.process_time() - start, "units": job["count"] * job["iterations"]}


def games(job: dict) -> dict:
    """``count`` full games by ``bots`` (through simulate, as ``tabletop simulate`` plays them)."""
    game = _game(job["game"], job["variant"])
    start = time.process_time()
    simulate(game, job["players"], job["count"], seed=job["seed"], bots=job["bots"], limit=job["limit"])
    return {"seconds": time.process_time() - start, "units": job["count"]}


def search(job: dict) -> dict:
    """Search-shaped work: from a mid-game state, ``count`` times clone + apply + random rollout."""
    game = _game(job["game"], job["variant"])
    rnd = random.Random(job["seed"])
    root = game.new_game(players=job["players"], seed=job["seed"])
    for _ in range(job["warmup"]):
        if root.is_terminal:
            break
        root.apply(rnd.choice(root.legal_actions()))
    if root.is_terminal:
        root = game.new_game(players=job["players"], seed=job["seed"])
    start = time.process_time()
    for _ in range(job["count"]):
        s = root.clone()
        for _ in range(job["depth"]):
            if s.is_terminal:
                break
            s.apply(rnd.choice(s.legal_actions()))
    return {"seconds": time.process_time() - start, "units": job["count"]}


def main() -> None:
    jobs = [sys.argv[2]] if len(sys.argv) > 2 else sys.stdin
    for line in jobs:
        job = json.loads(line)
        kinds = {"games": games, "search": search, "api": api, "clone": copies, "determinized": copies, "mcts": mcts}
        result = kinds[job["kind"]](job)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
