"""Safe YAML reading that remembers where every value came from.

PyYAML composes a node tree (with marks); we turn it into plain data ourselves
so that we can refuse what a rule file must never do (object tags, duplicate
keys, alias bombs, absurd nesting) and keep a position for every path.
YAML 1.1's ``yes/no/on/off`` stay strings, as in YAML 1.2: a card named ``No``
must not become ``False``.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.errors import Diagnostic, LoadError
from engine.load.kept import Kept
from engine.load.safe_files import MAX_FILE_BYTES, home_of, read_text

MAX_DEPTH = 64
MAX_NODES = 50_000  # counts alias expansions too: a "billion laughs" stops here
MAX_ALIASES = 200

_STR = "tag:yaml.org,2002:str"
_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:timestamp",
}

PathKey = tuple  # a path into the document: keys and list indexes


@dataclass(frozen=True, slots=True)
class ScalarPlace:
    """Where each piece of a string scalar's text sits in the file.

    A piece is a run of characters copied unchanged from one source line; YAML
    may fold lines, strip indentation or leave out comments between pieces, so
    positions inside the text are mapped piece by piece.
    """

    text: str
    pieces: tuple[tuple[int, int, int], ...]  # (offset in text, file line, file column), 1-based
    folded: bool = False  # a folded block (>): a more-indented line keeps its line break there

    def kept_break(self, line: int) -> bool:
        """Whether text line ``line`` (1-based) ends in a break only a folded block's more-indented next line
        keeps: the designer meant the two lines as one."""
        lines = self.text.split("\n")
        return self.folded and 0 < line < len(lines) and lines[line][:1] in (" ", "\t") and bool(lines[line].strip())

    def locate(self, line: int, col: int) -> tuple[int, int]:
        lines = self.text.split("\n")
        offset = sum(len(t) + 1 for t in lines[: max(0, line - 1)]) + col - 1
        best = self.pieces[0]
        for piece in self.pieces:
            if piece[0] <= offset:
                best = piece
            else:
                break
        return best[1], best[2] + offset - best[0]


@dataclass
class Document:
    """A YAML file as plain data plus the position of every value in it."""

    path: str
    data: Any
    positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    scalars: dict[PathKey, ScalarPlace] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list, repr=False)

    def copy(self) -> Document:
        """A Document of its own: its data's mappings and lists copied (the values in them never change)."""
        return Document(
            self.path,
            _copied(self.data),
            dict(self.positions),
            dict(self.key_positions),
            dict(self.scalars),
            list(self.lines),
        )

    def where(self, path: PathKey, *, key: bool = False) -> tuple[int, int]:
        """Best known (line, col) for a path: the nearest ancestor that has one."""
        path = tuple(path)
        table = self.key_positions if key else self.positions
        while True:
            if path in table:
                return table[path]
            if path in self.positions:
                return self.positions[path]
            if not path:
                return (1, 1)
            path = path[:-1]

    def text_position(self, path: PathKey, line: int, col: int) -> tuple[int, int]:
        """File position of (line, col), 1-based, inside the string at ``path``."""
        place = self.scalars.get(tuple(path))
        if place is None:
            return self.where(path)
        return place.locate(line, col)

    def diag(
        self,
        path: PathKey,
        code: str,
        message: str,
        *,
        key: bool = False,
        hint: str | None = None,
        severity: str = "error",
    ) -> Diagnostic:
        line, col = self.where(path, key=key)
        return Diagnostic(self.path, line, col, code, message, severity, hint)


def _copied(value: Any) -> Any:
    """Plain YAML data with every mapping and list copied."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


class _Converter:
    def __init__(self, path: str, lines: list[str], aliases: int):
        self.doc = Document(path, None)
        self.aliases = aliases  # how many the file uses, for the message
        self.lines = lines
        self.nodes = 0
        self.problems: list[Diagnostic] = []
        self._ctor = yaml.constructor.SafeConstructor()
        self._places: dict[int, ScalarPlace] = {}  # per node: an alias expanded many times is mapped once

    def _fail(self, node: yaml.Node, code: str, message: str, hint: str | None = None) -> None:
        m = node.start_mark
        raise LoadError([Diagnostic(self.doc.path, m.line + 1, m.column + 1, code, message, "error", hint)])

    def convert(self, node: yaml.Node, path: PathKey, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:  # only through aliases: the composer refuses more values written out
            self._fail(
                node,
                "E105",
                f"document expands to more than {MAX_NODES} values through its {self.aliases} YAML aliases",
                "aliases are bounded; write the values out",
            )
        if depth > MAX_DEPTH:
            self._fail(node, "E106", f"nesting deeper than {MAX_DEPTH} levels")
        m = node.start_mark
        self.doc.positions[path] = (m.line + 1, m.column + 1)
        if node.tag not in _PLAIN_TAGS:
            if node.tag == "tag:yaml.org,2002:merge":
                self._fail(node, "E104", "YAML merge keys ('<<') are not supported", "write the keys out")
            self._fail(
                node,
                "E104",
                f"YAML tag '{node.tag}' is not allowed in rule files",
                "only plain strings, numbers, booleans, lists and mappings",
            )
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        result: dict[str, Any] = {}
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self._fail(key_node, "E104", "mapping keys must be plain scalars")
            if key_node.tag == "tag:yaml.org,2002:merge":
                self._fail(key_node, "E104", "YAML merge keys ('<<') are not supported", "write the keys out")
            if key_node.tag not in _PLAIN_TAGS:
                self._fail(
                    key_node,
                    "E104",
                    f"YAML tag '{key_node.tag}' is not allowed in rule files",
                    "only plain strings, numbers, booleans, lists and mappings",
                )
            key = key_node.value if key_node.tag == "tag:yaml.org,2002:bool" else self._scalar(key_node, None)
            key = str(key) if not isinstance(key, str) else key
            km = key_node.start_mark
            if key in seen:
                self.problems.append(
                    Diagnostic(
                        self.doc.path,
                        km.line + 1,
                        km.column + 1,
                        "E103",
                        f"duplicate key '{key}' (first at line {seen[key]})",
                        "error",
                        f"keep one '{key}' and merge what the two say: YAML would silently keep only the last",
                    )
                )
                continue
            seen[key] = km.line + 1
            self.doc.key_positions[path + (key,)] = (km.line + 1, km.column + 1)
            result[key] = self.convert(value_node, path + (key,), depth + 1)
        return result

    def _scalar(self, node: yaml.ScalarNode, path: PathKey | None) -> Any:
        tag = node.tag
        if tag == "tag:yaml.org,2002:bool" and node.value.lower() not in ("true", "false"):
            tag = _STR  # YAML 1.2: yes/no/on/off are words
        if tag == "tag:yaml.org,2002:timestamp":
            tag = _STR
        if tag == _STR:
            if path is not None:
                self._remember_text(node, path)
            return node.value
        try:
            value = self._ctor.construct_object(yaml.ScalarNode(tag, node.value, node.start_mark, node.end_mark))
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError("not finite")
            return value
        except (ValueError, IndexError, TypeError, OverflowError, yaml.YAMLError):
            self._fail(
                node,
                "E102",
                f"{node.value[:40]!r} is not a valid {tag.rsplit(':', 1)[-1]}",
                "write the number in full, shorter than 4,300 digits, or quote the text",
            )

    def _remember_text(self, node: yaml.ScalarNode, path: PathKey) -> None:
        place = self._places.get(id(node))
        if place is None:
            place = self._places[id(node)] = self._place(node)
        self.doc.scalars[path] = place

    def _place(self, node: yaml.ScalarNode) -> ScalarPlace:
        """Find each source line's text inside the scalar's value, in order."""
        value, start, end = node.value, node.start_mark, node.end_mark
        quoted = 1 if node.style in ("'", '"') else 0
        if start.line == end.line or not value:
            return ScalarPlace(value, ((0, start.line + 1, start.column + 1 + quoted),))
        if node.style in ("|", ">"):
            rows = range(start.line + 1, min(end.line + 1, len(self.lines)))
            indent = next((len(r) - len(r.lstrip(" ")) for r in (self.lines[i] for i in rows) if r.strip()), 0)
            raw = [(i, indent, self.lines[i][indent:]) for i in rows]
        else:
            first = self.lines[start.line][start.column + quoted :]
            raw = [(start.line, start.column + quoted, first)]
            for i in range(start.line + 1, min(end.line + 1, len(self.lines))):
                row = self.lines[i]
                stripped = row.lstrip()
                raw.append((i, len(row) - len(stripped), stripped))
        pieces = []
        offset = 0
        for line, col, text in raw:
            text = text.rstrip()
            for candidate in (text, text.split(" #")[0].rstrip(), text.rstrip("'\"")):
                found = value.find(candidate, offset) if candidate else -1
                if found >= 0:
                    pieces.append((found, line + 1, col + 1))
                    offset = found + len(candidate)
                    break
        if not pieces:
            pieces = [(0, start.line + 1, start.column + 1 + quoted)]
        return ScalarPlace(value, tuple(pieces), node.style == ">")


def _syntax_diagnostic(path: str, exc: yaml.YAMLError, lines: list[str]) -> Diagnostic:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    problem = getattr(exc, "problem", None) or str(exc)
    if problem == "mapping values are not allowed here":  # a plain text holding ': ' after its key's
        return Diagnostic(
            path,
            line,
            col,
            "E102",
            "quote this text: it contains ': ', which YAML reads as the start of a key",
            "error",
            _quoted(lines[line - 1]) if line <= len(lines) else None,
        )
    context = getattr(exc, "context", None)
    message = f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
    return Diagnostic(path, line, col, "E102", message)


def _quoted(row: str) -> str | None:
    """The line with its value in double quotes (``name: "Go: the game"``), when that is all it takes."""
    key, sep, value = row.strip().partition(": ")
    value = value.split(" #", 1)[0].strip()
    if not sep or not value or '"' in value or "\\" in value:
        return None
    return f'write it in double quotes: {key}: "{value}"'


class _Bounded(yaml.composer.Composer):
    """PyYAML's composer, stopped as soon as nesting, aliases or the number of values pass their bounds.

    Checking while composing (the scanner is lazy) refuses a hostile file after
    reading only its first levels or values; PyYAML's scanner is quadratic in flow
    depth, and composing a file of a million values costs seconds.
    """

    # the parser's, which each loader below brings: PyYAML's pure-Python one or libyaml's
    check_event: Callable[..., bool]
    peek_event: Callable[[], Any]
    dispose: Callable[[], None]

    def _bound(self, path: str) -> None:
        self.path, self.depth, self.aliases, self.nodes = path, 0, 0, 0

    def _refuse(self, code: str, message: str, hint: str | None = None):
        m = self.peek_event().start_mark
        raise LoadError([Diagnostic(self.path, m.line + 1, m.column + 1, code, message, "error", hint)])

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                self._refuse(
                    "E105", f"more than {MAX_ALIASES} YAML aliases", "aliases are bounded; write the values out"
                )
        else:
            self.nodes += 1
            if self.nodes > MAX_NODES:
                self._refuse("E107", f"file holds more than {MAX_NODES} values", "split it into several files")
        self.depth += 1
        if self.depth > MAX_DEPTH + 1:  # the document's root is level 0
            self._refuse("E106", f"nesting deeper than {MAX_DEPTH} levels")
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _BoundedLoader(_Bounded, yaml.SafeLoader):
    """The pure-Python reader: the one whose marks and messages every diagnostic of a faulty file quotes."""

    def __init__(self, stream: str, path: str):
        yaml.SafeLoader.__init__(self, stream)
        self._bound(path)


# A PyYAML built without libyaml has no C loader: every file is then read in pure Python.
_FastLoader: Callable[[str, str], _Bounded] | None = None
if yaml.__with_libyaml__:

    class _LibyamlLoader(_Bounded, yaml.CSafeLoader):
        """libyaml's scanner and parser (C) under the same bounded composer: about ten times faster, with the
        same nodes and marks for a file without errors (tests/test_files.py compares them on every shipped
        file)."""

        def __init__(self, stream: str, path: str):
            yaml.CSafeLoader.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            self._bound(path)

    _FastLoader = _LibyamlLoader


# Texts only the pure-Python reader reads: characters YAML refuses (its message names the character), tabs
# (libyaml takes some that PyYAML refuses), and the line breaks other than \n that the two count differently.
_PYTHON_ONLY = re.compile(yaml.reader.Reader.NON_PRINTABLE.pattern + "|[\t\r\x85\u2028\u2029\ufeff]")


_READ: Kept[tuple[str, str], Document] = Kept(64)  # (path shown, text) → its Document, for the last files read
_KEPT_CHARS = 200_000  # a larger file is read each time rather than held (a rule file is some 25 KB)


def parse_yaml(text: str, path: str) -> Document:
    """Parse YAML text into a Document; raises LoadError with diagnostics.

    A file read before (a game's files again as each variant loads, a game loaded again) is not read again:
    its Document is copied.
    """
    key = (path, text)
    found = _READ.get(key)
    if found is None:
        found = _parse(text, path)
        if len(text) <= _KEPT_CHARS:
            _READ.keep(key, found)
    return found.copy()


def _parse(text: str, path: str) -> Document:
    """A text libyaml reads without a problem is read by it, ten times faster; anything else (a syntax error, a
    bound passed, a duplicate key…) is read again by PyYAML's pure-Python reader, whose marks and messages
    every diagnostic quotes."""
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        raise LoadError([Diagnostic(path, 1, 1, "E107", f"file is larger than {MAX_FILE_BYTES} bytes")])
    if _FastLoader is not None and _PYTHON_ONLY.search(text) is None:
        with contextlib.suppress(LoadError, yaml.YAMLError, RecursionError):
            return _document(text, path, *_compose(_FastLoader(text, path)))
    try:
        root, aliases = _compose(_BoundedLoader(text, path))  # its reader already refuses unprintable characters
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise LoadError(
            [
                Diagnostic(
                    path,
                    line,
                    col,
                    "E102",
                    f"character U+{code:04X} is not allowed in YAML",
                    "error",
                    "remove it or write it escaped in a double-quoted string",
                )
            ]
        ) from None
    except yaml.YAMLError as exc:
        raise LoadError([_syntax_diagnostic(path, exc, text.splitlines())]) from None
    except RecursionError:
        raise LoadError([Diagnostic(path, 1, 1, "E106", f"nesting deeper than {MAX_DEPTH} levels")]) from None
    return _document(text, path, root, aliases)


def _compose(loader: _Bounded) -> tuple[yaml.Node | None, int]:
    """The document's root node (None for an empty one) and how many aliases the file uses."""
    try:
        return loader.get_single_node(), loader.aliases
    finally:
        loader.dispose()


def _document(text: str, path: str, root: yaml.Node | None, aliases: int) -> Document:
    """The composed file as plain data with the place of every value."""
    converter = _Converter(path, text.splitlines(), aliases)
    converter.doc.lines = converter.lines
    if root is None:
        converter.doc.data = None
        return converter.doc
    try:
        converter.doc.data = converter.convert(root, (), 0)
    except RecursionError:
        raise LoadError([Diagnostic(path, 1, 1, "E106", f"nesting deeper than {MAX_DEPTH} levels")]) from None
    if converter.problems:
        raise LoadError(converter.problems)
    return converter.doc


def read_yaml(path: Path | str, display: str | None = None) -> Document:
    """Read (see safe_files.read_text) and parse a YAML file; any problem is a LoadError.

    A game file or a variant that is a link leading out of its game's folder is refused (E108), unread.
    """
    shown = display or str(path)
    return parse_yaml(read_text(path, shown, inside=home_of(path) or ()), shown)
