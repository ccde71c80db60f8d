"""What each option of a decision means, for any table (terminal or browser).

Options are values; their ids name cards, and the game's ``draw:`` hints say
which options cannot be taken back, which trace a path on a plane board and
which move a piece to a neighbouring space.  Everything here reads the
deciding seat's own options and view, or a determinized copy for that seat.
"""

from __future__ import annotations

from itertools import pairwise

from engine.boards.hints import Hints
from engine.lang.types import CARD, PLAYER, POSITION, ZONE, Type
from engine.runtime import together

DETERMINIZE_SEED = 104_729  # any fixed seed: copies only need to differ from the truth, not from each other


def card_face(game, card_id: str) -> dict:
    """A face-up card as the page shows it: name, text, colour, icon, bonus icons (from the game's hints)."""
    hints = game.draw
    info = game.card_texts.get(card_id, {})
    index = game.first_card.get(card_id)
    style = hints.get("card") or {}
    look = Hints.merged(hints)

    def attr(name):
        return game.attributes[name][index] if index is not None and name in game.attributes else None

    icons, named = "", []
    for name, symbol in (style.get("icons") or {}).items():
        value = attr(name)
        if value is True:
            icons += symbol
            named.append(name)
        elif isinstance(value, int) and not isinstance(value, bool) and value > 0:
            icons += symbol * value
            named.append(f"{name} ×{value}" if value > 1 else name)
    return {
        "id": card_id,
        "name": str(info.get("name", card_id)),
        "text": str(info.get("text", "")),
        "kind": str(info.get("kind", "")),
        "icons": icons,
        "icons_text": ", ".join(named),  # the bonus icons in words, where a font lacks their glyphs
        "colour": look.colour(attr(style["colour"]) if "colour" in style else None, card_id, info.get("kind")),
        "icon": look.icon(attr(style["icon"]) if "icon" in style else None, card_id, info.get("kind")),
    }


def is_irreversible(game, kind: str, value) -> bool:
    """Does an option match one of the game's ``irreversible`` hints (kind, a field present, field values)?"""
    for rule in game.draw.get("irreversible") or []:
        if "kind" in rule and rule["kind"] != kind:
            continue
        fields = {k: v for k, v in rule.items() if k not in ("kind", "has")}
        if (fields or "has" in rule) and not isinstance(value, dict):
            continue
        if "has" in rule and rule["has"] not in value:
            continue
        if all(value.get(k) == v for k, v in fields.items()):
            return True
    return False


def hint_function(game, name: str, state, me: int, *args):
    """Rule function ``name``'s answer on ``state`` (only read) for seat ``me``, given ``args`` in the order of
    its parameters: what a drawing hint asks of the rules."""
    params = [p for p, _ in game.vocabulary.functions[name][0]]
    return game.functions[name](state.for_reading(), {**dict(zip(params, args)), "me": me})


def traced_path(state, seat: int, kind: str, value) -> dict | None:
    """The path an option of ``kind`` would trace on a plane board: points, cost, labels touched, and a summary."""
    hint = (state.game.draw.get("paths") or {}).get(kind)
    if hint is None:
        return None
    game = state.game
    points = hint_function(game, hint["points"], state, seat, seat, value)
    board = game.board(f"{hint['board']}:{seat}")
    points = [p for p in points if p in board.at]
    cost = sum(board.distance(a, b) for a, b in pairwise(points))
    touched = list(board.touched(points[0], points[1])) if len(points) > 1 else []
    return {
        "board": hint["board"],
        "points": points,
        "cost": cost,
        "touched": touched,
        "summary": path_summary(hint, cost, touched),
    }


def path_summary(hint: dict, cost: int, touched: list[str]) -> str:
    """A path in the game's own words: its ``paths`` hint's ``says``, with ``{cost}`` and ``{touched}`` filled in.

    Filled by plain replacement, not ``str.format``: a hint is text from a rule file, never code.
    """
    listed = ", ".join(touched) or hint.get("nothing", "—")
    return hint.get("says", "{cost}: {touched}").replace("{cost}", str(cost)).replace("{touched}", listed)


def step_destination(game, view: dict, value) -> dict | None:
    """Where an option moving a piece one space leads: ``{board, space, piece}`` (from the ``steps`` hints)."""
    if not isinstance(value, dict):
        return None
    for hint in game.draw.get("steps") or []:
        piece, direction = value.get(hint["piece"]), value.get(hint["dir"])
        if not isinstance(piece, int) or not isinstance(direction, str):
            continue
        card = game.card_ids[piece]
        board = game.board(hint["board"])
        families = [f for f, fam in game.zone_families.items() if fam.key == hint["board"]]
        for zone, cards in view["zones"].items():
            family, _, space = zone.partition(":")
            if family in families and card in cards:
                to = board.toward(space, direction)
                return {"board": hint["board"], "space": to, "piece": card} if to else None
    return None


def choice_types(game) -> dict[str, Type | None]:
    """Decision kind → the type of one of its options (None where chooses of one kind offer different types,
    or lists): what a value is about follows from its type, never from its printed id."""
    kinds = game.cache.choices
    if not kinds:
        from engine.lang import ast
        from engine.lang.ast import walk_blocks

        for stmts in game.programs.values():
            for block in walk_blocks(stmts):
                for s in block:
                    if isinstance(s, ast.Choose):
                        t = None if isinstance(s, ast.ChooseSeveral) else s.options_type
                        kinds[s.kind] = t if kinds.get(s.kind, t) == t else None
    return kinds


def value_targets(game, t: Type | None, value, view: dict) -> list[str]:
    """What an option's value is about, as the page names the things it draws: ``card:ID``, ``seat:N``,
    ``zone:ZONE``, ``space:NAME``; a record is about what its fields are about, a text about the zone it keys
    (a pile of that colour, say)."""
    if value is None or t is None:
        return []
    if t == CARD:
        return [f"card:{game.card_ids[value]}"]
    if t == PLAYER:
        return [f"seat:{value}"]
    if t == ZONE:
        return [f"zone:{value}"]
    if t == POSITION:
        return [f"space:{value}"]
    if t.is_record and isinstance(value, dict):
        return [x for name, ft in t.fields for x in value_targets(game, ft, value.get(name), view)]
    if isinstance(value, str):
        return [f"zone:{z}" for z in view["zones"] if z.partition(":")[2] == value]
    return []


def hinted_targets(state, seat: int, kind: str, value, det) -> list[str]:
    """What the game's ``targets`` hint says an option is about (a function (player, choice) → zones, cards,
    seats or positions), computed on ``seat``'s own copy ``det``."""
    name = (state.game.draw.get("targets") or {}).get(kind)
    if name is None or det is None:
        return []
    game = state.game
    returns = game.vocabulary.functions[name][1]
    found = hint_function(game, name, det, seat, seat, value)
    element = returns.element if returns.is_list else returns
    return [x for v in (found if returns.is_list else [found]) for x in value_targets(game, element, v, det.view(seat))]


def option_label(game, action: str) -> str:
    """An option as a player reads it: the cards its id names by their names."""
    return " ".join(
        str(game.card_texts.get(w, {}).get("name", w)) if w in game.first_card else w for w in action.split()
    )


def describe_options(state, seat: int, view: dict, det=None) -> list[dict]:
    """The decider's options with what they mean: cards named, irreversibility, paths, destinations, zones,
    and the things on the table each is about (``targets``: clicking one of them chooses it).

    Reversible options come first, so the first option is never one that cannot be taken back.
    """
    pending = state.pending
    if pending is None or seat not in state.to_act:
        return []
    if "together" in pending:  # a simultaneous decision: this seat's own options
        pending = together.asked_next(pending, seat)
    game = state.game
    kind = pending["kind"]
    if det is None and (kind in (game.draw.get("paths") or {}) or kind in (game.draw.get("targets") or {})):
        det = state.determinized(seat, DETERMINIZE_SEED)  # only paths and targets hints need the seat's copy
    t = choice_types(game).get(kind)
    out = []
    for action, value in zip(pending["ids"], pending["values"]):
        option = {
            "id": action,
            "label": option_label(game, action),
            "cards": [card_face(game, w) for w in action.split() if w in game.first_card],
            "irreversible": is_irreversible(game, kind, value),
        }
        targets = hinted_targets(state, seat, kind, value, det) or value_targets(game, t, value, view)
        path = traced_path(det, seat, kind, value) if det is not None else None
        if path is not None:
            option["run"] = path
            entry = path["points"][min(1, len(path["points"]) - 1)]  # where the scoring segment ends
            targets = [f"point:{path['board']}:{seat}/{entry}"]
        dest = step_destination(game, view, value)
        if dest is not None:
            option["destination"] = dest
            targets = [f"space:{dest['space']}"]
        option["targets"] = list(dict.fromkeys(targets))
        out.append(option)
    return sorted(out, key=lambda o: o["irreversible"])


def ring_highlight(state, seat: int, det=None) -> set[str]:
    """The piles the game's ``ring`` hint highlights for the seat deciding now, computed on ``seat``'s copy."""
    hint = state.game.draw.get("ring") or {}
    if "highlight" not in hint or state.current_player is None:
        return set()
    game = state.game
    det = det if det is not None else state.determinized(seat, DETERMINIZE_SEED)
    mover = state.current_player
    return set(hint_function(game, hint["highlight"], det, mover, mover))
