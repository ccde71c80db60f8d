"""The deprecated forms a game's effect-language texts still use, found when it loads.

Which forms are deprecated, since when, until when and what replaces them is the table in
engine/load/formats.py; this module finds them in the checked texts, each at its place with a caret,
so that loading, ``validate`` and ``lint`` warn alike and ``tabletop upgrade`` knows where to rewrite.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.errors import Diagnostic
from engine.lang import ast
from engine.load.documents import RuleSet
from engine.load.formats import DEPRECATIONS, deprecation

__all__ = ["deprecated_uses", "old_calls", "option_ids_read"]

_RENAMED = {d.renamed[0]: (d, d.renamed[1]) for d in DEPRECATIONS if d.renamed is not None}  # old → (row, new)


def _expressions(tree: list[ast.Stmt] | ast.Expr) -> Iterator[ast.Expr]:
    """Every expression of a text, nested ones included."""
    tops = (
        [e for block in ast.walk_blocks(tree) for s in block for e in ast.parts_of(s)[0]]
        if isinstance(tree, list)
        else [tree]
    )
    for top in tops:
        yield from ast.walk_exprs(top)


def old_calls(sources) -> Iterator[tuple[tuple, ast.Call, str]]:
    """(path of the text, call, the new name) of every call by a deprecated name."""
    for path, tree in sources:
        for e in _expressions(tree):
            if isinstance(e, ast.Call) and e.func in _RENAMED:
                yield path, e, _RENAMED[e.func][1]


def option_ids_read(sources) -> Iterator[tuple[tuple, ast.Name]]:
    """(path, name) of every greedy bot value that reads ``action``, the option's id, rather than the option."""
    for path, tree in sources:
        if path[:2] == ("bots", "greedy"):
            for e in _expressions(tree):
                if isinstance(e, ast.Name) and e.name == "action":
                    yield path, e


def deprecated_uses(rules: RuleSet, sources) -> list[Diagnostic]:
    """A located warning, with the fix, at every deprecated form the texts use."""
    out = []
    for path, call, new in old_calls(sources):
        row = _RENAMED[call.func][0]
        message = f"{call.func}(…) is the old name of {new}(…)"
        out.append(rules.text_diag(path, call.line, call.col, row.code, message, row.fix, "warning"))
    row = deprecation("W312")
    for path, name in option_ids_read(sources):
        message = "a greedy value reads `action`, the option's id"
        out.append(rules.text_diag(path, name.line, name.col, row.code, message, row.fix, "warning"))
    return out
