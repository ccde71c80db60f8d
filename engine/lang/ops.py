"""Every operation of the effect language, each declared exactly once.

A declaration gives the name, the parameters and their types, the result type
(``None`` for operations that are statements), how it reads in English, and
the implementation.  The type checker, the compiler, ``tabletop explain`` and
the generated language reference all read this table; adding an operation
touches only this file.

Implementations receive the running state first.  They raise ``RuleFault``
for impossible requests; the interpreter adds the rule's file and line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import RuleFault, kind_word, quoted
from engine.lang.types import (
    ANY,
    ATTRIBUTE,
    BOARD,
    BOOL,
    CARD,
    DIRECTION,
    FACE,
    INT,
    PLAYER,
    POSITION,
    TEXT,
    TYPEVAR,
    ZONE,
    Type,
    list_of,
    map_of,
)


@dataclass(frozen=True, slots=True)
class Op:
    name: str
    params: tuple[tuple[str, Type], ...]
    returns: Type | None  # None: a statement, gives no value
    says: str  # English, with {param} placeholders
    fn: Callable | None  # None for control operations
    group: str
    constant: bool = False  # may be written as a bare name: ``num_players``
    control: bool = False  # changes what runs next; the compiler emits it (fn is None)
    reads: str = "state"  # what its value depends on: READS_ARGS, READS_ZONE, or anything in the state
    optional: int = 0  # how many of the last parameters a call may leave out: ``range(n)``, ``range(a, b)``
    draws: bool = False  # draws at random: gives a value, yet changes the state (the chance it used)
    charted: bool = False  # reads the board's rows and columns: a grid or hexagon board, not a graph (checked at load)

    @property
    def changes(self) -> bool:
        """Does it change the state? Statements do, and so does drawing at random: functions may not."""
        return self.returns is None or self.draws


OPS: dict[str, Op] = {}
READS_ARGS = "args"  # its arguments and the game's fixed facts (boards, seats, teams) only
READS_ZONE = "zone"  # also the cards of its zone argument

MAX_SIZE = 100_000  # items of a list, characters of a text that a rule builds (numbers: runtime/numbers.py)


def bounded(value):
    """``value``, unless it is larger than MAX_SIZE: the step budget bounds time, not memory (a list doubled
    in a loop once took 1.6 GB), so operations that make a value grow check the result.

    Run on every text or list joined (``a + "/" + b``): the classes are compared, not ``isinstance``d.
    """
    cls = value.__class__
    if (cls is str or cls is list) and len(value) > MAX_SIZE:
        raise _oversized(value, f"{len(value):,}")
    return value


def times(x, y):
    """``x * y``; a list or text repeated is refused before it is made when it would be too large."""
    if x.__class__ is int:
        if y.__class__ is int:  # two numbers, the common case: only the product's size is checked
            return bounded(x * y)
        x, y = y, x
    if isinstance(x, (list, str)) and isinstance(y, int) and len(x) * y > MAX_SIZE:
        raise _oversized(x, f"{len(x) * y:,}")
    return bounded(x * y)


def _oversized(value, size: str) -> RuleFault:
    what, unit = ("list", "items") if isinstance(value, list) else ("text", "characters")
    return RuleFault(
        f"a {what} of {size} {unit} is over the size budget of {MAX_SIZE:,}: does a loop make it grow without end?"
    )


def op(
    name: str,
    *params: tuple[str, Type],
    returns: Type | None = None,
    says: str,
    group: str,
    constant: bool = False,
    control: bool = False,
    reads: str = "state",
    optional: int = 0,
    draws: bool = False,
    charted: bool = False,
):
    def register(fn: Callable | None) -> Callable | None:
        if name in OPS:  # pragma: no cover - a programming error caught at import
            raise RuntimeError(f"operation {name} declared twice")
        OPS[name] = Op(
            name,
            tuple(params),
            returns,
            says,
            fn,
            group,
            constant,
            control,
            reads,
            optional,
            draws,
            charted,
        )
        return fn

    return register


# ----------------------------------------------------------------- control
op(
    "perform",
    ("card", CARD),
    says="carry out the effect of {card} (nothing if it has none)",
    group="control",
    control=True,
)(None)


def zone_cards(st, zone: str) -> list:
    """The cards of a zone, bottom to top: what a zone is where a list is wanted (one collection protocol)."""
    try:
        return st.zones[zone]
    except KeyError:
        raise _no_zone(zone) from None


def _no_zone(zone: str) -> RuleFault:
    return RuleFault(f"there is no zone '{zone}'")


_zone = zone_cards


# ------------------------------------------------------------------- zones
@op("top", ("zone", ZONE), returns=CARD, says="the top card of {zone}", reads=READS_ZONE, group="zones")
def _top(st, zone):
    try:
        return st.zones[zone][-1]
    except KeyError:
        raise _no_zone(zone) from None
    except IndexError:
        raise RuleFault(f"zone '{zone}' is empty, it has no top card") from None


@op(
    "bottom",
    ("zone", ZONE),
    returns=CARD,
    says="the bottom card of {zone}",
    reads=READS_ZONE,
    group="zones",
)
def _bottom(st, zone):
    try:
        return st.zones[zone][0]
    except KeyError:
        raise _no_zone(zone) from None
    except IndexError:
        raise RuleFault(f"zone '{zone}' is empty, it has no bottom card") from None


@op(
    "size",
    ("items", list_of(ANY)),
    returns=INT,
    says="how many items {items} has: the cards of a zone, the items of a list",
    reads=READS_ARGS,
    group="zones",
)
def _size(st, items):
    return len(items)


@op(
    "is_empty",
    ("items", list_of(ANY)),
    returns=BOOL,
    says="{items} (a zone or a list) has nothing",
    reads=READS_ARGS,
    group="zones",
)
def _is_empty(st, items):
    return not items


@op(
    "top_cards",
    ("zone", ZONE),
    ("n", INT),
    returns=list_of(CARD),
    says="the top {n} cards of {zone}, top first (all of them if it has fewer)",
    reads="zone",
    group="zones",
)
def _top_cards(st, zone, n):
    cards = _zone(st, zone)
    return cards[::-1][: max(0, n)]


@op(
    "cards",
    ("zone", ZONE),
    returns=list_of(CARD),
    says="the cards of {zone}, bottom to top",
    reads="zone",
    group="zones",
)
def _cards(st, zone):
    return list(_zone(st, zone))


@op(
    "zone_of",
    ("card", CARD),
    returns=ZONE,
    says="the zone that holds {card}",
    group="zones",
)
def _zone_of(st, card):
    return st.loc[card]


@op("move", ("card", CARD), ("to", ZONE), says="put {card} on top of {to}", group="zones")
def _move(st, card, to):
    st.move(card, to)


@op(
    "move_bottom",
    ("card", CARD),
    ("to", ZONE),
    says="put {card} at the bottom of {to}",
    group="zones",
)
def _move_bottom(st, card, to):
    st.move(card, to, False)


@op(
    "move_all",
    ("source", ZONE),
    ("to", ZONE),
    says="put all cards of {source} on top of {to}, keeping their order",
    group="zones",
)
def _move_all(st, source, to):
    src, target = _zone(st, source), _zone(st, to)
    if src is target:
        return
    loc = st.loc
    for card in src:
        loc[card] = to
    target.extend(src)
    st.sight.moved_all(st, src, to)
    src.clear()


@op("shuffle", ("zone", ZONE), says="shuffle {zone}", group="zones")
def _shuffle(st, zone):
    st.shuffle(_zone(st, zone))
    st.chance({"chance": "shuffle", "zone": zone})
    st.reordered(zone)


@op("reverse", ("zone", ZONE), says="reverse the order of {zone}", group="zones")
def _reverse(st, zone):
    _zone(st, zone).reverse()


@op(
    "sort",
    ("zone", ZONE),
    ("attribute", ATTRIBUTE),
    says="sort {zone} by {attribute}, the smallest on top",
    group="zones",
)
def _sort(st, zone, attribute):
    value = st.game.attributes[attribute].__getitem__
    cards = _zone(st, zone)
    if None in map(value, cards):  # cards without a value go to the bottom: none and a value do not compare
        cards.sort(key=lambda c: (value(c) is None, value(c)), reverse=True)
    else:
        cards.sort(key=value, reverse=True)
    st.reordered(zone)


# ----------------------------------------------------------------- players
@op(
    "players",
    returns=list_of(PLAYER),
    says="every player, in seat order",
    reads=READS_ARGS,
    group="players",
)
def _players(st):
    return list(range(st.n))


@op(
    "num_players",
    returns=INT,
    says="the number of players",
    reads=READS_ARGS,
    group="players",
    constant=True,
)
def _num_players(st):
    return st.n


@op(
    "seat_number",
    ("player", PLAYER),
    returns=INT,
    says="{player}'s seat number, counting from 0",
    reads="args",
    group="players",
)
def _seat_number(st, player):
    return player


@op(
    "players_from",
    ("player", PLAYER),
    returns=list_of(PLAYER),
    says="every player in turn order (clockwise), starting with {player}",
    reads="args",
    group="players",
)
def _players_from(st, player):
    n = st.n
    player %= n
    return [*range(player, n), *range(player)]


@op(
    "left_of",
    ("player", PLAYER),
    returns=PLAYER,
    says="the player to the left of {player} (next clockwise)",
    reads="args",
    group="players",
)
def _left_of(st, player):
    return (player + 1) % st.n


@op(
    "right_of",
    ("player", PLAYER),
    returns=PLAYER,
    says="the player to the right of {player}",
    reads="args",
    group="players",
)
def _right_of(st, player):
    return (player - 1) % st.n


@op(
    "opponents",
    ("player", PLAYER),
    returns=list_of(PLAYER),
    says="the players who are not {player} nor on {player}'s team, in turn order",
    reads="args",
    group="players",
)
def _opponents(st, player):
    team = st.game.team_of(st.n, player)
    n = st.n
    return [(player + i) % n for i in range(1, n) if (player + i) % n not in team]


@op(
    "teammates",
    ("player", PLAYER),
    returns=list_of(PLAYER),
    says="the other players on {player}'s team",
    reads="args",
    group="players",
)
def _teammates(st, player):
    return [p for p in st.game.team_of(st.n, player) if p != player]


@op(
    "score",
    ("player", PLAYER),
    returns=INT,
    says="the points {player} has by the scoring rules",
    group="players",
)
def _score(st, player):
    return st.score_of(player)


@op(
    "team_score",
    ("player", PLAYER),
    returns=INT,
    says="the points of {player}'s team (just {player}'s when there are no teams)",
    group="players",
)
def _team_score(st, player):
    return st.team_score(player)


# --------------------------------------------------------------- knowledge
@op(
    "show",
    ("cards", list_of(CARD)),
    ("player", PLAYER),
    says="show {cards} to {player} alone (remembered in that player's view)",
    group="knowledge",
)
def _show(st, cards, player):
    if player is None:
        raise RuleFault("show: no player to show the cards to")
    st.seen[player].append({"turn": len(st.history), "cards": [[st.loc[c], st.game.card_ids[c]] for c in cards]})
    st.shown(cards, player)


@op(
    "reveal",
    ("cards", list_of(CARD)),
    says="turn {cards} face up for everyone to see, where they lie (each player remembers them)",
    group="knowledge",
)
def _reveal(st, cards):
    cards = [c for c in cards if c is not None]
    for seat in range(st.n):
        st.shown(cards, seat)


# -------------------------------------------------------------------- dice
def _face(st, die) -> object:
    """The face ``die`` shows; RuleFault if it is no die."""
    faces = st.faces
    face = faces[die] if faces is not None and die is not None else None
    if face is None:
        what = "no die given" if die is None else f"'{st.game.card_ids[die]}' is not a die"
        raise RuleFault(f"{what}: only a component kind with faces: is rolled and shows a face")
    return face


@op(
    "roll",
    ("dice", list_of(CARD)),
    says="roll {dice}: each shows one of its faces at random, seen by the players who see where it lies "
    "(on a public zone by all; in a zone of visibility owner by its owner alone: a roll in secret)",
    group="dice",
    draws=True,
)
def _roll(st, dice):
    die_faces = st.game.die_faces
    for die in dice:
        _face(st, die)
        faces = die_faces[die]
        i = st.randbelow(len(faces))
        st.faces[die] = faces[i]
        entry = {"chance": "roll", "die": die, "of": len(faces), "index": i}
        seeing = st.sight.rolled(st, die)
        if seeing != st.sight.everyone:  # a roll in secret: the others' histories do not hold its face
            entry["seen"] = [p for p in range(st.n) if seeing >> p & 1]
        st.chance(entry)


@op("face", ("die", CARD), returns=FACE, says="the face {die} shows", group="dice")
def _face_of(st, die):
    return _face(st, die)


@op("faces", ("dice", list_of(CARD)), returns=list_of(FACE), says="the faces {dice} show, in order", group="dice")
def _faces(st, dice):
    return [_face(st, d) for d in dice]


@op(
    "showing",
    ("dice", list_of(CARD)),
    ("face", FACE),
    returns=list_of(CARD),
    says="the dice of {dice} that show {face}: size(showing(dice, 6)) counts the sixes",
    group="dice",
)
def _showing(st, dice, face):
    return [d for d in dice if _face(st, d) == face]


# ------------------------------------------------------------------- lists
@op(
    "count",
    ("list", list_of(ANY)),
    returns=INT,
    says="the old name of size({list}), kept so old rules load; write size",
    reads=READS_ARGS,
    group="lists",
)
def _count(st, items):
    return len(items)


@op(
    "range",
    ("start", INT),
    ("stop", INT),
    returns=list_of(INT),
    says="the numbers from {start} up to {stop}, {stop} left out; range(n) alone: 0 up to n",
    reads=READS_ARGS,
    group="lists",
    optional=1,
)
def _range(st, start, stop=None):
    if stop is None:
        start, stop = 0, start
    if stop - start > MAX_SIZE:
        raise RuleFault(f"range({start}, {stop}) is over the size budget of {MAX_SIZE:,} items")
    return list(range(start, stop))


@op(
    "any",
    ("conditions", list_of(BOOL)),
    returns=BOOL,
    says="some item of {conditions} is true",
    reads=READS_ARGS,
    group="lists",
)
def _any(st, conditions):
    return any(conditions)


@op(
    "all",
    ("conditions", list_of(BOOL)),
    returns=BOOL,
    says="every item of {conditions} is true",
    reads=READS_ARGS,
    group="lists",
)
def _all(st, conditions):
    return all(conditions)


def _comparable(items: list, what: str) -> list:
    """``items``, if they can be put in order: numbers with numbers, text with text (else a rule fault, not a
    Python TypeError)."""
    kinds = {type(x) for x in items}
    if len(kinds) > 1 or kinds & {bool, type(None), list, dict}:
        raise RuleFault(f"{what}: only numbers or only text can be put in order, not {quoted(items[:4])}")
    return items


@op(
    "sorted",
    ("list", list_of(TYPEVAR)),
    returns=list_of(TYPEVAR),
    says="{list} from the smallest item to the largest (numbers or text); sorted(LIST, by: KEY) orders by a key",
    reads=READS_ARGS,
    group="lists",
)
def _sorted(st, items):
    return sorted(_comparable(items, "sorted"))


@dataclass(frozen=True, slots=True)
class KeyedOp:
    """An operation over a list ordered by a key: ``max(hand(me), by: it.cost)``, the item as ``it``."""

    name: str
    gives_list: bool  # the list reordered (sorted), else one item of it
    says: str
    fn: Callable  # fn(pairs): pairs are (key, item) in the list's order


KEYED: dict[str, KeyedOp] = {}


def keyed(name: str, gives_list: bool, says: str):
    def register(fn: Callable) -> Callable:
        KEYED[name] = KeyedOp(name, gives_list, says, fn)
        return fn

    return register


def _keys_in_order(pairs: list, what: str) -> list[int]:
    """Positions of ``pairs`` ordered by key, equals in their order: keys must all be numbers or all text."""
    keys = _comparable([k for k, _ in pairs], f"{what}(…, by: …)")
    return sorted(range(len(keys)), key=keys.__getitem__)


@keyed("max", False, "the item of LIST whose KEY is largest (the first of equals; none if empty)")
def _max_by(pairs):
    order = _keys_in_order(pairs, "max")
    if not order:
        return None
    best = pairs[order[-1]][0]
    return next(item for key, item in pairs if key == best)


@keyed("min", False, "the item of LIST whose KEY is smallest (the first of equals; none if empty)")
def _min_by(pairs):
    order = _keys_in_order(pairs, "min")
    return pairs[order[0]][1] if order else None


@keyed("sorted", True, "the items of LIST from the smallest KEY to the largest (equals keep their order)")
def _sorted_by(pairs):
    return [pairs[i][1] for i in _keys_in_order(pairs, "sorted")]


@op(
    "number",
    ("text", TEXT),
    returns=INT,
    says='the whole number written in {text} ("12" gives 12)',
    reads=READS_ARGS,
    group="lists",
)
def _number(st, text):
    if text is None:
        raise RuleFault("number(): no text given")
    digits = text.strip()
    if not (digits.lstrip("-").isdigit() and digits.isascii()) or len(digits) > 18:
        raise RuleFault(f"number(): {quoted(text)[:40]} is not a whole number")
    return int(digits)


@op("sum", ("numbers", list_of(INT)), returns=INT, says="the sum of {numbers}", reads=READS_ARGS, group="lists")
def _sum(st, numbers):
    return sum(numbers)


@op(
    "max",
    ("numbers", list_of(INT)),
    returns=INT,
    says="the largest of {numbers} (0 if none)",
    reads="args",
    group="lists",
)
def _max(st, numbers):
    return max(numbers, default=0)


@op(
    "min",
    ("numbers", list_of(INT)),
    returns=INT,
    says="the smallest of {numbers} (0 if none)",
    reads="args",
    group="lists",
)
def _min(st, numbers):
    return min(numbers, default=0)


@op(
    "distinct",
    ("list", list_of(TYPEVAR)),
    returns=list_of(TYPEVAR),
    says="{list} without repeats, first occurrences kept",
    reads="args",
    group="lists",
)
def _distinct(st, items):
    return _unique(items)


def _unique(items: list) -> list:
    """The items without repeats, first occurrences kept; records (which Python cannot hash) by their contents."""
    try:
        return list(dict.fromkeys(items))
    except TypeError:
        seen: set[str] = set()
        out = []
        for item in items:
            key = json.dumps(item, sort_keys=True)
            if key not in seen:
                seen.add(key)
                out.append(item)
        return out


@op(
    "kinds",
    ("cards", list_of(CARD)),
    returns=list_of(TEXT),
    says="the ids of {cards} without repeats, first occurrences kept: one option per kind when copies of a "
    'card lie in several places (choose "guess" from kinds(deck)); card_of gives a card of the kind back',
    reads="args",
    group="zones",
)
def _kinds(st, cards):
    ids = st.game.card_ids
    return list(dict.fromkeys(ids[c] for c in cards if c is not None))


@op(
    "card_of",
    ("cards", list_of(CARD)),
    ("id", TEXT),
    returns=CARD,
    says="the first of {cards} whose id is {id}: one card of that kind (none if there is none)",
    reads="args",
    group="zones",
)
def _card_of(st, cards, cid):
    ids = st.game.card_ids
    return next((c for c in cards if c is not None and ids[c] == cid), None)


@op(
    "first",
    ("list", list_of(TYPEVAR)),
    returns=TYPEVAR,
    says="the first item of {list} (none if empty)",
    reads="args",
    group="lists",
)
def _first(st, items):
    return items[0] if items else None


@op(
    "last",
    ("list", list_of(TYPEVAR)),
    returns=TYPEVAR,
    says="the last item of {list} (none if empty)",
    reads="args",
    group="lists",
)
def _last(st, items):
    return items[-1] if items else None


@op(
    "item",
    ("list", list_of(TYPEVAR)),
    ("index", INT),
    returns=TYPEVAR,
    says="the item at position {index} of {list}, counting from 0 (none if there is none)",
    reads="args",
    group="lists",
)
def _item(st, items, index):
    return items[index] if 0 <= index < len(items) else None


@op(
    "index_of",
    ("list", list_of(TYPEVAR)),
    ("value", TYPEVAR),
    returns=INT,
    says="the position of {value} in {list}, counting from 0 (-1 if absent)",
    reads="args",
    group="lists",
)
def _index_of(st, items, value):
    return items.index(value) if value in items else -1


def _position(items, value, what):
    if items is None:  # fails as going through none fails anywhere: 'none is not a list'
        raise TypeError("'NoneType' object is not iterable")
    try:
        return items.index(value)
    except ValueError:
        raise RuleFault(f"{what}: {quoted(value)} is not in the list") from None


@op(
    "cyclic_next",
    ("ring", list_of(TYPEVAR)),
    ("value", TYPEVAR),
    returns=TYPEVAR,
    says="the item after {value} in {ring}, the last wrapping round to the first",
    reads="args",
    group="lists",
)
def _cyclic_next(st, ring, value):
    return ring[(_position(ring, value, "cyclic_next") + 1) % len(ring)]


@op(
    "cyclic_prev",
    ("ring", list_of(TYPEVAR)),
    ("value", TYPEVAR),
    returns=TYPEVAR,
    says="the item before {value} in {ring}, the first wrapping round to the last",
    reads="args",
    group="lists",
)
def _cyclic_prev(st, ring, value):
    return ring[(_position(ring, value, "cyclic_prev") - 1) % len(ring)]


@op(
    "around",
    ("ring", list_of(TYPEVAR)),
    ("value", TYPEVAR),
    ("before", INT),
    ("after", INT),
    returns=list_of(TYPEVAR),
    says="the {before} items before {value} in {ring} and {after} items from {value} on, "
    "wrapping round, each at most once",
    reads="args",
    group="lists",
)
def _around(st, ring, value, before, after):
    i, n = _position(ring, value, "around"), len(ring)
    # n consecutive positions already hold every item: a larger count picks nothing more, only costs memory
    picked = [ring[(i + k) % n] for k in range(-before, min(after, n - before))]
    return _unique(picked)


@op(
    "random_from",
    ("list", list_of(TYPEVAR)),
    returns=TYPEVAR,
    says="an item of {list} picked at random (none if empty)",
    group="lists",
    draws=True,
)
def _random_from(st, items):
    if not items:
        return None
    i = st.randbelow(len(items))
    st.chance({"chance": "random", "of": len(items), "index": i})
    return items[i]


# -------------------------------------------------------------------- maps
# A map is a value: these give a new map and leave the old one as it was (m = with_key(m, "a", 2)).
@op(
    "get",
    ("map", map_of(TYPEVAR)),
    ("key", TEXT),
    returns=TYPEVAR,
    says="the value of {key} in {map} (none if it has none)",
    reads=READS_ARGS,
    group="maps",
)
def _get(st, mapping, key):
    return mapping.get(key)


@op(
    "with_key",
    ("map", map_of(TYPEVAR)),
    ("key", TEXT),
    ("value", TYPEVAR),
    returns=map_of(TYPEVAR),
    says="{map} with {key} set to {value}",
    reads=READS_ARGS,
    group="maps",
)
def _with_key(st, mapping, key, value):
    if key is None:
        raise RuleFault("with_key: no key given")
    if not isinstance(key, str):  # a value of type `any` may be anything at run time; a map's keys are text
        raise RuleFault(f"with_key: a key is text, not {kind_word(key)}")
    if key not in mapping and len(mapping) >= MAX_SIZE:
        raise RuleFault(f"a map of more than {MAX_SIZE:,} keys is over the size budget: does a loop make it grow?")
    return {**mapping, key: value}


@op(
    "without_key",
    ("map", map_of(TYPEVAR)),
    ("key", TEXT),
    returns=map_of(TYPEVAR),
    says="{map} without {key}",
    reads=READS_ARGS,
    group="maps",
)
def _without_key(st, mapping, key):
    return {k: v for k, v in mapping.items() if k != key}


@op(
    "keys",
    ("map", map_of(ANY)),
    returns=list_of(TEXT),
    says="the keys of {map}, in the order they were first set",
    reads=READS_ARGS,
    group="maps",
)
def _keys(st, mapping):
    return list(mapping)


@op(
    "values",
    ("map", map_of(TYPEVAR)),
    returns=list_of(TYPEVAR),
    says="the values of {map}, in the order of its keys",
    reads=READS_ARGS,
    group="maps",
)
def _values(st, mapping):
    return list(mapping.values())


# ------------------------------------------------------------------ boards
@op(
    "distance",
    ("board", BOARD),
    ("a", TEXT),
    ("b", TEXT),
    returns=INT,
    says="the length of the straight line from point {a} to point {b} on {board}",
    reads="args",
    group="boards",
)
def _distance(st, board, a, b):
    try:  # the board's table, read here: the hot path of a game on a plane
        return st.game.boards_by_id[board].lengths[(a, b)]
    except (AttributeError, KeyError):  # no such board, not measured yet (a large board), or not a plane
        pass
    return st.game.board(board).distance(a, b)


@op(
    "touched",
    ("board", BOARD),
    ("a", TEXT),
    ("b", TEXT),
    returns=list_of(TEXT),
    says="the labels of the cells that the straight line from {a} to {b} on {board} touches, in order",
    reads="args",
    group="boards",
)
def _touched(st, board, a, b):
    try:
        return list(st.game.boards_by_id[board].touches[(a, b)])
    except (AttributeError, KeyError):  # as in ``distance``
        pass
    return list(_plane(st, board).touched(a, b))


def _plane(st, board):
    """Plane board ``board``; a board of spaces has no points to measure between (``_grid``'s converse)."""
    b = st.game.board(board)
    if not hasattr(b, "touched"):
        raise RuleFault(f"board '{board}' is not a plane board: it has no points to draw a line between")
    return b


# -------------------------------------------------------------------- text
@op(
    "word",
    ("text", TEXT),
    ("index", INT),
    returns=TEXT,
    says='word number {index} of {text}, counting from 0 ("" if there is none)',
    reads="args",
    group="text",
)
def _word(st, text, index):
    words = (text or "").split()
    return words[index] if 0 <= index < len(words) else ""


# ------------------------------------------------------------- grid boards
# The operations called on every step of a game read the board's tables themselves (from the boards by
# their ids, ``GameDef.boards_by_id``); a board id not there, a space that is not there, or a board
# that is not one of spaces, goes through the board's own method, which says which.
def _grid(st, board):
    b = st.game.board(board)
    if not hasattr(b, "toward"):
        raise RuleFault(f"board '{board}' is not a board of spaces (grid, hexagons or graph)")
    return b


@op(
    "toward",
    ("board", BOARD),
    ("space", POSITION),
    ("direction", DIRECTION),
    returns=POSITION,
    says="the space next to {space} in {direction} (one of the board's directions: north, east, south, west "
    "on a grid, with northeast… where it declares diagonal adjacency; six on a hexagon grid; the edge labels of a "
    'graph) on {board}, "" if a wall or the edge is in the way',
    reads="args",
    group="boards",
)
def _toward(st, board, space, direction):
    try:
        return st.game.boards_by_id[board].step[space].get(direction, "")
    except (AttributeError, KeyError):
        pass
    return _grid(st, board).toward(space, direction)


@op(
    "neighbours",
    ("board", BOARD),
    ("space", POSITION),
    returns=list_of(POSITION),
    says="the spaces one step from {space} on {board} (by the board's adjacency; a graph's edges leaving it), "
    "not through a wall",
    reads="args",
    group="boards",
)
def _neighbours(st, board, space):
    try:
        return list(st.game.boards_by_id[board].adjacent[space])
    except (AttributeError, KeyError):
        pass
    return _grid(st, board).neighbours(space)


@op(
    "direction",
    ("board", BOARD),
    ("a", POSITION),
    ("b", POSITION),
    returns=DIRECTION,
    says='the direction from {a} to the neighbouring space {b} on {board} ("" if not neighbours)',
    reads="args",
    group="boards",
)
def _direction(st, board, a, b):
    return _grid(st, board).direction(a, b)


@op(
    "room_of",
    ("board", BOARD),
    ("space", POSITION),
    returns=TEXT,
    says="the room of {space} on {board}",
    reads="args",
    group="boards",
)
def _room_of(st, board, space):
    try:
        return st.game.boards_by_id[board].rooms[space]
    except (AttributeError, KeyError):
        pass
    return _grid(st, board).room_of(space)


@op(
    "spaces_of",
    ("board", BOARD),
    ("room", TEXT),
    returns=list_of(POSITION),
    says="the spaces of room {room} on {board}",
    reads="args",
    group="boards",
)
def _spaces_of(st, board, room):
    grid = _grid(st, board)
    if room not in grid.spaces_in:
        raise RuleFault(f"board '{board}' has no room {quoted(room)}")
    return list(grid.spaces_in[room])


@op(
    "tagged",
    ("board", BOARD),
    ("tag", TEXT),
    returns=list_of(POSITION),
    says="the spaces of {board} tagged {tag} (by their room or on their own)",
    reads="args",
    group="boards",
)
def _tagged(st, board, tag):
    return _grid(st, board).tagged(tag)


@op(
    "has_tag",
    ("board", BOARD),
    ("space", POSITION),
    ("tag", TEXT),
    returns=BOOL,
    says="{space} on {board} is tagged {tag}",
    reads="args",
    group="boards",
)
def _has_tag(st, board, space, tag):
    try:
        return tag in st.game.boards_by_id[board].tags[space]
    except (AttributeError, KeyError):
        pass
    return _grid(st, board).has_tag(space, tag)


@op(
    "grid_distance",
    ("board", BOARD),
    ("a", POSITION),
    ("b", POSITION),
    returns=INT,
    says="the fewest steps from {a} to {b} on {board} (a grid, hexagon grid or graph), ignoring pieces "
    "(-1 if walls or one-way edges forbid it)",
    reads="args",
    group="boards",
)
def _grid_distance(st, board, a, b):
    try:
        return st.game.boards_by_id[board].distances[a][b]
    except (AttributeError, KeyError):  # also a row not filled yet, or b out of reach (-1)
        pass
    return _grid(st, board).distance(a, b)


@op(
    "distance_avoiding",
    ("board", BOARD),
    ("a", POSITION),
    ("b", POSITION),
    ("tag", TEXT),
    returns=INT,
    says="the fewest steps from {a} to {b} on {board} never crossing a space tagged {tag}, ignoring pieces "
    "(-1 if impossible)",
    reads="args",
    group="boards",
)
def _distance_avoiding(st, board, a, b, tag):
    return _grid(st, board).distance_avoiding(a, b, tag)


@op(
    "path_length",
    ("board", BOARD),
    ("start", POSITION),
    ("targets", list_of(POSITION)),
    ("through", list_of(POSITION)),
    returns=INT,
    says="the fewest steps from {start} to any of {targets} on {board}, passing only through "
    "{through} (0 if {start} is one of them, -1 if impossible)",
    reads="args",
    group="boards",
)
def _path_length(st, board, start, targets, through):
    return _grid(st, board).path_length(start, targets, through)


@op(
    "spaces",
    ("board", BOARD),
    returns=list_of(POSITION),
    says="every space of {board}, in a fixed order",
    reads="args",
    group="boards",
)
def _spaces(st, board):
    return _grid(st, board).nodes


@op(
    "directions",
    ("board", BOARD),
    returns=list_of(DIRECTION),
    says="the directions of {board}, in a fixed order (clockwise from the north on a grid or hexagon grid)",
    reads="args",
    group="boards",
)
def _directions(st, board):
    return list(_grid(st, board).directions)


@op(
    "shortest_path",
    ("board", BOARD),
    ("a", POSITION),
    ("b", POSITION),
    returns=list_of(POSITION),
    says="the spaces of a shortest way from {a} to {b} on {board}, both included, ignoring pieces "
    "([] if there is none)",
    reads="args",
    group="boards",
)
def _shortest_path(st, board, a, b):
    return _grid(st, board).shortest_path(a, b)


@op(
    "connected",
    ("board", BOARD),
    ("sources", list_of(POSITION)),
    ("targets", list_of(POSITION)),
    ("through", list_of(POSITION)),
    returns=BOOL,
    says="some space of {sources} is joined to some space of {targets} on {board} by a chain of neighbouring "
    "spaces all in {through} (its ends too); write the condition the spaces must meet as "
    "{through}: [s for s in spaces(board) if …]",
    reads="args",
    group="boards",
)
def _connected(st, board, sources, targets, through):
    return _grid(st, board).connected(sources, targets, through)


@op(
    "row",
    ("board", BOARD),
    ("space", POSITION),
    returns=INT,
    charted=True,
    says="the row of {space} on {board}, counting from 0 at the north (-1 on a graph board)",
    reads="args",
    group="boards",
)
def _row(st, board, space):
    return _grid(st, board).row(space)


@op(
    "column",
    ("board", BOARD),
    ("space", POSITION),
    returns=INT,
    charted=True,
    says="the column of {space} on {board}, counting from 0 at the west (-1 on a graph board)",
    reads="args",
    group="boards",
)
def _column(st, board, space):
    return _grid(st, board).column(space)


@op(
    "opposite",
    ("board", BOARD),
    ("direction", DIRECTION),
    returns=DIRECTION,
    says='the direction back from {direction} on {board} (south for north), "" if there is none',
    reads="args",
    group="boards",
)
def _opposite(st, board, direction):
    return _grid(st, board).opposite(direction)


@op(
    "line",
    ("board", BOARD),
    ("space", POSITION),
    ("direction", DIRECTION),
    ("through", list_of(POSITION)),
    returns=list_of(POSITION),
    says="the spaces in a line from the one next to {space} in {direction} on {board}, on while each is in "
    "{through} (the condition: [s for s in spaces(board) if …]): where a dropped piece lands, a run of pieces",
    reads="args",
    group="boards",
)
def _line(st, board, space, direction, through):
    return _grid(st, board).line(space, direction, through)


@op(
    "group",
    ("board", BOARD),
    ("space", POSITION),
    ("through", list_of(POSITION)),
    returns=list_of(POSITION),
    says="the spaces joined to {space} on {board} by neighbouring spaces of {through}, {space} first "
    "([] if it is not in {through}): a chain or group of pieces",
    reads="args",
    group="boards",
)
def _group(st, board, space, through):
    return _grid(st, board).group(space, through)


@op(
    "liberties",
    ("board", BOARD),
    ("spaces", list_of(POSITION)),
    ("free", list_of(POSITION)),
    returns=list_of(POSITION),
    says="the spaces of {free} next to some space of {spaces} on {board}, each once: a group's liberties",
    reads="args",
    group="boards",
)
def _liberties(st, board, spaces, free):
    return _grid(st, board).liberties(spaces, free)


# ------------------------------------------------------------ lookups
class CardsById(dict):
    """Card id → its first index (``GameDef.first_card``); an id no card has is the rules' error."""

    def __missing__(self, cid):
        raise RuleFault(f"no card has the id {quoted(cid)}")


@op(
    "card_named",
    ("id", TEXT),
    returns=CARD,
    says="the card whose id is {id} (the first, if it has copies)",
    reads="args",
    group="zones",
)
def _card_named(st, cid):
    return st.game.first_card[cid]


@op(
    "key_of",
    ("zone", ZONE),
    returns=TEXT,
    says="what distinguishes {zone} in its family (the player, value or space), as text",
    reads="args",
    group="zones",
)
def _key_of(st, zone):
    if zone is None:  # the first of no zones: named like every zone operation's fault
        raise _no_zone("None")
    return zone.partition(":")[2]


@op(
    "flatten",
    ("lists", list_of(list_of(TYPEVAR))),
    returns=list_of(TYPEVAR),
    says="the items of every list in {lists}, one list after another",
    reads="args",
    group="lists",
)
def _flatten(st, lists):
    out: list = []
    for inner in lists:
        out += inner
        bounded(out)  # checked as it grows: a list of long lists could otherwise make billions of items
    return out


@op("text", ("value", ANY), returns=TEXT, says="{value} written as text", reads=READS_ARGS, group="text")
def _text(st, value):
    if isinstance(value, list) and _room_for_text(value, MAX_SIZE) < 0:
        raise _oversized("", f"more than {MAX_SIZE:,}")
    return "none" if value is None else bounded(str(value))


def _room_for_text(value, room: int) -> int:
    """``room`` less a lower bound of the length of ``value`` as text; stops counting once below 0,
    so that a list of long lists costs no more than ``room`` steps."""
    if isinstance(value, str):
        return room - len(value)
    if not isinstance(value, list):
        return room - 1
    room -= len(value)
    for item in value:
        if room < 0:
            break
        room = _room_for_text(item, room)
    return room
