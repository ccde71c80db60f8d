"""Rules (merged documents) → a frozen, compiled game definition.

Semantic checks live here: references resolve, types are known, the effect
language parses and type-checks, components match their declared attributes,
boards are well formed.  Every problem becomes a diagnostic; only when there
are none is a ``GameDef`` built.  The definition holds everything that never
changes during play; a ``State`` holds the rest.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import (
    Diagnostic,
    EngineBug,
    LoadError,
    RuleFault,
    RulesError,
    RuntimeRuleError,
    StateError,
    TabletopError,
    did_you_mean,
    plain_reason,
    quoted,
)
from engine.lang import ast
from engine.lang.ast import walk_blocks, walk_exprs
from engine.lang.checker import BUILTIN_CARD_ATTRIBUTES, Vocabulary, check_expression, check_program
from engine.lang.ops import OPS, CardsById
from engine.lang.problems import DslProblem, DslSyntaxError
from engine.lang.types import (
    ANY,
    BASIC,
    BOOL,
    CARD,
    DIRECTION,
    INT,
    NONE,
    PLAYER,
    POSITION,
    TEXT,
    ZONE,
    Type,
    compatible,
    describe,
    merge,
    parse_type,
    type_named,
)
from engine.load.compiled_cache import cached, key_of
from engine.load.documents import (
    RuleSet,
    apply_overrides,
    display_path,
    game_folders,
    known_games,
    load_documents,
    resolve,
)
from engine.load.formats import CURRENT, OLDEST, declared_format
from engine.load.safe_files import Refused, find_inside
from engine.load.yaml_source import read_yaml
from engine.runtime.action_space import HINT, unbounded_choices
from engine.runtime.deprecated import deprecated_uses
from engine.runtime.lower import kept_ir
from engine.runtime.program import Labeller, Procedure
from engine.runtime.reference import ReferenceCompiler

if TYPE_CHECKING:
    from engine.runtime.facts import GameInfo
    from engine.runtime.sight import Sight
    from engine.runtime.state import State

DEFAULT_STEP_BUDGET = 200_000
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")  # a '{field}' of a generated card's template
_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")
_ID_HINT = "ids are lower-case letters, digits, '-' and '_': the members the template uses must be too"
MAX_CARDS = 10_000  # cards of a game, copies counted: more only costs memory (2 million once took 555 MB)
VISIBILITIES = ("public", "owner", "hidden", "top")
_DEFAULTS = {INT: 0, BOOL: False}
_ITEM_KEYS = ("id", "name", "copies", "text", "effect", "source")  # what every item may give besides attributes
_WRITTEN = {  # how a value of a type is written in a rule file: the hint of a value that is not one
    INT: "write a whole number, e.g. 7",
    BOOL: "write true or false",
    TEXT: 'write text; in quotes if it reads as a number or true/false: "7"',
    PLAYER: "write a seat's number, counting from 0",
}


@dataclass(frozen=True)
class ZoneFamily:
    name: str
    key: str | None  # None, "player", or an enum name
    visibility: str


@dataclass(frozen=True)
class Scorer:
    id: str
    text: str
    fn: Callable
    where: tuple[str, int, int] = ("", 1, 1)  # file, line, column of its expression
    lowest: bool = False  # a tie-breaker whose lowest value wins (its 'winner: lowest', else the game's)


@dataclass(frozen=True)
class House:
    """A seat run by the rules: it plays by its procedure, is never asked, and every player's result is
    against it, by points."""

    name: str
    plays: str  # the procedure it plays by
    points: Scorer  # its points, read with no player


@dataclass(frozen=True)
class Located:
    """An expression the playtest lab reads of a game as it plays (``turn:``, a ``stats:`` counter), called as
    the compiled expression is: a rule fault in it is a diagnostic at its place in the rules (``what`` names
    it), as a scoring term's is, not a bare failure."""

    fn: Callable
    where: tuple[str, int, int]
    what: str

    def __call__(self, st, env: dict) -> Any:
        try:
            return self.fn(st.for_reading(), env)
        except TabletopError:
            raise
        except Exception as exc:  # RuleFault, or a rule asking for the impossible (e.g. endless recursion)
            path, line, col = self.where
            raise RuntimeRuleError(
                Diagnostic(path, line, col, "E701", f"'{self.what}' failed: {plain_reason(exc)}")
            ) from None


@dataclass(frozen=True)
class Stat:
    """A rule-declared counter for playtest reports, evaluated once at the end of each game."""

    id: str
    text: str
    fn: Located
    per_seat: bool  # evaluated for each seat ``p`` rather than once
    is_flag: bool  # yes/no (reported as a share of games) rather than a number


class GameCache:
    """What the states of one game work out during play and keep for the next ones: tables by player count
    (zones, action spaces, teams, what each seat sees, where the starts put the cards).  Kept apart from the
    game's facts, and never pickled with them: a game read back from the compiled-game cache starts with none."""

    __slots__ = ("backs", "choices", "infos", "sights", "spaces", "starts", "tables", "teams", "zones")

    def __init__(self) -> None:
        self.zones: dict[int, list[str]] = {}  # players → every zone
        self.sights: dict[int, Sight] = {}  # players → what each seat sees
        self.tables: dict[int, type] = {}  # players → the class of the states the VM runs (state._OnVm.of)
        self.spaces: dict[int, tuple[list[str], dict[str, int]]] = {}  # players → action ids, their indexes
        self.infos: dict[int, GameInfo] = {}  # players → the game's facts at that size
        self.teams: dict[tuple[int, int], tuple[int, ...]] = {}  # (players, seat) → the seat's team
        self.backs: list[tuple] = []  # card → what it shows face down
        # players → (zones, loc, know) where the starts put the cards, when they drew nothing (State.new)
        self.starts: dict[int, tuple] = {}
        self.choices: dict[str, Any] = {}  # decision kind → the type of its options (None: chooses differ)

    def __reduce__(self) -> tuple:
        """Pickled empty: what play worked out is no fact of the game, and is worked out again."""
        return (GameCache, ())


@dataclass(frozen=True, eq=False)
class GameDef:
    """Everything about a game that does not change during play; what play works out and keeps is in
    ``cache``.  Two definitions are equal only if they are the same one (states compare their game so)."""

    id: str
    name: str
    variant: str | None
    min_players: int
    max_players: int
    rules: RuleSet = field(repr=False)
    card_ids: list[str] = field(default_factory=list)
    card_kinds: list[str] = field(default_factory=list)
    attributes: dict[str, list] = field(default_factory=dict)
    backs: dict[str, tuple[str, ...]] = field(default_factory=dict)  # kind → attributes on the back
    die_faces: list[tuple | None] = field(default_factory=list)  # per card: a die's faces, None; [] without dice
    card_texts: dict[str, dict] = field(default_factory=dict)  # card id → its declaration, for tools
    starts: list[Callable] = field(default_factory=list)
    effects: list[str | None] = field(default_factory=list)  # card index → effect procedure
    first_card: dict[str, int] = field(default_factory=CardsById)  # card id → its first index
    functions: dict[str, Callable] = field(default_factory=dict)
    bot_values: dict[str, dict[str, Callable]] = field(default_factory=dict)  # bot → kind of decision ("" for
    # any other) → value(state, {p, action, choice})
    house: House | None = None  # a seat run by the rules, which every player plays against
    standing: Scorer | None = None  # how well a seat stands when a search's rollout stops short (``bots: mcts``)
    ties: str = "shared"  # seats of different teams level after the tie-breakers: "shared" win or "draw"
    winner: str = "highest"  # whether the most points win ("highest") or the fewest ("lowest")
    enums: dict[str, list[str]] = field(default_factory=dict)
    zone_families: dict[str, ZoneFamily] = field(default_factory=dict)
    board_files: dict[str, list] = field(default_factory=dict)  # family → compiled boards by seat
    variables: dict[str, object] = field(default_factory=dict)
    player_variables: dict[str, object] = field(default_factory=dict)
    private_player_variables: frozenset = frozenset()
    procedures: dict[str, Procedure] = field(default_factory=dict)
    scoring: list[Scorer] = field(default_factory=list)
    tiebreakers: list[Scorer] = field(default_factory=list)
    stats: list[Stat] = field(default_factory=list)
    # what a turn is (the game file's 'turn:'): a value that changes when a new turn begins; None: a run
    # of one seat's decisions is a turn
    turn: Located | None = None
    scoring_reveals: frozenset[str] = frozenset()  # decisions that score the card chosen by showing it
    teams: dict[int, list[list[int]]] = field(default_factory=dict)
    rulings: list[dict] = field(default_factory=list)
    draw: dict = field(default_factory=dict)  # drawing hints (the game file's 'draw:'): colours, icons, layouts
    step_budget: int = DEFAULT_STEP_BUDGET
    vm: bool = True  # its states run on the native VM where it runs the game (``load_game``)
    max_decisions: int | None = None  # the most decisions a game can take, if the rules declare it
    rules_hash: str = ""
    rules_format: int = CURRENT  # the rules format the game file declares (engine/load/formats.py)
    # what loading found to warn of: the file's format, deprecated forms (each located, with its fix)
    warnings: tuple[Diagnostic, ...] = field(default=(), repr=False)
    vocabulary: Vocabulary | None = field(default=None, repr=False)
    programs: dict[str, list] = field(default_factory=dict, repr=False)  # name → AST, for tools
    # (rules path, AST) of every effect-language text: statements of programs, expressions of functions,
    # starts, bots and scoring (for lint)
    sources: list[tuple[tuple, list[ast.Stmt] | ast.Expr]] = field(default_factory=list, repr=False)
    function_bodies: dict[str, ast.Expr | list[ast.Stmt]] = field(default_factory=dict, repr=False)  # name → AST
    labeller: Labeller | None = field(default=None, repr=False)
    # board id ("family", "family:seat") → the board: operations read it first, a lookup and no call
    boards_by_id: dict[str, object] = field(default_factory=dict, repr=False)
    cache: GameCache = field(default_factory=GameCache, init=False, repr=False)

    def seat_name(self, seat: int) -> str:
        """A seat as a log line names it: by the rules' ``players: names:``, else "seat N"."""
        return self.labeller.seat_name(seat) if self.labeller is not None else f"seat {seat}"

    @property
    def points_sign(self) -> int:
        """+1 where the most points win, -1 where the fewest do: points times it rank seats best-first."""
        return -1 if self.winner == "lowest" else 1

    def ranking(self, points: int, tiebreaks: Sequence[int]) -> tuple[int, ...]:
        """A side's key, the larger the better: its points, then each tie-breaker, each turned so that its
        winning end is the largest (``winner: lowest`` turns it round)."""
        return (points * self.points_sign, *(-v if t.lowest else v for t, v in zip(self.tiebreakers, tiebreaks)))

    # ---------------------------------------------------------------- tables
    def zone_ids(self, players: int) -> list[str]:
        """Every zone of a game with this many players."""
        ids = self.cache.zones.get(players)
        if ids is None:
            ids = []
            for fam in self.zone_families.values():
                if fam.key is None:
                    ids.append(fam.name)
                elif fam.key == str(PLAYER):
                    ids += [f"{fam.name}:{p}" for p in range(players)]
                elif fam.key in self.board_files:
                    ids += [f"{fam.name}:{n}" for n in self.board(fam.key).nodes]
                else:
                    ids += [f"{fam.name}:{v}" for v in self.enums[fam.key]]
            self.cache.zones[players] = ids
        return ids

    def sight(self, players: int) -> Sight:
        """What each seat sees at this table size: made once, shared by its states."""
        found = self.cache.sights.get(players)
        if found is None:
            from engine.runtime.sight import Sight

            found = self.cache.sights[players] = Sight(self, players)
        return found

    def action_space(self, players: int) -> list[str]:
        """Every action id any decision of this game can offer at this player count, in a stable order."""
        return list(self._space(players)[0])

    def action_index(self, players: int) -> dict[str, int]:
        """Action id → its index in ``action_space(players)``."""
        return self._space(players)[1]

    def _space(self, players: int) -> tuple[list[str], dict[str, int]]:
        found = self.cache.spaces.get(players)
        if found is None:
            if not self.min_players <= players <= self.max_players:
                raise TabletopError(f"{self.id} is for {self.min_players}–{self.max_players} players, not {players}")
            from engine.runtime.action_space import action_space

            ids = action_space(self, players)
            found = self.cache.spaces[players] = (ids, {a: i for i, a in enumerate(ids)})
        return found

    def info(self, players: int) -> GameInfo:
        """Facts of the game at this table size (``runtime/facts.py``): information, chance, simultaneous
        decisions, utilities, the longest game; worked out once."""
        found = self.cache.infos.get(players)
        if found is None:
            from engine.runtime.facts import game_info

            found = self.cache.infos[players] = game_info(self, players)
        return found

    def back_key(self, card: int) -> tuple:
        """What a card shows face down: its kind and the attributes on its back (one table, made once)."""
        keys = self.cache.backs
        if not keys:
            for c, kind in enumerate(self.card_kinds):
                keys.append((kind,) + tuple(self.attributes[a][c] for a in self.backs.get(kind, ())))
        return keys[card]

    def zone_family(self, zone: str) -> ZoneFamily:
        return self.zone_families[zone.split(":", 1)[0]]

    def zone_owner(self, zone: str) -> int | None:
        fam = self.zone_family(zone)
        return int(zone.split(":", 1)[1]) if fam.key == str(PLAYER) else None

    def board(self, board_id: str):
        """The board of ``family`` or ``family:seat`` (a seat's own board, its files dealt round the seats)."""
        try:
            return self.boards_by_id[board_id]
        except KeyError:
            if board_id is None:  # a board taken from a list past its end, say: the VM's words
                raise RuleFault("a board operation got no board") from None
            family, _, key = board_id.partition(":")
            boards = self.board_files[family]
            return boards[int(key) % len(boards)] if key else boards[0]

    def team_of(self, players: int, seat: int) -> list[int]:
        return list(self.team(players, seat))

    def team(self, players: int, seat: int) -> tuple[int, ...]:
        """The seats of ``seat``'s team (just ``seat`` without teams), kept: scoring asks at every turn."""
        found = self.cache.teams.get((players, seat))
        if found is None:
            found = next((tuple(t) for t in self.teams.get(players, ()) if seat in t), (seat,))
            self.cache.teams[(players, seat)] = found
        return found

    # ------------------------------------------------------------------ play
    @property
    def state_class(self) -> type[State]:
        """The class of this game's states, ``State``: the lowering for the VM, which ``State`` imports, builds one
        without importing it."""
        from engine.runtime.state import State

        return State

    def new_game(self, players: int, seed: int = 0, knowledge: bool = True, draws: list[int] | None = None):
        """A new game, advanced to its first decision (``knowledge``; ``draws``, explicit chance: ``State.new``)."""
        return self.state_class.new(self, players, seed, knowledge, draws)

    def state_from_json(self, text: str):
        """Read back a state saved with ``State.to_json``; checks what it reads."""
        return self.state_class.from_json(self, text)

    def pickled(self) -> tuple[str, str | None, str, int]:
        """Where the game's rules are, for a pickled state: (folder, variant, rules hash), and which loaded
        game it is in this process (a state read back here is a state of this very game, though the same
        rules were loaded more than once)."""
        _LIVE[id(self)] = self
        return (str(self.rules.folder), self.variant, self.rules_hash, id(self))

    @staticmethod
    def unpickled_state(folder: str, variant: str | None, rules_hash: str, text: str, loaded: int | None = None):
        """A pickled state read back: of its very game if it was pickled in this process and the game is
        alive, else of its game loaded once a process, and only if its rules are those it was played by."""
        key = (folder, variant, rules_hash)
        game = _LIVE.get(loaded) if loaded is not None else None
        if game is not None and game.pickled()[:3] == key:
            return game.state_from_json(text)
        game = _PICKLED.get(key)
        if game is None:
            game = load_game(folder, variant=variant)
            if game.rules_hash != rules_hash:
                raise StateError(f"the rules in {folder} changed since this state was pickled: it cannot be read back")
            _PICKLED[key] = game
        return game.state_from_json(text)


_PICKLED: dict[tuple, GameDef] = {}  # (rules folder, variant, rules hash) → the game loaded for states read back
_LIVE: weakref.WeakValueDictionary[int, GameDef] = weakref.WeakValueDictionary()  # id → a game pickled from


# --------------------------------------------------------------------- loading
def load_game(
    game: str | Path,
    variant: str | None = None,
    overrides: dict[str, object] | None = None,
    reference: bool = False,
    vm: bool = True,
) -> GameDef:
    """Load, validate and compile a game (by name or path), optionally a variant.

    ``overrides`` sets values in the merged rules by dotted path (``constants.rounds``),
    like a variant made in memory: playtest sweeps use it.
    Its states' rules run on the native VM wherever the VM is built and runs the game (``State``); elsewhere,
    and with ``vm=False`` (a designer's escape hatch: a traceback through Python while the VM is being
    changed), on the reference interpreter (runtime/reference.py), the executable specification and the one
    Python backend.  ``reference=True`` is ``vm=False`` built afresh, never read from the compiled-game cache
    (the differential tests' own path).
    """
    game_file, variant_file = resolve(game, variant)
    if variant_file is not None and not game_file.exists():
        raise LoadError([_unknown_base(variant_file)])

    def make() -> Checked:
        from engine.load.schemas import check_document

        rules = load_documents(game_file, variant_file, check_document)
        if overrides:
            apply_overrides(rules, overrides)
        return check(rules, reference)

    if reference:  # the differential tests' own path: always built
        return make().game()
    entry = cached(key_of(str(game_file), str(variant_file), overrides), make, Checked)
    built = entry.value.game()
    if not vm:
        return replace(built, vm=False)
    kept_ir(built, entry.later, entry.keep_later)  # the IR is lowered at most once per entry
    return built


def _unknown_base(variant_file: Path) -> Diagnostic:
    """E101 at a variant's ``extends:`` when it names no game (not at the base file that is not there)."""
    doc = read_yaml(variant_file, display_path(variant_file))
    base = str(doc.data.get("extends"))
    return doc.diag(
        ("extends",),
        "E101",
        f"variant extends '{base}', but there is no game of that name",
        hint=did_you_mean(base, known_games()) or f"known games: {', '.join(known_games())}",
    )


def build(rules: RuleSet, reference: bool = False) -> GameDef:
    """Check and compile merged rules; raises RulesError with every problem.

    ``reference``: its states run on the reference interpreter, never on the VM (for tests).
    """
    return check(rules, reference).game()


def check(rules: RuleSet, reference: bool = False) -> Checked:
    """Check merged rules into plain data, compiled by ``Checked.game``; raises RulesError with every problem."""
    return _Builder(rules, reference).check()


@dataclass(frozen=True)
class Checked:
    """A game as checking leaves it, plain data that the compiled-game cache keeps: its facts and tables with no
    code, and every effect-language text parsed and checked.  ``game()`` compiles the texts to the reference's
    closures; nothing of them is ever read from disk."""

    facts: GameDef  # procedures, functions, bot values, starts, scoring, stats, turn and house left empty
    vocab: Vocabulary  # what the texts were checked against (the facts' vocabulary)
    texts: _Texts
    starts: list[tuple]  # per card kind, in order: the path of its start's expression

    def game(self) -> GameDef:
        """The game with its texts compiled; each call compiles a new one (``facts`` is left as it is)."""
        try:
            return _compiled(self)
        except RecursionError:  # compiling a chain of operators just within the checker's reach
            raise RulesError([_too_deep(self.facts.rules)]) from None


def _too_deep(rules: RuleSet) -> Diagnostic:
    return rules.diag((), "E403", "an expression is nested too deeply to compile")


def _compiled(checked: Checked) -> GameDef:
    """The game of ``checked``: procedures, functions, bot values, scorers, starts, stats and turn compiled.

    What compiled code reads through the game (procedures, functions, effects) is filled in place in the
    new game's own tables, and the rest given to it at the end: a ``GameDef`` is never changed once made."""
    texts, rules, vocab = checked.texts, checked.facts.rules, checked.vocab
    game = replace(checked.facts, procedures={}, functions={}, bot_values={}, scoring=[], tiebreakers=[])
    compiler = ReferenceCompiler(vocab, game, texts.functions)  # the checker keeps every function pure
    for name, (path, stmts) in texts.parsed().items():
        doc, _ = rules.origin(path)
        params = {"this": CARD} if name.startswith("effect:") else dict(vocab.procedures.get(name, []))
        game.procedures[name] = compiler.procedure(
            name, stmts, doc.path, lambda line, col, path=path: rules.locate_text(path, line, col)[1:], params
        )
    for name, body in texts.functions.items():
        game.functions[name] = (
            compiler.function(name, body) if isinstance(body, ast.Expr) else compiler.function_program(name, body)
        )
    for (kind, decision), (_, expr) in texts.bot_values.items():
        if expr is not None:
            game.bot_values.setdefault(kind, {})[decision] = compiler.expr(expr)
    house = standing = None
    for section, item, expr, path in texts.scorers:
        if expr is None:
            continue
        fn, where = compiler.expr(expr), _where(rules, path)
        if section == "house":
            house = House(item["name"], item["plays"], Scorer(item["name"], "", fn, where))
            continue
        if section == "standing":
            standing = Scorer("standing", item.get("text", ""), fn, where)
            continue
        target = game.scoring if section == "scoring" else game.tiebreakers
        target.append(Scorer(item["id"], item.get("text", ""), fn, where, item.get("winner", game.winner) == "lowest"))
    start_fns = {path: compiler.expr(expr) for path, expr in texts.starts.items() if expr is not None}
    stats = [
        Stat(
            item["id"],
            item.get("text", item["id"]),
            Located(compiler.expr(expr), _where(rules, path), item["id"]),
            item.get("per") == "seat",
            expr.type == BOOL,
        )
        for item, expr, path in texts.stats
        if expr is not None
    ]
    turn = None if texts.turn is None else Located(compiler.expr(texts.turn), _where(rules, ("turn",)), "turn:")
    return replace(
        game,
        starts=[start_fns[path] for path in checked.starts],
        stats=stats,
        turn=turn,
        house=house,
        standing=standing,
    )


def _where(rules: RuleSet, path: tuple) -> tuple[str, int, int]:
    """Where the expression at ``path`` of the rules begins: (file, line, column)."""
    place = rules.diag(path, "", "")
    return (place.path, place.line, place.col)


def _function_path(fn: dict, i: int) -> tuple:
    """Where a function's body is: its statements ('does') or its one expression ('value')."""
    return ("functions", i, "does" if "does" in fn else "value")


class _Builder:
    def __init__(self, rules: RuleSet, reference: bool = False):
        self.reference = reference
        self.rules = rules
        self.data = rules.data
        self.problems: list[Diagnostic] = []
        self.vocab = Vocabulary()

    def error(
        self, path: tuple, code: str, message: str, hint: str | None = None, key: bool = False, severity: str = "error"
    ) -> None:
        self.problems.append(self.rules.diag(path, code, message, key=key, hint=hint, severity=severity))

    def dsl_problem(self, path: tuple, p: DslProblem) -> None:
        self.problems.append(self.rules.text_diag(path, p.line, p.col, p.code, p.message, p.hint))

    def stop_if_errors(self) -> None:
        if any(p.is_error for p in self.problems):
            raise RulesError(self.problems)

    # -------------------------------------------------------------- building
    def check(self) -> Checked:
        """The game's declarations checked into its tables, then its effect-language texts parsed and checked."""
        if self.rules.variant is not None or self.rules.overridden:
            # The variant file's own shape was checked; now check the merged whole.
            from engine.load.schemas import check_data

            self.problems += check_data(self.data, "game", self.rules.diag)
        self.stop_if_errors()
        game = self._game_facts()
        if game.min_players > game.max_players:
            self.error(("players",), "E301", "players: min is larger than max")
        self._constants()
        self._components(game)
        self._log_names(game)
        self._boards(game)
        self._zones(game)
        self._variables(game)
        self._teams(game)
        self._procedure_signatures()
        self._no_operation_names()
        self._draw_hints(game)
        self.stop_if_errors()
        try:
            checked = self._programs(game)
        except RecursionError:  # analysing a chain of operators just within the checker's reach
            self.problems.append(_too_deep(self.rules))
        self.stop_if_errors()
        return checked

    def _game_facts(self) -> GameDef:
        """The game with the facts its header gives; the declarations fill its tables (cards, zones, …)."""
        d = self.data
        self.vocab.enums = {k: list(v) for k, v in (d.get("enums") or {}).items()}
        card_ids: list[str] = []
        # The format a file declares changes no game (a file reading the same under two formats plays the same),
        # so declaring it keeps the hash, and the saves that name it, as they were.
        canonical = json.dumps({k: v for k, v in d.items() if k != "format"}, sort_keys=True, default=str).encode()
        return GameDef(
            id=d["id"],
            name=self.rules.variant_name or d["name"],
            variant=self.rules.variant,
            min_players=d["players"]["min"],
            max_players=d["players"]["max"],
            rules=self.rules,
            card_ids=card_ids,
            labeller=Labeller(card_ids, d["players"].get("names")),
            vocabulary=self.vocab,
            step_budget=d.get("step_budget", DEFAULT_STEP_BUDGET),
            max_decisions=d.get("max_decisions"),
            ties=d.get("ties", "shared"),
            winner=d.get("winner", "highest"),
            rulings=list(d.get("rulings", [])),
            vm=not self.reference,
            enums=self.vocab.enums,
            draw=dict(d.get("draw") or {}),
            scoring_reveals=frozenset(d.get("scoring_reveals") or ()),
            private_player_variables=frozenset(
                name for name, spec in (d.get("player_variables") or {}).items() if spec.get("visibility") == "owner"
            ),
            rules_hash=hashlib.sha256(canonical).hexdigest()[:16],
            rules_format=declared_format(d) or OLDEST,
        )

    def type_ok(self, t, path: tuple) -> Type | None:
        """The canonical form of a declared type, or None after reporting why it is not one."""
        if not isinstance(t, str):
            return None
        try:
            return parse_type(t, self.vocab.enums)
        except ValueError as exc:
            inner = str(exc)
        self.error(
            path,
            "E302",
            f"unknown type '{t}'",
            (inner if " " in inner else None)  # a sentence says what is wrong with it
            or did_you_mean(inner, [str(b) for b in BASIC] + list(self.vocab.enums))
            or "types: int, bool, text, player, card, zone, an enum name, list[…], map[…] or a record {name: type, …}",
        )
        return None

    def _value_fits(self, t: Type, value, path: tuple) -> bool:
        if value is None:
            return True
        if t == INT:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif t == BOOL:
            ok = isinstance(value, bool)
        elif t.is_enum:
            members = self.vocab.enums[t.name]
            if value not in members:
                self.error(path, "E303", f"'{value}' is not one of the {t}", did_you_mean(str(value), members))
                return False
            ok = True
        elif t is TEXT:
            ok = isinstance(value, str)
        elif t in (POSITION, DIRECTION):
            known = self.vocab.board_spaces if t == POSITION else self.vocab.board_directions
            values = {v for family in known.values() for v in family}
            if isinstance(value, str) and value and value not in values:
                self.error(path, "E303", f"'{value}' is no {t} of the game's boards", did_you_mean(value, values))
                return False
            ok = isinstance(value, str)
        elif t == PLAYER:
            ok = isinstance(value, int) and value >= 0
        elif t.is_list:
            ok = isinstance(value, list)
        elif t.is_record and isinstance(value, dict):
            return self._record_fits(t, value, path)
        elif t.is_map:
            ok = isinstance(value, dict) and all(isinstance(k, str) for k in value)
        else:
            ok = True
        if not ok:
            self.error(path, "E303", f"value {quoted(value)} is not of type {t}", _WRITTEN.get(t))
        return ok

    def _record_fits(self, t: Type, value: dict, path: tuple) -> bool:
        """A record written in the rules has only fields of its type, and lacks only fields that may be none
        (one it lacks reads as none)."""
        fields = dict(t.fields)
        lacking = [k for k, ft in fields.items() if k not in value and not compatible(ft, NONE)]
        if lacking:
            self.error(
                path,
                "E303",
                f"the record lacks the field '{lacking[0]}', and {describe(fields[lacking[0]])} cannot be none",
                f"give it: {lacking[0]}: …",
            )
            return False
        extra = [k for k in value if k not in fields]
        if extra:
            self.error(
                path + (extra[0],),
                "E303",
                f"{describe(t)} has no field '{extra[0]}'",
                did_you_mean(str(extra[0]), fields) or "declare the field in the type, or leave it out of the record",
                key=True,
            )
            return False
        fits = True
        for k, v in value.items():  # every field is checked, and each problem reported
            fits = self._value_fits(fields[k], v, path + (k,)) and fits
        return fits

    def _constants(self) -> None:
        for name, value in (self.data.get("constants") or {}).items():
            t = BOOL if isinstance(value, bool) else INT if isinstance(value, int) else TEXT
            self.vocab.constants[name] = (t, value)

    def _components(self, game: GameDef) -> None:
        """The cards: one per copy of each item, with its attributes in one table per attribute."""
        comps = self.data.get("components") or []
        attr_types, kind_types = self._attribute_types(comps)
        self.vocab.card_attributes = attr_types
        game.attributes.update({a: [] for a in list(attr_types) + list(BUILTIN_CARD_ATTRIBUTES)})
        ids_seen: dict[str, tuple] = {}
        self._starts: list[tuple[tuple, object]] = []
        self._effects: dict[str, tuple] = {}  # card id → path of its effect text
        full = False  # the cards reached MAX_CARDS: stop making them
        for ci, comp in enumerate(comps):
            game.backs[comp["kind"]] = tuple(comp.get("back") or ())
            faces = self._faces(comp, ci)
            entries = [(("components", ci, "items", ii), item) for ii, item in enumerate(comp.get("items") or [])]
            for path, item in entries + self._generated(comp, ci):
                cid = item["id"]
                if cid in ids_seen:
                    self.error(path + ("id",), "E304", f"component id '{cid}' is used twice")
                ids_seen[cid] = path
                values = self._item_values(comp, kind_types[ci], item, path)
                game.card_texts[cid] = {"kind": comp["kind"], "name": item.get("name", cid), **item}
                if "effect" in item:
                    self._effects[cid] = path + ("effect",)
                copies = item.get("copies", 1)
                if full or len(game.card_ids) + copies > MAX_CARDS:
                    if not full:
                        self.error(
                            path + ("copies" if "copies" in item else "id",),
                            "E306",
                            f"'{cid}' makes {len(game.card_ids) + copies:,} cards in all, more than the "
                            f"{MAX_CARDS:,} a game may have",
                        )
                    full = True
                    continue
                for _ in range(copies):
                    index = len(game.card_ids)
                    game.first_card.setdefault(cid, index)
                    game.card_ids.append(cid)
                    game.effects.append(f"effect:{cid}" if "effect" in item else None)
                    game.card_kinds.append(comp["kind"])
                    game.die_faces.append(faces)
                    for a in attr_types:
                        game.attributes[a].append(values.get(a, _DEFAULTS.get(attr_types[a])))
                    game.attributes["id"].append(cid)
                    game.attributes["name"].append(item.get("name", cid))
                    game.attributes["kind"].append(comp["kind"])
                    self._starts.append((("components", ci, "start"), index))
        if self.vocab.face is None:
            game.die_faces.clear()

    def _faces(self, comp: dict, ci: int) -> tuple | None:
        """A die's faces (its kind's ``faces:``, numbers or the members of an enum), None for a card; the
        dice of a game show faces of one kind (``Vocabulary.face``)."""
        spec = comp.get("faces")
        if spec is None:
            return None
        at = ("components", ci, "faces")
        if isinstance(spec, str):
            if spec not in self.vocab.enums:
                self.error(at, "E301", f"faces: '{spec}' is no enum of the game", did_you_mean(spec, self.vocab.enums))
                return None
            faces, t = tuple(self.vocab.enums[spec]), type_named(spec)
        else:
            faces, t = tuple(spec), INT
        if self.vocab.face not in (None, t):
            self.error(
                at,
                "E304",
                f"these dice show {describe(t)}, another kind's {describe(self.vocab.face)}",
                "give every kind of die faces of one kind: numbers, or the members of one enum",
            )
            return None
        self.vocab.face = t
        self.vocab.face_values = tuple(dict.fromkeys(self.vocab.face_values + faces))
        return faces

    def _attribute_types(self, comps: list[dict]) -> tuple[dict[str, Type], list[dict[str, Type]]]:
        """Attribute → its type over all kinds (one name has one type), and each kind's attributes whose declared
        type is one; each kind declared once, its back known."""
        attr_types: dict[str, Type] = {}
        kind_types: list[dict[str, Type]] = []
        kinds_seen: dict[str, int] = {}
        for ci, comp in enumerate(comps):
            kind_types.append({})
            kind = comp["kind"]
            if kind in kinds_seen:
                self.error(
                    ("components", ci, "kind"),
                    "E304",
                    f"component kind '{kind}' is declared twice (first as entry {kinds_seen[kind] + 1})",
                )
            kinds_seen[kind] = ci
            for name, t in (comp.get("attributes") or {}).items():
                if name in BUILTIN_CARD_ATTRIBUTES:
                    self.error(
                        ("components", ci, "attributes", name),
                        "E304",
                        f"'{name}' is built in; choose another attribute name",
                        key=True,
                    )
                    continue
                t = self.type_ok(t, ("components", ci, "attributes", name))
                if t is None:
                    continue
                kind_types[ci][name] = t
                if attr_types.setdefault(name, t) != t:
                    self.error(
                        ("components", ci, "attributes", name),
                        "E304",
                        f"attribute '{name}' is {t} here but {attr_types[name]} in another kind",
                    )
            for b in comp.get("back") or []:
                if b not in (comp.get("attributes") or {}) and b not in BUILTIN_CARD_ATTRIBUTES:
                    self.error(
                        ("components", ci, "back"),
                        "E301",
                        f"back shows unknown attribute '{b}'",
                        did_you_mean(b, comp.get("attributes") or {}),
                    )
        return attr_types, kind_types

    def _item_values(self, comp: dict, types: dict[str, Type], item: dict, path: tuple) -> dict:
        """The attribute values an item gives that its kind declares and that fit their types."""
        declared = comp.get("attributes") or {}
        cid = item["id"]
        values = {}
        for key, value in item.items():
            if key in _ITEM_KEYS:
                continue
            if key not in declared:
                self.error(
                    path + (key,),
                    "E302",
                    f"'{cid}' has attribute '{key}', which kind '{comp['kind']}' does not declare",
                    key=True,
                    hint=did_you_mean(key, [*declared, *_ITEM_KEYS]) or "declare it under attributes:",
                )
                continue
            t = types.get(key)
            if t is None or self._value_fits(t, value, path + (key,)):
                values[key] = value
        missing = [a for a in declared if a not in item and types.get(a) not in _DEFAULTS]
        if missing:
            self.error(
                path,
                "E305",
                f"'{cid}' gives no {', '.join(repr(a) for a in missing)}: kind "
                f"'{comp['kind']}' declares {'it' if len(missing) == 1 else 'them'} "
                f"with no default (only int and bool attributes may be left out)",
            )
        return values

    def _generated(self, comp: dict, ci: int) -> list[tuple[tuple, dict]]:
        """The items of ``generate:``, one per combination of the enums' members, each placed at the template."""
        spec = comp.get("generate")
        if spec is None:
            return []
        at = ("components", ci, "generate")
        fields = list(spec["from"].items())
        for field_name, enum in fields:
            if enum not in self.vocab.enums:
                self.error(
                    at + ("from", field_name),
                    "E301",
                    f"'{enum}' is no enum of the game",
                    did_you_mean(enum, self.vocab.enums),
                )
                return []
        out = []
        for combo in itertools.product(*(self.vocab.enums[enum] for _, enum in fields)):
            values = dict(zip((f for f, _ in fields), (str(m) for m in combo)))
            item: dict = {"copies": spec.get("copies", 1)}
            for key in ("id", "name", "text"):
                if key in spec:
                    item[key] = self._fill(spec[key], values, at + (key,))
            for attr, rule in (spec.get("attributes") or {}).items():
                item[attr] = self._attribute_value(comp, attr, rule, values, at + ("attributes", attr))
            if None in item.values():
                return []  # its template was wrong, and said so
            if not _ID.fullmatch(item["id"]):
                self.error(
                    at + ("id",), "E303", f"the id template gives {quoted(item['id'])}, which is no id", _ID_HINT
                )
                return []
            out.append((at, item))
        return out

    def _fill(self, template, values: dict[str, str], path: tuple):
        """A template with '{field}' (the member) and '{Field}' (capitalised) filled; None after an error."""
        if not isinstance(template, str):
            return template
        unknown = [m for m in _FIELD.findall(template) if m.lower() not in values and m not in values]
        if unknown:
            self.error(path, "E301", f"'{{{unknown[0]}}}' names no field of 'from'", did_you_mean(unknown[0], values))
            return None
        return _FIELD.sub(lambda m: values[m[1]] if m[1] in values else values[m[1].lower()].capitalize(), template)

    def _attribute_value(self, comp: dict, attr: str, rule, values: dict[str, str], path: tuple):
        """An attribute of a generated card: a template, a constant, or a table by one field's member."""
        if isinstance(rule, dict):
            [(field_name, table)] = [(k, v) for k, v in rule.items() if k != "else"] or [("", None)]
            if field_name not in values or not isinstance(table, dict):
                self.error(path, "E301", "a table names one field of 'from' and maps its members: {level: {top: 14}}")
                return None
            members = self.vocab.enums[dict(comp["generate"]["from"])[field_name]]
            for member in table:
                if member not in members:
                    self.error(
                        path + (field_name, member),
                        "E303",
                        f"'{member}' is not one of the {field_name}s",
                        did_you_mean(str(member), members),
                        key=True,
                    )
                    return None
            if values[field_name] in table:
                return table[values[field_name]]
            if "else" not in rule:
                self.error(
                    path, "E305", f"the table gives nothing for {field_name} '{values[field_name]}': add it or 'else:'"
                )
                return None
            rule = rule["else"]
        filled = self._fill(rule, values, path)
        if self.vocab.card_attributes.get(attr) is INT and isinstance(filled, str):
            if not filled.lstrip("-").isdigit():
                self.error(path, "E303", f"'{attr}' is a number, but {quoted(filled)} is not: map it with a table")
                return None
            return int(filled)
        return filled

    def _zones(self, game: GameDef) -> None:
        for i, z in enumerate(self.data.get("zones") or []):
            per = z.get("per")
            single_boards = [b for b, key in self.vocab.boards.items() if key is None]
            if per is not None and per != str(PLAYER) and per not in self.vocab.enums and per not in single_boards:
                self.error(
                    ("zones", i, "per"),
                    "E301",
                    f"zones can be per 'player', per enum or per space of a board; '{per}' is none of these",
                    did_you_mean(per, [str(PLAYER)] + list(self.vocab.enums) + single_boards),
                )
                continue
            if z["id"] in game.zone_families:
                self.error(("zones", i, "id"), "E304", f"zone '{z['id']}' is declared twice")
            game.zone_families[z["id"]] = ZoneFamily(z["id"], per, z["visibility"])
            self.vocab.zones[z["id"]] = None if per is None else POSITION if per in single_boards else type_named(per)

    def _boards(self, game: GameDef) -> None:
        from engine.boards.graphs import BOARD_KINDS
        from engine.load.schemas import check_document

        folders = game_folders(self.rules.folder, self.data["id"])
        for i, b in enumerate(self.data.get("boards") or []):
            compiled = []
            for j, name in enumerate(b["files"]):
                try:
                    path = find_inside(name, folders)
                except Refused as exc:
                    self.error(("boards", i, "files", j), exc.code, exc.message)
                    continue
                if path is None:
                    self.error(
                        ("boards", i, "files", j),
                        "E101",
                        f"board file not found: '{name}' is neither "
                        f"in {display_path(folders[0])} nor in "
                        f"{display_path(folders[1])}",
                    )
                    continue
                try:
                    doc = read_yaml(path, display_path(path))
                except LoadError as exc:
                    self.problems += exc.diagnostics
                    continue
                problems = check_document(doc, "board")
                board = None
                if not problems:
                    board, problems = BOARD_KINDS[doc.data["kind"]](doc)
                self.problems += problems
                compiled.append(board)
            game.board_files[b["id"]] = compiled
            if compiled:  # by its id, and by each seat's (the files dealt round the seats)
                game.boards_by_id[b["id"]] = compiled[0]
                game.boards_by_id.update(
                    {f"{b['id']}:{p}": compiled[p % len(compiled)] for p in range(game.max_players)}
                )
            self.vocab.boards[b["id"]] = None if b.get("per") is None else type_named(b["per"])
            built = [board for board in compiled if board is not None]
            self.vocab.board_spaces[b["id"]] = tuple(dict.fromkeys(n for board in built for n in board.nodes))
            self.vocab.board_directions[b["id"]] = tuple(
                dict.fromkeys(d for board in built for d in getattr(board, "directions", ()))
            )
            if built and not any(getattr(board, "coords", None) for board in built):
                self.vocab.uncharted.add(b["id"])

    def _log_names(self, game: GameDef) -> None:
        """Seats by the rules' names in logs; cards by their names where the rules say ``cards_in_logs: name``."""
        names = self.data["players"].get("names") or []
        if len(names) < game.max_players and names:
            self.error(
                ("players", "names"),
                "E301",
                f"{len(names)} seat names for up to {game.max_players} players",
                f"name every seat, one name each: names: [{', '.join(names + ['…'])}] ({game.max_players} in all)",
            )
        if self.data.get("cards_in_logs") == "name" and game.labeller is not None:
            game.labeller.card_names = [game.card_texts[c]["name"] for c in game.card_ids]

    def _variables(self, game: GameDef) -> None:
        for section, target, vocab in (
            ("variables", game.variables, self.vocab.variables),
            ("player_variables", game.player_variables, self.vocab.player_variables),
        ):
            for name, spec in (self.data.get(section) or {}).items():
                path = (section, name)
                vtype = self.type_ok(spec["type"], path + ("type",))
                if vtype is None:
                    continue
                if name in self.vocab.constants or name in self.vocab.enums:
                    self.error(path, "E304", f"'{name}' is already a constant or enum", key=True)
                initial = spec.get("initial", [] if vtype.is_list else {} if vtype.is_map else _DEFAULTS.get(vtype))
                if isinstance(initial, str) and initial in self.vocab.constants and vtype == INT:
                    initial = self.vocab.constants[initial][1]
                self._value_fits(vtype, initial, path + ("initial",))
                self._bounds(section, name, spec, vtype, initial)
                target[name] = initial
                vocab[name] = vtype

    def _bounds(self, section: str, name: str, spec: dict, vtype: Type, initial) -> None:
        """A whole-number variable's min:/max:, its start value between them; what choices made from it may be."""
        if "min" not in spec and "max" not in spec:
            return
        path = (section, name)
        if vtype != INT:
            self.error(path + ("max" if "max" in spec else "min",), "E302", "min: and max: bound whole numbers only")
            return
        if "max" not in spec:
            self.error(path + ("min",), "E302", "a min: needs a max:", "give the most it may hold too: max: N")
            return
        least, most = spec.get("min", 0), spec["max"]
        if least > most:
            self.error(path + ("min",), "E302", f"min: {least} is more than max: {most}", "write the fewer as min:")
        elif isinstance(initial, int) and not least <= initial <= most:
            outside = f"'{name}' starts at {initial}, outside its min: {least} and max: {most}"
            wider = "raise max:" if initial > most else "lower min:"
            fix = f"start it at {least} to {most}, or {wider} to hold {initial}"
            self.error(path + ("initial",), "E303", outside, fix)
        else:
            self.vocab.bounds[path] = (least, most)

    def _teams(self, game: GameDef) -> None:
        for count, teams in (self.data.get("teams") or {}).items():
            n = int(count)
            if not game.min_players <= n <= game.max_players:
                self.error(
                    ("teams", count),
                    "E301",
                    f"teams for {count} players, but the game is for {game.min_players}–{game.max_players}",
                    key=True,
                )
                continue
            seats = sorted(s for t in teams for s in t)
            if seats != list(range(n)):
                self.error(("teams", count), "E301", f"teams for {n} players must use each seat 0…{n - 1} once")
            game.teams[n] = [list(t) for t in teams]

    def _draw_hints(self, game: GameDef) -> None:
        """Drawing hints name boards, variables and functions: check that they exist, as rules do."""
        hints = game.draw
        v = self.vocab
        refs: list[tuple[tuple, Any, Any]] = [
            (("paths", k, "board"), p["board"], v.boards) for k, p in (hints.get("paths") or {}).items()
        ]
        refs += [(("paths", k, "points"), p["points"], v.functions) for k, p in (hints.get("paths") or {}).items()]
        refs += [(("steps", i, "board"), s["board"], v.boards) for i, s in enumerate(hints.get("steps") or [])]
        refs += [(("targets", k), f, v.functions) for k, f in (hints.get("targets") or {}).items()]
        for i, shown in enumerate(hints.get("status") or []):
            for key, table in (
                ("variable", v.variables),
                ("player_variable", v.player_variables),
                ("function", v.functions),
            ):
                if key in shown:
                    refs.append((("status", i, key), shown[key], table))
        ring = hints.get("ring") or {}
        refs += [
            (("ring", key), ring[key], table)
            for key, table in (("order", v.variables), ("tokens", v.player_variables), ("highlight", v.functions))
            if key in ring
        ]
        for path, name, known in refs:
            if name not in known:
                self.error(
                    ("draw",) + path,
                    "E301",
                    f"the drawing hint names {quoted(name)}, which is not declared",
                    did_you_mean(name, list(known)),
                )

    def _procedure_signatures(self) -> None:
        for i, proc in enumerate(self.data.get("procedures") or []):
            params = []
            for pname, t in (proc.get("params") or {}).items():
                t = self.type_ok(t, ("procedures", i, "params", pname))
                if t is not None:
                    params.append((pname, t))
            if proc["id"] in self.vocab.procedures:
                self.error(("procedures", i, "id"), "E304", f"procedure '{proc['id']}' is declared twice")
            self.vocab.procedures[proc["id"]] = params
            for j, step in enumerate(proc.get("steps") or []):
                if step_name(proc["id"], step["id"]) in self.vocab.procedures:
                    self.error(
                        ("procedures", i, "steps", j, "id"),
                        "E304",
                        f"step '{step['id']}' is given twice",
                        "rename one: a variant places its steps before or after a step by its id",
                    )
                self.vocab.procedures[step_name(proc["id"], step["id"])] = params
            if "returns" in proc:
                returns = self.type_ok(proc["returns"], ("procedures", i, "returns"))
                if returns is not None:
                    self.vocab.procedure_returns[proc["id"]] = returns
        for i, fn in enumerate(self.data.get("functions") or []):
            params = [
                (p, t)
                for p, t in (
                    (p, self.type_ok(t, ("functions", i, "params", p))) for p, t in (fn.get("params") or {}).items()
                )
                if t is not None
            ]
            if fn["id"] in self.vocab.functions or fn["id"] in self.vocab.procedures:
                self.error(("functions", i, "id"), "E304", f"'{fn['id']}' is declared twice")
            returns = self.type_ok(fn["returns"], ("functions", i, "returns"))
            if returns is not None:
                self.vocab.functions[fn["id"]] = (params, returns)

    def _no_operation_names(self) -> None:
        """A name the rules declare may not hide an operation's everywhere in the rules: a function 'sorted'
        would answer every sorted(…), a variable 'num_players' every num_players (a value names only the
        operations that are values)."""
        d = self.data
        named: list[tuple[tuple, str, str, bool]] = [
            ((section, name), name, what, True)
            for section, what in (("constants", "constant"), ("variables", "variable"))
            for name in d.get(section) or {}
            if name in OPS and OPS[name].constant
        ]
        for section, what in (
            ("zones", "zone"),
            ("boards", "board"),
            ("procedures", "procedure"),
            ("functions", "function"),
        ):
            named += [
                ((section, i, "id"), item["id"], what, False)
                for i, item in enumerate(d.get(section) or [])
                if item["id"] in OPS
            ]
        for path, name, what, key in named:
            self.error(
                path,
                "E304",
                f"'{name}' is an operation of the language: a {what} of that name would hide it",
                f"choose another name; `tabletop explain {name}` says what the operation does",
                key=key,
            )

    # --------------------------------------------------------------- programs
    def _parse_program(
        self, path: tuple, params: dict[str, Type], returns: Type | None = None, pure: bool = False, name: str = ""
    ) -> list | None:
        from engine.lang.parser import parse_program

        return self._parse(
            path, parse_program, lambda stmts: check_program(stmts, self.vocab, params, returns, pure, name)
        )

    def _parse_expression(
        self, path: tuple, params: dict[str, Type], expected: Type | None, pure: bool = False, each: str | None = None
    ) -> ast.Expr | None:
        from engine.lang.parser import parse_expr

        return self._parse(
            path, parse_expr, lambda expr: check_expression(expr, self.vocab, params, expected, pure, each)
        )

    def _parse(self, path: tuple, parse, check):
        """Parse and check the DSL text at ``path``; every problem becomes a diagnostic there."""
        text = self.rules.data
        for k in path:
            text = text[k]
        try:
            tree = parse(text)
            problems = check(tree)
        except DslSyntaxError as exc:
            self.dsl_problem(path, self._folded(path, text, exc.problem))
            return None
        except RecursionError:  # a chain of hundreds of operators: deeper than the checker goes
            self.dsl_problem(path, DslProblem(1, 1, "E403", "expression nested too deeply"))
            return None
        for p in problems:
            self.dsl_problem(path, p)
        return tree

    def _folded(self, path: tuple, text: object, p: DslProblem) -> DslProblem:
        """A syntax error where a folded block (>) kept a line break, at the end of the line or the start of the
        next, says so: YAML folds lines indented alike, and keeps the break before a more-indented one."""
        for line in (p.line, p.line - 1):
            if self.rules.kept_break(path, line):
                below = str(text).split("\n")[line]
                return DslProblem(
                    line + 1,
                    len(below) - len(below.lstrip()) + 1,
                    "E401",
                    "this line is indented more than the one above it, so the folded block (>) keeps the "
                    "line break before it and the text stops at the end of that line",
                    "indent every line of the block alike, or end the line above with \\ to go on",
                )
        return p

    def _programs(self, game: GameDef) -> Checked:
        """``game`` with every text of the effect language parsed and checked (``Checked.game`` compiles them)."""
        texts = self._parse_texts()
        if any(p.is_error for p in self.problems):
            return Checked(game, self.vocab, texts, [])
        sources = texts.sources(self.data.get("functions") or [])
        game = replace(
            game,
            programs={name: stmts for name, (_, stmts) in texts.parsed().items()},
            sources=sources,
            function_bodies=texts.functions,
            warnings=tuple(self.rules.warnings + deprecated_uses(self.rules, sources)),
        )
        self._check_play(game, texts.procedures)
        self._check_house(texts.procedures)
        return Checked(game, self.vocab, texts, [path for path, _ in self._starts])

    def _check_house(self, procedures: dict[str, tuple[tuple, list[ast.Stmt] | None]]) -> None:
        """The house plays by a procedure of the rules that asks no one anything, itself or by what it calls."""
        house = self.data.get("house")
        if house is None:
            return
        name = house["plays"]
        if name not in procedures:
            self.error(
                ("house", "plays"),
                "E301",
                f"the house plays by '{name}', which is no procedure of the rules",
                did_you_mean(name, [n for n in procedures if n not in ("setup", "play")]),
            )
            return
        if self.vocab.procedures.get(name):
            self.error(
                ("house", "plays"),
                "E301",
                f"the house plays by '{name}', which must take no parameters",
                "the rules run it with nothing to pass: let it read what it needs from variables",
            )
        todo, done = [name], set()
        while todo:
            proc = todo.pop()
            done.add(proc)
            path, stmts = procedures[proc]
            for block in walk_blocks(stmts or []):
                for st in block:
                    if isinstance(st, (ast.Choose, ast.Window)):
                        what = "a window asks the players" if isinstance(st, ast.Window) else f'"{st.kind}" asks'
                        within = f" (in '{proc}', which '{name}' runs)" if proc != name else ""
                        self.dsl_problem(
                            path,
                            DslProblem(
                                st.line,
                                st.col,
                                "E505",
                                f"the house plays by the rules, but {what} here{within}",
                                "the house decides nothing: write what it does (while its points are under 17: …)",
                            ),
                        )
                    calls = [e.func for ex in st.contents()[0] for e in walk_exprs(ex) if isinstance(e, ast.Call)]
                    todo += [c for c in calls if c in procedures and c not in done and c not in todo]

    # The parse steps: each text parsed and checked where it is written; a text with an error is None.
    def _parse_texts(self) -> _Texts:
        procedures = self._parse_procedures()
        starts, functions = self._parse_starts(), self._parse_functions()
        decided = _decisions(procedures)
        bot_values = self._parse_bot_values(decided)
        self._check_scoring_reveals(decided)
        turn = self._parse_expression(("turn",), {}, None) if "turn" in self.data else None
        return _Texts(procedures, starts, functions, bot_values, self._parse_scorers(), self._parse_stats(), turn)

    def _parse_procedures(self) -> dict[str, tuple[tuple, list[ast.Stmt] | None]]:
        """setup, play, the procedures and the cards' effects: name → (path, statements)."""
        found: dict[str, tuple[tuple, list[ast.Stmt] | None]] = {}
        for name in ("setup", "play"):
            if name in self.data:
                found[name] = ((name,), self._parse_program((name,), {}))
        for i, proc in enumerate(self.data.get("procedures") or []):
            params = dict(self.vocab.procedures[proc["id"]])
            returns = self.vocab.procedure_returns.get(proc["id"])
            if "steps" in proc:
                found.update(self._parse_steps(i, proc, params))
                continue
            path = ("procedures", i, "does")
            found[proc["id"]] = (path, self._parse_program(path, params, returns, name=proc["id"]))
        for cid, path in self._effects.items():
            found[f"effect:{cid}"] = (path, self._parse_program(path, {"this": CARD}))
        return found

    def _parse_steps(self, i: int, proc: dict, params: dict[str, Type]) -> dict[str, tuple[tuple, list | None]]:
        """A procedure of named steps: each step a procedure of its own (its text parsed where it is written,
        with the procedure's parameters), and the procedure the calls of its steps in order."""
        found: dict[str, tuple[tuple, list | None]] = {}
        calls: list[ast.Stmt] = []
        for j, step in enumerate(proc["steps"]):
            name, path = step_name(proc["id"], step["id"]), ("procedures", i, "steps", j, "does")
            found[name] = (path, self._parse_program(path, params, name=name))
            call = ast.Call(j + 1, 1, name, [ast.Name(j + 1, 1, p) for p in params])
            calls.append(ast.ExprStmt(j + 1, 1, call))
        problems = check_program(calls, self.vocab, params, name=proc["id"])
        if problems:
            raise EngineBug(f"the steps of '{proc['id']}' do not check: {problems}")
        found[proc["id"]] = (("procedures", i, "steps"), calls)
        return found

    def _parse_starts(self) -> dict[tuple, ast.Expr | None]:
        """Each kind's ``start``: the zone a card of it begins in, parsed once per kind."""
        starts: dict[tuple, ast.Expr | None] = {}
        for path, _ in self._starts:
            if path not in starts:
                starts[path] = self._parse_expression(path, {"it": CARD}, ZONE)
        return starts

    def _parse_functions(self) -> dict[str, ast.Expr | list[ast.Stmt]]:
        """The functions whose signature is sound: name → their one expression or their statements."""
        bodies: dict[str, ast.Expr | list[ast.Stmt]] = {}
        for i, fn in enumerate(self.data.get("functions") or []):
            if fn["id"] not in self.vocab.functions:
                continue
            fn_params, result = self.vocab.functions[fn["id"]]
            path = _function_path(fn, i)
            body = (
                self._parse_program(path, dict(fn_params), result, pure=True, name=fn["id"])
                if path[-1] == "does"
                else self._parse_expression(path, dict(fn_params), result, pure=True)
            )
            if body is not None:
                bodies[fn["id"]] = body
        return bodies

    def _parse_bot_values(self, decided: dict[str, Type]) -> dict[tuple[str, str], tuple[tuple, ast.Expr | None]]:
        """(bot, kind of decision, "" for any other) → (path, value): how a bot values an action."""
        found: dict[tuple[str, str], tuple[tuple, ast.Expr | None]] = {}
        for kind, spec in (self.data.get("bots") or {}).items():
            if kind == "mcts":  # a standing, not a value of options: ``_parse_scorers``
                continue
            at = ("bots", kind, "value")
            found[(kind, "")] = (at, self._parse_expression(at, {"p": PLAYER, "action": TEXT, "choice": ANY}, INT))
            for decision in spec.get("choices") or {}:
                path = ("bots", kind, "choices", decision)
                if decision not in decided:
                    self.error(
                        path,
                        "E504",
                        f"no decision of the game is called '{decision}'",
                        did_you_mean(decision, decided),
                        key=True,
                    )
                    continue
                params = {"p": PLAYER, "action": TEXT, "choice": decided[decision]}
                found[(kind, decision)] = (path, self._parse_expression(path, params, INT, each="choice"))
        return found

    def _check_scoring_reveals(self, decided: dict[str, Type]) -> None:
        """Each decision named under ``scoring_reveals`` is one the rules make."""
        for i, kind in enumerate(self.data.get("scoring_reveals") or []):
            if kind not in decided:
                self.error(
                    ("scoring_reveals", i),
                    "E504",
                    f"no decision of the game is called '{kind}'",
                    did_you_mean(kind, decided),
                )

    def _parse_scorers(self) -> list[tuple[str, dict, ast.Expr | None, tuple]]:
        """(section, item, expression, path) of every scoring term and tie-breaker, in order, the house's points
        and the search's standing (``bots: mcts``)."""
        scorers: list[tuple[str, dict, ast.Expr | None, tuple]] = []
        for section in ("scoring", "tiebreakers"):
            field_name = "points" if section == "scoring" else "value"
            for i, item in enumerate(self.data.get(section) or []):
                path = (section, i, field_name)
                scorers.append((section, item, self._parse_expression(path, {"p": PLAYER}, INT), path))
        house = self.data.get("house")
        if house is not None:
            scorers.append(("house", house, self._parse_expression(("house", "points"), {}, INT), ("house", "points")))
        search = (self.data.get("bots") or {}).get("mcts")
        if search is not None:
            at = ("bots", "mcts", "standing")
            scorers.append(("standing", search, self._parse_expression(at, {"p": PLAYER}, INT), at))
        return scorers

    def _parse_stats(self) -> list[tuple[dict, ast.Expr | None, tuple]]:
        """(item, expression, path) of every stat: a number or a yes/no."""
        stats = []
        for i, item in enumerate(self.data.get("stats") or []):
            path = ("stats", i, "value")
            expr = self._parse_expression(path, {"p": PLAYER} if item.get("per") == "seat" else {}, None)
            if expr is not None and expr.type not in (INT, BOOL):
                self.error(path, "E502", f"a stat must be a number or yes/no, not {expr.type}")
            stats.append((item, expr, path))
        return stats

    def _check_play(self, game: GameDef, procedures: dict) -> None:
        """A game has a 'play' program, and every decision's options can be listed in advance."""
        if "play" not in game.programs:
            self.error(("play",), "E301", "the game has no 'play' program")
        for name, choose, why, fix in unbounded_choices(game):
            self.dsl_problem(
                procedures[name][0],
                DslProblem(
                    choose.line,
                    choose.col,
                    "E508",
                    f'the options of "{choose.kind}" cannot be listed in advance: {why}',
                    fix or HINT,
                ),
            )


def _decisions(procedures: dict[str, tuple[tuple, list[ast.Stmt] | None]]) -> dict[str, Type]:
    """Kind of decision → type of its options, over every program: what a bot's values may name."""
    decided: dict[str, Type] = {}
    for _, stmts in procedures.values():
        for block in walk_blocks(stmts or []):
            for st in block:
                if isinstance(st, ast.Choose):
                    decided[st.kind] = merge(decided.get(st.kind), st.options_type) or ANY
    return decided


def step_name(procedure: str, step: str) -> str:
    """The procedure a named step runs as: no name a rule can write (a ':' inside), so never one of theirs."""
    return f"{procedure}:{step}"


@dataclass
class _Texts:
    """The effect-language texts of the rules, parsed and checked (None where a text has an error)."""

    procedures: dict[str, tuple[tuple, list[ast.Stmt] | None]]  # name → (path, statements)
    starts: dict[tuple, ast.Expr | None]  # path of a kind's start → its expression
    functions: dict[str, ast.Expr | list[ast.Stmt]]  # only those that parsed
    bot_values: dict[tuple[str, str], tuple[tuple, ast.Expr | None]]
    scorers: list[tuple[str, dict, ast.Expr | None, tuple]]  # (section, item, expression, path)
    stats: list[tuple[dict, ast.Expr | None, tuple]]  # (item, expression, path)
    turn: ast.Expr | None = None  # what a turn is, where the game says

    def parsed(self) -> dict[str, tuple[tuple, list[ast.Stmt]]]:
        """name → (path, statements) of the procedures that parsed: all of them once the rules check."""
        return {name: (path, stmts) for name, (path, stmts) in self.procedures.items() if stmts is not None}

    def sources(self, functions: list[dict]) -> list[tuple[tuple, Any]]:
        """(path, AST) of every text, in the order of the rules' sections (for lint); none is None once all parsed."""
        return (
            [(path, stmts) for path, stmts in self.procedures.values() if path[-1] != "steps"]  # its steps are
            + [(path, expr) for path, expr in self.starts.items() if expr is not None]
            + [
                (_function_path(fn, i), self.functions[fn["id"]])
                for i, fn in enumerate(functions)
                if fn["id"] in self.functions
            ]
            + list(self.bot_values.values())
            + [(path, expr) for _, _, expr, path in self.scorers]
            + [(path, expr) for _, expr, path in self.stats]
            + ([(("turn",), self.turn)] if self.turn is not None else [])
        )
