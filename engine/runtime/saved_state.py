"""Checks of a saved state before it is trusted: shape, types, game, rules, conservation, the pending decision.

Reading a state is total: any JSON is either a state that keeps every
invariant of the game, or a ``StateError`` of one line naming what is wrong —
never a crash later in play, a view that fails, or a decision the rules would
not offer.  Every part is checked against what the rules declare (variable and
frame-local types, zones, cards, procedures), so nesting the rules never
build is refused at its first level and no check recurses deeper than a
declared type.  The checks are linear in the size of the save: they run on
every load.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from engine.errors import StateError, plain_reason, quoted
from engine.lang.types import (
    ANY,
    BOARD,
    BOOL,
    CARD,
    DIRECTION,
    INT,
    PLAYER,
    POSITION,
    TEXT,
    ZONE,
    Type,
    list_of,
)
from engine.load.formats import ENGINE_VERSION
from engine.runtime import together
from engine.runtime.program import SUSPEND

FORMAT = 2  # of a saved state (State.to_data); checked here, so the state module imports this one, not back
_KEYS = {
    "format",
    "game",
    "variant",
    "rules",
    "players",
    "seed",
    "rng",
    "zones",
    "variables",
    "player_variables",
    "stack",
    "pending",
    "log",
    "history",
    "seen",
    "reason",
    "know",
    "pinned",
}
_PENDING_KEYS = {"player", "ids", "values", "secret", "kind"}
_DECISION_KEYS = (
    {"seat", "action"},
    {"seat", "action", "kind", "secret"},
    {"seat", "action", "kind", "secret", "together"},
)
_NOT_ASKED = "the pending decision is not the one the rules offer at that point"
_COUNTERS = ("$repeat@", "$window@")  # hidden int locals of 'repeat' and reaction windows (see the compiler)


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise StateError(f"saved state rejected: {message}")


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _brief(value: Any) -> str:
    """A value as a message may quote it: scalars short, containers by kind (never walked: they may nest deeply)."""
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a record"
    return quoted(value)


@lru_cache(maxsize=256)
def _fields(t: Type) -> dict[str, Type]:
    return dict(t.fields)


def _fits(game, t: Type | None, value: Any, n: int, loose: bool = False) -> bool:
    """Is ``value`` a plain value of effect-language type ``t`` in a game of ``n`` players?

    ``none`` anywhere (the rules may leave it in a value of any type); recurses only as
    deep as the type: a list nested deeper than its type says is refused at once.  ``loose``: any text
    where an enum, a zone, a position or a direction is wanted (what the rules may keep there without a fault).
    """
    if value is None:  # the rules may leave none in a value of any type (the first of an empty list)
        return True
    if t is None:  # a local the compiler does not type: a plain scalar
        return isinstance(value, (str, int))
    if t.is_list:
        inner = t.element
        return isinstance(value, list) and all(_fits(game, inner, v, n, loose) for v in value)
    if t.is_map:  # text keys (JSON keeps them as they are)
        inner = t.value
        return isinstance(value, dict) and all(
            isinstance(k, str) and _fits(game, inner, v, n, loose) for k, v in value.items()
        )
    if t.is_loop:  # a running 'for': [next index, items]
        return (
            isinstance(value, list)
            and len(value) == 2
            and _is_int(value[0])
            and _fits(game, list_of(t.item or ANY), value[1], n, loose)
        )
    if t.is_record:
        fields = _fields(t)
        return isinstance(value, dict) and all(
            k in fields and _fits(game, fields[k], v, n, loose) for k, v in value.items()
        )
    if t == INT:  # any size JSON reads: numbers the rules build are bounded by their own size budget
        return _is_int(value)
    if t == BOOL:
        return isinstance(value, bool)
    if t == PLAYER:
        return _is_int(value) and 0 <= value < n
    if t == CARD:
        return _is_int(value) and 0 <= value < len(game.card_ids)
    if t == ZONE:
        return isinstance(value, str) and (loose or value in game.zone_ids(n))
    if t.is_enum:
        return isinstance(value, str) and (loose or value in game.enums[t.name])
    if t in (TEXT, BOARD):
        return isinstance(value, str)
    if t in (POSITION, DIRECTION):  # "" (off the board) or one of the boards' spaces or directions
        known = game.vocabulary.board_spaces if t == POSITION else game.vocabulary.board_directions
        return isinstance(value, str) and (loose or not value or any(value in values for values in known.values()))
    return _fits(game, None, value, n)  # "any": no rule stores containers there


def _fits_local(game, proc, name: str, value: Any, n: int) -> bool:
    """Locals may hold none whatever their type: an optional choice stores none when declined; and any text
    where an enum, a zone, a position or a direction is wanted: only variables are held to their enum's members,
    and a zone, space or direction named by text the rules built (`{do: "x"}` beside `{do: direction(…)}`)
    fails only where it is used."""
    return value is None or _fits(game, _local_type(proc, name), value, n, loose=True)


def _local_type(proc, name: str) -> Type | None:
    """The type of a frame local: declared by the rules, or one the interpreter itself keeps."""
    t = proc.local_types.get(name)
    if t is not None:
        return t
    if name == "me":
        return PLAYER
    if name == "this":
        return CARD
    return INT if name.startswith(_COUNTERS) else None


def check_saved_state(game, data: Any) -> None:
    """Raise StateError unless ``data`` is a consistent state of ``game`` (all but the pending options)."""
    _need(isinstance(data, dict), "not a JSON object")
    keys = _KEYS | {"faces"} if game.die_faces else _KEYS
    missing, extra = keys - set(data), set(data) - keys
    _need(not missing, f"missing {', '.join(sorted(missing))}")
    _need(not extra, f"unknown part {_brief(min(extra, default=''))}")
    _need(
        _is_int(data["format"]) and data["format"] == FORMAT,
        f"state format {_brief(data['format'])}; tabletop {ENGINE_VERSION} reads state format {FORMAT}: replay the "
        "game's save instead",
    )
    _need(
        data["game"] == game.id and isinstance(data["game"], str),
        f"it is a state of {_brief(data['game'])}, not of '{game.id}'",
    )
    _need(
        data["variant"] == game.variant and isinstance(data["variant"], (str, type(None))),
        f"it is a state of variant {_brief(data['variant'])}, not {game.variant!r}",
    )
    _need(
        data["rules"] == game.rules_hash and isinstance(data["rules"], str),
        "it was saved with different rules (the rule files changed since)",
    )
    n = data["players"]
    _need(_is_int(n) and game.min_players <= n <= game.max_players, f"bad player count {_brief(n)}")
    _need(_is_int(data["seed"]), "bad seed")
    _need(_is_int(data["rng"]) and 0 <= data["rng"] < 2**64, "bad generator state")
    _check_zones(game, data["zones"], n)
    _check_variables(game, data["variables"], data["player_variables"], n)
    _check_stack(game, data["stack"], data["pending"], n)
    _check_records(game, data, n)
    if game.die_faces:
        faces = data["faces"]
        _need(
            isinstance(faces, list)
            and len(faces) == len(game.die_faces)
            and all(f is None if options is None else f in options for f, options in zip(faces, game.die_faces)),
            "bad faces of the dice",
        )


def _check_zones(game, zones: Any, n: int) -> None:
    zone_ids = game.zone_ids(n)
    _need(
        isinstance(zones, dict) and len(zones) == len(zone_ids) and all(z in zones for z in zone_ids),
        "zones do not match the game's zones",
    )
    count = [0] * len(game.card_ids)
    limit = len(count)
    for zone, cards in zones.items():
        _need(
            isinstance(cards, list) and all(_is_int(c) and 0 <= c < limit for c in cards),
            f"zone {_brief(zone)} holds something that is not a card",
        )
        for c in cards:
            count[c] += 1
    _need(all(k == 1 for k in count), "cards are missing or duplicated")


def _check_variables(game, variables: Any, pvars: Any, n: int) -> None:
    vocab = game.vocabulary
    _need(isinstance(variables, dict) and set(variables) == set(game.variables), "variables do not match the game's")
    _need(
        isinstance(pvars, list)
        and len(pvars) == n
        and all(isinstance(p, dict) and set(p) == set(game.player_variables) for p in pvars),
        "player variables do not match the game's",
    )
    for name, value in variables.items():
        t = vocab.variables[name]
        _need(_fits(game, t, value, n), f"variable '{name}' holds {_brief(value)}, not a {t}")
    for p in pvars:
        for name, value in p.items():
            t = vocab.player_variables[name]
            _need(_fits(game, t, value, n), f"player variable '{name}' holds {_brief(value)}, not a {t}")


def _check_stack(game, stack: Any, pending: Any, n: int) -> None:
    """Frames ``[procedure, pc, locals]`` with typed locals; a pending decision exactly when programs run."""
    _need(isinstance(stack, list), "bad program stack")
    procedures = game.procedures
    for frame in stack:
        _need(
            isinstance(frame, list)
            and len(frame) == 3
            and isinstance(frame[0], str)
            and frame[0] in procedures
            and isinstance(frame[2], dict),
            f"bad program frame {_brief(frame)}",
        )
        proc, pc, env = procedures[frame[0]], frame[1], frame[2]
        _need(_is_int(pc) and 0 <= pc < len(proc.code), f"bad program position {_brief(pc)} in '{proc.name}'")
        _need(_is_int(env.get("me")) and 0 <= env["me"] < n, f"bad acting player in '{proc.name}'")
        for name, value in env.items():
            _need(_fits_local(game, proc, name, value, n), f"'{name}' in '{proc.name}' holds {_brief(value)}")
    if pending is None:
        _need(not stack, "no decision pending but the programs have not finished")
        return
    _need(
        isinstance(pending, dict)
        and set(pending) - {"together"} == _PENDING_KEYS
        and isinstance(pending["secret"], bool)
        and isinstance(pending["kind"], str),
        "bad pending decision",
    )
    if "together" in pending:
        _check_together(pending, n)
    _need(_is_int(pending["player"]) and 0 <= pending["player"] < n, "bad deciding player")
    ids, values = pending["ids"], pending["values"]
    _need(
        isinstance(ids, list)
        and bool(ids)
        and all(isinstance(i, str) for i in ids)
        and isinstance(values, list)
        and len(values) == len(ids),
        "bad list of actions",
    )
    _need(
        bool(stack) and stack[-1][1] in procedures[stack[-1][0]].choices,
        "the pending decision does not match the program position",
    )
    item_type = procedures[stack[-1][0]].choice_types[stack[-1][1]]
    _need(
        all(v is None or _fits(game, item_type, v, n) for v in values),  # none: the option to decline
        "the pending decision offers impossible values",
    )


def _check_together(pending: dict, n: int) -> None:
    """A simultaneous decision's shape: per seat its options and its choice (an option index, or none yet).

    Whether those are the options the rules offer is ``check_pending``'s to say.
    """
    together = pending["together"]
    _need(isinstance(together, dict) and set(together) == {"seats", "ids", "values", "chosen"}, "bad joint decision")
    seats, ids, values, chosen = (together[k] for k in ("seats", "ids", "values", "chosen"))
    _need(
        isinstance(seats, list)
        and bool(seats)
        and all(_is_int(s) and 0 <= s < n for s in seats)
        and len(set(seats)) == len(seats),
        "bad seats of a joint decision",
    )
    _need(
        all(isinstance(x, list) and len(x) == len(seats) for x in (ids, values, chosen))
        and all(isinstance(i, list) and isinstance(v, list) and len(i) == len(v) for i, v in zip(ids, values))
        and all(c is None or (_is_int(c) and 0 <= c < len(i)) for c, i in zip(chosen, ids)),
        "bad choices of a joint decision",
    )
    _need(pending["player"] in seats and chosen[seats.index(pending["player"])] is None, "bad deciding player")


def _check_records(game, data: dict, n: int) -> None:
    """The log, the history, what seats saw and know, the end reason."""
    log = data["log"]
    _need(
        isinstance(log, list)
        and all(
            isinstance(e, list)
            and len(e) == 2
            and isinstance(e[1], str)
            and (e[0] is None or (_is_int(e[0]) and -n <= e[0] < n))  # ~seat: all but that seat
            for e in log
        ),
        "bad log",
    )
    zones = data["zones"]
    history = data["history"]
    _need(isinstance(history, list) and all(_history_entry(h, n, zones) for h in history), "bad history")
    _need(data["reason"] is None or isinstance(data["reason"], str), "bad end reason")
    for name in ("know", "pinned"):
        masks = data[name]
        _need(
            isinstance(masks, list)
            and len(masks) == len(game.card_ids)
            and all(_is_int(m) and 0 <= m < 1 << n for m in masks),
            f"bad record of what seats know ({name})",
        )
    seen = data["seen"]
    card_ids = set(game.card_ids)
    _need(
        isinstance(seen, list)
        and len(seen) == n
        and all(isinstance(s, list) and all(_seen_entry(e, zones, card_ids) for e in s) for s in seen),
        "bad record of what players have seen",
    )


def _seen_entry(entry: Any, zones: dict, card_ids: set) -> bool:
    """``{"turn": int, "cards": [[zone, card id], …]}``."""
    return (
        isinstance(entry, dict)
        and set(entry) == {"turn", "cards"}
        and _is_int(entry["turn"])
        and entry["turn"] >= 0
        and isinstance(entry["cards"], list)
        and all(
            isinstance(c, list)
            and len(c) == 2
            and isinstance(c[0], str)
            and c[0] in zones
            and isinstance(c[1], str)
            and c[1] in card_ids
            for c in entry["cards"]
        )
    )


def _history_entry(entry: Any, n: int, zones: dict) -> bool:
    """A decision ``{seat, action[, kind, secret[, together]]}`` or a chance event: a shuffle, a random index."""
    if not isinstance(entry, dict):
        return False
    chance = entry.get("chance")
    if chance == "shuffle":
        return set(entry) == {"chance", "zone"} and isinstance(entry["zone"], str) and entry["zone"] in zones
    if chance == "roll":  # a die rolled; "seen" by these seats alone, when not by all
        return (
            set(entry) - {"seen"} == {"chance", "die", "of", "index"}
            and all(_is_int(entry[k]) for k in ("die", "of", "index"))
            and 0 <= entry["index"] < entry["of"]
            and (
                "seen" not in entry
                or (isinstance(entry["seen"], list) and all(_is_int(p) and 0 <= p < n for p in entry["seen"]))
            )
        )
    if chance == "random":
        return (
            set(entry) == {"chance", "of", "index"}
            and _is_int(entry["of"])
            and _is_int(entry["index"])
            and 0 <= entry["index"] < entry["of"]
        )
    if set(entry) not in _DECISION_KEYS:
        return False
    if "secret" in entry and not (entry["secret"] is True and isinstance(entry["kind"], str)):
        return False
    if "together" in entry and entry["together"] is not True:
        return False
    return _is_int(entry["seat"]) and 0 <= entry["seat"] < n and isinstance(entry["action"], str)


def check_pending(state) -> None:
    """Ask the pending decision again on a copy: a save offers only what the rules offer, to the seat they ask.

    Comparing with the rules' own decision (not only its shape) is what stops a
    forged save from letting one seat act with another seat's card; it costs
    one instruction.
    """
    saved = state.pending
    if saved is None:
        return
    copy = state.clone()
    copy.pending = None
    frame = copy.stack[-1]
    proc = state.game.procedures[frame[0]]
    try:
        suspended = proc.code[frame[1]](copy, frame[2])
    except Exception as exc:  # the rules cannot ask it with the saved values (a RuleFault or worse)
        raise StateError(
            f"saved state rejected: the pending decision cannot be asked again ({quoted(plain_reason(exc), 80)})"
        ) from None
    asked = copy.pending
    _need(suspended == SUSPEND and asked is not None, _NOT_ASKED)
    _need(("together" in asked) == ("together" in saved), _NOT_ASKED)
    drawn = copy.rng != state.rng  # its options were drawn at random: only who decides, and how, can be asked again
    if "together" in saved:  # the rules ask everyone afresh: put back the choices made and the seat asked
        if drawn:
            options = {k: saved["together"][k] for k in ("ids", "values")}
            asked = dict(asked, together=dict(asked["together"], **options))
        for seat, chosen in zip(saved["together"]["seats"], saved["together"]["chosen"]):
            _need(seat in asked["together"]["seats"], _NOT_ASKED)
            asked = together.with_choice(asked, seat, chosen)
        _need(saved["player"] in together.to_act(asked), _NOT_ASKED)
        asked = together.asked_next(asked, saved["player"])
    if drawn:
        asked = dict(asked, ids=saved["ids"], values=saved["values"])
    _need(json.dumps(asked, sort_keys=True) == json.dumps(saved, sort_keys=True), _NOT_ASKED)
