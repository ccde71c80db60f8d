"""What a seat knows, as numbers and as a key: the observation tensor and information-state key that
learning and search tools read, both derived from the one model of what a seat may know (``sight``).

The tensor has one fixed shape per game and table size (``Encoding``), made of named parts:

- per zone, a plane over the card faces (the distinct card ids): how many cards of each face the seat
  knows to be there (it sees them, or knows them though they lie face down), and the zone's size;
  in a game with dice, also how many of its dice the seat knows to show each face;
- the variables as the seat's view shows them, by their declared type: a number, a yes/no, a one-hot
  over an enum's members, the seats, the card faces, the zones or the board positions (a list of them:
  counts); text, records and maps are not encoded (listed in ``Encoding.skipped``);
- the pending decision: the seats to act, whether this seat is one of them, its kind (one-hot over the
  kinds the rules ask), the legal-action mask over ``GameDef.action_space``; and whether the game is over.

``information_key`` is a short digest of everything the seat knows, its past included (the history as
it may know it): two states the seat cannot tell apart give the same key, as a determinized copy does.

The information-state tensor (``information_encoding``) adds that past to the observation, in a fixed
shape: one slot per decision taken so far, up to a bound (who decided, its choice's id in binary or, if
secret to the seat, only its kind), then the information key's 128 bits, which tell apart two states
whose observation and decisions agree but not all else the seat knows (a chance draw, a log line, the
order of cards it saw).
"""

from __future__ import annotations

import hashlib
import json
from array import array
from dataclasses import dataclass

import numpy as np

from engine.errors import TabletopError
from engine.lang import ast
from engine.lang.ast import walk_blocks
from engine.lang.types import BOOL, CARD, INT, PLAYER, POSITION, ZONE, Type
from engine.runtime import sight

__all__ = [
    "Encoding",
    "InformationEncoding",
    "Part",
    "encoding",
    "information_encoding",
    "information_key",
    "information_text",
    "observation_text",
]


@dataclass(frozen=True, slots=True)
class Part:
    """One named stretch of the tensor: ``labels[i]`` names value ``offset + i``."""

    name: str
    offset: int
    labels: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.labels)


class Layout:
    """A tensor's layout: its named parts, in order."""

    parts: tuple[Part, ...]

    def part(self, name: str) -> Part:
        return next(p for p in self.parts if p.name == name)


@dataclass(frozen=True, slots=True)
class _Plan:
    """Offsets of an ``Encoding``'s parts, by what fills them (``Encoding.plan``)."""

    zeros: array  # the tensor, all 0 (float32), copied to start each encoding
    card_faces: tuple[int, ...]  # card number → its face's index in a zone's plane
    zones: dict  # zone → (its plane's offset, its size's offset)
    dice: dict  # zone → its dice faces' offset (games with dice)
    variables: dict  # game variable → (offset, None for a number else its domain {plain value: index}, a list?)
    seat_variables: tuple  # per seat, the same for the player variables
    to_act: int
    asked: int
    kind: int
    legal: int
    over: int
    seat: int


@dataclass(frozen=True)
class Encoding(Layout):
    """The observation tensor's layout for a game at ``players`` seats (``encoding``)."""

    players: int
    parts: tuple[Part, ...]
    size: int
    skipped: tuple[str, ...]  # variables whose type has no fixed-size encoding (text, records, maps)
    faces: tuple[str, ...]
    kinds: tuple[str, ...]
    domains: dict  # type → {plain value: index}, for the variables' one-hot parts
    plan: _Plan

    def encode(self, state, seat: int) -> np.ndarray:
        """``seat``'s observation of ``state`` (float32, shape ``(size,)``)."""
        state._check_seat(seat)
        state = state.for_reading()
        plan = self.plan
        out = array("f", plan.zeros)  # written value by value (a numpy array is slower at that), then shared
        faces = plan.card_faces
        for zone, cards, known in zones_known(state, seat):
            base, size_at = plan.zones[zone]
            for c in known:
                out[base + faces[c]] += 1
            out[size_at] = len(cards)
        if plan.dice:  # the faces the seat knows of the dice in each zone
            seen: dict[str, list] = {zone: [None] * len(cards) for zone, cards in state.zones.items()}
            sight.dice_seen(state, seat, seen)
            face_index = self.domains["dice"]
            for zone, shown in seen.items():
                base = plan.dice[zone]
                for d in shown:
                    if isinstance(d, dict) and "face" in d:
                        out[base + face_index[d["face"]]] += 1
        variables, players = sight.variables_for(state, seat)
        ways = [(plan.variables, variables)] + [(plan.seat_variables[p], values) for p, values in enumerate(players)]
        for at_of, values in ways:
            for name, value in values.items():
                way = at_of.get(name)
                if way is None or value is None:
                    continue
                at, domain, many = way
                if domain is None:
                    out[at] = value
                    continue
                for v in value if many else (value,):
                    i = domain.get(v)
                    if i is not None:
                        out[at + i] += 1
        to_act = state.to_act
        for p in to_act:
            out[plan.to_act + p] = 1
        decision = sight.decision_for(state, seat)
        if decision is not None:
            out[plan.kind + self.kinds.index(decision["kind"])] = 1
            if seat in to_act:
                out[plan.asked] = 1
                legal = plan.legal
                for i in state.legal_action_indices(seat):
                    out[legal + i] = 1
        out[plan.over] = state.is_terminal
        out[plan.seat + seat] = 1
        return np.frombuffer(out, dtype=np.float32)


def _element(t: Type) -> Type:
    return t.element if t.is_list else t


def _domain(game, players: int, t: Type) -> list | None:
    """The plain values a variable of type ``t`` (or a list of them) can hold, or None if unbounded."""
    t = _element(t)
    if t is PLAYER:
        return list(range(players))
    if t is CARD:
        return list(dict.fromkeys(game.card_ids))
    if t is ZONE:
        return game.zone_ids(players)
    if t is POSITION:
        boards = [b for family in game.board_files.values() for b in family]
        return list(dict.fromkeys(str(node) for b in boards for node in b.nodes))
    if t.is_enum:
        return list(game.enums[t.name])
    return None


def _kinds(game) -> list[str]:
    """Every kind of decision the rules can ask, in the order of the rules."""
    kinds: dict[str, None] = {}
    for _, source in game.sources:
        if isinstance(source, ast.Expr):
            continue
        for block in walk_blocks(source):
            for s in block:
                if isinstance(s, ast.Choose):
                    kinds[s.kind] = None
    return list(kinds)


def encoding(game, players: int) -> Encoding:
    """The tensor layout of ``game`` at ``players`` seats (made once per game and size)."""
    return _made(game, ("observation", players), lambda: _encoding(game, players))


def _encoding(game, players: int) -> Encoding:
    faces = list(dict.fromkeys(game.card_ids))
    parts: list[tuple[str, list[str]]] = []
    for zone in game.zone_ids(players):
        parts += [(f"zone {zone}", faces), (f"size {zone}", ["cards"])]
    vocab = game.vocabulary
    domains: dict = {"faces": {f: i for i, f in enumerate(faces)}}
    if game.die_faces:
        shown = vocab.face_values
        parts += [(f"dice {zone}", [str(f) for f in shown]) for zone in game.zone_ids(players)]
        domains["dice"] = {f: i for i, f in enumerate(shown)}
    skipped = []
    named = [(f"variable {k}", t) for k, t in vocab.variables.items()]
    named += [(f"seat {p} {k}", t) for p in range(players) for k, t in vocab.player_variables.items()]
    for name, t in named:
        if t is INT or t is BOOL:
            parts.append((name, [str(t)]))
            continue
        values = _domain(game, players, t)
        if values is None:
            skipped.append(name)
            continue
        domains[_element(t)] = {v: i for i, v in enumerate(values)}
        parts.append((name, [str(v) for v in values]))
    seats = [f"seat {p}" for p in range(players)]
    kinds = _kinds(game)
    parts += [("to act", seats), ("asked", ["yes"]), ("kind", kinds), ("legal", game.action_space(players))]
    parts += [("over", ["yes"]), ("seat", seats)]
    laid, offset = [], 0
    for name, labels in parts:
        laid.append(Part(name, offset, tuple(labels)))
        offset += len(labels)
    plan = _plan(game, players, offset, {p.name: p.offset for p in laid}, domains)
    return Encoding(players, tuple(laid), offset, tuple(skipped), tuple(faces), tuple(kinds), domains, plan)


def _plan(game, players: int, size: int, at: dict, domains: dict) -> _Plan:
    vocab = game.vocabulary

    def ways(names: dict, prefix: str) -> dict:
        found = {}
        for name, t in names.items():
            if prefix + name in at:
                domain = None if t is INT or t is BOOL else domains[_element(t)]
                found[name] = (at[prefix + name], domain, t.is_list)
        return found

    zones = game.zone_ids(players)
    return _Plan(
        zeros=array("f", bytes(4 * size)),
        card_faces=tuple(domains["faces"][face] for face in game.card_ids),
        zones={z: (at[f"zone {z}"], at[f"size {z}"]) for z in zones},
        dice={z: at[f"dice {z}"] for z in zones} if game.die_faces else {},
        variables=ways(vocab.variables, "variable "),
        seat_variables=tuple(ways(vocab.player_variables, f"seat {p} ") for p in range(players)),
        to_act=at["to act"],
        asked=at["asked"],
        kind=at["kind"],
        legal=at["legal"],
        over=at["over"],
        seat=at["seat"],
    )


_LAYOUTS: dict[tuple, tuple] = {}  # (id(game), what, …) → (game, layout): one layout per game, kind and size


def _made(game, key: tuple, make):
    """The layout ``key`` of ``game``, made once (OpenSpiel makes its game again for every state it reads)."""
    found = _LAYOUTS.get((id(game), *key))
    if found is not None and found[0] is game:
        return found[1]
    made = make()
    _LAYOUTS[(id(game), *key)] = (game, made)
    return made


KEY_BITS = 128  # the information key's bits, the information-state tensor's last part


@dataclass(frozen=True)
class InformationEncoding(Layout):
    """The information-state tensor's layout for a game at ``players`` seats (``information_encoding``):
    the observation's parts, then ``slots`` decision slots of ``width`` values, then the key's bits."""

    observation: Encoding
    slots: int
    width: int
    parts: tuple[Part, ...]
    size: int
    actions: dict  # action id → its index in the action space

    def encode(self, state, seat: int) -> np.ndarray:
        """All ``seat`` knows of ``state``, past included (float32, shape ``(size,)``)."""
        out = np.zeros(self.size, dtype=np.float32)
        seen = self.observation
        out[: seen.size] = seen.encode(state, seat)
        decisions = [e for e in sight.history_for(state, seat) if "seat" in e]
        if len(decisions) > self.slots:
            raise TabletopError(f"{len(decisions)} decisions taken: the information-state tensor holds {self.slots}")
        n, kinds, actions = seen.players, seen.kinds, self.actions
        at = seen.size
        for entry in decisions:
            out[at + entry["seat"]] = 1
            if "kind" in entry:
                out[at + n + 1 + kinds.index(entry["kind"])] = 1
            action = entry.get("action")
            if action is not None:
                out[at + n] = 1
                code, bit = actions[action], at + n + 1 + len(kinds)
                while code:
                    out[bit] = code & 1
                    code, bit = code >> 1, bit + 1
            at += self.width
        key = int(information_key(state, seat), 16)
        bits = self.parts[-1].offset
        for i in range(KEY_BITS):
            out[bits + i] = key >> i & 1
        return out


def information_encoding(game, players: int, slots: int) -> InformationEncoding:
    """The information-state tensor's layout of ``game`` at ``players`` seats, for games of at most ``slots``
    decisions (``GameInfo.max_decisions`` where the rules declare it)."""
    return _made(game, ("information", players, slots), lambda: _information_encoding(game, players, slots))


def _information_encoding(game, players: int, slots: int) -> InformationEncoding:
    seen = encoding(game, players)
    space = game.action_space(players)
    bits = max(len(space) - 1, 1).bit_length()
    slot = [f"seat {p}" for p in range(players)] + ["action shown"]
    slot += [f"kind {k}" for k in seen.kinds] + [f"action bit {b}" for b in range(bits)]
    decisions = Part("decisions", seen.size, tuple(f"{t} {label}" for t in range(slots) for label in slot))
    key = Part("key", decisions.offset + decisions.size, tuple(f"bit {b}" for b in range(KEY_BITS)))
    parts = (*seen.parts, decisions, key)
    return InformationEncoding(seen, slots, len(slot), parts, key.offset + key.size, game.action_index(players))


def zones_known(state, seat: int):
    """Per zone: (zone, its cards, those of them ``seat`` knows: the ones it sees, and those it knows though
    they lie face down, as it saw them go there or was shown them)."""
    state = state.for_reading()
    state._knowledge()
    know, bit, face_down = state.know, 1 << seat, state.sight.face_down
    for zone, cards in state.zones.items():
        hidden = face_down(zone, len(cards), seat) if cards else 0
        yield zone, cards, [c for i, c in enumerate(cards) if i >= hidden or know[c] & bit] if hidden else cards


def known_cards(state, seat: int) -> dict[str, dict[str, int]]:
    """Per zone, how many cards of each face ``seat`` knows to be there (``zones_known``)."""
    ids = state.game.card_ids
    out: dict[str, dict[str, int]] = {}
    for zone, _, known in zones_known(state, seat):
        count: dict[str, int] = {}
        for c in known:
            count[ids[c]] = count.get(ids[c], 0) + 1
        out[zone] = count
    return out


def _known(state, seat: int) -> dict:
    """All ``seat`` knows now and knew before, as plain data: the source of its information key."""
    state = state.for_reading()
    view = state.view(seat)
    del view["log"]
    view["zones"] = {z: [view["zones"][z], sorted(c.items())] for z, c in known_cards(state, seat).items()}
    view["history"] = sight.history_for(state, seat)
    view["log"] = sight.visible_log(state, seat)
    return view


def information_text(state, seat: int) -> str:
    """Everything ``seat`` knows, past included, as canonical JSON text (readable; ``information_key`` is short)."""
    return json.dumps(_known(state, seat), sort_keys=True, separators=(",", ":"))


def information_key(state, seat: int) -> str:
    """A digest of ``information_text``: equal for states ``seat`` cannot tell apart, different otherwise."""
    return hashlib.blake2b(information_text(state, seat).encode(), digest_size=16).hexdigest()


def observation_text(state, seat: int) -> str:
    """What ``seat`` sees now, without its past: its view (but the log) with the cards it knows."""
    view = state.view(seat)
    del view["log"]
    view["zones"] = {z: [view["zones"][z], sorted(c.items())] for z, c in known_cards(state, seat).items()}
    return json.dumps(view, sort_keys=True, separators=(",", ":"))
