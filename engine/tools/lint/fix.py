"""``tabletop lint --fix``: mend what can be mended without a decision, as text edits.

Today that is W306, a variant setting that repeats its base: its lines are deleted from the variant
file. The file is edited by the positions the loader keeps (never re-dumped), so comments, order and
layout of everything else stay as the designer wrote them. A comment inside what is removed (on a line
of its own or after a value) is kept where it was, as a line of its own at the setting's indentation:
a fix never loses a comment. An edit is written only if the edited text parses to exactly the old data
less the removed settings; anything else (a setting in flow style ``{a: 1, b: 2}``, sharing its line
with another) is left for the designer, and reported as before.
"""

from __future__ import annotations

import copy
import re

import yaml

from engine.errors import LoadError
from engine.load.safe_files import read_text, write_text
from engine.load.yaml_source import Document, parse_yaml
from engine.tools.lint.config import file_of

__all__ = ["fix_repeats"]

_DASH = re.compile(r"^(\s*)-\s+$")
_HASH = re.compile(r"(?:^|(?<=\s))#")  # where a comment may start: a '#' after a space or at the line's start


def fix_repeats(vdoc: Document, paths: list[tuple]) -> list[tuple]:
    """Delete the settings at ``paths`` inside the variant file ``vdoc``; the paths it deleted."""
    file = file_of(vdoc.path)
    lines = read_text(file, vdoc.path).splitlines(keepends=True)
    paths = _whole_parents(vdoc.data, paths)
    spans = {p: span for p in paths if (span := _span(vdoc, lines, p)) is not None}
    fixable = [p for p in paths if p in spans]
    if not fixable:
        return []
    comments = _comments("".join(lines), {n for first, last, _ in spans.values() for n in range(first, last)})
    if comments is None:
        return []
    kept = list(lines)
    for p in sorted(fixable, key=lambda p: spans[p][0], reverse=True):
        first, last, indent = spans[p]
        kept[first:last] = [
            " " * indent + lines[n][comments[n] :].rstrip() + "\n" for n in range(first, last) if n in comments
        ]
    text = "".join(kept)
    expected = copy.deepcopy(vdoc.data)
    for p in sorted(fixable, key=lambda p: [str(k) for k in p], reverse=True):  # later list items first
        parent = expected
        for key in p[:-1]:
            parent = parent[key]
        del parent[p[-1]]
    try:
        if parse_yaml(text, vdoc.path).data != expected:
            return []
    except LoadError:
        return []
    write_text(file, text)
    return fixable


def _whole_parents(data: dict, paths: list[tuple]) -> list[tuple]:
    """Paths with each section whose entries are all removed replaced by the section (no empty key left)."""
    out = [p for p in paths if len(p) == 1]
    by_section: dict[str, list[tuple]] = {}
    for p in paths:
        if len(p) == 2:
            by_section.setdefault(p[0], []).append(p)
    for section, entries in by_section.items():
        out += [(section,)] if len(entries) == len(data[section]) else entries
    return out


def _comments(text: str, wanted: set[int]) -> dict[int, int] | None:
    """Line index → column of the YAML comment on it, for the lines ``wanted`` (None: the text does not scan).

    A '#' is a comment where no token of the YAML is: not in a quoted text, nor in a block of text (a
    program's own comments are part of its value), whose header line may still end with a comment.
    """
    spans = []
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            start = (token.start_mark.line, token.start_mark.column)
            if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):
                start = (start[0] + 1, 0)
            spans.append((start, (token.end_mark.line, token.end_mark.column)))
    except yaml.YAMLError:
        return None
    out = {}
    for n, line in enumerate(text.splitlines()):
        if n in wanted:
            at = next(
                (m.start() for m in _HASH.finditer(line) if not any(a <= (n, m.start()) < b for a, b in spans)), None
            )
            if at is not None:
                out[n] = at
    return out


def _span(doc: Document, lines: list[str], path: tuple) -> tuple[int, int, int] | None:
    """Lines [first, last) holding the entry at ``path``, if it starts its own line in block style, and its
    indentation."""
    if isinstance(path[-1], int):
        line, col = doc.positions[path]
        head = lines[line - 1][: col - 1]
        dash = _DASH.match(head)
        if dash is None:
            return None
        indent, sequence_item = len(dash.group(1)), True
    else:
        line, col = doc.key_positions[path]
        if lines[line - 1][: col - 1].strip():
            return None
        indent, sequence_item = col - 1, False
    last = line  # index just after the entry's first line
    end = line
    while end < len(lines):
        text = lines[end]
        stripped = text.strip()
        if stripped:
            depth = len(text) - len(text.lstrip())
            inside = depth > indent or (not sequence_item and depth == indent and stripped.startswith("- "))
            if not inside:
                break
            last = end + 1
        end += 1
    return line - 1, last, indent
