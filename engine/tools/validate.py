"""``tabletop validate``: every file or folder given, checked as what it is.

This module is what a warm ``tabletop validate`` runs, so it imports only the
cache at load: a game whose clean check is cached needs no YAML reader, schema
validator, parser or graph library, and the heavy modules load only when a file
is really checked (about 0.6 s of imports against 0.1 s for the rest).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.errors import Diagnostic, LoadError, RulesError
from engine.load.cache import checked

__all__ = ["validate_paths"]


def validate_paths(paths: list[str | Path], lint_game=None, lint_board=None) -> list[Diagnostic]:
    """Diagnostics for files or folders of rules and boards (for ``tabletop validate``).

    ``lint_game(game)`` and ``lint_board(doc, board)`` add the warnings of ``tabletop lint``
    for what loads cleanly.
    """
    check = _Checks(lint_game, lint_board)
    out: list[Diagnostic] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            games = sorted(path.rglob("game.yaml"))
            variants = sorted(path.rglob("variants/*.yaml"))
            board_files = sorted(p for p in path.rglob("*.yaml") if "boards" in p.parts) if not games else []
            if not games and not variants and not board_files:
                out.append(Diagnostic(str(raw), 1, 1, "E101", "no game.yaml, variant or board files found here"))
            for g in games + variants:
                out += check.game(g)
            for b in board_files:
                out += check.board(b)
        else:
            out += check.file(path)
    seen, unique = set(), []
    for d in out:
        key = (d.path, d.line, d.col, d.code, d.message)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    return unique


@dataclass
class _Checks:
    """How one file is checked: as what it is, and with the lint's warnings when asked."""

    lint_game: Callable | None = None
    lint_board: Callable | None = None

    def game(self, path: Path) -> list[Diagnostic]:
        return checked(path, "lint" if self.lint_game else "validate", lambda: self._game(path))

    def _game(self, path: Path) -> list[Diagnostic]:
        from engine.runtime.gamedef import load_game

        if path.parent.name == "variants":  # a variant, or a file of components that variants include
            doc, problems = _read(path)
            if doc is None:
                return problems
            if _is_components(doc.data):
                from engine.load.schemas import check_document

                return check_document(doc, "components")
        try:
            game = load_game(path)
        except RulesError as exc:
            return exc.diagnostics
        return self.lint_game(game) if self.lint_game else list(game.warnings)  # lint's include them

    def board(self, path: Path) -> list[Diagnostic]:
        from engine.boards.graphs import BOARD_KINDS
        from engine.load.schemas import check_document

        doc, problems = _read(path)
        if doc is None:
            return problems
        problems = check_document(doc, "board")
        if problems:
            return problems
        board, problems = BOARD_KINDS[doc.data["kind"]](doc)
        return problems or (self.lint_board(doc, board) if self.lint_board else [])

    def file(self, path: Path) -> list[Diagnostic]:
        """One file, checked as what it is: a game, a variant, a component file or a board.

        A game.yaml or a file of variants/ is a game, as when its folder is checked: its
        clean check may come from the cache without reading it.
        """
        if path.name == "game.yaml" or path.parent.name == "variants":
            return self.game(path)
        from engine.boards.graphs import BOARD_KINDS
        from engine.load.schemas import check_document

        doc, problems = _read(path)
        if doc is None:
            return problems
        data = doc.data if isinstance(doc.data, dict) else {}
        if isinstance(data.get("kind"), str) and data["kind"] in BOARD_KINDS and ("cells" in data or "nodes" in data):
            return self.board(path)
        if _is_components(data):
            game_file = path.parent / "game.yaml"
            if not game_file.exists():
                return check_document(doc, "components")
            # Check it as part of its game, reporting only what is in this file.
            return [d for d in self.game(game_file) if d.path == doc.path]
        return self.game(path)


def _is_components(data: object) -> bool:
    """A file of components that a game or variant includes (not a game or variant itself)."""
    return isinstance(data, dict) and "components" in data and not {"play", "players", "extends"} & set(data)


def _read(path: Path):
    """(the YAML document, []) or (None, why it cannot be read)."""
    from engine.load.documents import display_path
    from engine.load.yaml_source import read_yaml

    try:
        return read_yaml(path, display_path(path)), []
    except LoadError as exc:
        return None, exc.diagnostics
