"""Every action id a game can offer, derived statically from the rules' types and expressions.

Each ``choose`` gets a *domain*: the finite set of values its options can take, found by
reading the checked AST, never by playing.  Finite types give their values (cards, seats,
zones, enum members, yes/no); open ones (text, numbers, records) are followed through their
expressions: literals, list literals and ``+``, comprehensions, conditionals, the game's
functions, local and game variables (the union of everything assigned to them, whatever
the order), board queries (the board's spaces), zone families.  A list is represented by
the domain of its items.  What cannot be bounded is reported at the choose's line (E508).

Ids are printed by the same ``Labeller`` the running game uses.  Where two values of one
domain could print alike (``hand:0`` and ``found:0``, copies of a card from two zones at
once), their long ids are listed as well, so every id a decision can print is in the space.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field, replace
from math import comb

from engine.errors import TabletopError
from engine.lang import ast
from engine.lang.ast import parts_of, walk_blocks, walk_exprs
from engine.lang.subsets import subset_ids
from engine.lang.types import BOOL, CARD, DIRECTION, NONE, PLAYER, POSITION, ZONE, Type

__all__ = ["HINT", "action_space", "unbounded_choices"]

LIMIT = 20_000  # values one domain may hold before it counts as unbounded
_BOARD_OPS = frozenset({"tagged", "spaces_of", "neighbours", "toward", "touched", "spaces", "shortest_path"})
_ITEM_OPS = frozenset({"first", "last", "item", "cyclic_next", "cyclic_prev", "random_from"})
_SAME_LIST_OPS = frozenset({"distinct", "around", "sorted"})
_CARDS_OF_ZONE = frozenset({"top", "bottom", "cards", "top_cards"})
_CARD_KEY = "card"  # what a card's key in a domain starts with (a plain value's starts with its class's name)
_ARITHMETIC = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b if b else None,
    "%": lambda a, b: a % b if b else None,
}
_OPERANDS = {"+": (int, str)}  # what each operation computes on; the others only on numbers
HINT = "list the options: choose from an enum, a list of literals, or records built from them"
_SECTIONS = {"var": "variables", "player": "player_variables"}  # a variable's key in the domains → its section


class Unbounded(Exception):
    """A value whose possible values cannot be listed; says why and where."""

    def __init__(self, node: ast.Node, why: str, hint: str | None = None):
        super().__init__(why)
        self.node, self.why, self.hint = node, why, hint


@dataclass
class Domain:
    """The values an expression (or the items of a list) can take, in first-seen order.

    ``values`` maps an identity key to the value as the running game holds it (a card as
    the index of its first copy).  ``where`` says in which zones a card may be found
    (None: anywhere); ``clash`` the keys that may appear twice in one list with different
    identities (copies of a card from two zones).  ``partial`` names the recursive
    definitions still being computed: such a domain may grow, so it is not memoised, and
    arithmetic on it is unbounded.
    """

    values: dict = field(default_factory=dict)
    where: dict = field(default_factory=dict)
    clash: set = field(default_factory=set)
    partial: frozenset = frozenset()

    def add(self, other: Domain, node: ast.Node) -> Domain:
        for k, v in other.values.items():
            self.values.setdefault(k, v)
        for cid, zones in other.where.items():
            mine = self.where.get(cid, frozenset())
            self.where[cid] = None if zones is None or mine is None else mine | zones
        self.clash |= other.clash
        self.partial |= other.partial
        if len(self.values) > LIMIT:
            raise Unbounded(node, f"more than {LIMIT} possible values")
        return self


@dataclass
class _Scope:
    """A procedure's statements: what each local name is assigned, and its parameters."""

    name: str
    params: list
    assigned: dict = field(default_factory=dict)  # name → [expr, Choose, ("items", expr) or ("type", t)]
    bound: tuple = ()  # a function's parameters: bound by each call, not by what callers pass in general


class _Analysis:
    """Domains of the expressions of one game at one player count."""

    def __init__(self, game, players: int):
        self.game, self.n = game, players
        self.vocab = game.vocabulary
        self.memo: dict = {}
        self.busy: set = set()
        self.copies = {cid: game.card_ids.count(cid) for cid in game.first_card}
        self.scopes: dict[str, _Scope] = {}
        self.globals: dict[str, list] = {}  # game variable → [(expr, scope)]
        self.player_vars: dict[str, list] = {}
        self.calls: dict[str, list] = {}  # procedure → [(args, scope)]
        for name, stmts in game.programs.items():
            self._collect(name, stmts)
        for name, body in game.function_bodies.items():
            if isinstance(body, list):  # 'does:': its locals, as a program's
                self._collect(f"function:{name}", body)
                self.scopes[f"function:{name}"].bound = tuple(p for p, _ in self.vocab.functions[name][0])

    # ----------------------------------------------------------- collecting
    def _collect(self, name: str, stmts: list) -> None:
        params = ["this"] if name.startswith("effect:") else [p for p, _ in self.vocab.procedures.get(name, [])]
        scope = self.scopes[name] = _Scope(name, params, {p: [] for p in params})
        for block in walk_blocks(stmts):
            for s in block:
                reads, targets, _ = parts_of(s)
                for target in targets:
                    self._assign(scope, target, s if isinstance(s, ast.Choose) else s.value)
                if isinstance(s, ast.For):
                    scope.assigned.setdefault(s.var, []).append(("items", s.source))
                elif isinstance(s, ast.Choose) and s.each is not None:  # the seat of a simultaneous choice
                    scope.assigned.setdefault(s.each, []).append(("items", s.by))
                elif isinstance(s, ast.Window):
                    scope.assigned.setdefault(s.var, []).append(("type", PLAYER))
                for e in reads:
                    for sub in walk_exprs(e):
                        if isinstance(sub, ast.Call) and sub.func in self.game.programs:
                            self.calls.setdefault(sub.func, []).append((sub.args, scope))

    def _assign(self, scope: _Scope, target: ast.Name | ast.Attr, value) -> None:
        if isinstance(target, ast.Attr):
            self.player_vars.setdefault(target.name, []).append((value, scope))
        elif target.name in self.vocab.variables:
            self.globals.setdefault(target.name, []).append((value, scope))
        else:
            scope.assigned.setdefault(target.name, []).append(value)

    # ------------------------------------------------------------- domains
    def of_choose(self, s: ast.Choose, scope: _Scope) -> Domain:
        """The options of a choose: the items of its source (a zone's cards)."""
        return self.items(s.source, scope, {})

    def items(self, e: ast.Expr, scope: _Scope | None, env: dict) -> Domain:
        """Domain of what iterating ``e`` gives: a zone's cards, a list's items."""
        if e.type == ZONE:
            return self._cards_in(self.dom(e, scope, env), e)
        return self.dom(e, scope, env)

    def dom(self, e: ast.Expr, scope: _Scope | None, env: dict) -> Domain:
        """Domain of an expression (of its items, for a list): by type when finite, else by its form."""
        t = e.type.element if e.type is not None and e.type.is_list else e.type
        if t in (PLAYER, BOOL, NONE) or (t is not None and t.is_enum):
            return self.finite(t, e)
        try:
            method = getattr(self, "_" + type(e).__name__)
            return method(e, scope, env)
        except Unbounded:
            found = self.by_type(t, e)
            if found is None:
                raise
            return found

    def finite(self, t: Type | None, node: ast.Node) -> Domain:
        """Every value of a type that must be finite here; Unbounded if it is open."""
        d = self.by_type(t, node)
        if d is None:
            raise Unbounded(node, f"every value of type {t}")
        return d

    def by_type(self, t: Type | None, node: ast.Node) -> Domain | None:
        """Every value of a finite type; None when the type is open."""
        if t == PLAYER:
            return _of(range(self.n))
        if t == BOOL:
            return _of([True, False])
        if t == NONE:
            return _of([None])
        if t is not None and t.is_enum:
            return _of(self.game.enums[t.name])
        if t in (POSITION, DIRECTION):  # bounded by the boards: their spaces or directions, or "" (off the board)
            known = self.vocab.board_spaces if t == POSITION else self.vocab.board_directions
            return _of([""] + sorted({v for values in known.values() for v in values}))
        if t == CARD:
            d = Domain()
            for cid, i in self.game.first_card.items():
                d.values[(_CARD_KEY, cid)] = i
                d.where[cid] = None
            return d
        if t == ZONE:
            return _of(self.game.zone_ids(self.n))
        if t is not None and t.is_record:
            fields = t.fields
            parts = [(name, dom) for name, ft in fields if (dom := self.by_type(ft, node)) is not None]
            return self._product(parts, node) if len(parts) == len(fields) else None
        return None

    def _Literal(self, e, scope, env):
        return _of([e.value])

    def _ListExpr(self, e, scope, env):
        d = Domain()
        for item in e.items:
            d = self._concat(d, self.dom(item, scope, env), e)
        return d

    def _Record(self, e, scope, env):
        return self._product([(name, self.dom(v, scope, env)) for name, v in e.fields], e)

    def _Comprehension(self, e, scope, env):
        source = self.items(e.source, scope, env)
        d = Domain(partial=source.partial)
        for key, value in source.values.items():
            d.add(self.dom(e.element, scope, {**env, e.var: _one(source, key, value)}), e)
        return d

    def _PairComprehension(self, e, scope, env):
        """Each item of the outer list, then each of the inner list that item gives."""
        source = self.items(e.source, scope, env)
        d = Domain(partial=source.partial)
        for key, value in source.values.items():
            outer = {**env, e.var: _one(source, key, value)}
            inner = self.items(e.inner_source, scope, outer)
            d.partial |= inner.partial
            for key2, value2 in inner.values.items():
                d.add(self.dom(e.element, scope, {**outer, e.inner_var: _one(inner, key2, value2)}), e)
        return d

    def _Conditional(self, e, scope, env):
        return Domain().add(self.dom(e.then, scope, env), e).add(self.dom(e.otherwise, scope, env), e)

    def _Unary(self, e, scope, env):
        if e.op != "-":
            raise Unbounded(e, "a value that cannot be listed")
        return self._map(e, [self.dom(e.operand, scope, env)], lambda x: -x)

    def _Binary(self, e, scope, env):
        if e.op == "+" and e.type is not None and e.type.is_list:
            return self._concat(self.dom(e.left, scope, env), self.dom(e.right, scope, env), e)
        if e.op not in _ARITHMETIC:
            raise Unbounded(e, f"the result of '{e.op}'")
        fn = _ARITHMETIC[e.op]
        return self._map(e, [self.dom(e.left, scope, env), self.dom(e.right, scope, env)], fn)

    def _Attr(self, e, scope, env):
        obj = e.obj.type
        if obj == PLAYER:
            return self._variable(
                ("player", e.name), self.player_vars.get(e.name, []), self.game.player_variables.get(e.name), e
            )
        inner = self.dom(e.obj, scope, env)
        if obj == CARD:
            column = self.game.attributes.get(e.name)
            if column is None:
                raise Unbounded(e, f"the card attribute '{e.name}'")
            return _of(column[i] for i in inner.values.values() if isinstance(i, int))
        if obj is not None and obj.is_record:
            d = Domain(partial=inner.partial)
            for key, rec in inner.values.items():
                value = rec.get(e.name) if rec is not None else None
                sub = dict(key[1]).get(e.name, _key(None)) if rec is not None else _key(None)
                d.values.setdefault(sub, value)
                for cid in _cards(sub):
                    d.where[cid] = inner.where.get(cid)
            return d
        raise Unbounded(e, f"the attribute '{e.name}'")

    def _Name(self, e, scope, env):
        n, vocab = e.name, self.vocab
        if n in env:
            return env[n]
        if scope is not None and n in scope.assigned:
            return self._local(scope, n, e, {p: env[p] for p in scope.bound if p in env})
        if n in vocab.constants:
            return _of([vocab.constants[n][1]])
        if n in vocab.enums:
            return _of(vocab.enums[n])
        if n in vocab.zones or n in vocab.boards:
            return _of([n])
        if n in vocab.variables:
            return self._variable(("var", n), self.globals.get(n, []), self.game.variables.get(n), e)
        if n == "num_players":
            return _of([self.n])
        raise Unbounded(e, f"'{n}'")

    def _Call(self, e, scope, env):
        f, game = e.func, self.game
        if f in game.function_bodies:
            params = [p for p, _ in self.vocab.functions[f][0]]
            bound = {p: self.dom(a, scope, env) for p, a in zip(params, e.args)}
            body = game.function_bodies[f]
            if isinstance(body, list):  # 'does:': every value its 'return VALUE's give
                fn_scope = self.scopes[f"function:{f}"]
                return self._guarded(("fn", f), lambda: self._returned(body, fn_scope, bound, e), memo=False)
            return self._guarded(("fn", f), lambda: self.dom(body, None, bound), memo=False)
        if f in self.vocab.procedure_returns:  # x = proc(…): every value its 'return VALUE's give
            return self._guarded(("returns", f), lambda: self._returned(game.programs[f], self.scopes[f], {}, e))
        family = game.zone_families.get(f)
        if family is not None:
            if not e.args:
                return _of([f])
            keys = self.dom(e.args[0], scope, env)
            return _of(f"{f}:{k}" for k in keys.values.values() if k is not None)
        if f in _CARDS_OF_ZONE:
            return self._cards_in(self.dom(e.args[0], scope, env), e)
        if f == "flatten":  # the inner lists may hold copies of a card from different zones at once
            d = self.dom(e.args[0], scope, env)
            return replace(
                d,
                clash=d.clash
                | {
                    k
                    for k in d.values
                    for c in _cards(k)
                    if self.copies.get(c, 1) > 1 and (d.where.get(c) is None or len(d.where[c]) > 1)
                },
            )
        if f in _ITEM_OPS or f in _SAME_LIST_OPS:
            return self.dom(e.args[0], scope, env)
        if f in ("size", "count") and e.args[0].type == ZONE:  # a zone holds at most every card of the game
            return _of(range(len(game.card_ids) + 1))
        if f == "range":
            spans = self._map(e, [self.dom(a, scope, env) for a in e.args], lambda *ab: range(*ab))
            if sum(len(r) for r in spans.values.values()) > LIMIT:
                raise Unbounded(e, f"a range of more than {LIMIT} numbers")
            return _of(n for r in spans.values.values() for n in r)
        if f == "card_named":
            ids = self.dom(e.args[0], scope, env).values.values()
            d = Domain()
            for cid in ids:
                if cid in game.first_card:
                    d.values[(_CARD_KEY, cid)] = game.first_card[cid]
                    d.where[cid] = None
            return d
        if f == "kinds":  # the ids of the cards the list may hold
            return _of(dict.fromkeys(c for k in self.items(e.args[0], scope, env).values for c in _cards(k)))
        if f == "key_of":
            return _of(z.split(":", 1)[-1] for z in self.dom(e.args[0], scope, env).values.values())
        if f in _BOARD_OPS or f in ("room_of", "direction", "directions"):
            return self._board_values(f, e, scope, env)
        raise Unbounded(e, f"the result of {f}()")

    def _returned(self, stmts: list, scope: _Scope, env: dict, node: ast.Node) -> Domain:
        d = Domain()
        for block in walk_blocks(stmts):
            for s in block:
                if isinstance(s, ast.ReturnValue):
                    d.add(self.dom(s.value, scope, env), node)
        return d

    def _MapExpr(self, e, scope, env):
        raise Unbounded(e, "a map")

    def _KeyedCall(self, e, scope, env):
        return self.items(e.source, scope, env)  # one item of the list, or the list reordered

    # -------------------------------------------------------------- helpers
    def _board_values(self, f, e, scope, env):
        """Spaces, rooms or directions of the boards the first argument may name."""
        try:
            names = {str(b).split(":", 1)[0] for b in self.dom(e.args[0], scope, env).values.values()}
        except Unbounded:
            names = set(self.game.board_files)
        out: list = [""] if f in ("toward", "direction") else []  # "" off the board
        for family in sorted(names & set(self.game.board_files)):
            for board in self.game.board_files[family]:
                if f == "room_of":
                    out += getattr(board, "rooms", {}).values()
                elif f in ("direction", "directions"):
                    out += getattr(board, "directions", ())
                else:
                    out += board.nodes
        return _of(out)

    def _cards_in(self, zones: Domain, node: ast.Node) -> Domain:
        """Every card, found in one of these zones."""
        d = self.finite(CARD, node)
        places = frozenset(z for z in zones.values.values() if z is not None)
        d.where = dict.fromkeys(d.where, places)
        d.partial = zones.partial
        return d

    def _local(self, scope: _Scope, name: str, node: ast.Node, args: dict) -> Domain:
        def compute():
            d = Domain()
            for value in scope.assigned[name]:
                if isinstance(value, ast.Choose):
                    d.add(self.of_choose(value, scope), node)
                    if value.optional is not None:
                        d.values.setdefault(_key(None), None)
                elif isinstance(value, tuple):
                    d.add(
                        self.items(value[1], scope, args) if value[0] == "items" else self.finite(value[1], node), node
                    )
                else:
                    d.add(self.dom(value, scope, args), node)
            if name in scope.params:
                d.add(self._param(scope.name, name, node), node)
            return d

        return self._guarded((scope.name, name), compute, memo=not args)

    def _variable(self, key: tuple, assigned: list, initial, node: ast.Node) -> Domain:
        bounds = self.vocab.bounds.get((_SECTIONS[key[0]], key[1]))
        if bounds is not None:  # declared: whatever the rules set it to lies between them
            return _of(range(bounds[0], bounds[1] + 1))

        def compute():
            d = _of(initial if isinstance(initial, list) else [initial])
            for value, scope in assigned:
                d.add(
                    self.of_choose(value, scope) if isinstance(value, ast.Choose) else self.dom(value, scope, {}), node
                )
            return d

        return self._guarded(key, compute)

    def _param(self, proc: str, name: str, node: ast.Node) -> Domain:
        """A procedure's parameter: what its callers pass (an effect's card: that card)."""
        if proc.startswith("effect:") and name == "this":
            cid = proc[len("effect:") :]
            return Domain({(_CARD_KEY, cid): self.game.first_card[cid]}, {cid: None})
        index = [p for p, _ in self.vocab.procedures.get(proc, [])].index(name)
        d = Domain()
        for args, scope in self.calls.get(proc, []):
            d.add(self.dom(args[index], scope, {}), node)
        return d

    def _guarded(self, key, compute, memo: bool = True) -> Domain:
        """Compute once; a definition that reaches itself sees nothing new there (and is partial)."""
        if key in self.memo:
            return self.memo[key]
        if key in self.busy:
            return Domain(partial=frozenset([key]))
        self.busy.add(key)
        try:
            d = compute()
        finally:
            self.busy.discard(key)
        d = replace(d, partial=d.partial - {key})
        if memo and not d.partial:
            self.memo[key] = d
        return d

    def _concat(self, a: Domain, b: Domain, node: ast.Node) -> Domain:
        """Items of both lists; a card with copies in both may come from two zones at once."""
        both = {k for k in a.values.keys() & b.values.keys() if any(self.copies.get(c, 1) > 1 for c in _cards(k))}
        d = Domain().add(a, node).add(b, node)
        d.clash |= both
        return d

    def _map(self, node: ast.Node, parts: list[Domain], fn) -> Domain:
        if any(p.partial for p in parts):
            grown = sorted(k for p in parts for k in p.partial if isinstance(k, tuple) and k[0] in _SECTIONS)
            if grown:
                section, name = _SECTIONS[grown[0][0]], grown[0][1]
                raise Unbounded(
                    node,
                    f"'{name}' is computed from its own value, so its values cannot be listed",
                    f"declare the most it may hold: {section}: {name}: {{type: int, max: N}} (min: 0 unless given); "
                    f'or let the player choose several of the items themselves: choose "…" several from …',
                )
            raise Unbounded(node, "a value computed from itself")
        if any(len(p.values) > 1 for p in parts) and _size(parts) > LIMIT:
            raise Unbounded(node, f"more than {LIMIT} possible values")
        out = []
        kinds = _OPERANDS.get(getattr(node, "op", "-"), (int,))
        for combo in itertools.product(*(list(p.values.values()) for p in parts)):
            kind = type(combo[0])
            if kind in kinds and all(type(x) is kind for x in combo):
                out.append(fn(*combo))
        return _of(x for x in out if x is not None)

    def _product(self, parts: list[tuple[str, Domain]], node: ast.Node) -> Domain:
        """Records from every combination of their fields' values, fields in the order written."""
        if _size([p for _, p in parts]) > LIMIT:
            raise Unbounded(node, f"more than {LIMIT} possible records")
        d = Domain()
        for _, p in parts:
            d.partial |= p.partial
            d.where.update(p.where)
        names = [n for n, _ in parts]
        for combo in itertools.product(*(list(p.values.items()) for _, p in parts)):
            key = ("record", tuple((n, k) for n, (k, _) in zip(names, combo)))
            d.values[key] = {n: v for n, (_, v) in zip(names, combo)}
            if any(k in p.clash for (k, _), (_, p) in zip(combo, parts)):
                d.clash.add(key)
        return d


def _of(values) -> Domain:
    d = Domain()
    for v in values:
        d.values.setdefault(_key(v), v)
    return d


def _key(v) -> tuple:
    """Identity of a plain value: 1, "1" and true differ."""
    return (type(v).__name__, v if not isinstance(v, (list, dict)) else json.dumps(v, sort_keys=True))


def _cards(key) -> list[str]:
    """Card ids inside a domain key."""
    if key[0] == _CARD_KEY:
        return [key[1]]
    if key[0] == "record":
        return [c for _, k in key[1] for c in _cards(k)]
    return []


def _one(source: Domain, key, value) -> Domain:
    """The domain of one item of ``source``: a comprehension's variable while that item is read."""
    return Domain(
        {key: value},
        {k: w for k, w in source.where.items() if _has_card(key, k)},
        {key} & source.clash,
        source.partial,
    )


def _has_card(key, cid: str) -> bool:
    return cid in _cards(key)


def _size(parts: list[Domain]) -> int:
    total = 1
    for p in parts:
        total *= max(len(p.values), 1)
    return total


# ----------------------------------------------------------------- the space
def _choices(game):
    """(program name, choose) for every choose of the game, in program order."""
    for name, stmts in game.programs.items():
        for block in walk_blocks(stmts):
            for s in block:
                if isinstance(s, ast.Choose):
                    yield name, s


def _ids(game, analysis: _Analysis, s: ast.Choose, scope: _Scope) -> list[str]:
    """Every id this choose can print: short ids, long ids where they may collide, the decline."""
    t = s.options_type
    if isinstance(s, ast.ChooseSeveral):
        return _several_ids(game, analysis, s, scope)
    if t is not None and t.is_list:
        raise Unbounded(s, "options that are lists")
    d = analysis.of_choose(s, scope)
    prefix = s.verb + " " if s.verb else ""
    short = game.labeller.for_type(t)
    labels = {k: short(v) for k, v in d.values.items()}
    seen: dict[str, int] = {}
    for label in labels.values():
        seen[label] = seen.get(label, 0) + 1
    zones = game.zone_ids(analysis.n)
    out = []
    for k, v in d.values.items():
        out.append(prefix + labels[k])
        if seen[labels[k]] > 1 or k in d.clash:
            cards = _cards(k)
            places = [d.where.get(c) or zones for c in cards]
            for combo in itertools.product(*places):
                loc = {game.first_card[c]: z for c, z in zip(cards, combo)}
                out.append(prefix + game.labeller.long_for_type(t, loc)(v))
    if s.optional is not None:
        out.append(s.optional)
    return out


def _several_ids(game, analysis: _Analysis, s: ast.ChooseSeveral, scope: _Scope) -> list[str]:
    """Every id of choosing several: lists of the items' ids, in id order, as long as the choice allows."""
    d = analysis.of_choose(s, scope)
    item = s.options_type.element if s.options_type is not None else None
    label = game.labeller.for_type(item)
    if s.high is not None:
        most = max((v for v in analysis.dom(s.high, scope, {}).values.values() if isinstance(v, int)), default=0)
    elif item == CARD:  # each card at most once: as many as there are cards
        most = sum(analysis.copies.get(cid, 1) for cid in {c for k in d.values for c in _cards(k)})
    elif item == PLAYER:
        most = analysis.n
    else:
        raise Unbounded(s, "how many may be chosen: write 'several A to B'")
    least = 0
    if s.low is not None:
        least = min((v for v in analysis.dom(s.low, scope, {}).values.values() if isinstance(v, int)), default=0)
    labels = [label(v) for v in d.values.values()]
    if sum(comb(len(set(labels)) + k - 1, k) for k in range(max(0, least), most + 1)) > LIMIT:
        raise Unbounded(s, f"more than {LIMIT} ways to choose")
    return subset_ids(labels, most, s.verb + " " if s.verb else "", least)


def action_space(game, players: int) -> list[str]:
    """Every id any decision can offer at this player count: decisions in program order, values in domain order."""
    analysis = _Analysis(game, players)
    out: dict[str, None] = {}
    for name, s in _choices(game):
        try:
            ids = _ids(game, analysis, s, analysis.scopes[name])
        except Unbounded as exc:
            raise TabletopError(
                f'the options of "{s.kind}" ({name}, line {s.line}) cannot be listed: {exc.why}; {HINT}'
            ) from None
        out.update(dict.fromkeys(ids))
    return list(out)


def unbounded_choices(game) -> list[tuple[str, ast.Choose, str, str | None]]:
    """(program name, choose, why, the fix when one is known) for every choose whose options cannot be listed
    in advance."""
    analysis = _Analysis(game, game.max_players)
    found = []
    for name, s in _choices(game):
        try:
            _ids(game, analysis, s, analysis.scopes[name])
        except Unbounded as exc:
            found.append((name, s, exc.why, exc.hint))
    return found
