"""Saved games as rules + variant + seed + action ids, and their exact replay.

A save is small and readable, and replaying it re-runs the rules, so it also
checks them: a save made against other rules (their hash differs) says so,
and an action that is not legal where it was taken stops the replay at that
step instead of silently diverging.  A save records the engine version and the
formats it was written with (engine/load/formats.py), so a save that does not
replay here says which tabletop wrote it and can replay it.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from engine.errors import IllegalAction, LoadError, StateError
from engine.load.documents import known_games, shipped_folder
from engine.load.formats import ENGINE_VERSION, SAVE_FORMAT, SAVE_FORMATS
from engine.load.safe_files import is_inside, is_name, read_text, write_text

MAX_SAVE_BYTES = 20_000_000
MAX_PATH = 4096  # Linux's PATH_MAX: a longer name is no folder
_DIGEST = re.compile(r"[0-9a-f]{16}")
_VERSION = re.compile(r"\d{1,4}\.\d{1,4}\.\d{1,4}")


def digest(state) -> str:
    """A short fingerprint of a whole state, to confirm a replay is exact."""
    return hashlib.sha256(state.to_json().encode()).hexdigest()[:16]


def save_data(state) -> dict:
    """What a replay needs to rebuild ``state``: plain data, JSON-ready.

    Rules that are not a shipped game are recorded by their folder (``rules_path``) so
    that a replay can find them or say where they were. A game stopped by a rule error
    keeps the action that caused it (the last of ``actions``) and says why in ``stopped``.
    """
    game = state.game
    data = {
        "format": SAVE_FORMAT,
        "engine": ENGINE_VERSION,
        "rules_format": game.rules_format,
        "game": game.id,
        "variant": game.variant,
        "rules": game.rules_hash,
        "players": state.n,
        "seed": state.seed,
        "actions": state.actions,
        "digest": digest(state),
        "finished": state.is_terminal and state.fault is None,
    }
    folder = Path(game.rules.folder).resolve()
    if folder != shipped_folder(game.id).resolve():
        data["rules_path"] = str(folder)
    if state.fault is not None:
        data["stopped"] = state.fault.format(with_context=False)
    return data


def save_text(state) -> str:
    """The save file's text (``save_data`` as JSON)."""
    return json.dumps(save_data(state), indent=1) + "\n"


def write_save(state, path: str | Path) -> None:
    """Write the save atomically: an interrupt or a full disk leaves the previous save whole."""
    write_text(path, save_text(state))


_FIELDS = (  # (key, what it must be, check)
    ("game", "a game id", is_name),
    ("variant", "a variant id or null", lambda v: v is None or is_name(v)),
    ("rules", "the rules' hash", lambda v: isinstance(v, str)),
    ("players", "a number", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    ("seed", "a number", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    ("actions", "a list of action ids", lambda v: isinstance(v, list) and all(isinstance(a, str) for a in v)),
    ("digest", "16 hexadecimal digits", lambda v: isinstance(v, str) and _DIGEST.fullmatch(v) is not None),
    ("finished", "true or false", lambda v: isinstance(v, bool)),
    ("rules_path", "a folder", lambda v: v is None or (isinstance(v, str) and "\0" not in v and len(v) <= MAX_PATH)),
    ("stopped", "a message", lambda v: v is None or isinstance(v, str)),
)
_SINCE_2 = (  # what save format 2 adds
    ("engine", "a version", lambda v: isinstance(v, str) and _VERSION.fullmatch(v) is not None),
    ("rules_format", "a number", lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0),
)


def read_save(path: str | Path) -> dict:
    """Read a save file and check every field; StateError (one line) on anything else."""
    try:
        text = read_text(path, str(path), MAX_SAVE_BYTES)
    except LoadError as exc:
        raise StateError(f"{path}: cannot read the save: {exc.diagnostics[0].message}") from None
    return parse_save(text, str(path))


def parse_save(text: str, path: str) -> dict:
    """A save file's text → its checked fields; StateError (one line, naming ``path``) on anything else."""
    if len(text) > MAX_SAVE_BYTES:
        raise StateError(f"{path}: not a save file (over {MAX_SAVE_BYTES:,} characters)")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise StateError(f"{path}: not a save file ({exc})") from None
    except RecursionError:
        raise StateError(f"{path}: not a save file (nested too deeply)") from None
    number = data.get("format") if isinstance(data, dict) else None
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise StateError(f"{path}: not a save file (no save format)")
    if number > SAVE_FORMAT:
        engine = data.get("engine")
        by = f", written by tabletop {engine}" if isinstance(engine, str) and _VERSION.fullmatch(engine) else ""
        raise StateError(
            f"{path}: save format {number}{by}; this tabletop ({ENGINE_VERSION}) reads save formats up to "
            f"{SAVE_FORMAT}: upgrade tabletop"
        )
    for key, what, ok in _FIELDS + (_SINCE_2 if number >= 2 else ()):
        if not ok(data.get(key)):
            raise StateError(f"{path}: not a valid save: '{key}' must be {what}")
    return data


def written_by(data: dict) -> str:
    """Which tabletop wrote a checked save, in words."""
    if data["format"] == 1:
        first = SAVE_FORMATS[0]
        return f"tabletop {first.engine} ({first.note}) in save format 1"
    return f"tabletop {data['engine']} in save format {data['format']}"


def _not_here(data: dict, why: str) -> StateError:
    """A replay that went wrong: as it is when this engine wrote the save, else naming the one that did."""
    if data.get("engine") == ENGINE_VERSION:
        return StateError(why)
    engine = data.get("engine") or SAVE_FORMATS[0].engine
    return StateError(
        f"{why}: the save was written by {written_by(data)}, and this is tabletop {ENGINE_VERSION}; "
        f"replay it with tabletop {engine}"
    )


def saved_game(data: dict, save_path: str | Path, rules: str | Path | None = None):
    """Load the rules a save was made with.

    ``rules`` (the user's ``--rules``) wins; else a shipped game by its id; else the folder the
    save recorded, but only if it lies in the save's own folder or the working folder, so that
    a save handed over by someone else cannot make the loader read elsewhere.
    """
    from engine.runtime.gamedef import load_game

    if rules is not None:
        return load_game(rules, data.get("variant"))
    where = data.get("rules_path")
    if where is None:
        if data["game"] not in known_games():
            raise StateError(f"no shipped game named '{data['game']}'; point at its rules with --rules PATH")
        return load_game(data["game"], data.get("variant"))
    if not is_inside(where, [Path(save_path).absolute().parent, Path.cwd()]):
        raise StateError(
            f"the save's rules were at {where}, outside the save's folder and the working folder; "
            f"to trust them, replay with --rules {where}"
        )
    return load_game(Path(where) / "game.yaml", data.get("variant"))


def replay(game, data: dict, *, until: int | None = None, allow_other_rules: bool = False, on_step=None):
    """Rebuild a saved game step by step; returns the state after ``until`` actions (default: all).

    ``on_step(index, action, state)`` is called after each action.
    """
    if data["game"] != game.id or data.get("variant") != game.variant:
        raise StateError(f"the save is of {data['game']}/{data.get('variant')}, not {game.id}/{game.variant}")
    if data.get("rules") != game.rules_hash and not allow_other_rules:
        formats = (
            f" of rules format {data['rules_format']}, now {game.rules_hash} of format {game.rules_format}"
            if data.get("rules_format", game.rules_format) != game.rules_format
            else f", now {game.rules_hash}"
        )
        raise StateError(
            f"the save was made with other rules (rules {data.get('rules')}{formats}): "
            f"the rule files changed since, so the replay could differ; use --force to try anyway"
        )
    state = game.new_game(players=data["players"], seed=data["seed"])
    actions = data["actions"] if until is None else data["actions"][:until]
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise _not_here(data, f"the replay diverged at step {i + 1}: {exc}") from None
        if on_step is not None:
            on_step(i, action, state)
    if (
        until is None
        and data.get("rules") == game.rules_hash
        and (digest(state) != data["digest"] or state.is_terminal != data["finished"])
    ):
        raise _not_here(data, "the replay ended in a different state than the one saved")
    return state
