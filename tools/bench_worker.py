"""One revision's side of ``tools/bench.py --against``: measures on request, in CPU time.

Run as ``python bench_worker.py TREE``: TREE goes first on sys.path, so the
engine measured is that tree's.  Each line on stdin is a JSON job; each answer
is one JSON line ``{"seconds": cpu, "units": done}``.  ``python bench_worker.py
TREE JOB`` runs the one job given and exits: run under valgrind, its count of
instructions (``bench.py --instructions``).  Only the public surface
(``load_game``, ``new_game``, ``clone``, ``apply``, ``legal_actions``) and
``simulate`` (``engine/lab/simulate.py``, or ``engine/simulate.py`` in older trees) are used, so any
revision since the baseline runs it.
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
        result = {"games": games, "search": search}[job["kind"]](job)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
