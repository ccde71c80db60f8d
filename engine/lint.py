"""Warnings about rules that load and run but are probably not what the designer meant.

``validate`` says whether files are valid; ``lint`` adds what is legal but suspect: things
declared and never used, statements that can never run, a variant repeating its base, a ruling
whose test is gone, rooms of a board that no piece can reach.  Every finding is a warning
diagnostic at the place to edit.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

import networkx as nx

from .boards import GridBoard, space_name
from .documents import RuleSet, identity, load_documents
from .dsl import ast
from .errors import Diagnostic, LoadError
from .gamedef import GameDef
from .safe_files import Refused, find_inside, read_text
from .yaml_source import Document

__all__ = ["lint_board", "lint_game"]  # the codes are explained in codes.py

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


def lint_game(game: GameDef) -> list[Diagnostic]:
    """Warnings for a loaded game or variant."""
    uses = _Uses()
    for _, tree in game.sources:
        if isinstance(tree, list):
            uses.program(tree)
        else:
            uses.expression(tree)
    rules = game.rules
    out = _unused(rules, uses) + _never_run(game) + _ruling_tests(rules)
    if rules.variant_document is not None:
        out += _repeats_base(rules, rules.variant_document)
    return out


def _warning(rules: RuleSet, path: tuple, code: str, message: str, hint: str | None = None,
             key: bool = False) -> Diagnostic:
    return rules.diag(path, code, message, key=key, hint=hint, severity="warning")


def _unused(rules: RuleSet, uses: _Uses) -> list[Diagnostic]:
    data, out = rules.data, []
    for section, code, what in (("procedures", "W301", "procedure"), ("functions", "W302", "function")):
        for i, item in enumerate(data.get(section) or []):
            if item["id"] not in uses.called:
                out.append(_warning(rules, (section, i, "id"), code, f"{what} '{item['id']}' is never called",
                                    "call it from a program, or remove it"))
    for section in ("variables", "player_variables"):
        for name in data.get(section) or {}:
            if name not in uses.read:
                out.append(_warning(rules, (section, name), "W303", f"variable '{name}' is never read by a rule",
                                    "players still see it in their views; remove it if it is only a leftover",
                                    key=True))
    for i, comp in enumerate(data.get("components") or []):
        for j, item in enumerate(comp.get("items") or []):
            if item.get("effect") and not item.get("text"):
                out.append(_warning(rules, ("components", i, "items", j, "id"), "W307",
                                    f"'{item['id']}' has an effect but no text for the players to read",
                                    "add text: what the card says"))
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
                    out.append(_in_text(game.rules, path, after, "W401",
                                        f"this statement never runs: it follows '{stop}'"))
    return out


def _in_text(rules: RuleSet, path: tuple, node: ast.Node, code: str, message: str) -> Diagnostic:
    """A warning at a node of the effect-language text found at ``path``."""
    file, line, col = rules.locate_text(path, node.line, node.col)
    doc, _ = rules.origin(path)
    context = (doc.lines[line - 1], " " * (col - 1) + "^") if 1 <= line <= len(doc.lines) else ()
    return Diagnostic(file, line, col, code, message, "warning", None, context)


def _ruling_tests(rules: RuleSet) -> list[Diagnostic]:
    """A ruling names the test that holds it: ``tests/file.py::test_name``, from the project folder."""
    project = rules.folder.parent.parent  # PROJECT/rules/GAME
    if not (project / "tests").is_dir():
        return []  # an installed copy: the tests are not shipped
    out = []
    for i, ruling in enumerate(rules.data.get("rulings") or []):
        test = ruling.get("test")
        if not isinstance(test, str):
            out.append(_warning(rules, ("rulings", i, "id"), "W305", f"ruling '{ruling['id']}' names no test",
                                "add test: tests/FILE.py::TEST_NAME"))
            continue
        file, _, name = test.partition("::")
        name = re.sub(r"\[.*\]$", "", name.split("::")[-1])
        try:  # the file is named in a rule file: read only inside the project, never a device
            found = find_inside(file, [project])
            source = read_text(found, file) if found else None
        except (Refused, LoadError):
            source = None
        if source is None:
            out.append(_warning(rules, ("rulings", i, "test"), "W305",
                                f"ruling '{ruling['id']}': no test file '{file}'"))
        elif name and not re.search(rf"^\s*def {re.escape(name)}\(", source, re.M):
            out.append(_warning(rules, ("rulings", i, "test"), "W305",
                                f"ruling '{ruling['id']}': '{file}' has no test '{name}'"))
    return out


def _repeats_base(rules: RuleSet, vdoc: Document) -> list[Diagnostic]:
    """Settings of a variant file equal to what its base already says."""
    base = load_documents(rules.folder / "game.yaml", None).data  # already checked when the variant loaded
    out = []

    def same(path: tuple, value, old) -> None:
        if value == old:
            out.append(vdoc.diag(path, "W306", "the base already says this", hint="a variant states only what differs",
                                 severity="warning"))

    for key, value in vdoc.data.items():
        if key in ("extends", "id", "name", "description", "remove") or key not in base:
            continue
        old = base[key]
        if isinstance(value, dict) and isinstance(old, dict) and value != old:
            for k, v in value.items():
                if k in old:
                    same((key, k), v, old[k])
        elif isinstance(value, list) and isinstance(old, list) and value != old:
            by_id = {identity(item): item for item in old if identity(item) is not None}
            for j, item in enumerate(value):
                if identity(item) in by_id:
                    same((key, j), item, by_id[identity(item)])
        else:
            same((key,), value, old)
    return out


def lint_board(doc, board) -> list[Diagnostic]:
    """Warnings for a compiled grid board: rooms cut off from the rest, doors inside a room."""
    if not isinstance(board, GridBoard):
        return []
    out = []
    rooms_at = {room["id"]: i for i, room in enumerate(doc.data["rooms"])}
    parts = sorted(nx.connected_components(board.graph), key=len, reverse=True)
    for part in parts[1:]:
        cut_off = sorted({board.rooms[n] for n in part}, key=rooms_at.__getitem__)
        out.append(doc.diag(("rooms", rooms_at[cut_off[0]], "id"), "W601",
                            f"{', '.join(repr(r) for r in cut_off)} cannot be reached from the rest of the board",
                            hint="add a door", severity="warning"))
    for i, (a, b) in enumerate(doc.data.get("doors", [])):
        room = board.rooms[space_name(*a)]
        if room == board.rooms[space_name(*b)]:
            out.append(doc.diag(("doors", i), "W602", f"door inside room '{room}' changes nothing",
                                hint="remove it", severity="warning"))
    return out
