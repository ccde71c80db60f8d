"""``tabletop upgrade``: an older game's files rewritten to the current rules format, as far as a program can.

What changed between formats is the table of engine/load/formats.py.  The rewrites edit the text at the
places the loader located (never re-dumping the YAML), so comments and layout stay as the designer wrote
them.  In two passes: the rewrite that needs only the YAML (the `format:` line), then, on a
copy of the game so rewritten, a load that finds the rewrites inside the effect-language texts (deprecated
names) and what only the designer can do (each located, with the loader's fix).

Nothing is lost on ``--write``: each file is replaced atomically, its original kept beside it as
``FILE.bak``; a file that changed since it was read, or whose ``.bak`` is already there (an earlier upgrade
not yet reviewed), is not written.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import Diagnostic, LoadError, RulesError, WriteError
from engine.load.documents import game_folders, known_variants, resolve
from engine.load.formats import CURRENT, OLDEST, declared_format, format_problems
from engine.load.safe_files import is_name, read_text, write_text
from engine.load.yaml_source import Document, read_yaml
from engine.runtime.deprecated import old_calls, option_ids_read
from engine.runtime.gamedef import load_game

__all__ = ["Note", "Upgrade", "plan_upgrade"]


@dataclass(frozen=True)
class Note:
    """One line of the upgrade's report: a rewrite, or what only the designer can do."""

    file: Path
    line: int  # in the file as it was read
    col: int
    message: str
    rewritten: bool
    after: tuple[int, int] | None = None  # (line, col) in the upgraded file, when it differs

    def format(self, shown: str, written: bool = False) -> str:
        """``path:line:col: …``, at the place in the file as it was read, or as written by the upgrade."""
        line, col = self.after if written and self.after else (self.line, self.col)
        return f"{shown}:{line}:{col}: {'rewrite' if self.rewritten else 'cannot rewrite'}: {self.message}"


@dataclass
class _Edit:
    line: int  # 1-based; an insertion has old == ""
    col: int
    old: str
    new: str


@dataclass
class Upgrade:
    """What upgrading a game changes: the new text of each file, and a located note per change."""

    folder: Path
    originals: dict[Path, str] = field(default_factory=dict)
    texts: dict[Path, str] = field(default_factory=dict)  # the upgraded text of each file that changes
    notes: list[Note] = field(default_factory=list)

    @property
    def is_needed(self) -> bool:
        return bool(self.notes)

    @property
    def left(self) -> list[Note]:
        """What only the designer can do."""
        return [n for n in self.notes if not n.rewritten]

    def write(self) -> list[Path]:
        """Replace each changed file atomically, keeping its original as FILE.bak; WriteError if one cannot be."""
        for path, text in self.originals.items():
            if path not in self.texts:
                continue
            backup = path.with_name(path.name + ".bak")
            if backup.exists():
                raise WriteError(f"{path}: {backup.name} is already there (an earlier upgrade?): review and remove it")
            if read_text(path, str(path)) != text:
                raise WriteError(f"{path}: changed since it was read; run upgrade again")
        written = []
        for path, text in self.texts.items():
            write_text(path.with_name(path.name + ".bak"), self.originals[path])
            write_text(path, text)
            written.append(path)
        return written


def plan_upgrade(game: str | Path) -> Upgrade:
    """What upgrading ``game`` (a name or a path, with its variants and board files) would change.

    LoadError for a game that cannot be read, or is of a newer format than this engine reads."""
    game_file, _ = resolve(game)
    plan = Upgrade(game_file.parent)
    doc = read_yaml(game_file, str(game_file))
    refused = [d for d in format_problems(doc) if d.is_error]
    if refused:
        raise LoadError(refused)
    number = declared_format(doc.data) or OLDEST
    said = doc.data.get("id") if isinstance(doc.data, dict) else None
    game_id = said if isinstance(said, str) and is_name(said) else game_file.parent.name
    files = _files(game_file, game_id)
    plan.originals = {p: read_text(p, str(p)) for p in files}
    edits: dict[Path, list[_Edit]] = {}
    if number < CURRENT:
        _format_line(plan, doc, game_file, edits)
    first = {p: _apply(plan.originals[p], e) for p, e in edits.items()}
    inserted = {p: e[0].line for p, e in edits.items() if e and e[0].old == "" and p == game_file}
    _in_texts(plan, game_file, game_id, first, inserted)
    return plan


def _files(game_file: Path, game_id: str) -> list[Path]:
    """The game's YAML files: its folder's (variants and includes too) and its boards folder's."""
    folders = game_folders(game_file.parent, game_id)
    return [p for folder in folders if folder.is_dir() for p in sorted(folder.rglob("*.yaml")) if p.is_file()]


def _format_line(plan: Upgrade, doc: Document, game_file: Path, edits: dict[Path, list[_Edit]]) -> None:
    """Declare the current format: the old number raised, or a line added above the first key."""
    data = doc.data if isinstance(doc.data, dict) else {}
    if "format" in data:
        line, col = doc.where(("format",))
        edit = _Edit(line, col, str(data["format"]), str(CURRENT))
        if _matches(plan.originals[game_file], edit):
            edits.setdefault(game_file, []).append(edit)
            plan.notes.append(Note(game_file, line, col, f"format: {data['format']} → {CURRENT}", True))
        return
    line, col = doc.where((next(iter(data)),), key=True) if data else (1, 1)
    if col != 1:  # a mapping written in flow style: no line to add above
        plan.notes.append(Note(game_file, line, col, f"no `format:`: add `format: {CURRENT}` at the top", False))
        return
    newline = "\r\n" if "\r\n" in plan.originals[game_file] else "\n"  # the file's own line ends
    edits.setdefault(game_file, []).insert(0, _Edit(line, 1, "", f"format: {CURRENT}{newline}"))
    plan.notes.append(
        Note(game_file, line, 1, f"declare `format: {CURRENT}` (none declared: read as format {OLDEST})", True)
    )


def _in_texts(plan: Upgrade, game_file: Path, game_id: str, first: dict[Path, str], inserted: dict[Path, int]) -> None:
    """Load a copy of the game as the first pass left it (each variant too); rewrite the deprecated names its
    texts call, and name what is left to the designer."""
    with tempfile.TemporaryDirectory(prefix="tabletop-upgrade-") as tmp:
        root = Path(tmp).resolve()
        copies: dict[Path, Path] = {}  # copy → original
        for original, text in plan.originals.items():
            copy = _copy_path(root, game_file.parent, game_id, original)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(first.get(original, text), encoding="utf-8")
            copies[copy] = original
        found: dict[tuple[Path, int, int], tuple[str, _Edit | None]] = {}  # place in a copy → (note, its edit)
        for variant in [None, *known_variants(game_file.parent)]:
            try:
                loaded = load_game(root / "rules" / game_id / "game.yaml", variant, reference=True)
            except RulesError as exc:
                for d in exc.diagnostics:
                    if d.is_error:
                        said = _todo(d)
                        for copy, original in copies.items():  # the copy's folders named as the game's own
                            said = said.replace(str(copy.parent), str(original.parent))
                        found.setdefault((_absolute(d.path), d.line, d.col), (said, None))
                continue
            for path, call, new in old_calls(loaded.sources):
                file, line, col = loaded.rules.locate_text(path, call.line, call.col)
                edit = _Edit(line, col, call.func, new)
                found.setdefault((_absolute(file), line, col), (f"{call.func}(…) → {new}(…)", edit))
            for path, name in option_ids_read(loaded.sources):
                file, line, col = loaded.rules.locate_text(path, name.line, name.col)
                found.setdefault((_absolute(file), line, col), (_GREEDY_ACTION, None))
    places = {(copies[c], line, col): said for (c, line, col), said in found.items() if c in copies}
    second: dict[Path, list[_Edit]] = {}
    for (source, _, _), (_, rename) in places.items():
        if rename is not None and _matches(first.get(source, plan.originals[source]), rename):
            second.setdefault(source, []).append(rename)
    for (source, line, col), (message, rename) in places.items():
        done = rename is not None and rename in second.get(source, [])
        shift = sum(len(e.new) - len(e.old) for e in second.get(source, []) if e.line == line and e.col < col)
        before = line - 1 if source in inserted and line > inserted[source] else line  # the added line not yet there
        said = message if rename is None or done else f"{message} here"
        plan.notes.append(Note(source, before, col, said, done, (line, col + shift)))
    for original, edits in second.items():
        first[original] = _apply(first.get(original, plan.originals[original]), edits)
    plan.texts = {p: t for p, t in first.items() if t != plan.originals[p]}


_GREEDY_ACTION = (
    "the greedy value reads `action`, the option's id: value each kind of decision under "
    "`bots: greedy: choices: KIND:` with `choice`, the option itself"
)


def _todo(d: Diagnostic) -> str:
    """What the loader says is wrong, with its fix, as a note of what only the designer can do."""
    return f"{d.code} {d.message}" + (f": {d.hint}" if d.hint else "")


def _copy_path(root: Path, folder: Path, game_id: str, path: Path) -> Path:
    """Where a file of the game lies in the copy: rules/ID/… or boards/ID/…, as in a project."""
    own, boards = game_folders(folder, game_id)
    if path.is_relative_to(own):
        return root / "rules" / game_id / path.relative_to(own)
    return root / "boards" / game_id / path.relative_to(boards)


def _absolute(shown: str) -> Path:
    """A file the loader names (relative to the working folder when inside it) as an absolute path."""
    path = Path(shown)
    return path if path.is_absolute() else (Path.cwd() / path).resolve()


def _offset(text: str, line: int, col: int) -> int:
    lines = text.splitlines(keepends=True)
    return sum(len(x) for x in lines[: line - 1]) + col - 1


def _matches(text: str, edit: _Edit) -> bool:
    """Whether the text at the edit's place is what it replaces (the old number, name or kind, maybe quoted)."""
    at = text[_offset(text, edit.line, edit.col) :]
    if at[:1] in ("'", '"'):
        edit.col += 1
        at = at[1:]
    rest = at[len(edit.old) : len(edit.old) + 1]
    return at.startswith(edit.old) and not (rest.isalnum() or rest == "_")


def _apply(text: str, edits: list[_Edit]) -> str:
    """The text with each edit made, the last first so that the earlier places stay where they were."""
    for edit in sorted(edits, key=lambda e: (e.line, e.col), reverse=True):
        at = _offset(text, edit.line, edit.col)
        text = text[:at] + edit.new + text[at + len(edit.old) :]
    return text
