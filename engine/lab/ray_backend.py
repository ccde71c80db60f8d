"""Playtest games on a Ray cluster (``--backend ray``): the same records as a local run for the same seeds.

Workers load the rules themselves (compiled games hold code, which is not shipped), once per
worker and arm, by the name or path given on the command line: every node must be able to read
it (a shared checkout, or Ray's ``runtime_env``).  A task is a batch of one arm's games, played in
one call on the VM where the arm's rules lower (``games.play_batch``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine.extras import optional_import
from engine.lab.games import Batch, load_arm, played
from engine.runtime.lower import native_game

_CACHE: dict = {}  # (game, arm) → compiled game, per worker process


def _play_batch(
    game_name: str, players: int, limit: int, arm, on_vm: bool, batch: Batch
) -> list[tuple[int, dict, float]]:
    """Play a batch of one arm's games in one task (on the VM if ``on_vm``): (index, record, seconds) each."""
    key = (game_name, arm)
    if key not in _CACHE:
        _CACHE[key] = load_arm(game_name, arm)
    game = _CACHE[key]
    return played(game, native_game(game)[0] if on_vm else None, players, batch, limit)


def run_on_ray(plan, on_vm: list[bool], address: str | None, finished: Callable[..., None]) -> int:
    """Run ``plan``'s batches as Ray tasks (arm ``a`` on the VM if ``on_vm[a]``), on the cluster at ``address``
    (None: a local Ray); ``finished(index, record, seconds)`` for each game; returns the CPUs used."""
    ray = optional_import("ray", "'tabletop[cluster]'", "--backend ray")

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    remote = ray.remote(num_cpus=1)(_play_batch)
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        pending = [
            remote.remote(plan.game, plan.players, plan.limit, plan.arms[arm], on_vm[arm], batch)
            for arm, batch in plan.batches(cpus)
        ]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=0.5)
            for ref in ready:
                for index, rec, seconds in ray.get(ref):
                    finished(index, rec, seconds)
        return cpus
    finally:
        if started:
            ray.shutdown()
