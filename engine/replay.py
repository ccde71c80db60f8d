"""Saved games as rules + variant + seed + action ids, and their exact replay.

A save is small and readable, and replaying it re-runs the rules, so it also
checks them: a save made against other rules (their hash differs) says so,
and an action that is not legal where it was taken stops the replay at that
step instead of silently diverging.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .errors import IllegalAction, StateError

SAVE_FORMAT = 1


def digest(state) -> str:
    """A short fingerprint of a whole state, to confirm a replay is exact."""
    return hashlib.sha256(state.to_json().encode()).hexdigest()[:16]


def save_data(state) -> dict:
    """What ``replay`` needs to rebuild ``state``: plain data, JSON-ready."""
    game = state.game
    return {"format": SAVE_FORMAT, "game": game.id, "variant": game.variant, "rules": game.rules_hash,
            "players": state.n, "seed": state.seed, "actions": state.actions, "digest": digest(state),
            "finished": state.is_terminal}


def write_save(state, path: str | Path) -> None:
    Path(path).write_text(json.dumps(save_data(state), indent=1) + "\n", encoding="utf-8")


def read_save(path: str | Path) -> dict:
    """Read and check the shape of a save file; StateError on anything else."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StateError(f"{path}: no such save file") from None
    except (OSError, ValueError) as exc:
        raise StateError(f"{path}: not a save file ({exc})") from None
    ok = (isinstance(data, dict) and data.get("format") == SAVE_FORMAT and isinstance(data.get("game"), str)
          and isinstance(data.get("players"), int) and isinstance(data.get("seed"), int)
          and isinstance(data.get("actions"), list) and all(isinstance(a, str) for a in data["actions"]))
    if not ok:
        raise StateError(f"{path}: not a save file of this version (format {SAVE_FORMAT})")
    return data


def replay(game, data: dict, *, until: int | None = None, allow_other_rules: bool = False, on_step=None):
    """Rebuild a saved game step by step; returns the state after ``until`` actions (default: all).

    ``on_step(index, action, state)`` is called after each action.
    """
    if data["game"] != game.id or data.get("variant") != game.variant:
        raise StateError(f"the save is of {data['game']}/{data.get('variant')}, not {game.id}/{game.variant}")
    if data.get("rules") != game.rules_hash and not allow_other_rules:
        raise StateError(f"the save was made with other rules (rules {data.get('rules')}, now {game.rules_hash}): "
                         f"the rule files changed since, so the replay could differ; use --force to try anyway")
    state = game.new_game(players=data["players"], seed=data["seed"])
    actions = data["actions"] if until is None else data["actions"][:until]
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise StateError(f"the replay diverged at step {i + 1}: {exc}") from None
        if on_step is not None:
            on_step(i, action, state)
    if until is None and data.get("digest") and digest(state) != data["digest"] \
            and data.get("rules") == game.rules_hash:
        raise StateError("the replay ended in a different state than the one saved")
    return state
