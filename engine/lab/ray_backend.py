"""Playtest games on a Ray cluster (``--backend ray``): the same records as a local run for the same seeds.

Workers load the rules themselves (compiled games hold code, which is not shipped), once per
worker and arm, by the name or path given on the command line: every node must be able to read
it (a shared checkout, or Ray's ``runtime_env``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine.extras import optional_import
from engine.lab.games import load_arm, timed_game

_CACHE: dict = {}  # (game, arm) → compiled game, per worker process
BATCHES_PER_CPU = 4  # enough batches to keep every CPU busy to the end, few enough to make a task worth its cost


def _play_batch(game_name: str, players: int, limit: int, batch: list[tuple]) -> list[tuple[int, dict, float]]:
    """Play a batch of (index, arm, seed, bots) in one task: (index, record, seconds) each."""
    out = []
    for index, arm, seed, specs in batch:
        key = (game_name, arm)
        if key not in _CACHE:
            _CACHE[key] = load_arm(game_name, arm)
        out.append((index, *timed_game(_CACHE[key], players, seed, specs, limit)))
    return out


def run_on_ray(plan, tasks: list, order: list[int], address: str | None, finished: Callable[..., None]) -> int:
    """Run ``tasks`` (in ``order``) as batches of Ray tasks, on the cluster at ``address`` (None: a local
    Ray); ``finished(index, record, seconds)`` for each game; returns the CPUs used."""
    ray = optional_import("ray", "'tabletop[cluster]'", "--backend ray")

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    remote = ray.remote(num_cpus=1)(_play_batch)
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = max(1, min(50, len(order) // (BATCHES_PER_CPU * cpus)))
        batches = [
            [(i, plan.arms[tasks[i][0]], tasks[i][2], tasks[i][3]) for i in order[first : first + size]]
            for first in range(0, len(order), size)
        ]
        pending = [remote.remote(plan.game, plan.players, plan.limit, batch) for batch in batches]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=0.5)
            for ref in ready:
                for index, rec, seconds in ray.get(ref):
                    finished(index, rec, seconds)
        return cpus
    finally:
        if started:
            ray.shutdown()
