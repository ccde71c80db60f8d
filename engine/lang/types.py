"""The effect language's few types, as values.

``int bool text player card zone board position direction none any``, ``list[T]``, ``map[T]`` (text keys: an enum's
members, names; the values of type T, never cards), enum types
named after the game's enums (``colours``), which are text with a known set of
values, and records ``{piece: card, at: position}``: a move of several parts,
each field read as ``move.piece`` (a field a record lacks reads as none, so a declared record type may leave
out only the fields that may be none).
``T`` is the one type variable operation declarations may use.

A type is a frozen ``Type``, interned: two equal types are the same object, so ``is``, ``==`` and hashing
are cheap, and a pickled type comes back as that object.  Its ``str`` is its spelling in rule files
(``list[card]``, ``{piece:card,at:position}``); ``parse_type`` reads that spelling at the edges, and
nothing else looks into the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import overload

Field = tuple[str, "Type", bool]  # a record's field: its name, its type, whether some records lack it

# The kinds of type besides the basic ones, each named by its own spelling.
_ENUM, _LIST, _MAP, _LOOP, _RECORD = "enum", "list", "map", "loop", "record"


@dataclass(frozen=True, slots=True, eq=False)
class Type:
    """One type.  Make types with the constructors below (``list_of``, ``record_of``…), never ``Type(…)``:
    they intern, and equality is identity."""

    kind: str  # a basic kind's own name (``int``, ``T``, ``attribute``…), or enum, list, map, loop, record
    name: str = ""  # an enum's name
    item: Type | None = None  # the items of a list or a running loop, the values of a map
    parts: tuple[Field, ...] = ()  # a record's fields, in their first-written order
    text: str = field(default="", repr=False)  # the spelling, made once

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Type({self.text!r})"

    def __reduce__(self) -> tuple:
        """Unpickled through the constructor, so a type read back is the interned one."""
        return _intern, (self.kind, self.name, self.item, self.parts)

    @property
    def is_list(self) -> bool:
        return self.kind == _LIST

    @property
    def is_map(self) -> bool:
        return self.kind == _MAP

    @property
    def is_loop(self) -> bool:
        """A running 'for' loop's own value, kept in a frame: [next index, items]."""
        return self.kind == _LOOP

    @property
    def is_record(self) -> bool:
        return self.kind == _RECORD

    @property
    def is_enum(self) -> bool:
        return self.kind == _ENUM

    @property
    def element(self) -> Type:
        """The type of a list's items (anything for another type)."""
        return self.item if self.kind == _LIST and self.item is not None else ANY

    @property
    def value(self) -> Type:
        """The type of a map's values (anything for another type)."""
        return self.item if self.kind == _MAP and self.item is not None else ANY

    @property
    def items(self) -> Type | None:
        """The type of each item a 'for' takes from a value of this type: a zone's cards, a list's items
        (None: it is neither)."""
        return CARD if self is ZONE else self.item if self.kind == _LIST else None

    @property
    def fields(self) -> tuple[tuple[str, Type], ...]:
        """(name, type) of each field of a record, in order (none for another type)."""
        return tuple((name, t) for name, t, _ in self.parts)

    def field_type(self, name: str) -> Type | None:
        """The type of field ``name`` (None: the record has no such field)."""
        return next((t for field_name, t, _ in self.parts if field_name == name), None)

    def may_lack(self, name: str) -> bool:
        """Do some records of this type (inferred from records of several shapes) lack the field ``name``?"""
        return any(field_name == name and maybe for field_name, _, maybe in self.parts)

    @property
    def holds_cards(self) -> bool:
        """Does a value of this type hold cards (a card, or a list, map or record with cards in it)?"""
        return self is CARD or any(t.holds_cards for t in self._inside())

    @property
    def has_records(self) -> bool:
        """Does a value of this type hold records (a record, or a list or map of them)?"""
        return self.is_record or any(t.has_records for t in self._inside())

    @property
    def has_typevar(self) -> bool:
        """Does this type mention T?"""
        return self is TYPEVAR or any(t.has_typevar for t in self._inside())

    def substitute(self, bound: Type) -> Type:
        """This type with T replaced by ``bound``."""
        if self is TYPEVAR:
            return bound
        if not self.has_typevar:
            return self
        item = self.item.substitute(bound) if self.item is not None else None
        return _intern(self.kind, self.name, item, tuple((n, t.substitute(bound), m) for n, t, m in self.parts))

    def _inside(self) -> tuple[Type, ...]:
        return ((self.item,) if self.item is not None else ()) + tuple(t for _, t, _ in self.parts)


_TYPES: dict[tuple, Type] = {}


def _intern(kind: str, name: str = "", item: Type | None = None, parts: tuple[Field, ...] = ()) -> Type:
    """The one type of these parts."""
    key = (kind, name, item, parts)
    found = _TYPES.get(key)
    if found is None:
        if kind == _ENUM:
            text = name
        elif kind == _RECORD:
            text = "{" + ",".join(f"{n}{_MAYBE * m}:{t}" for n, t, m in parts) + "}"
        elif item is not None:
            text = f"{kind}[{item}]"
        else:
            text = kind
        found = _TYPES.setdefault(key, Type(kind, name, item, parts, text))
    return found


_MAYBE = "?"  # after a field's name in a type the checker infers: some records of that type lack the field

INT, BOOL, TEXT, PLAYER, CARD, ZONE, BOARD, NONE, ANY = (
    _intern(k) for k in ("int", "bool", "text", "player", "card", "zone", "board", "none", "any")
)
ATTRIBUTE = _intern("attribute")  # a "text" literal naming a card attribute (checked statically)
# A space of a board and a direction on one: text whose literals are checked against the board at load.
POSITION, DIRECTION = _intern("position"), _intern("direction")
TYPEVAR = _intern("T")
# A face of a die, in operation declarations only: a number, or a member of the enum the dice's faces name;
# the checker reads it as the game's own (``Vocabulary.face``).
FACE = _intern("face")
BASIC = {INT, BOOL, TEXT, PLAYER, CARD, ZONE, BOARD, NONE, ANY, POSITION, DIRECTION}
NULLABLE = {CARD, PLAYER, TEXT, ZONE, POSITION, DIRECTION}
_BOARD_TEXT = {POSITION, DIRECTION}
_BY_NAME = {str(t): t for t in BASIC}

# How a declared type is spelled (a variable's, a parameter's, what a function or procedure returns): the
# language reference's Types table and the schemas' descriptions read this one table.
TYPE_FORMS: tuple[tuple[str, str, str], ...] = (
    ("int, bool, text", "a number, true/false, text", "int"),
    ("player, card, zone", "a seat, a card, a zone", "card"),
    ("position, direction", "a space of a board, one of its directions (text checked against the board)", "position"),
    ("ENUM", "one of the values of an enum the game declares", "colours"),
    ("list[T]", "a list of values of type T", "list[card]"),
    ("map[T]", "a map from text to values of type T (never cards)", "map[int]"),
    (
        "{name: T, …}",
        "a record: named fields, each of its own type, read as x.name (a move of several parts); "
        "records nest in lists and maps. A record kept as this type has no other field, and may leave out only "
        "a field that may be none (a card, text, …): never a number, true/false, a list or a map",
        "list[{from: position, to: position}]",
    ),
)


def type_named(name: str) -> Type:
    """The type a name spells: a basic kind, else the members of the game's enum ``name``."""
    return _BY_NAME.get(name) or _intern(_ENUM, name)


def list_of(t: Type) -> Type:
    return _intern(_LIST, item=t)


def map_of(t: Type) -> Type:
    return _intern(_MAP, item=t)


def loop_of(t: Type) -> Type:
    """A running 'for' loop over items of type ``t``."""
    return _intern(_LOOP, item=t)


def record_of(fields: list[tuple[str, Type]] | tuple[tuple[str, Type], ...]) -> Type:
    """The record of these fields, in their first-written order."""
    return _intern(_RECORD, parts=tuple((name, t, False) for name, t in fields))


@overload
def merge(a: Type, b: Type | None) -> Type: ...
@overload
def merge(a: Type | None, b: Type | None) -> Type | None: ...


def merge(a: Type | None, b: Type | None) -> Type | None:
    """One type for two values that may go in one place (list items, branches).

    Records merge into one record with every field of either (a field one of
    them lacks reads as none); lists merge by their items; otherwise the more
    precise of the two.
    """
    if a is None or a is NONE or a is ANY:
        return b if b is not None and b is not NONE else a
    if b is None or b is NONE or b is ANY:
        return a
    if a.is_record and b.is_record:  # a field only some of them have is marked: it may be missing
        mine = {name: (ft, maybe) for name, ft, maybe in a.parts}
        theirs = {name: (ft, maybe) for name, ft, maybe in b.parts}
        fields: list[Field] = []
        for name in list(mine) + [n for n in theirs if n not in mine]:
            (ta, maybe_a), (tb, maybe_b) = mine.get(name, (None, True)), theirs.get(name, (None, True))
            fields.append((name, merge(ta, tb) or tb or ANY, maybe_a or maybe_b))
        return _intern(_RECORD, parts=tuple(fields))
    if a.is_list and b.is_list:
        return list_of(merge(a.element, b.element) or ANY)
    if a.is_map and b.is_map:
        return map_of(merge(a.value, b.value) or ANY)
    return a


def compatible(expected: Type | None, actual: Type | None) -> bool:
    """Can a value of type ``actual`` go where ``expected`` is wanted?"""
    if actual is None or expected is ANY or expected is actual or actual is ANY:
        return True
    if expected is None:
        return False
    if expected.is_list and actual.is_list:
        return compatible(expected.element, actual.element)
    if expected.is_map and actual.is_map:
        return compatible(expected.value, actual.value)
    if expected.is_record and actual.is_record:
        return all((theirs := actual.field_type(n)) is None or compatible(t, theirs) for n, t in expected.fields)
    if actual is NONE:
        return expected in NULLABLE or expected.is_enum or expected.is_record
    # text goes into an enum, a position or a direction and back; literals are checked against the enum's
    # values or the board's spaces and directions separately
    if (expected is TEXT and actual in _BOARD_TEXT) or (expected in _BOARD_TEXT and (actual is TEXT or actual.is_enum)):
        return True
    return (expected is TEXT and actual.is_enum) or (expected.is_enum and actual is TEXT)


def unfit(declared: Type, actual: Type | None) -> tuple[str, str] | None:
    """Why records of type ``actual`` cannot be kept as the declared type ``declared`` although the types of
    their fields fit, and what to write instead (None: they can): a field the declared type does not have, or
    one it declares that some records lack and that cannot be none (a number, true/false, a list, a map:
    reading it would fail in play).  Lists and maps are looked into."""
    if actual is None:
        return None
    if declared.is_list and actual.is_list:
        return unfit(declared.element, actual.element)
    if declared.is_map and actual.is_map:
        return unfit(declared.value, actual.value)
    if not (declared.is_record and actual.is_record):
        return None
    for name, t in actual.fields:
        mine = declared.field_type(name)
        if mine is None:
            return (
                f"it has a field '{name}', which {describe(declared)} does not declare",
                "declare the field in the type, or leave it out of the record",
            )
        inner = unfit(mine, t)
        if inner is not None:
            return f"its field '{name}': {inner[0]}", inner[1]
    for name, t in declared.fields:
        if (actual.field_type(name) is None or actual.may_lack(name)) and not compatible(t, NONE):
            return (
                f"{'some records lack' if actual.field_type(name) else 'it lacks'} the field '{name}', and "
                f"{describe(t)} cannot be none",
                f"give every record its '{name}' ({name}: …)",
            )
    return None


def unify(expected: Type, actual: Type | None, binding: dict[Type, Type | None]) -> bool:
    """Match ``expected`` (may mention T) against ``actual``, recording T."""
    if not expected.has_typevar:
        return compatible(expected, actual)
    if expected is TYPEVAR:
        bound = binding.get(TYPEVAR)
        if bound is None or bound is ANY:
            binding[TYPEVAR] = actual
            return True
        return compatible(bound, actual)
    if expected.is_list:
        if actual is ANY:
            return True
        return actual is not None and actual.is_list and unify(expected.element, actual.element, binding)
    if expected.is_map:
        return actual is ANY or (actual is not None and actual.is_map and unify(expected.value, actual.value, binding))
    return False


def substitute(t: Type | None, binding: dict[Type, Type | None]) -> Type | None:
    """``t`` with T replaced by what it was bound to (anything if unbound)."""
    return None if t is None else t.substitute(binding.get(TYPEVAR) or ANY)


_DESCRIBED = {
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
    FACE: "a face of a die",
}


def describe(t: Type | None) -> str:
    """Type name as a designer reads it."""
    if t is None:
        return "nothing"
    if t.is_list:
        return f"a list of {describe(t.element)}"
    if t.is_map:
        return f"a map from text to {describe(t.value)}"
    if t.is_record:
        return "a record {" + ", ".join(f"{n}: {describe(ft)}" for n, ft in t.fields) + "}"
    return _DESCRIBED.get(t, f"one of the {t}")


_TOKEN = re.compile(r"[\[\]{}:,]|[^\[\]{}:,]+")


def parse_type(text: str, enums) -> Type:
    """The type a declared type's text spells (``enums``: the names of the game's enums); ValueError names
    the part not understood."""
    tokens = _TOKEN.findall("".join(text.split()))
    t, end = _parse(tokens, 0, enums)
    if end != len(tokens):
        raise ValueError("".join(tokens))
    return t


def _parse(tokens: list[str], at: int, enums) -> tuple[Type, int]:
    """The type spelled from ``tokens[at]`` on, and where it ends."""
    word = tokens[at] if at < len(tokens) else ""
    if word == "{":
        return _parse_record(tokens, at, enums)
    if word in ("list", "map") and tokens[at + 1 : at + 2] == ["["]:
        inner, end = _parse(tokens, at + 2, enums)
        if tokens[end : end + 1] != ["]"]:
            raise ValueError("".join(tokens[at:]))
        if word == "map" and inner.holds_cards:
            raise ValueError("a map cannot hold cards (keep them in a zone or a list)")
        return (list_of(inner) if word == "list" else map_of(inner)), end + 1
    if word in _BY_NAME or word in enums:
        return type_named(word), at + 1
    raise ValueError(word if tokens[at + 1 : at + 2] in ([], [","], ["]"], ["}"]) else "".join(tokens[at:]))


def _parse_record(tokens: list[str], at: int, enums) -> tuple[Type, int]:
    """``{name: type, …}`` from the ``{`` at ``at``."""
    fields: list[tuple[str, Type]] = []
    at += 1
    while tokens[at : at + 1] != ["}"]:
        name = tokens[at] if at < len(tokens) else ""
        if not name.isidentifier() or name in dict(fields) or tokens[at + 1 : at + 2] != [":"]:
            raise ValueError(f"'{name}' is no field name")
        t, at = _parse(tokens, at + 2, enums)
        fields.append((name, t))
        if tokens[at : at + 1] == [","]:
            at += 1
        elif tokens[at : at + 1] != ["}"]:
            raise ValueError("".join(tokens))
    if not fields:
        raise ValueError("a record needs at least one field")
    return record_of(fields), at + 1
