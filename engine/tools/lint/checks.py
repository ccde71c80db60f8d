"""Warnings about rules that load and run but are probably not what the designer meant.

``validate`` says whether files are valid; ``lint`` adds what is legal but suspect: things
declared and never used, statements that can never run, a variant repeating its base, a ruling
whose test is gone, rooms of a board that no piece can reach.  Every finding is a warning
diagnostic at the place to edit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import networkx as nx

from engine.boards.graphs import GridBoard, space_name
from engine.bots import make_agent
from engine.errors import Diagnostic, LoadError, RulesError, RuntimeRuleError, TabletopError
from engine.lab.simulate import play_out, vm_for
from engine.lang import ast
from engine.lang.ops import OPS
from engine.load.documents import RuleSet, display_path, identity, load_documents, shipped_folder
from engine.load.safe_files import Refused, find_inside, read_text
from engine.runtime import rng
from engine.runtime.gamedef import GameDef, load_game
from engine.tools.lint.config import LintConfig, file_of, find_config, reasonless, suppressions
from engine.tools.lint.fix import fix_repeats
from engine.tools.validate import validate_paths

__all__ = ["lint_board", "lint_game", "lint_paths", "repeated_settings"]  # the codes are explained in codes.py

_STOPS = (ast.EndGame, ast.Return, ast.Close)  # nothing after these in the same block runs


@dataclass
class _Uses:
    """Every name a game's rules read or call."""

    read: set[str] = field(default_factory=set)  # names and attributes read
    called: set[str] = field(default_factory=set)

    def expression(self, e: ast.Expr) -> None:
        for sub in ast.walk_exprs(e):
            if isinstance(sub, (ast.Name, ast.Attr)):
                self.read.add(sub.name)
            elif isinstance(sub, ast.Call):
                self.called.add(sub.func)

    def program(self, stmts: list) -> None:
        for block in ast.walk_blocks(stmts):
            for s in block:
                if isinstance(s, ast.Assign):  # `x = x + 1` alone does not make x read
                    own = _Uses()
                    for e in ast.parts_of(s)[0]:
                        own.expression(e)
                    own.read.discard(s.target.name)
                    self.read |= own.read
                    self.called |= own.called
                    continue
                for e in ast.parts_of(s)[0]:
                    self.expression(e)


def lint_paths(paths: Sequence[str | Path], fix: bool = False) -> tuple[list[Diagnostic], list[str]]:
    """Errors and warnings for files or folders, as their project's pyproject.toml and inline suppressions
    want them; with ``fix``, safe fixes are written first. Returns (diagnostics, one line per fixed file)."""
    groups: dict[LintConfig, list[str | Path]] = {}
    for raw in paths:
        groups.setdefault(find_config(Path(raw)), []).append(raw)
    out: list[Diagnostic] = []
    fixed: list[str] = []
    for config, members in groups.items():
        wanted = _Wanted(config)
        if fix:
            fixed += _fix(members, wanted)
        found = validate_paths(members, lint_game=lint_game, lint_board=lint_board)
        for file in _yaml_files(members):
            found += reasonless(display_path(file), wanted.lines(file))
        out += [d for d in found if wanted(d)]
    return out, fixed


@dataclass
class _Wanted:
    """Whether a finding is reported: the configuration, then the suppression comments at its line."""

    config: LintConfig
    _lines: dict[Path, list[str]] = field(default_factory=dict)

    def lines(self, file: Path) -> list[str]:
        if file not in self._lines:
            try:
                self._lines[file] = read_text(file, str(file)).splitlines()
            except LoadError:
                self._lines[file] = []
        return self._lines[file]

    def __call__(self, d: Diagnostic) -> bool:
        if not self.config.reports(d):
            return False
        return d.is_error or not d.code.startswith(suppressions(self.lines(file_of(d.path)), d.line))


def _yaml_files(paths: list[str | Path]) -> list[Path]:
    out = []
    for raw in paths:
        path = Path(raw)
        out += sorted(path.rglob("*.yaml")) if path.is_dir() else [path] if path.suffix in (".yaml", ".yml") else []
    return out


def _fix(paths: list[str | Path], wanted: _Wanted) -> list[str]:
    """Remove the settings of variant files that repeat their base (W306), where reported."""
    out = []
    for file in _yaml_files(paths):
        if file.parent.name != "variants":
            continue
        try:
            rules = load_game(file).rules
        except RulesError:
            continue  # reported as it is by the lint that follows
        vdoc = rules.variant_document
        if vdoc is None:
            continue  # a file in a variants folder that is a game of its own
        repeated = [p for p in repeated_settings(rules) if wanted(vdoc.diag(p, "W306", "", severity="warning"))]
        done = fix_repeats(vdoc, repeated) if repeated else []
        if done:
            out.append(f"{vdoc.path}: removed {len(done)} setting{'s' * (len(done) != 1)} that repeat the base")
    return out


def lint_game(game: GameDef) -> list[Diagnostic]:
    """Warnings for a loaded game or variant."""
    uses = _Uses()
    for _, tree in game.sources:
        if isinstance(tree, list):
            uses.program(tree)
        else:
            uses.expression(tree)
    uses.called |= _named_in(game.draw, set(game.functions))  # drawing hints call functions by name
    rules = game.rules
    out = _unused(rules, uses) + _never_run(game) + _ruling_tests(rules) + _empty_choices(game) + _endless_loops(game)
    out += game.warnings  # the format's and the deprecated forms', found as it loaded
    vdoc = rules.variant_document
    if vdoc is not None:
        out += [
            vdoc.diag(
                path,
                "W306",
                "the base already says this",
                hint="a variant states only what differs",
                severity="warning",
            )
            for path in repeated_settings(rules)
        ]
        out += _dropped_fields(rules)
    return out


def _warning(
    rules: RuleSet, path: tuple, code: str, message: str, hint: str | None = None, key: bool = False
) -> Diagnostic:
    return rules.diag(path, code, message, key=key, hint=hint, severity="warning")


def _named_in(hints, names: set[str]) -> set[str]:
    """The names among ``names`` that a drawing-hints mapping mentions anywhere."""
    if isinstance(hints, dict):
        return set().union(*(_named_in(v, names) for v in hints.values())) if hints else set()
    if isinstance(hints, list):
        return set().union(*(_named_in(v, names) for v in hints)) if hints else set()
    return {hints} & names if isinstance(hints, str) else set()


def _unused(rules: RuleSet, uses: _Uses) -> list[Diagnostic]:
    data, out = rules.data, []
    for section, code, what in (("procedures", "W301", "procedure"), ("functions", "W302", "function")):
        for i, item in enumerate(data.get(section) or []):
            if item["id"] not in uses.called:
                out.append(
                    _warning(
                        rules,
                        (section, i, "id"),
                        code,
                        f"{what} '{item['id']}' is never called",
                        "call it from a program, or remove it",
                    )
                )
    for section in ("variables", "player_variables"):
        for name in data.get(section) or {}:
            if name not in uses.read:
                out.append(
                    _warning(
                        rules,
                        (section, name),
                        "W303",
                        f"variable '{name}' is never read by a rule",
                        "players still see it in their views; remove it if it is only a leftover",
                        key=True,
                    )
                )
    for i, comp in enumerate(data.get("components") or []):
        for j, item in enumerate(comp.get("items") or []):
            if item.get("effect") and not item.get("text"):
                out.append(
                    _warning(
                        rules,
                        ("components", i, "items", j, "id"),
                        "W307",
                        f"'{item['id']}' has an effect but no text for the players to read",
                        "add text: what the card says",
                    )
                )
    for i, zone in enumerate(data.get("zones") or []):
        if zone["id"] not in uses.read and zone["id"] not in uses.called:
            out.append(_warning(rules, ("zones", i, "id"), "W304", f"zone '{zone['id']}' is never used by a rule"))
    return out


def _never_run(game: GameDef) -> list[Diagnostic]:
    out = []
    for path, tree in game.sources:
        if not isinstance(tree, list):
            continue
        for block in ast.walk_blocks(tree):
            for before, after in pairwise(block):
                if isinstance(before, _STOPS):
                    stop = ast.format_block([before]).strip()
                    message = f"this statement never runs: it follows '{stop}'"
                    out.append(game.rules.text_diag(path, after.line, after.col, "W401", message, severity="warning"))
    return out


def _ruling_tests(rules: RuleSet) -> list[Diagnostic]:
    """A ruling names the test that holds it: ``tests/file.py::test_name``, from the project folder."""
    project = rules.folder.parent.parent  # PROJECT/rules/GAME
    if not (project / "tests").is_dir():
        return []  # an installed copy: the tests are not shipped
    out = []
    for i, ruling in enumerate(rules.data.get("rulings") or []):
        test = ruling.get("test")
        if not isinstance(test, str):
            out.append(
                _warning(
                    rules,
                    ("rulings", i, "id"),
                    "W305",
                    f"ruling '{ruling['id']}' names no test",
                    "add test: tests/FILE.py::TEST_NAME",
                )
            )
            continue
        file, _, name = test.partition("::")
        name = re.sub(r"\[.*\]$", "", name.split("::")[-1])
        try:  # the file is named in a rule file: read only inside the project, never a device
            found = find_inside(file, [project])
            source = read_text(found, file) if found else None
        except (Refused, LoadError):
            source = None
        if source is None:
            out.append(
                _warning(rules, ("rulings", i, "test"), "W305", f"ruling '{ruling['id']}': no test file '{file}'")
            )
        elif name and not re.search(rf"^\s*def {re.escape(name)}\(", source, re.M):
            out.append(
                _warning(
                    rules, ("rulings", i, "test"), "W305", f"ruling '{ruling['id']}': '{file}' has no test '{name}'"
                )
            )
    return out


def repeated_settings(rules: RuleSet) -> list[tuple]:
    """Paths, inside the variant file, of settings equal to what its base already says (W306; ``--fix``)."""
    vdoc = rules.variant_document
    if vdoc is None:
        return []
    base = _base_data(rules)
    out: list[tuple] = []
    for key, value in vdoc.data.items():
        if key in ("extends", "id", "name", "description", "remove") or key not in base:
            continue
        old = base[key]
        if isinstance(value, dict) and isinstance(old, dict) and value != old:
            out += [(key, k) for k, v in value.items() if k in old and v == old[k]]
        elif isinstance(value, list) and isinstance(old, list) and value != old:
            by_id = {identity(item): item for item in old if identity(item) is not None}
            out += [
                (key, j) for j, item in enumerate(value) if identity(item) in by_id and item == by_id[identity(item)]
            ]
        elif value == old:
            out.append((key,))
    return out


def _dropped_fields(rules: RuleSet) -> list[Diagnostic]:
    """W309: a variant's item with a base item's id replaces it whole, so what it leaves out is gone.

    Writing ``{id: king, value: 7}`` for a card drops its effect, text and copies, which the variant
    probably meant to keep.
    """
    base = _base_data(rules)
    out = []
    for path, old, new in _replaced(base, rules.data):
        dropped = [key for key in old if key not in new]
        if dropped:
            names = ", ".join(dropped[:-1]) + (" and " if len(dropped) > 1 else "") + dropped[-1]
            out.append(
                _warning(
                    rules,
                    path + ("id",),
                    "W309",
                    f"'{identity(new)}' replaces the base's whole item and so drops its {names}",
                    f"to change only the fields given, patch it: patch: [{{id: {identity(new)}, …}}]; or restate "
                    f"{'it' if len(dropped) == 1 else 'them'} here (an item with a base id replaces the base's)",
                )
            )
    return out


def _replaced(base: dict, merged: dict):
    """(path in the merged rules, base item, merged item) for each identified item of both, card items too."""
    for section, items in merged.items():
        old_items = base.get(section)
        if not (isinstance(items, list) and isinstance(old_items, list)):
            continue
        olds = {identity(item): item for item in old_items if identity(item) is not None}
        for i, item in enumerate(items):
            old = olds.get(identity(item))
            if not (isinstance(old, dict) and isinstance(item, dict)) or old is item:
                continue
            if section == "components":  # a kind merges; its items replace
                inner = _replaced({"items": old.get("items")}, {"items": item.get("items")})
                yield from (((section, i) + path, o, n) for path, o, n in inner)
            else:
                yield (section, i), old, item


def _base_data(rules: RuleSet) -> dict:
    """The merged rules of a variant's base (its files were already checked when the variant loaded)."""
    return load_documents(rules.folder / "game.yaml", None).data


# W402 says only what a game showed: whether the options can run out is not decidable from the rules in
# general (13 cards dealt for 13 rounds never do; a hand that is all the options is empty only when the hand
# is), and a warning that cannot stand behind its claim teaches designers to silence it.  So a few seeded
# games between random bots look for a choice with nothing to choose from, and where they find none, lint
# says nothing.  Work is bounded by games and decisions, never by time.
_GAMES = 10  # seeded games per player count
_DECISIONS = 500  # decisions a game at most
_EMPTY = "nothing to choose from"  # what E701 says of such a choice


def _empty_choices(game: GameDef) -> list[Diagnostic]:
    """W402: a ``choose`` that a seeded random game reached with nothing to choose from (there the game stops
    with E701), with the command that plays that game again."""
    chooses = {}  # where each choose is in the files → (its rules path, the statement)
    for path, tree in game.sources:
        if isinstance(tree, list):
            for block in ast.walk_blocks(tree):
                chooses.update(
                    {game.rules.locate_text(path, s.line, s.col): (path, s) for s in block if isinstance(s, ast.Choose)}
                )
    shown: dict[tuple, tuple[int, int]] = {}  # where → (players, seed) of the first game that showed it
    for players in range(game.min_players, game.max_players + 1):
        for seed in _seeds_to_replay(game, players):
            place = _empty_choice_in(game, players, seed)
            if place in chooses:
                shown.setdefault(place, (players, seed))
    named = (  # what `simulate` is given: a shipped game by its name, any other by its file
        game.id + (f" --variant {game.variant}" if game.variant else "")
        if game.rules.folder.resolve() == shipped_folder(game.id).resolve()
        else (game.rules.variant_document or game.rules.documents[0]).path
    )
    out = []
    for place, (players, seed) in shown.items():
        path, s = chooses[place]
        what = ast.format_expr(s.source)
        fix = (
            "add 'optional', or check first that an option passes the 'where'"
            if s.where is not None
            else f"add 'optional', or check first: if size({what}) > 0: …"
        )
        out.append(
            game.rules.text_diag(
                path,
                s.line,
                s.col,
                "W402",
                f"'{what}' had nothing to choose from here in a game between random bots, and the game stopped (E701)",
                hint=f"{fix}; `tabletop simulate {named} --players {players} --games 1 --seed {seed}` plays that game",
                severity="warning",
            )
        )
    return out


def _seeds_to_replay(game: GameDef, players: int) -> Sequence[int]:
    """The seeds of the games to play again in Python, where a stop is a located diagnostic: every seed, unless
    the VM plays them all in one call (as ``simulate`` would) and shows which stopped with nothing to choose from.
    Most games end well, so lint pays a Python call per decision only for those that did not."""
    seeds = range(_GAMES)
    vm = vm_for(game, ["random"] * players, seeds)
    if vm is None:
        return seeds
    return [r["seed"] for r in vm.playouts(players, list(seeds), "random", _DECISIONS) if _EMPTY in (r["error"] or "")]


def _empty_choice_in(game: GameDef, players: int, seed: int) -> tuple | None:
    """Where (file, line, column) the seeded game between random bots, as `tabletop simulate` plays it, stopped
    with nothing to choose from; None if it did not."""
    bots = [make_agent("random", seed=rng.derive(seed, "bot", s)) for s in range(players)]  # as simulate seeds them
    try:
        play_out(game, players, seed, bots, _DECISIONS)
    except RuntimeRuleError as exc:
        d = exc.diagnostic
        if d.code == "E701" and _EMPTY in d.message:
            return d.path, d.line, d.col
    except TabletopError:
        pass  # another fault: validate and simulate report it
    return None


def _endless_loops(game: GameDef) -> list[Diagnostic]:
    """W403: ``while true`` whose body asks no one and cannot stop: it only ends at the step budget (E703)."""
    bodies: dict[int, list] = {
        path[1]: tree for path, tree in game.sources if path[0] == "procedures" and isinstance(tree, list)
    }
    names = {i: item["id"] for i, item in enumerate(game.rules.data.get("procedures") or [])}
    by_name = {names[i]: tree for i, tree in bodies.items() if i in names}
    seen: dict[str, bool] = {}

    def may_stop(stmts: list) -> bool:
        for block in ast.walk_blocks(stmts):
            for s in block:
                if isinstance(s, (ast.Choose, ast.Window) + _STOPS):
                    return True
                for e in ast.parts_of(s)[0]:
                    for sub in ast.walk_exprs(e):
                        if isinstance(sub, ast.Call) and calls_may_stop(sub.func):
                            return True
        return False

    def calls_may_stop(name: str) -> bool:
        if name in OPS:
            return OPS[name].control  # e.g. perform: runs a card's effect, which may ask
        if name not in seen and name in by_name:
            seen[name] = False  # a procedure calling itself decides nothing by that
            seen[name] = may_stop(by_name[name])
        return seen.get(name, False)

    out = []
    for path, tree in game.sources:
        if isinstance(tree, list):
            for block in ast.walk_blocks(tree):
                for s in block:
                    if (
                        isinstance(s, ast.While)
                        and isinstance(s.condition, ast.Literal)
                        and s.condition.value is True
                        and not may_stop(s.body)
                    ):
                        out.append(
                            game.rules.text_diag(
                                path,
                                s.line,
                                s.col,
                                "W403",
                                "this loop asks no one and never stops: it runs until the step "
                                "budget ends the game (E703)",
                                hint="add a condition, a choose, or return/end_game in the loop",
                                severity="warning",
                            )
                        )
    return out


def lint_board(doc, board) -> list[Diagnostic]:
    """Warnings for a compiled grid board: rooms cut off from the rest, doors inside a room."""
    if not isinstance(board, GridBoard) or "rooms" not in doc.data:
        return []
    out = []
    rooms_at = {room["id"]: i for i, room in enumerate(doc.data["rooms"])}
    # diagonal steps alone never change a square's colour: half the board is cut off by design, not by a wall
    split = doc.data.get("adjacency") == "diagonal"
    parts = [] if split else sorted(nx.connected_components(board.graph), key=len, reverse=True)
    for part in parts[1:]:
        cut_off = sorted({board.rooms[n] for n in part}, key=rooms_at.__getitem__)
        out.append(
            doc.diag(
                ("rooms", rooms_at[cut_off[0]], "id"),
                "W601",
                f"{', '.join(repr(r) for r in cut_off)} cannot be reached from the rest of the board",
                hint="add a door",
                severity="warning",
            )
        )
    for i, (a, b) in enumerate(doc.data.get("doors", [])):
        room = board.rooms[space_name(*a)]
        if room == board.rooms[space_name(*b)]:
            out.append(
                doc.diag(
                    ("doors", i),
                    "W602",
                    f"door inside room '{room}' changes nothing",
                    hint="remove it",
                    severity="warning",
                )
            )
    return out
