"""Checks of a saved state before it is trusted: shape, game, rules and conservation.

A tampered or truncated save, or one of another game, is a ``StateError``
naming what is wrong, never a crash later in play.
"""
from __future__ import annotations

from .dsl.types import record_fields
from .errors import StateError, quoted

FORMAT = 2  # of a saved state (State.to_data); checked here, so the state module imports this one, not back

_KEYS = {"format", "game", "variant", "rules", "players", "seed", "rng", "zones", "variables",
         "player_variables", "stack", "pending", "log", "history", "seen", "reason", "know", "pinned"}


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise StateError(f"saved state rejected: {message}")


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _fits(game, t: str, value, n: int) -> bool:
    """Is ``value`` a plain value of effect-language type ``t`` in a game of ``n`` players?"""
    if value is None or t == "any":
        return True
    if t.startswith("list["):
        return isinstance(value, list) and all(_fits(game, t[5:-1], v, n) for v in value)
    if t.startswith("{"):
        fields = dict(record_fields(t))
        return isinstance(value, dict) and all(k in fields and _fits(game, fields[k], v, n) for k, v in value.items())
    if t == "int":
        return _is_int(value)
    if t == "bool":
        return isinstance(value, bool)
    if t in ("player", "card"):
        limit = n if t == "player" else len(game.card_ids)
        return _is_int(value) and 0 <= value < limit
    if t == "zone":
        return isinstance(value, str) and value in game.zone_ids(n)
    if t in game.enums:
        return value in game.enums[t]
    return isinstance(value, str)


def check_saved_state(game, data) -> None:
    """Raise StateError unless ``data`` is a consistent state of ``game``."""
    _need(isinstance(data, dict), "not a JSON object")
    missing = _KEYS - set(data)
    _need(not missing, f"missing {', '.join(sorted(missing))}")
    _need(data["format"] == FORMAT, f"format {quoted(data['format'])}, this version reads {FORMAT}")
    _need(data["game"] == game.id, f"it is a state of {quoted(data['game'])}, not of '{game.id}'")
    _need(data["variant"] == game.variant, f"it is a state of variant {quoted(data['variant'])}, not {game.variant!r}")
    _need(data["rules"] == game.rules_hash, "it was saved with different rules (the rule files changed since)")
    n = data["players"]
    _need(_is_int(n) and game.min_players <= n <= game.max_players, f"bad player count {quoted(n)}")
    _need(_is_int(data["seed"]), "bad seed")
    _need(_is_int(data["rng"]) and 0 <= data["rng"] < 2 ** 64, "bad generator state")

    zones = data["zones"]
    _need(isinstance(zones, dict) and set(zones) == set(game.zone_ids(n)), "zones do not match the game's zones")
    seen = [0] * len(game.card_ids)
    for zone, cards in zones.items():
        _need(isinstance(cards, list) and all(_is_int(c) and 0 <= c < len(seen) for c in cards),
              f"zone {quoted(zone)} holds something that is not a card")
        for c in cards:
            seen[c] += 1
    _need(all(k == 1 for k in seen), "cards are missing or duplicated")

    _need(isinstance(data["variables"], dict) and set(data["variables"]) == set(game.variables),
          "variables do not match the game's")
    pvars = data["player_variables"]
    _need(isinstance(pvars, list) and len(pvars) == n
          and all(isinstance(p, dict) and set(p) == set(game.player_variables) for p in pvars),
          "player variables do not match the game's")
    vocab = game.vocabulary
    for name, value in data["variables"].items():
        _need(_fits(game, vocab.variables[name], value, n), f"variable '{name}' holds {quoted(value)}, "
                                                            f"not a {vocab.variables[name]}")
    for p in pvars:
        for name, value in p.items():
            _need(_fits(game, vocab.player_variables[name], value, n),
                  f"player variable '{name}' holds {quoted(value)}, not a {vocab.player_variables[name]}")

    stack = data["stack"]
    _need(isinstance(stack, list), "bad program stack")
    for frame in stack:
        _need(isinstance(frame, list) and len(frame) == 3 and frame[0] in game.procedures
              and _is_int(frame[1]) and 0 <= frame[1] < len(game.procedures[frame[0]].code)
              and isinstance(frame[2], dict) and "me" in frame[2], f"bad program frame {str(frame)[:60]}")
    pending = data["pending"]
    if pending is None:
        _need(not stack, "no decision pending but the programs have not finished")
    else:
        _need(isinstance(pending, dict) and set(pending) == {"player", "ids", "values", "secret", "kind"}
              and isinstance(pending["secret"], bool) and isinstance(pending["kind"], str), "bad pending decision")
        _need(_is_int(pending["player"]) and 0 <= pending["player"] < n, "bad deciding player")
        ids, values = pending["ids"], pending["values"]
        _need(isinstance(ids, list) and ids and all(isinstance(i, str) for i in ids)
              and isinstance(values, list) and len(values) == len(ids), "bad list of actions")
        _need(len(set(ids)) == len(ids), "duplicate action ids")
        _need(bool(stack) and stack[-1][1] in game.procedures[stack[-1][0]].choices,
              "the pending decision does not match the program position")
        item_type = game.procedures[stack[-1][0]].choice_types[stack[-1][1]]
        _need(all(_fits(game, item_type, v, n) for v in values), "the pending decision offers impossible values")
    log = data["log"]
    _need(isinstance(log, list) and all(isinstance(e, list) and len(e) == 2 and isinstance(e[1], str)
                                        and (e[0] is None or (_is_int(e[0]) and 0 <= e[0] < n)) for e in log),
          "bad log")
    history = data["history"]
    _need(isinstance(history, list) and all(_history_entry(h, n) for h in history), "bad history")
    _need(data["reason"] is None or isinstance(data["reason"], str), "bad end reason")
    for name in ("know", "pinned"):
        masks = data[name]
        _need(isinstance(masks, list) and len(masks) == len(game.card_ids)
              and all(_is_int(m) and 0 <= m < 1 << n for m in masks), f"bad record of what seats know ({name})")
    seen = data["seen"]
    _need(isinstance(seen, list) and len(seen) == n
          and all(isinstance(s, list) and all(isinstance(e, dict) and isinstance(e.get("cards"), list) for e in s)
                  for s in seen), "bad record of what players have seen")


def _history_entry(entry, n: int) -> bool:
    """A decision ``{seat, action[, kind, secret]}`` or a chance event ``{chance, …}``."""
    if not isinstance(entry, dict):
        return False
    if "chance" in entry:
        return entry["chance"] in ("shuffle", "random") and all(
            isinstance(v, str) or _is_int(v) for v in entry.values())
    return (_is_int(entry.get("seat")) and 0 <= entry["seat"] < n and isinstance(entry.get("action"), str)
            and set(entry) <= {"seat", "action", "kind", "secret"})
