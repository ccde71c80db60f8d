"""Safe YAML reading that remembers where every value came from.

PyYAML composes a node tree (with marks); we turn it into plain data ourselves
so that we can refuse what a rule file must never do (object tags, duplicate
keys, alias bombs, absurd nesting) and keep a position for every path.
YAML 1.1's ``yes/no/on/off`` stay strings, as in YAML 1.2: a card named ``No``
must not become ``False``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Diagnostic, LoadError

MAX_FILE_BYTES = 2_000_000
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
    """Where a string scalar sits, so positions inside its text can be mapped."""

    line: int  # 1-based line of the first character of the text
    col: int  # 1-based column of the first character of the text
    block: bool  # literal/folded block: text line k is file line ``line + k - 1``


@dataclass
class Document:
    """A YAML file as plain data plus the position of every value in it."""

    path: str
    data: Any
    positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    scalars: dict[PathKey, ScalarPlace] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list, repr=False)

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
        if place.block:
            return (place.line + line - 1, place.col + col - 1)
        if line == 1:
            return (place.line, place.col + col - 1)
        return (place.line + line - 1, col)

    def diag(self, path: PathKey, code: str, message: str, *, key: bool = False,
             hint: str | None = None, severity: str = "error") -> Diagnostic:
        line, col = self.where(path, key=key)
        return Diagnostic(self.path, line, col, code, message, severity, hint)


class _Converter:
    def __init__(self, path: str, lines: list[str]):
        self.doc = Document(path, None)
        self.lines = lines
        self.nodes = 0
        self.problems: list[Diagnostic] = []
        self._ctor = yaml.SafeLoader("")

    def _fail(self, node: yaml.Node, code: str, message: str, hint: str | None = None) -> None:
        m = node.start_mark
        raise LoadError([Diagnostic(self.doc.path, m.line + 1, m.column + 1, code, message, "error", hint)])

    def convert(self, node: yaml.Node, path: PathKey, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self._fail(node, "E105", f"document expands to more than {MAX_NODES} values (alias bomb?)",
                       "YAML aliases are bounded; write the values out")
        if depth > MAX_DEPTH:
            self._fail(node, "E106", f"nesting deeper than {MAX_DEPTH} levels")
        m = node.start_mark
        self.doc.positions[path] = (m.line + 1, m.column + 1)
        if node.tag not in _PLAIN_TAGS:
            if node.tag == "tag:yaml.org,2002:merge":
                self._fail(node, "E104", "YAML merge keys ('<<') are not supported", "write the keys out")
            self._fail(node, "E104", f"YAML tag '{node.tag}' is not allowed in rule files",
                       "only plain strings, numbers, booleans, lists and mappings")
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
            key = key_node.value if key_node.tag == "tag:yaml.org,2002:bool" else self._scalar(key_node, None)
            key = str(key) if not isinstance(key, str) else key
            km = key_node.start_mark
            if key in seen:
                self.problems.append(Diagnostic(
                    self.doc.path, km.line + 1, km.column + 1, "E103",
                    f"duplicate key '{key}' (first at line {seen[key]})", "error",
                    "YAML would silently keep only the last one"))
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
        return self._ctor.construct_object(yaml.ScalarNode(tag, node.value, node.start_mark, node.end_mark))

    def _remember_text(self, node: yaml.ScalarNode, path: PathKey) -> None:
        m = node.start_mark
        if node.style in ("|", ">"):
            # Content starts on the line after the indicator; find its indent.
            first = m.line + 1
            indent = 0
            for i in range(first, min(len(self.lines), first + 1000)):
                text = self.lines[i]
                if text.strip():
                    indent = len(text) - len(text.lstrip(" "))
                    first = i
                    break
            self.doc.scalars[path] = ScalarPlace(first + 1, indent + 1, True)
        else:
            quoted = 1 if node.style in ("'", '"') else 0
            self.doc.scalars[path] = ScalarPlace(m.line + 1, m.column + 1 + quoted, False)


def _syntax_diagnostic(path: str, exc: yaml.YAMLError) -> Diagnostic:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    message = f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
    return Diagnostic(path, line, col, "E102", message)


def parse_yaml(text: str, path: str) -> Document:
    """Parse YAML text into a Document; raises LoadError with diagnostics."""
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        raise LoadError([Diagnostic(path, 1, 1, "E107", f"file is larger than {MAX_FILE_BYTES} bytes")])
    loader = yaml.SafeLoader(text)
    try:
        aliases = 0
        # Count aliases as the parser meets them, before any expansion.
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                aliases += 1
                if aliases > MAX_ALIASES:
                    m = event.start_mark
                    raise LoadError([Diagnostic(path, m.line + 1, m.column + 1, "E105",
                                                f"more than {MAX_ALIASES} YAML aliases", "error",
                                                "aliases are bounded; write the values out")])
        root = loader.get_single_node()
    except yaml.YAMLError as exc:
        raise LoadError([_syntax_diagnostic(path, exc)]) from None
    except RecursionError:
        raise LoadError([Diagnostic(path, 1, 1, "E106", f"nesting deeper than {MAX_DEPTH} levels")]) from None
    finally:
        loader.dispose()
    converter = _Converter(path, text.splitlines())
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
    """Read and parse a YAML file; a missing or unreadable file is a LoadError."""
    p = Path(path)
    shown = display or str(path)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise LoadError([Diagnostic(shown, 1, 1, "E107", f"file is larger than {MAX_FILE_BYTES} bytes")])
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LoadError([Diagnostic(shown, 1, 1, "E101", "file not found")]) from None
    except IsADirectoryError:
        raise LoadError([Diagnostic(shown, 1, 1, "E101", "is a folder, not a file")]) from None
    except UnicodeDecodeError as exc:
        raise LoadError([Diagnostic(shown, 1, 1, "E102", f"not UTF-8 text ({exc.reason})")]) from None
    except OSError as exc:
        raise LoadError([Diagnostic(shown, 1, 1, "E101", f"cannot read file: {exc.strerror}")]) from None
    return parse_yaml(text, shown)
