"""Checked AST → the versioned IR that the native VM (engine/vm, ``engine._vm``) runs.

The IR is plain JSON: strings by value, names resolved to slots, every instruction at the same pc as the
reference interpreter's (dsl/reference.py) so that a state's stack ``[procedure, pc, locals]`` means the same
on both sides and a saved state moves between them unchanged.  What only Python can work out cheaply — where
the cards start (unless a start draws at random: the VM then runs the starts as each game begins), which seats
see which zone, the boards' tables — is computed here once and shipped as tables.  The VM runs every construct
of the language; ``Unsupported`` names one it could not (a lowering that went wrong): a game is either run
whole by the VM or not at all.
"""

from __future__ import annotations

import functools
import importlib
import json
import weakref
from collections.abc import Callable
from typing import Any, NoReturn

from engine.errors import (
    BudgetExceeded,
    Diagnostic,
    EngineBug,
    IllegalAction,
    RuleFault,
    RuntimeRuleError,
    StateError,
    TabletopError,
    is_rules_fault,
)
from engine.lang import ast
from engine.lang.ops import OPS
from engine.lang.types import BOARD, CARD, PLAYER, ZONE, Type, list_of
from engine.runtime.program import DEFAULT_END, Labeller
from engine.runtime.reference import ReferenceCompiler

IR_VERSION = 7

# Operations the VM runs itself, by name (engine/vm/src/eval.rs).
NATIVE_OPS = frozenset(
    {
        *("top", "bottom", "size", "is_empty", "cards", "zone_of", "top_cards"),
        *("move", "move_bottom", "move_all", "shuffle", "reverse", "reveal", "random_from"),
        *("players", "num_players", "seat_number", "players_from", "left_of", "right_of", "opponents", "teammates"),
        *("count", "range", "any", "all", "sum", "max", "min", "first", "last", "item", "index_of", "distinct"),
        *("score", "team_score", "flatten", "cyclic_next", "cyclic_prev", "around", "show", "sort", "key_of"),
        *("kinds", "card_of", "roll", "face", "faces", "showing"),
        *("get", "with_key", "without_key", "keys", "values", "text", "number", "word", "sorted"),
    }
)
# Board operations whose every answer is a table lowered here: (board, space…) → value.
BOARD_TABLES = {
    "spaces": 0,
    "tagged": 1,
    "neighbours": 1,
    "has_tag": 2,
    "grid_distance": 2,
    "toward": 2,
    "distance": 2,
    "touched": 2,
    "room_of": 1,
    "spaces_of": 1,
    "direction": 2,
    "distance_avoiding": 3,
    "row": 1,
    "column": 1,
    "opposite": 1,
    "directions": 0,
    "shortest_path": 2,
}
# Board operations over spaces given while playing, which the VM walks over the neighbours and steps tables.
WALKS = frozenset({"line", "group", "liberties"})
BOARD_OPS = frozenset({*BOARD_TABLES, *WALKS, "connected", "path_length"})


class Unsupported(TabletopError):
    """The game uses a construct the VM does not run yet."""


def _missed(fn, boards, board_id: str, arity: int, spaces: list[str], tag_at: int | None) -> dict:
    """What the reference answers for the arguments a board table holds no entry of (none, or a text that is no
    space, direction or tag of the board), found by asking it: ``checks``, the arguments it requires to be
    spaces of the board, in the order it checks them (a fault naming the first that is not), and ``default``,
    its answer once those are spaces, for the others (absent where it faults otherwise or every one is checked);
    ``fault``, the reference's words where it fails whatever the arguments (an operation the board's kind has
    not). Where the operation takes a tag (``tag_at``), no default: what a tag the board lacks answers may
    depend on the spaces given (a distance avoiding it), so the table reads it from rows of the tag ""
    (``Lowerer._table``)."""
    if tag_at is not None:
        found = _missed(fn, boards, board_id, arity, spaces, None)
        found.pop("default", None)
        return found
    if not spaces:
        return {"checks": []}
    args: list[str] = [f"\x00{i}" for i in range(arity)]
    checks: list[int] = []
    while True:
        try:
            answer = fn(boards, board_id, *args)
        except RuleFault as exc:
            named = [i for i, a in enumerate(args) if f"has no space {a!r}" in str(exc) and i not in checks]
            if not named:
                said = str(exc)
                return {"checks": checks} if "\x00" in said else {"checks": checks, "fault": said}
            checks.append(named[0])
            args[named[0]] = spaces[0]
            continue
        except (KeyError, ValueError, TypeError):
            return {"checks": checks}
        return {"checks": checks} if len(checks) == len(args) else {"checks": checks, "default": answer}


# Where a board table's fault names the board: the VM writes the board looked up there (boards of one family
# fault alike but for their names).
BOARD_NAMED = "\x01"


def _shared_miss(misses: list[dict], boards: list[str]) -> dict:
    """The one miss of a table over ``boards`` (each board's, in order): theirs where they are alike, or alike but
    for the board each fault names (then named by ``BOARD_NAMED``); else only the generic fault."""
    if not misses:
        return {"checks": []}
    named = [
        {**m, "fault": m["fault"].replace(repr(b), f"'{BOARD_NAMED}'")} if "fault" in m else m
        for m, b in zip(misses, boards)
    ]
    for candidates in (misses, named):
        if all(m == candidates[0] for m in candidates):
            return candidates[0]
    return {"checks": []}


class _Scope:
    """The locals of one program, function or expression: each name a slot of the frame's array."""

    def __init__(self, names: tuple[str, ...] = ("me",)):
        self.slots: dict[str, int] = {}
        for n in names:
            self.slot(n)

    def slot(self, name: str) -> int:
        return self.slots.setdefault(name, len(self.slots))


class _Boards:
    """What a board operation reads of a state: only the game (its boards)."""

    def __init__(self, game):
        self.game = game


# The most characters of IR a folded expression's answer may take (a longer list is made while playing instead).
FOLDED_MOST = 4096


class Lowerer:
    """One game's IR: call ``ir()``."""

    def __init__(self, game):
        self.game = game
        self.vocab = game.vocabulary
        self.labels: Labeller = game.labeller
        self.procedures: dict[str, int] = {name: i for i, name in enumerate(game.procedures)}
        self.functions: dict[str, int] = {name: i for i, name in enumerate(game.function_bodies)}
        self.scope = _Scope()
        self.windows: list[tuple[int, list[int]]] = []
        self.loops: list[tuple[int | None, int, list[int]]] = []  # (loop state slot, top pc, break pcs)
        self.in_function = False
        self.code: list[list] = []
        self.tables: list[Any] = []
        self.misses: list[dict] = []  # per table: what the reference answers for arguments it holds no entry of
        self.table_ids: dict[str, int] = {}
        self.fixed = _Fixed(game)  # which functions' answers are the same in every game, whatever some arguments
        self.constants: dict[str, list | None] = {}  # function needing no argument → its answer's literal, or None
        self.reference = ReferenceCompiler(self.vocab, game)  # works out what is folded (`_folded`)
        # the starts are run by the VM as each game begins when they draw at random (or fail) for some size
        self.placed = {n: _start_places(game, n) for n in range(game.min_players, game.max_players + 1)}
        self.dealt = None in self.placed.values()

    # ------------------------------------------------------------ the whole
    def ir(self) -> dict:
        game = self.game
        procs = [self._procedure(name) for name in game.procedures]
        functions = [self._function(name, body) for name, body in game.function_bodies.items()]
        lab = self._lab(functions)
        scoring = [self._scorer(s, ("scoring", i)) for i, s in enumerate(game.scoring)]
        tiebreakers = [self._scorer(s, ("tiebreakers", i)) for i, s in enumerate(game.tiebreakers)]
        house = [] if game.house is None else [self._scorer(game.house.points, ("house", "points"))]
        standing = [] if game.standing is None else [self._scorer(game.standing, ("bots", "mcts"))]
        deal = self._deal(functions) if self.dealt else None
        return {
            "version": IR_VERSION,
            "game": game.id,
            "variant": game.variant,
            "rules": game.rules_hash,
            "min_players": game.min_players,
            "max_players": game.max_players,
            "step_budget": game.step_budget,
            "ties": game.ties,
            "signs": [game.points_sign, *(-1 if t.lowest else 1 for t in game.tiebreakers)],
            "default_end": DEFAULT_END,
            "card_ids": game.card_ids,
            "attributes": game.attributes,
            "die_faces": [None if faces is None else list(faces) for faces in game.die_faces],
            "effects": [None if e is None else self.procedures[e] for e in game.effects],
            "variables": [[n, v, *self._declared("variables", n)] for n, v in game.variables.items()],
            "player_variables": [
                [n, v, *self._declared("player_variables", n)] for n, v in game.player_variables.items()
            ],
            "zone_families": {
                **{
                    name: self._family(name, fam.key) for name, fam in game.zone_families.items() if fam.key is not None
                },
                **{name: self._family(name, str(per)) for name, per in self.vocab.boards.items() if per is not None},
            },
            "seats": {str(n): self._seats(n) for n in range(game.min_players, game.max_players + 1)},
            "procedures": procs,
            "functions": functions,
            "scoring": scoring,
            "tiebreakers": tiebreakers,
            "house": house,
            "standing": standing,
            "tables": self.tables,
            "misses": self.misses,
            "board_spaces": {b: list(game.board(b).nodes) for b in self._boards("")},
            "board_names": {b: game.board(b).id for b in self._boards("")},
            "score_reads": _score_reads(game, [body for path, body in game.sources if path[0] == "scoring"]),
            "determinize": self._determinize(),
            "greedy": self._greedy(),
            "seat_names": self.labels.seat_names,
            "card_names": self.labels.card_names or [],
            "lab": lab,
            "deal": deal,
        }

    def _deal(self, functions: list) -> dict:
        """The starts as functions of the card (``it``) the VM runs, card after card, as each game begins
        (``State._place_starts``): {cards: [function per card], where: the file a failing start is reported in}."""
        game = self.game
        texts = [(path, e) for path, e in game.sources if path[0] == "components" and path[-1] == "start"]
        first = list(dict.fromkeys(map(id, game.starts)))  # each kind's start, in the order of the texts
        if len(first) != len(texts):
            raise Unsupported("starts shared between kinds of cards")
        lowered = {}
        for key, (_, body) in zip(first, texts):
            self.scope = _Scope(("me", "it"))
            expr = self.expr(body)
            functions.append({"name": "start", "params": [0, 1], "locals": list(self.scope.slots), "expr": expr})
            lowered[key] = len(functions) - 1
        return {"cards": [lowered[id(start)] for start in game.starts], "where": game.rules.documents[0].path}

    def _lab(self, functions: list) -> dict:
        """What the playtest lab reads of a game as it plays (engine/lab/games.py ``record_game``): its ``turn:``
        and each of its ``stats:``, lowered as functions after the rules' own (no rule calls them), so that the
        VM records a game without a Python call, each with where it is in the rules (a fault is located there):
        {turn: [function, where] or None, stats: [[id, per seat, function, where]]}."""
        texts = dict(self.game.sources)

        def function(path: tuple, params: tuple[str, ...]) -> int:
            self.scope = _Scope(params)
            body = self.expr(texts[path])
            slots = self.scope.slots
            functions.append(
                {"name": path[0], "params": [slots[p] for p in params], "locals": list(slots), "expr": body}
            )
            return len(functions) - 1

        turn = self.game.turn
        return {
            "turn": None if turn is None else [function(("turn",), ("me",)), list(turn.where)],
            "stats": [
                [
                    stat.id,
                    stat.per_seat,
                    function(("stats", i, "value"), ("me", "p") if stat.per_seat else ("me",)),
                    list(stat.fn.where),
                ]
                for i, stat in enumerate(self.game.stats)
            ],
        }

    def _greedy(self) -> list:
        """The greedy bot's values (``bots: greedy``): [kind of decision ("" for any other), expression, locals]."""
        out = []
        for path, body in self.game.sources:
            if path[:2] == ("bots", "greedy"):
                self.scope = _Scope(("me", "p", "action", "choice"))
                kind = path[3] if path[2] == "choices" else ""
                out.append([kind, self.expr(body), list(self.scope.slots)])
        return out

    def _determinize(self) -> dict:
        """What a determinized copy reads of the rules (sight.determinize): the back each card shows, the
        player variables other seats may not read, and where variables and locals hold cards to relabel."""
        game = self.game
        backs: dict[tuple, int] = {}
        vocab = self.vocab

        def shapes(types: dict) -> dict:
            return {name: shape for name, t in types.items() if (shape := _card_shape(t)) is not None}

        return {
            "looks": [backs.setdefault(game.back_key(c), len(backs)) for c in range(len(game.card_ids))],
            "private": sorted(game.private_player_variables),
            "variables": shapes(vocab.variables),
            "player_variables": shapes(vocab.player_variables),
            "locals": {name: shapes(proc.local_types) for name, proc in game.procedures.items()},
        }

    def _declared(self, section: str, name: str) -> list:
        """What a value stored in a variable must be: [its enum's members, [its min:, its max:], its enum's name],
        each or None."""
        types = self.vocab.variables if section == "variables" else self.vocab.player_variables
        t = types.get(name)
        enum = str(t) if t is not None and t.is_enum else None
        return [self._members(t), self.vocab.bounds.get((section, name)), enum]

    def _members(self, t: Type | None) -> list[str] | None:
        return list(self.vocab.enums[t.name]) if t is not None and t.is_enum else None

    def _family(self, name: str, key: str) -> dict:
        """A zone family's members by key: seats by number, enum members and spaces by text."""
        if key == str(PLAYER):
            return {"by": "player"}
        if key in self.game.board_files:
            return {"by": "text", "keys": list(self.game.board(key).nodes)}
        return {"by": "text", "keys": list(self.game.enums[key])}

    def _seats(self, n: int) -> dict:
        """What depends on the number of players: the zones, who sees them, teams, and where cards start."""
        game = self.game
        zones = game.zone_ids(n)
        sight = game.sight(n)
        masks, tops = sight.masks, sight.tops
        placed = self.placed[n]
        start_zones, know = ({z: [] for z in zones}, [0] * len(game.card_ids)) if placed is None else placed
        return {
            "zones": zones,
            "masks": [masks[z] for z in zones],
            "tops": [z in tops for z in zones],
            "start": [start_zones[z] for z in zones],
            "know": know,
            "teams": [list(game.team(n, p)) for p in range(n)],
        }

    # ------------------------------------------------------------- programs
    def _procedure(self, name: str) -> dict:
        game = self.game
        proc = game.procedures[name]
        stmts = game.programs[name]
        params = ("this",) if name.startswith("effect:") else tuple(p for p, _ in self.vocab.procedures.get(name, []))
        self.scope = _Scope(("me", "$result", *params))
        self.code = []
        self._block(stmts)
        self._emit(["return"])
        where = [list(proc.locate(line, col)) if proc.locate else [line, col] for line, col in proc.where]
        if len(where) != len(self.code):
            raise Unsupported(f"the pc layout of '{name}' differs from the reference's")
        return {
            "name": name,
            "path": proc.source_path,
            "params": [self.scope.slots[p] for p in params],
            "code": self.code,
            "where": where,
            "locals": list(self.scope.slots),
        }

    def _function(self, name: str, body) -> dict:
        params = tuple(p for p, _ in self.vocab.functions[name][0])
        self.scope = _Scope(("me", *params))
        if isinstance(body, ast.Expr):
            lowered: dict = {"expr": self.expr(body)}
        else:
            self.code, self.in_function = [], True
            self._block(body)
            self.in_function = False
            lowered = {"code": self.code}
        return {
            "name": name,
            "params": [self.scope.slots[p] for p in params],
            "locals": list(self.scope.slots),
            **lowered,
        }

    def _scorer(self, scorer, place: tuple) -> dict:
        """A scoring term, tie-breaker or the house's points (``place``: where its expression is in the rules)."""
        body = next(e for path, e in self.game.sources if path[:2] == place)
        self.scope = _Scope(("me", "p"))
        return {"id": scorer.id, "where": list(scorer.where), "expr": self.expr(body), "locals": list(self.scope.slots)}

    def _emit(self, ins: list) -> int:
        self.code.append(ins)
        return len(self.code) - 1

    def _block(self, stmts: list) -> None:
        for s in stmts:
            method = getattr(self, "_s_" + type(s).__name__, None)
            if method is None:
                raise Unsupported(f"the statement {type(s).__name__}")
            method(s)

    def _store(self, target) -> list:
        if isinstance(target, ast.Name):
            n = target.name
            if n in self.vocab.variables:
                return ["var", n]
            return ["local", self.scope.slot(n)]
        return ["pvar", self.expr(target.obj), target.name]

    def _s_Assign(self, s):
        self._emit(["assign", self._store(s.target), self.expr(s.value)])

    _s_AugAssign = _s_Assign  # its value is already the Binary ``x + EXPR``

    def _s_ExprStmt(self, s):
        call = s.expr
        if call.func in self.vocab.procedures:
            self._call(call)
        elif call.func == "perform":
            self._emit(["perform", self.expr(call.args[0])])
        else:
            self._emit(["do", self.expr(call)])

    def _call(self, call) -> None:
        self._emit(["call", self.procedures[call.func], [self.expr(a) for a in call.args]])

    def _s_Log(self, s):
        parts = [p if isinstance(p, str) else [self.expr(p), self._label(p.type, spoken=True)] for p in s.parts]
        self._emit(["log", parts, None if s.to is None else self.expr(s.to)])

    def _s_EndGame(self, s):
        self._emit(["end", s.reason or DEFAULT_END])

    def _s_Pass(self, s):
        self._emit(["jump", len(self.code) + 1])

    def _s_Return(self, s):
        self._emit(["return"])

    def _s_ReturnValue(self, s):
        self._emit(["give", self.expr(s.value), self.in_function])

    def _s_CallAssign(self, s):
        self._call(s.value)
        self._emit(["assign", self._store(s.target), ["local", self.scope.slot("$result"), True]])

    def _s_If(self, s):
        exits = []
        for cond, body in s.branches:
            test = self._emit(["if", self.expr(cond), 0])
            self._block(body)
            exits.append(self._emit(["jump", 0]))
            self.code[test][2] = len(self.code)
        if s.otherwise is not None:
            self._block(s.otherwise)
        for out in exits:
            self.code[out][1] = len(self.code)

    def _loop(self, s, test: list, key: int | None = None) -> None:
        """Test, body, jump back; ``key``: the loop's state slot, dropped by a 'break' as the reference does."""
        top = self._emit(test)
        breaks: list[int] = []
        self.loops.append((key, top, breaks))
        self._block(s.body)
        self.loops.pop()
        self._emit(["jump", top])
        self.code[top][-1] = len(self.code)
        for pc in breaks:
            self.code[pc][-1] = len(self.code)

    def _s_Break(self, s):
        key, _, breaks = self.loops[-1]
        breaks.append(self._emit(["jump", 0] if key is None else ["close", key, 0]))

    def _s_Continue(self, s):
        self._emit(["jump", self.loops[-1][1]])

    def _s_While(self, s):
        self._loop(s, ["if", self.expr(s.condition), 0])

    def _s_For(self, s):
        key = self.scope.slot(f"${s.var}@{len(self.code)}")
        self._emit(["for_start", key, self._items(s.source)])
        self._loop(s, ["for_step", key, self.scope.slot(s.var), 0], key)

    def _s_Repeat(self, s):
        key = self.scope.slot(f"$repeat@{len(self.code)}")
        self._emit(["repeat_start", key, self.expr(s.count)])
        self._loop(s, ["repeat_step", key, 0], key)

    def _s_Window(self, s):
        key = self.scope.slot(f"$window@{len(self.code)}")
        var = self.scope.slot(s.var)
        self._emit(["window_start", key, var, self.expr(s.start)])
        top = self._emit(["window_ask", key, 0])
        done: list[int] = []
        self.windows.append((key, done))
        self._block(s.body)
        self.windows.pop()
        self._emit(["window_next", key, var, top])
        self.code[top][2] = len(self.code)
        for pc in done:
            self.code[pc][2] = len(self.code)

    def _s_Reopen(self, s):
        self._emit(["reopen", self.windows[-1][0]])

    def _s_Close(self, s):
        key, done = self.windows[-1]
        done.append(self._emit(["close", key, 0]))

    def _s_Choose(self, s):
        item = s.options_type or (s.source.type.element if s.source.type.is_list else CARD)
        each = None if s.each is None else self.scope.slot(s.each)
        choose = {
            "source": self._items(s.source),
            "where": None if s.where is None else self.expr(s.where),
            "it": self.scope.slot("it") if s.where is not None else None,
            "by": None if s.by is None else self.expr(s.by),
            "each": each,
            "label": self._label(item),
            "prefix": s.verb + " " if s.verb else "",
            "decline": s.optional,
            "secret": s.secret,
            "kind": s.kind,
            "what": s.verb or ast.format_expr(s.target),
            "store": self._store(s.target),
            "several": self._several(s) if isinstance(s, ast.ChooseSeveral) else None,
        }
        self._emit(["choose", choose])

    _s_ChooseSeveral = _s_Choose

    def _several(self, s: ast.ChooseSeveral) -> dict:
        """The bounds of choosing several and the label that orders an option's members (subsets.py)."""
        return {
            "low": None if s.low is None else self.expr(s.low),
            "high": None if s.high is None else self.expr(s.high),
            "label": self._label(s.options_type.element if s.options_type is not None else None),
        }

    def _items(self, source) -> list:
        """A list to iterate over: a zone gives its cards."""
        e = self.expr(source)
        return ["cards", e] if source.type == ZONE else e

    # ------------------------------------------------------------ labels
    def _label(self, t: Type | None, spoken: bool = False):
        """How a value of type ``t`` prints (Labeller.for_type); ``spoken``: in a log line, seats by their
        names (Labeller.log_for_type)."""
        if t == CARD:
            return "card_name" if spoken and self.labels.card_names is not None else "card"
        if t == PLAYER:
            return "seat" if spoken else "player"
        if t in (ZONE, BOARD):
            return "zone"
        if t is not None and t.is_list:
            return ["list", self._label(t.element, spoken)]
        if t is not None and t.is_record:
            return ["record", [[n, self._label(ft, spoken), self._label(ft) == "plain"] for n, ft in t.fields]]
        return "plain"  # a map too: it prints as its Python repr

    # ------------------------------------------------------------ expressions
    def expr(self, e) -> list:
        method = getattr(self, "_e_" + type(e).__name__, None)
        if method is None:
            raise Unsupported(f"the expression {type(e).__name__}")
        if isinstance(e, ast.Comprehension | ast.Call) and (folded := self._folded(e)) is not None:
            return folded
        return method(e)

    def _folded(self, e) -> list | None:
        """A comprehension, or a call of a rule function, whose answer is the same in every game of the rules (it
        reads nothing of a game being played, and no argument the function needs but what is the same too), as the
        literal of that answer, worked out once here: a list of every space is not made again at each call. A call
        whose answer needs none of its arguments is worked out once per function. None where it reads more, faults
        (its fault is the game's, at play) or answers with more than ``FOLDED_MOST`` characters of IR."""
        if isinstance(e, ast.Call) and e.func not in self.vocab.functions:
            return None
        if not _Reads(self.game, fixed=self.fixed).fixed_value(e):
            return None
        if isinstance(e, ast.Call) and self.fixed.needed(e.func) == frozenset():  # the same answer at every call
            if e.func not in self.constants:
                self.constants[e.func] = self._answer(e)
            return self.constants[e.func]
        return self._answer(e)

    def _answer(self, e) -> list | None:
        """``_folded``'s literal of fixed expression ``e``, worked out by the reference."""
        try:
            value = self.reference.expr(e)(_Boards(self.game), {"me": None})
        except Exception as exc:
            if not is_rules_fault(exc):
                raise
            return None
        literal = _literal(value)
        if literal is None or len(json.dumps(value)) > FOLDED_MOST:
            return None
        return literal

    def _e_Literal(self, e):
        return ["lit", e.value]

    def _e_Name(self, e):
        v, n = self.vocab, e.name
        if n in v.variables:
            return ["var", n]
        if n in v.constants:
            return ["lit", v.constants[n][1]]
        if n in v.enums:
            return ["lit_list", list(v.enums[n])]
        if n in v.zones or n in v.boards:
            return ["lit", n]
        if n in OPS and OPS[n].constant:
            return self._op(n, [])
        return ["local", self.scope.slot(n), False]

    def _e_ListExpr(self, e):
        return ["list", [self.expr(i) for i in e.items]]

    def _e_Record(self, e):
        return ["record", [[name, self.expr(v)] for name, v in e.fields]]

    def _e_MapExpr(self, e):
        return ["record", [[key, self.expr(v)] for key, v in e.entries]]

    def _e_Comprehension(self, e):
        return [
            "comp",
            self.scope.slot(e.var),
            self._items(e.source),
            self.expr(e.element),
            None if e.condition is None else self.expr(e.condition),
        ]

    def _e_PairComprehension(self, e):
        """``[E for x in A for y in B if C]`` as ``flatten([[E for y in B if C] for x in A])``: the same items in
        the same order, x and y restored after as the reference restores them."""
        inner = [
            "comp",
            self.scope.slot(e.inner_var),
            self._items(e.inner_source),
            self.expr(e.element),
            None if e.condition is None else self.expr(e.condition),
        ]
        return ["op", "flatten", [["comp", self.scope.slot(e.var), self._items(e.source), inner, None]]]

    def _e_Attr(self, e):
        if e.obj.type.is_record:
            return ["field", self.expr(e.obj), e.name]
        if e.obj.type == PLAYER:
            return ["pvar", self.expr(e.obj), e.name]
        if e.name not in self.game.attributes:
            raise Unsupported(f"the card attribute {e.name}")
        return ["attr", self.expr(e.obj), e.name]

    def _e_Call(self, e):
        v = self.vocab
        if e.func in v.zones or e.func in v.boards:
            if not e.args:
                return ["lit", e.func]
            return ["member", e.func, self.expr(e.args[0])]
        if e.func in v.functions:
            return ["fn", self.functions[e.func], [self.expr(a) for a in e.args]]
        args = []
        for arg, (_, ptype) in zip(e.args, OPS[e.func].params):
            lowered = self.expr(arg)
            args.append(["cards", lowered] if arg.type == ZONE and ptype.is_list else lowered)
        return self._op(e.func, args, e.args)

    def _op(self, name: str, args: list, asts: list | None = None) -> list:
        if name in BOARD_OPS:
            return self._board_op(name, args, asts or [])
        if name == "card_named":
            return ["table", self._card_table(), ["lit", ""], args]
        if name not in NATIVE_OPS:
            raise Unsupported(f"the operation {name}")
        return ["op", name, args]

    def _board_op(self, name: str, args: list, asts: list) -> list:
        """A board operation as a lookup in a table made now over every board and space (boards are fixed)."""
        first = asts[0] if asts else None
        family = first.name if isinstance(first, ast.Name) else first.func if isinstance(first, ast.Call) else None
        if family is None or family not in self.game.board_files:
            family = ""  # a board chosen while playing: the tables of every board
        if name in ("connected", "path_length"):
            return [name, self._table(family, "neighbours", 1), args[0], args[1], args[2], args[3]]
        if name in WALKS:
            return [
                "walk",
                name,
                self._table(family, "neighbours", 1),
                self._table(family, "toward", 2),
                args[0],
                args[1:],
            ]
        tag_at = _tag_at(name)
        untagged = tag_at is not None and not self._board_tag(family, asts[tag_at + 1 : tag_at + 2])
        return ["table", self._table(family, name, BOARD_TABLES[name], untagged), args[0], args[1:]]

    def _board_tag(self, family: str, tag: list) -> bool:
        """Whether ``tag`` (its AST, or none) is a literal that every board of ``family`` has: no other tag can
        reach the table then."""
        if not tag or not isinstance(tag[0], ast.Literal) or not isinstance(tag[0].value, str):
            return False
        return all(tag[0].value in _tags(self.game.board(b)) for b in self._boards(family))

    def _table(self, family: str, name: str, arity: int, untagged: bool = False) -> int:
        """Every answer of ``name(board, …)`` for every board of ``family`` ("": of every family, for a board
        chosen while playing), keyed by the arguments' JSON text (``[board, a, b]``); the table's index.
        ``untagged``: a call may give a tag the board lacks, so the table also holds the rows of the tag "" that
        no space has, which the VM reads such a tag from (``stand_in``)."""
        key = f"{family}/{name}"
        found = self.table_ids.get(key)
        if found is None:
            found = len(self.tables)
            self.tables.append({})
            misses = self._fill(found, family, name, arity, _tags)
            self.misses.append(_shared_miss(misses, self._boards(family)))
            self.table_ids[key] = found
        if untagged and "stand_in" not in self.misses[found]:
            self._fill(found, family, name, arity, lambda board: [""])
            self.misses[found]["stand_in"] = [_tag_at(name), ""]
        return found

    def _fill(self, index: int, family: str, name: str, arity: int, tags: Callable[[Any], list[str]]) -> list:
        """Table ``index``'s rows over every board of ``family``, tags from ``tags(board)``; each board's miss."""
        game = self.game
        boards = self._boards(family)
        fn = OPS[name].fn
        if fn is None:
            raise Unsupported(f"a table of {name}")
        table = self.tables[index]
        misses: list[dict] = []
        state = _Boards(game)
        for board_id in boards:
            board = game.board(board_id)
            spaces = list(board.nodes)
            for args in _arguments(name, arity, board, spaces, tags(board)):
                try:
                    table[_key(board_id, args)] = fn(state, board_id, *args)
                except (RuleFault, KeyError, ValueError, TypeError):  # a fault at play time: the VM's own
                    continue
            misses.append(_missed(fn, state, board_id, arity, spaces, _tag_at(name)))
        return misses

    def _boards(self, family: str) -> list[str]:
        """The ids of the boards of ``family``: the family's own, or one per seat; "": of every family (a board
        chosen while playing)."""
        if not family:
            return [b for f in self.game.board_files for b in self._boards(f)]
        per = self.vocab.boards[family]
        if per is not None and per != PLAYER:
            raise Unsupported(f"boards per {per}")
        return [family] if per is None else [f"{family}:{p}" for p in range(self.game.max_players)]

    def _card_table(self) -> int:
        """card id → its first card, as a table looked up under the board ''."""
        key = "/card_named"
        if key not in self.table_ids:
            self.tables.append({json.dumps(["", cid]): i for cid, i in self.game.first_card.items()})
            self.misses.append({"checks": []})
            self.table_ids[key] = len(self.tables) - 1
        return self.table_ids[key]

    def _e_KeyedCall(self, e):
        return ["keyed", e.func, self.scope.slot("it"), self._items(e.source), self.expr(e.key)]

    def _e_Unary(self, e):
        return ["not" if e.op == "not" else "neg", self.expr(e.operand)]

    def _e_Conditional(self, e):
        return ["cond", self.expr(e.condition), self.expr(e.then), self.expr(e.otherwise)]

    def _e_Binary(self, e):
        op = e.op
        if op in ("in", "not in") and e.right.type == ZONE:
            return ["bin", op, self.expr(e.left), ["cards", self.expr(e.right)]]
        return ["bin", op, self.expr(e.left), self.expr(e.right)]


def _literal(value: Any) -> list | None:
    """``["lit", value]`` where ``value`` is plain data the IR's literal holds as it is (none, yes/no, numbers,
    texts, lists and records of them), else None."""

    def plain(x: Any) -> bool:
        if x is None or isinstance(x, bool | int | str):
            return True
        if isinstance(x, list):
            return all(map(plain, x))
        return isinstance(x, dict) and all(isinstance(k, str) and plain(v) for k, v in x.items())

    return ["lit", value] if plain(value) else None


@functools.lru_cache(maxsize=4096, typed=True)
def _json(x: Any) -> str:
    """The JSON text of one argument of a board table: a space, tag, direction or room, met once per row."""
    return json.dumps(x)


def _arguments(name: str, arity: int, board, spaces: list[str], tags: list[str]) -> list[list]:
    """The arguments after the board that a table of ``name`` on ``board`` holds a row for: its spaces, pairs or
    triples of them, or its rooms, directions or ``tags`` where the operation takes those (each made only if
    used)."""
    if name == "spaces_of":
        return [[r] for r in sorted({str(board.room_of(s)) for s in spaces})]
    if name == "opposite":
        return [[d] for d in _directions(board)]
    if name == "toward":
        directions = _directions(board)
        return [[s, d] for s in spaces for d in directions]
    if name == "tagged":
        return [[t] for t in tags]
    if name == "has_tag":
        return [[s, t] for s in spaces for t in tags]
    if arity == 0:
        return [[]]
    if arity == 1:
        return [[s] for s in spaces]
    if arity == 2:
        return [[a, b] for a in spaces for b in spaces]
    return [[a, b, t] for a in spaces for b in spaces for t in tags]


def _directions(board) -> list[str]:
    return list(getattr(board, "directions", ()))


def _tags(board) -> list[str]:
    return sorted(set().union(*getattr(board, "tags", {}).values()))


def _tag_at(name: str) -> int | None:
    """The place among the arguments after the board of operation ``name``'s tag, if it takes one."""
    names = [n for n, _ in OPS[name].params[1:]]
    return names.index("tag") if "tag" in names else None


def _key(board_id: str, args: list) -> str:
    """A board table's key, ``json.dumps([board_id, *args])``, from the texts of its parts: a table holds a row
    per pair of spaces, so the lowering of a large board spends most of its time writing these."""
    return "[" + ", ".join([_json(board_id), *map(_json, args)]) + "]"


def _card_shape(t: Type | None) -> Any:
    """Where a value of type ``t`` holds cards, as sight's relabelling reads them: "card", ["list", SHAPE],
    ["loop", SHAPE of its items' list], ["record", [[field, SHAPE], …]]; None: no card a copy relabels."""
    if t is None or not t.holds_cards:
        return None
    if t is CARD:
        return "card"
    if t.is_loop and t.item is not None:
        items = _card_shape(list_of(t.item))
        return None if items is None else ["loop", items]
    if t.is_list:
        each = _card_shape(t.element)
        return None if each is None else ["list", each]
    if t.is_record:
        fields = [[name, shape] for name, ft in t.fields if (shape := _card_shape(ft)) is not None]
        return ["record", fields] if fields else None
    return None


def _start_places(game, n: int) -> tuple[dict, list] | None:
    """Where every card starts and who knows it, as ``State.new`` places them before the programs run (and
    without running them: a program that fails is the VM's to report); None where the starts draw at random
    or fail, which the VM then runs as each game begins."""
    from engine.runtime import rng

    st = game.state_class.__new__(game.state_class)  # filled as State.new fills it, up to its programs
    st.game, st.n, st.seed, st.rng = game, n, 0, rng.seed_state(0)
    st.vars, st.pvars = game.variables.copy(), [game.player_variables.copy() for _ in range(n)]
    st.history, st.settled, st.sight = [], {}, game.sight(n)
    st.draws = None  # the generator's own draws, not given ones
    cards = len(game.card_ids)
    st.zones, st.loc = {z: [] for z in game.zone_ids(n)}, [""] * cards
    try:
        know = st._place_starts()
    except RuntimeRuleError:
        return None
    return (st.zones, know) if st.rng == rng.seed_state(0) else None


def _score_reads(game, exprs: list) -> dict | None:
    """What the scoring reads: zone families, variables and player variables; None if it may read more (a
    local, a zone worked out while playing, an operation on the whole state).  The VM keeps each seat's points
    until one of these changes."""
    reads = _Reads(game, own=frozenset({"p"}))
    if not all(reads.ok(e, frozenset({"p", "me"}), 0) for e in exprs):
        return None
    return {
        "families": sorted(reads.families),
        "variables": sorted(reads.variables),
        "player_variables": sorted(reads.pvars),
        # read only as the scored seat's own (``found(p)``, ``p.notes``): a change of another seat's keeps its points
        "own_families": sorted(reads.families - reads.shared_families),
        "own_player_variables": sorted(reads.pvars - reads.shared_pvars),
    }


class _Reads:
    """The plain reads of expressions (``fixed``, for an answer the same in every game of the rules: reading ``me``
    or the number of players counts as a read of the game, and a function's arguments it does not need are not
    read)."""

    def __init__(self, game, fixed: _Fixed | None = None, own: frozenset = frozenset(), given: frozenset = frozenset()):
        self.game, self.vocab = game, game.vocabulary
        self.fixed = fixed  # for an answer the same in every game: what each rule function needs of its arguments
        self.given = given  # names that always hold a value where they are read (a function's parameters)
        self.families: set[str] = set()
        self.variables: set[str] = set()
        self.pvars: set[str] = set()
        self.own = own  # the names that hold the seat whose points are worked out, where they are read
        self.shared_families: set[str] = set()  # families read with another key than the seat
        self.shared_pvars: set[str] = set()  # player variables read of another player than the seat

    def owned(self, e) -> bool:
        """Whether ``e`` is a name holding the seat whose points are worked out."""
        return isinstance(e, ast.Name) and e.name in self.own

    def within(self, own: frozenset, check: Callable[[], bool]) -> bool:
        """``check()`` where the names in ``own`` hold the seat."""
        outer, self.own = self.own, own
        try:
            return check()
        finally:
            self.own = outer

    def fixed_value(self, e) -> bool:
        """Whether ``e`` reads nothing of a game being played: no zone, variable, player variable or local."""
        return self.ok(e, frozenset(), 0) and not (self.families or self.variables or self.pvars)

    def zone(self, e, names: frozenset, depth: int) -> bool:
        """A zone argument: one named in the rules (its family is read), not one worked out while playing."""
        if isinstance(e, ast.Name) and e.name in self.vocab.zones:
            self.families.add(e.name)
            self.shared_families.add(e.name)
            return True
        if isinstance(e, ast.Call) and e.func in self.vocab.zones:
            self.families.add(e.func)
            if not (len(e.args) == 1 and self.owned(e.args[0])):
                self.shared_families.add(e.func)
            return all(self.ok(a, names, depth) for a in e.args)
        return False

    def ok(self, e, names: frozenset, depth: int) -> bool:
        v = self.vocab
        if depth > 8:
            return False
        if isinstance(e, ast.Literal):
            return True
        if isinstance(e, ast.Name):
            if e.name in v.variables:
                self.variables.add(e.name)
                return True
            if e.name in v.zones:
                self.families.add(e.name)
                self.shared_families.add(e.name)
                return True
            constant = e.name in OPS and OPS[e.name].constant and OPS[e.name].reads == "args" and self.fixed is None
            return e.name in names or e.name in v.constants or e.name in v.enums or e.name in v.boards or constant
        if isinstance(e, ast.ListExpr):
            return all(self.ok(i, names, depth) for i in e.items)
        if isinstance(e, ast.Record | ast.MapExpr):
            return all(self.ok(x, names, depth) for _, x in (e.fields if isinstance(e, ast.Record) else e.entries))
        if isinstance(e, ast.Comprehension | ast.KeyedCall):
            var = e.var if isinstance(e, ast.Comprehension) else "it"
            inner = names | {var}
            parts = [e.element, e.condition] if isinstance(e, ast.Comprehension) else [e.key]
            source = self.zone(e.source, names, depth) if e.source.type == ZONE else self.ok(e.source, names, depth)
            return source and self.within(
                self.own - {var}, lambda: all(p is None or self.ok(p, inner, depth) for p in parts)
            )
        if isinstance(e, ast.Attr):
            if e.obj.type == PLAYER and not e.obj.type.is_record:
                self.pvars.add(e.name)
                if not self.owned(e.obj):
                    self.shared_pvars.add(e.name)
            return self.ok(e.obj, names, depth)
        if isinstance(e, ast.Unary):
            return self.ok(e.operand, names, depth)
        if isinstance(e, ast.Conditional):
            return all(self.ok(x, names, depth) for x in (e.then, e.condition, e.otherwise))
        if isinstance(e, ast.Binary):
            right = self.zone(e.right, names, depth) if e.right.type == ZONE else self.ok(e.right, names, depth)
            return right and self.ok(e.left, names, depth)
        if isinstance(e, ast.Call):
            return self._call(e, names, depth)
        return False

    def _call(self, e, names: frozenset, depth: int) -> bool:
        v = self.vocab
        if e.func in v.zones:
            return self.zone(e, names, depth)
        if e.func in v.boards:
            return all(self.ok(a, names, depth) for a in e.args)
        if e.func in v.functions and self.fixed is not None:
            needed = self.fixed.needed(e.func)
            return needed is not None and all(
                self.ok(a, names, depth) if p in needed else _harmless(a, names | self.given)
                for a, (p, _) in zip(e.args, v.functions[e.func][0])
            )
        if e.func in v.functions:
            body = self.game.function_bodies.get(e.func)
            declared = [p for p, _ in v.functions[e.func][0]]
            params = frozenset(declared) | {"me"}
            own = frozenset(p for p, a in zip(declared, e.args) if self.owned(a))
            return (
                isinstance(body, ast.Expr)
                and all(self.ok(a, names, depth) for a in e.args)
                and self.within(own, lambda: self.ok(body, params, depth + 1))
            )
        op = OPS.get(e.func)
        if op is None or op.reads not in ("args", "zone") or (self.fixed is not None and op.constant):
            return False
        return all(self.zone(a, names, depth) if a.type == ZONE else self.ok(a, names, depth) for a in e.args)


class _Fixed:
    """Which rule functions answer the same in every game of the rules, and which of their arguments that answer
    needs: worked out once per function, so that a check of a call does not go through its body again."""

    def __init__(self, game):
        self.game = game
        self.known: dict[str, frozenset | None] = {}

    def needed(self, name: str) -> frozenset | None:
        """The parameters function ``name``'s answer reads, or None if it reads anything of a game being played
        (or is written as statements, or calls itself)."""
        if name not in self.known:
            self.known[name] = None  # while its body is read: a call of itself reads more than it can tell
            body = self.game.function_bodies.get(name)
            params = frozenset(p for p, _ in self.game.vocabulary.functions[name][0])
            if isinstance(body, ast.Expr) and self._ok(body, params, params):
                self.known[name] = frozenset(p for p in params if not self._ok(body, params - {p}, params))
        return self.known[name]

    def _ok(self, body, names: frozenset, params: frozenset) -> bool:
        """Whether ``body`` reads nothing of a game being played, with ``names`` bound to such values (``params``
        are bound to some value: one may be handed to a function that does not need it)."""
        reads = _Reads(self.game, fixed=self, given=params)
        return reads.ok(body, names, 0) and not (reads.families or reads.variables or reads.pvars)


def _harmless(e, names: frozenset) -> bool:
    """An argument whose value a function does not need that is worked out without a fault and without a read of
    the game: a literal, ``me``, or a name bound where it is read (a parameter, a comprehension's variable)."""
    return isinstance(e, ast.Literal) or (isinstance(e, ast.Name) and (e.name == "me" or e.name in names))


def lower(game) -> dict:
    """The IR of a checked game, as plain data (``Unsupported`` if the VM cannot run it whole)."""
    return Lowerer(game).ir()


def ir_bytes(game) -> bytes:
    """The IR as the bytes ``engine._vm.VmGame`` reads."""
    return json.dumps(lower(game), separators=(",", ":")).encode()


def vm_module() -> Any:
    """The native VM, ``engine._vm`` (a compiled extension of this package), or None where it is not built."""
    try:
        return importlib.import_module("engine._vm")
    except ImportError:
        return None


_NATIVE: dict[int, tuple[Any, str]] = {}  # id(game) → (its VmGame or None, why not), dropped with the game
# game → (its IR as the compiled-game cache kept it, or None; what keeps the IR once made), dropped with the game
_KEPT: weakref.WeakKeyDictionary[Any, tuple[bytes | None, Callable[[bytes], None]]] = weakref.WeakKeyDictionary()


def kept_ir(game, ir: bytes | None, keep: Callable[[bytes], None]) -> None:
    """Where ``game``'s IR is kept: ``ir`` if it was lowered before, else ``keep`` is given it once lowered (a game
    that does not lower is lowered again by the next process: that is a lowering gone wrong, not a game)."""
    _KEPT[game] = (ir, keep)


def _ir_of(game) -> bytes:
    """The IR of ``game``, lowered only if it was not kept."""
    ir, keep = _KEPT.pop(game, (None, None))
    if ir is None:
        ir = ir_bytes(game)
        if keep is not None:
            keep(ir)
    return ir


def native_game(game) -> tuple[Any, str]:
    """``game`` on the native VM, made once per game: (``engine._vm.VmGame``, "") or (None, why it cannot run
    there — a construct the VM does not run yet, or no VM built on this machine)."""
    found = _NATIVE.get(id(game))
    if found is None:
        _vm = vm_module()
        if _vm is None:
            found = (None, "the native VM is not built here (pip install -e .)")
        else:
            try:
                found = (_vm.VmGame(_ir_of(game)), "")
            except (Unsupported, _vm.VmError) as exc:
                found = (None, str(exc))
        _NATIVE[id(game)] = found
        weakref.finalize(game, _NATIVE.pop, id(game), None)
    return found


def diagnostic_of(exc: BaseException) -> Diagnostic:
    """The located diagnostic of a rule fault raised by the VM (its arguments: path, line, col, code, message)."""
    path, line, col, code, message = exc.args
    return Diagnostic(path, line, col, code, message)


def rule_error_of(exc: BaseException) -> RuntimeRuleError:
    """A VM rule fault as the reference raises it (its step budget run out: BudgetExceeded)."""
    diagnostic = diagnostic_of(exc)
    return (BudgetExceeded if diagnostic.code == "E703" else RuntimeRuleError)(diagnostic)


def raise_as_engine(exc: BaseException) -> NoReturn:
    """A failure of the VM (an ``engine._vm.VmError``) as the engine's own error of the same kind."""
    _vm = vm_module()
    if isinstance(exc, _vm.VmRuleError):
        raise rule_error_of(exc) from None
    if isinstance(exc, _vm.VmIllegalAction):
        raise IllegalAction(str(exc)) from None
    if isinstance(exc, _vm.VmEngineBug):
        raise EngineBug(str(exc)) from None
    raise StateError(str(exc)) from None


__all__ = [
    "IR_VERSION",
    "Unsupported",
    "diagnostic_of",
    "ir_bytes",
    "kept_ir",
    "lower",
    "native_game",
    "raise_as_engine",
    "rule_error_of",
    "vm_module",
]
