"""What both ways of running rules share: procedures as flat instruction lists, decisions, option ids.

A statement becomes an instruction ``ins(state, env) -> next_pc`` (or a negative signal); control
flow is jumps, so the whole position of a running program is ``(procedure, pc, env)`` — plain data
that survives a JSON round trip and is copied cheaply.  We chose this over replaying effects from a
snapshot: resuming costs nothing, while replay re-runs every effect up to the choice.  The
instructions are the closures of ``reference`` (the executable specification, which the native VM is
tested against); ``Labeller`` names each option of a decision, ``Choice`` is a pending one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.errors import RuleFault
from engine.lang import ast
from engine.lang.types import (
    ANY,
    BASIC,
    BOARD,
    CARD,
    DIRECTION,
    NONE,
    PLAYER,
    POSITION,
    TEXT,
    ZONE,
    Type,
)

NEXT = -1  # the running frame changed (call or return): re-read the stack
SUSPEND = -2  # a decision is pending, or the game ended: stop running
DEFAULT_END = "the game ended"  # the reason of an end the rules do not name


class Overrun(Exception):
    """A function's statements used up the step budget (the interpreter reports E703 where it was called)."""


@dataclass
class Procedure:
    """A compiled program: instructions plus where each came from."""

    name: str
    code: list[Callable] = field(default_factory=list)
    where: list[tuple[int, int]] = field(default_factory=list)  # (line, col) in the DSL text
    # pc → store(state, env, value), or the name of the frame local that the choice is stored in
    choices: dict[int, Callable | str] = field(default_factory=dict)
    choice_types: dict[int, Type] = field(default_factory=dict)  # pc → type of the options
    choice_kinds: dict[int, str] = field(default_factory=dict)  # pc → what is decided (verb or target)
    local_types: dict[str, Type] = field(default_factory=dict)  # frame local → type (cards are relabelled
    # in determinized copies); a running 'for' keeps loop[T]
    source_path: str = ""
    locate: Callable[[int, int], tuple[int, int]] | None = None  # DSL (line, col) → file (line, col)


class Labeller:
    """How values print in action ids and logs; depends only on the value's type.

    ``for_type`` gives the short form everyone reads ("b3", "seat 1", "step
    black north"); ``long_for_type`` an unambiguous one, used only for the
    options of one decision whose short forms collide ("hand:0" and
    "found:0", text "1" and the number 1), so two options never share an id.
    """

    def __init__(self, card_ids: list[str], seat_names: list[str] | None = None, card_names: list[str] | None = None):
        """``seat_names``: what a log calls each seat (the rules' ``players: names:``); ``card_names``: what it
        calls each card (``cards_in_logs: name``); ids stay as they are."""
        self.card_ids = card_ids
        self.seat_names = seat_names or []
        self.card_names = card_names
        self._short: dict[Type | None, Callable] = {}
        self._spoken: dict[Type | None, Callable] = {}
        self._long: dict[Type | None, Callable] = {}
        self._same: dict[Type | None, Callable] = {}

    def __reduce__(self) -> tuple:
        """Pickled as what it labels by: the labels it made (functions) are made again when first asked."""
        return (Labeller, (self.card_ids, self.seat_names, self.card_names))

    def seat_name(self, seat: int) -> str:
        """A seat as a log line names it: its name in the rules, else "seat N"."""
        names = self.seat_names
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    def log_for_type(self, t: Type | None) -> Callable:
        """How a value prints in a log line: as in an id, but seats and cards by the names the rules give."""
        if not self.seat_names and self.card_names is None:
            return self.for_type(t)
        label = self._spoken.get(t)
        if label is None:
            label = self._spoken[t] = self._make_short(t, spoken=True)
        return label

    def of_values(self, t: Type | None) -> Callable | None:
        """For a record type that prints from its values alone (``_printed_by_values``): its short label made
        from ``tuple(v.values())`` of a record ``v`` that is not none; None for other types."""
        if t is None or not t.is_record or not _printed_by_values([ft for _, ft in t.fields]):
            return None
        # without a field of an index every value is a text, and ``str`` is never called
        numbered = next((self.for_type(ft) for _, ft in t.fields if ft in _NUMBERED), str)
        return lambda values: (
            " ".join([x if x.__class__ is str else numbered(x) for x in values if x is not None]) or "nothing"
        )

    def plain_for_type(self, t: Type | None) -> Callable:
        """Values as a view shows them: cards by their id, lists and records copied; the rest as they are."""
        card_ids = self.card_ids
        if t == CARD:
            return lambda v: None if v is None else card_ids[v]
        if t is not None and t.is_list:
            inner = self.plain_for_type(t.element)
            return lambda v: None if v is None else [inner(x) for x in v]
        if t is not None and t.is_record:
            fields = [(name, self.plain_for_type(ft)) for name, ft in t.fields]
            return lambda v: None if v is None else {n: f(v.get(n)) for n, f in fields if v.get(n) is not None}
        return lambda v: v

    def for_type(self, t: Type | None) -> Callable:
        """The short label of a value of type ``t``, built once per type (ids are printed at every decision)."""
        label = self._short.get(t)
        if label is None:
            label = self._short[t] = self._make_short(t)
        return label

    def _make_short(self, t: Type | None, spoken: bool = False) -> Callable:
        """An id's label, or with ``spoken`` a log's (seats and cards by their names)."""
        card_ids = self.card_ids if not spoken or self.card_names is None else self.card_names
        part = self.log_for_type if spoken else self.for_type
        if t == CARD:
            return lambda v: "nothing" if v is None else card_ids[v]
        if t == PLAYER:
            if spoken:
                return lambda v: "nobody" if v is None else self.seat_name(v)
            return lambda v: "nobody" if v is None else f"seat {v}"
        if t in (ZONE, BOARD):
            return lambda v: "nowhere" if v is None else v.split(":", 1)[-1]
        if t is not None and t.is_list:
            inner = part(t.element)
            return lambda v: "nothing" if v is None else ", ".join([inner(x) for x in v]) or "nothing"
        if t is not None and t.is_record:  # fields in the order the record was written: {a: x, b: y} prints "x y"
            fields = {name: part(ft) for name, ft in t.fields}
            as_is = {name for name, f in fields.items() if f is plain_label}  # text prints as itself

            def record(v):
                if v is None:
                    return "nothing"
                words = [
                    x if x.__class__ is str and n in as_is else fields[n](x) for n, x in v.items() if x is not None
                ]
                return " ".join(words) or "nothing"

            return record
        return plain_label

    def long_for_type(self, t: Type | None, loc) -> Callable:
        """An unambiguous label: zones by their full name, text quoted, cards with their zone (``loc[card]``)."""
        label = self.long_with_places(t)
        return lambda v: label(v, loc)

    def long_with_places(self, t: Type | None) -> Callable:
        """``label(value, loc)``: the long label, built once per type."""
        label = self._long.get(t)
        if label is None:
            label = self._long[t] = self._make_long(t)
        return label

    def _make_long(self, t: Type | None) -> Callable:
        card_ids = self.card_ids
        if t == CARD:
            return lambda v, loc: "nothing" if v is None else f"{card_ids[v]} ({loc[v]})"
        if t in (ZONE, BOARD, PLAYER):
            return lambda v, loc: "none" if v is None else str(v) if t != PLAYER else f"seat {v}"
        if t is not None and t.is_list:
            inner = self.long_with_places(t.element)
            return lambda v, loc: "[" + ", ".join(inner(x, loc) for x in v) + "]"
        if t is not None and t.is_record:
            fields = {name: self.long_with_places(ft) for name, ft in t.fields}
            return lambda v, loc: (
                " ".join(f"{n}={fields[n](x, loc)}" for n, x in v.items() if x is not None) or "nothing"
            )
        return lambda v, loc: json.dumps(v, separators=(",", ":"), sort_keys=True)

    def identity_with_places(self, t: Type | None) -> Callable:
        """``key(value, loc)``: what makes two options the same choice: copies of a card in one zone are; 1, "1"
        and true are not.  Built once per type."""
        key = self._same.get(t)
        if key is None:
            key = self._same[t] = self._make_identity(t)
        return key

    def _make_identity(self, t: Type | None) -> Callable:
        card_ids = self.card_ids
        if t == CARD:
            return lambda v, loc: None if v is None else (card_ids[v], loc[v])
        if t is not None and t.is_list:
            inner = self.identity_with_places(t.element)
            return lambda v, loc: tuple(inner(x, loc) for x in v)
        if t is not None and t.is_record:
            fields = [(name, self.identity_with_places(ft)) for name, ft in t.fields]
            return lambda v, loc: tuple([f(v.get(n), loc) for n, f in fields])
        return lambda v, loc: _identity(v)


LABELS_KEPT = 4096  # ids of one decision's options kept, then forgotten all at once


class _Ids(dict):
    """The ids of one decision's options by a key that says how each prints: made once, then looked up.

    Options recur decision after decision; formatting them each time was a third of a small decision's
    cost.  Values of one type only meet here, so 1 and true (equal as keys) never do."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[object], str]):
        super().__init__()
        self.make = make

    def __missing__(self, key) -> str:
        if len(self) >= LABELS_KEPT:
            self.clear()
        made = self[key] = self.make(key)
        return made


_AS_IS = frozenset((TEXT, POSITION, DIRECTION))  # fields whose text prints as itself
_NUMBERED = frozenset((CARD, PLAYER))  # fields holding an index, printed by what it is the index of
_ONE_PIECE = frozenset(BASIC - {ANY, NONE})


def _printed_by_values(fields: list[Type]) -> bool:
    """A record with fields of these types prints from its values alone, in their order: its text prints as
    itself and its indexes all print one way (as cards, or as players), so records with equal values print alike
    whatever their fields are called (no yes/no either, that would equal a 1 or 0)."""
    kinds = {t for t in fields if t in _NUMBERED}
    return len(kinds) <= 1 and all(t in _NUMBERED or t in _AS_IS or t.is_enum for t in fields)


def _is_one_piece(t: Type) -> bool:
    """Values of ``t`` are hashable and print alike only if equal or copies of a card: ids can be kept by value."""
    return t in _ONE_PIECE or t.is_enum


_SCALARS = (int, str, bool, type(None))


def _identity(v):
    """1, "1" and true differ (their classes do); other values by their JSON text."""
    return (v.__class__, v) if v.__class__ in _SCALARS else json.dumps(v, sort_keys=True)


def plain_label(v) -> str:
    if v.__class__ is str:
        return v
    return "none" if v is None else ("yes" if v is True else "no" if v is False else str(v))


def enum_check(members, t: Type | None, what: str) -> Callable | None:
    """A check that a value stored in an enum-typed variable is one of the enum (or none); None if not an enum."""
    if members is None:
        return None
    members = frozenset(members)

    def check(value):
        if value is not None and value not in members:
            raise RuleFault(f"{what} holds one of the {t}, not {plain_label(value)[:60]!r}")

    return check


def bounds_check(bounds: tuple[int, int] | None, what: str) -> Callable | None:
    """A check that a value stored in a variable declaring min:/max: lies between them; None if it declares none."""
    if bounds is None:
        return None
    least, most = bounds

    def check(value):
        if value is not None and not least <= value <= most:
            raise RuleFault(f"{what} may hold {least} to {most} (its min: and max:), not {value}")

    return check


class Choice:
    """The fixed part of one ``choose``: how its options print and what declining is called.

    Both paths compute the options and the decider; ``ask`` turns them into the
    pending decision, with the id collision handling in one place.
    """

    def __init__(self, labels: Labeller, s: ast.Choose, pc: int):
        self.labels, self.pc = labels, pc
        self.item_type = s.options_type or (s.source.type is not None and s.source.type.items) or CARD
        self.label = labels.for_type(self.item_type)
        self.long = labels.long_with_places(self.item_type)
        self.same = labels.identity_with_places(self.item_type)
        self.prefix = s.verb + " " if s.verb else ""
        self.decline, self.secret, self.kind = s.optional, s.secret, s.kind
        self.what = s.verb or ast.format_expr(s.target)
        # The ids of the commonest options without a call per option, made the first time they are asked: a
        # value that is one piece (a card, a number, a text, a player, a place, yes/no) is its own key, a
        # record that prints from its values alone is keyed by them.  Other options are labelled each time.
        t, prefix, label = self.item_type, self.prefix, self.label
        of_values = labels.of_values(t)
        self.by_values = of_values is not None
        self.ids: _Ids | None
        if of_values is not None:
            self.ids = _Ids(lambda values: prefix + of_values(values))
        elif t is not None and _is_one_piece(t):
            self.ids = _Ids(lambda v: prefix + label(v))
        else:
            self.ids = None

    def distinct(self, st, items, ids):
        """Options whose ids collide: the same choice (copies in one zone) merge, others get long ids.

        Only options that print alike are compared: options that print differently are different choices.
        """
        long, same, loc = self.long, self.same, st.loc
        shared: dict[str, set | None] = {}  # id → keys of its options if several print it, else None
        for action in ids:
            shared[action] = set() if action in shared else None
        keys = []
        for x, action in zip(items, ids):
            kinds = shared[action]
            key = None if kinds is None else same(x, loc)
            if kinds is not None:
                kinds.add(key)
            keys.append(key)
        out_ids, out_values, seen = [], [], set()
        for x, key, action in zip(items, keys, ids):
            kinds = shared[action]
            if kinds is None:
                out_ids.append(action)
                out_values.append(x)
            elif (action, key) not in seen:  # the same choice printed alike: options printed apart stay apart
                seen.add((action, key))
                out_ids.append(self.prefix + long(x, loc) if len(kinds) > 1 else action)
                out_values.append(x)
        if len(set(out_ids)) != len(out_ids):
            raise RuleFault(f'two different options of "{self.what}" print alike: {out_ids[0]!r}…')
        return out_ids, out_values

    def ask(self, st, items, player) -> int:
        """Make ``items`` the pending decision of ``player``; SUSPEND."""
        table = self.ids
        if table is None or (self.by_values and None in items):  # a record that is none prints "nothing"
            prefix, label = self.prefix, self.label
            ids = [prefix + label(x) for x in items]
        elif self.by_values:
            ids = [table[tuple(v.values())] for v in items]
        else:
            ids = list(map(table.__getitem__, items))
        values = list(items)
        if len(set(ids)) != len(ids):
            ids, values = self.distinct(st, items, ids)
        decline = self.decline
        if decline is not None:
            if decline in ids:
                raise RuleFault(
                    f'an option of "{self.what}" prints as "{decline}", the id of declining: '
                    f'name the decline (optional "decline")'
                )
            ids.append(decline)
            values.append(None)
        if not ids:
            raise RuleFault(f'nothing to choose from for "{self.what}"')
        if player.__class__ is not int or not 0 <= player < st.n:
            raise RuleFault(f'"{self.what}" is to be chosen by {player!r}, which is no player')
        st.pending = {"player": player, "ids": ids, "values": values, "secret": self.secret, "kind": self.kind}
        st.stack[-1][1] = self.pc
        return SUSPEND
