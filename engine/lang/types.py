"""The effect language's few types, written as short strings.

``int bool text player card zone board position direction none any``, ``list[T]``, ``map[T]`` (text keys: an enum's
members, names; the values of type T, never cards), enum types
named after the game's enums (``toys``), which are text with a known set of
values, and records ``{piece: card, dir: dirs}``: a move of several parts,
each field read as ``move.piece`` (a field a record lacks reads as none).
``T`` is the one type variable operation declarations may use.
"""

from __future__ import annotations

import re
from typing import TypeGuard, overload

INT, BOOL, TEXT, PLAYER, CARD, ZONE, BOARD, NONE, ANY = (
    "int",
    "bool",
    "text",
    "player",
    "card",
    "zone",
    "board",
    "none",
    "any",
)
ATTRIBUTE = "attribute"  # a "text" literal naming a card attribute (checked statically)
# A space of a board and a direction on one: text whose literals are checked against the board at load.
POSITION, DIRECTION = "position", "direction"
TYPEVAR = "T"
BASIC = {INT, BOOL, TEXT, PLAYER, CARD, ZONE, BOARD, NONE, ANY, POSITION, DIRECTION}
NULLABLE = {CARD, PLAYER, TEXT, ZONE, POSITION, DIRECTION}
_BOARD_TEXT = {POSITION, DIRECTION}
_NAME = re.compile(r"[^\[\]]+")  # the names in a type; only brackets separate them


def list_of(t: str) -> str:
    return f"list[{t}]"


def is_list(t: str | None) -> TypeGuard[str]:
    return t is not None and t.startswith("list[")


def map_of(t: str) -> str:
    return f"map[{t}]"


def is_map(t: str | None) -> TypeGuard[str]:
    return t is not None and t.startswith("map[")


def map_value(t: str | None) -> str:
    """The type of a map's values."""
    return t[4:-1] if is_map(t) else ANY


def holds_cards(t: str | None) -> bool:
    """Does a value of type ``t`` hold cards (a card, or a list or record with cards in it)?"""
    return t is not None and re.search(r"\bcard\b", t) is not None


def is_record(t: str | None) -> TypeGuard[str]:
    return t is not None and t.startswith("{")


def record_of(fields: list[tuple[str, str]]) -> str:
    """The canonical type text of a record: fields in their first-written order."""
    return "{" + ",".join(f"{name}:{t}" for name, t in fields) + "}"


_MAYBE = "?"  # after a field's name in a type the checker infers: some records of that type lack the field


def record_fields(t: str) -> list[tuple[str, str]]:
    """(name, type) of each field of a record type, in order."""
    return [(name, ftype) for name, ftype, _ in _fields(t)]


def _fields(t: str) -> list[tuple[str, str, bool]]:
    """(name, type, whether some records lack it) of each field of a record type, in order."""
    fields, depth, start = [], 0, 1
    for i, ch in enumerate(t):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if (ch == "," and depth == 1) or (depth == 0 and i == len(t) - 1):
            part = t[start:i]
            if part:
                name, _, ftype = part.partition(":")
                fields.append((name.rstrip(_MAYBE), ftype, name.endswith(_MAYBE)))
            start = i + 1
    return fields


def field_type(t: str, name: str) -> str | None:
    """The type of field ``name`` of record type ``t`` (None: it has no such field)."""
    return dict(record_fields(t)).get(name)


@overload
def merge(a: str, b: str | None) -> str: ...
@overload
def merge(a: str | None, b: str | None) -> str | None: ...


def merge(a: str | None, b: str | None) -> str | None:
    """One type for two values that may go in one place (list items, branches).

    Records merge into one record with every field of either (a field one of
    them lacks reads as none); lists merge by their items; otherwise the more
    precise of the two.
    """
    if a in (None, NONE, ANY):
        return b if b not in (None, NONE) else a
    if b in (None, NONE, ANY):
        return a
    if is_record(a) and is_record(b):  # a field only some of them have is marked: it may be missing
        mine = {name: (ft, maybe) for name, ft, maybe in _fields(a)}
        theirs = {name: (ft, maybe) for name, ft, maybe in _fields(b)}
        fields = []
        for name in list(mine) + [n for n in theirs if n not in mine]:
            (ta, maybe_a), (tb, maybe_b) = mine.get(name, (None, True)), theirs.get(name, (None, True))
            fields.append((name + _MAYBE * (maybe_a or maybe_b), merge(ta, tb) or tb or ANY))
        return record_of(fields)
    if is_list(a) and is_list(b):
        return list_of(merge(element(a), element(b)) or ANY)
    if is_map(a) and is_map(b):
        return map_of(merge(map_value(a), map_value(b)) or ANY)
    return a


def element(t: str | None) -> str:
    return t[5:-1] if is_list(t) else ANY


def compatible(expected: str | None, actual: str | None, enums=()) -> bool:
    """Can a value of type ``actual`` go where ``expected`` is wanted?"""
    if actual is None or expected in (ANY, actual) or actual == ANY:
        return True
    if is_list(expected) and is_list(actual):
        return compatible(element(expected), element(actual), enums)
    if is_map(expected) and is_map(actual):
        return compatible(map_value(expected), map_value(actual), enums)
    if is_record(expected) and is_record(actual):
        theirs = dict(record_fields(actual))
        return all(n not in theirs or compatible(t, theirs[n], enums) for n, t in record_fields(expected))
    if actual == NONE:
        return expected in NULLABLE or expected in enums or is_record(expected)
    # text goes into an enum, a position or a direction and back; literals are checked against the enum's
    # values or the board's spaces and directions separately
    if (expected == TEXT and actual in _BOARD_TEXT) or (
        expected in _BOARD_TEXT and (actual == TEXT or actual in enums)
    ):
        return True
    return (expected == TEXT and actual in enums) or (expected in enums and actual == TEXT)


def unfit(declared: str, actual: str | None) -> str | None:
    """Why records of type ``actual`` cannot be kept as the declared type ``declared`` although the types of
    their fields fit (None: they can): a field the declared type does not have.  Lists and maps are looked
    into.  (A field they lack is fine: it reads as none.)"""
    if is_list(declared) and is_list(actual):
        return unfit(element(declared), element(actual))
    if is_map(declared) and is_map(actual):
        return unfit(map_value(declared), map_value(actual))
    if not (is_record(declared) and is_record(actual)):
        return None
    for name, t in record_fields(actual):
        mine = field_type(declared, name)
        if mine is None:
            return f"it has a field '{name}', which {describe(declared)} does not declare"
        inner = unfit(mine, t)
        if inner is not None:
            return f"its field '{name}': {inner}"
    return None


def may_lack(t: str, name: str) -> bool:
    """Do some records of type ``t`` (inferred from records of several shapes) lack the field ``name``?"""
    return any(field == name and maybe for field, _, maybe in _fields(t))


def has_typevar(t: str) -> bool:
    """Does ``t`` mention T as a name of its own (an enum ``Tiles`` does not)?"""
    return TYPEVAR in _NAME.findall(t)


def unify(expected: str, actual: str | None, binding: dict) -> bool:
    """Match ``expected`` (may mention T) against ``actual``, recording T."""
    if not has_typevar(expected):
        return compatible(expected, actual, binding.get("$enums", ()))
    if expected == TYPEVAR:
        bound = binding.get(TYPEVAR)
        if bound is None or bound == ANY:
            binding[TYPEVAR] = actual
            return True
        return compatible(bound, actual, binding.get("$enums", ()))
    if is_list(expected):
        if actual == ANY:
            return True
        return is_list(actual) and unify(element(expected), element(actual), binding)
    if is_map(expected):
        return actual == ANY or (is_map(actual) and unify(map_value(expected), map_value(actual), binding))
    return False


def substitute(t: str | None, binding: dict) -> str | None:
    """``t`` with T replaced by what it was bound to (anything if unbound)."""
    if t is None:
        return t
    bound = binding.get(TYPEVAR, ANY)
    return _NAME.sub(lambda name: bound if name.group() == TYPEVAR else name.group(), t)


def describe(t: str | None) -> str:
    """Type name as a designer reads it."""
    if t is None:
        return "nothing"
    if is_list(t):
        return f"a list of {describe(element(t))}"
    if is_map(t):
        return f"a map from text to {describe(map_value(t))}"
    if is_record(t):
        return "a record {" + ", ".join(f"{n}: {describe(ft)}" for n, ft in record_fields(t)) + "}"
    return {
        INT: "a number",
        BOOL: "true/false",
        TEXT: "text",
        PLAYER: "a player",
        CARD: "a card",
        ZONE: "a zone",
        BOARD: "a board",
        POSITION: "a board position",
        DIRECTION: "a direction",
        NONE: "none",
        ANY: "anything",
    }.get(t, f"one of the {t}")


def parse_type(text: str, enums) -> str:
    """The canonical form of a declared type; ValueError names the part not understood."""
    t = "".join(text.split())
    if t in BASIC or t in enums:
        return t
    if is_list(t) and t.endswith("]"):
        return list_of(parse_type(t[5:-1], enums))
    if is_map(t) and t.endswith("]"):
        value = parse_type(t[4:-1], enums)
        if holds_cards(value):
            raise ValueError("a map cannot hold cards (keep them in a zone or a list)")
        return map_of(value)
    if is_record(t) and t.endswith("}"):
        fields: list[tuple[str, str]] = []
        for name, ftype in record_fields(t):
            if not name.isidentifier() or name in dict(fields):
                raise ValueError(f"'{name}' is no field name")
            fields.append((name, parse_type(ftype, enums)))
        if not fields:
            raise ValueError("a record needs at least one field")
        return record_of(fields)
    raise ValueError(t)
