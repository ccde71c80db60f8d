"""Playtest games on a Ray cluster (``--backend ray``): the same records as a local run for the same seeds.

Workers load the rules themselves (compiled games hold code, which is not shipped), once per
worker and arm, by the name or path given on the command line: every node must be able to read
it (a shared checkout, or Ray's ``runtime_env``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine.extras import optional_import
from engine.lab.games import load_arm, record_game

_CACHE: dict = {}  # (game, arm) → compiled game, per worker process


def _play(game_name: str, arm, players: int, seed: int, specs: list[str], limit: int) -> dict:
    key = (game_name, arm)
    if key not in _CACHE:
        _CACHE[key] = load_arm(game_name, arm)
    return record_game(_CACHE[key], players, seed, specs, limit)


def run_on_ray(plan, tasks: list, address: str | None, finished: Callable[[int, dict], None]) -> int:
    """Run ``tasks`` as Ray tasks (connecting to ``address``, or a local Ray when None); returns the CPUs used."""
    ray = optional_import("ray", "cluster", "--backend ray")

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    remote = ray.remote(num_cpus=1)(_play)
    try:
        pending = {
            remote.remote(plan.game, plan.arms[arm], plan.players, seed, specs, plan.limit): index
            for index, (arm, _, seed, specs) in enumerate(tasks)
        }
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=min(len(pending), 16), timeout=0.5)
            for ref in ready:
                finished(pending.pop(ref), ray.get(ref))
        return int(ray.cluster_resources().get("CPU", 0))
    finally:
        if started:
            ray.shutdown()
