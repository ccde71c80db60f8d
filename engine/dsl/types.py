"""The effect language's few types, written as short strings.

``int bool text player card zone board none any``, ``list[T]``, and enum
types named after the game's enums (``toys``), which are text with a known set
of values.  ``T`` is the one type variable operation declarations may use.
"""
from __future__ import annotations

import re

INT, BOOL, TEXT, PLAYER, CARD, ZONE, BOARD, NONE, ANY = (
    "int", "bool", "text", "player", "card", "zone", "board", "none", "any")
ATTRIBUTE = "attribute"  # a "text" literal naming a card attribute (checked statically)
TYPEVAR = "T"
BASIC = {INT, BOOL, TEXT, PLAYER, CARD, ZONE, BOARD, NONE, ANY}
NULLABLE = {CARD, PLAYER, TEXT, ZONE}
_NAME = re.compile(r"[^\[\]]+")  # the names in a type; only brackets separate them


def list_of(t: str) -> str:
    return f"list[{t}]"


def is_list(t: str | None) -> bool:
    return bool(t) and t.startswith("list[")


def element(t: str) -> str:
    return t[5:-1] if is_list(t) else ANY


def compatible(expected: str, actual: str | None, enums=()) -> bool:
    """Can a value of type ``actual`` go where ``expected`` is wanted?"""
    if actual is None or expected == ANY or actual == ANY or expected == actual:
        return True
    if is_list(expected) and is_list(actual):
        return compatible(element(expected), element(actual), enums)
    if actual == NONE:
        return expected in NULLABLE or expected in enums
    if expected == TEXT and actual in enums:
        return True
    if expected in enums and actual == TEXT:
        return True  # literals are checked against the enum's values separately
    return False


def has_typevar(t: str) -> bool:
    """Does ``t`` mention T as a name of its own (an enum ``Tiles`` does not)?"""
    return TYPEVAR in _NAME.findall(t)


def unify(expected: str, actual: str, binding: dict) -> bool:
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
    return {INT: "a number", BOOL: "true/false", TEXT: "text", PLAYER: "a player", CARD: "a card",
            ZONE: "a zone", BOARD: "a board", NONE: "none", ANY: "anything"}.get(t, f"one of the {t}")
