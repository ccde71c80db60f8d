"""What one version of a game's rules changes from another: a variant from its base, one
variant from another, an edited copy from the shipped game.

Both sides are compared as merged rules, so a variant is shown by its effect, not by its text.
Items of lists are matched by their id; effect-language texts are compared in canonical form
(a re-indented or re-wrapped program is not a change) and shown as a line diff.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass

from engine.lang import ast
from engine.load.documents import identity
from engine.runtime.gamedef import GameDef

__all__ = ["Change", "compare", "format_changes"]

_HIDDEN = {"$schema"}


@dataclass(frozen=True)
class Change:
    """One difference: ``where`` names the place by section and item ids; ``lines`` show it."""

    kind: str  # "added" | "removed" | "changed"
    where: tuple[str, ...]
    before: object = None
    after: object = None
    lines: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"change": self.kind, "where": list(self.where), "before": self.before, "after": self.after}


def compare(old: GameDef, new: GameDef) -> list[Change]:
    """Every difference between the rules of ``old`` and ``new``, in the order of the files."""
    before_programs, after_programs = _canonical(old), _canonical(new)
    changes: list[Change] = []

    def one_side(kind: str, where: tuple, value, programs: dict) -> None:
        sign = "+" if kind == "added" else "-"
        lines = tuple(f"{sign} {line}" for line in _show(value, where, programs))
        before, after = (None, value) if kind == "added" else (value, None)
        changes.append(Change(kind, where, before, after, lines))

    def walk(a, b, where: tuple) -> None:
        if a == b:
            return
        if where in before_programs and where in after_programs:
            before, after = before_programs[where], after_programs[where]
            if before != after:  # not only re-indented or re-wrapped
                diff = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=2)
                changes.append(Change("changed", where, before, after, tuple(list(diff)[2:])))
        elif isinstance(a, dict) and isinstance(b, dict):
            for key in list(a) + [k for k in b if k not in a]:
                if key in _HIDDEN:
                    continue
                if key not in b:
                    one_side("removed", where + (str(key),), a[key], before_programs)
                elif key not in a:
                    one_side("added", where + (str(key),), b[key], after_programs)
                else:
                    walk(a[key], b[key], where + (str(key),))
        elif isinstance(a, list) and isinstance(b, list) and _identified(a) and _identified(b):
            olds = {identity(item): item for item in a}
            news = {identity(item): item for item in b}
            kept = [i for i in news if i in olds]
            if kept != [i for i in olds if i in news]:  # the same items in another order (a procedure's steps)
                lines = (f"- {', '.join(map(str, olds))}", f"+ {', '.join(map(str, news))}")
                changes.append(Change("changed", where, list(olds), list(news), lines))
            for ident in list(olds) + [i for i in news if i not in olds]:
                if ident not in news:
                    one_side("removed", where + (ident,), olds[ident], before_programs)
                elif ident not in olds:
                    one_side("added", where + (ident,), news[ident], after_programs)
                else:
                    walk(olds[ident], news[ident], where + (ident,))
        else:
            changes.append(Change("changed", where, a, b, (f"- {_plain(a)}", f"+ {_plain(b)}")))

    walk(old.rules.data, new.rules.data, ())
    return changes


def _show(value, where: tuple, programs: dict) -> list[str]:
    """An added or removed value, one field a line; programs in canonical form."""
    if where in programs:
        return programs[where].splitlines()
    if isinstance(value, dict):
        lines = []
        for key, v in value.items():
            if key in _HIDDEN:
                continue
            if (where + (str(key),)) in programs or isinstance(v, dict):
                lines.append(f"{key}:")
                lines += ["    " + line for line in _show(v, where + (str(key),), programs)]
            else:
                lines.append(f"{key}: {_plain(v)}")
        return lines
    return [_plain(value)]


def _plain(value) -> str:
    return value if isinstance(value, str) and "\n" not in value else json.dumps(value, ensure_ascii=False, default=str)


def _identified(items: list) -> bool:
    ids = [identity(item) for item in items]
    return None not in ids and len(set(ids)) == len(ids)


def _canonical(game: GameDef) -> dict[tuple, str]:
    """Canonical text of every effect-language text of the game, by its place named with ids."""
    out = {}
    for path, tree in game.sources:
        text = ast.format_source(tree)
        out[_named(game.rules.data, path)] = text.rstrip("\n")
    return out


def _named(data, path: tuple) -> tuple[str, ...]:
    """A rules path with list positions replaced by the ids of the items there."""
    named = []
    for key in path:
        if isinstance(data, list) and isinstance(key, int):
            data = data[key]
            ident = identity(data)
            named.append(ident if ident is not None else str(key))
        else:
            data = data[key]
            named.append(str(key))
    return tuple(named)


def format_changes(changes: list[Change], old_name: str, new_name: str) -> str:
    """The changes as text a designer reads top to bottom."""
    if not changes:
        return f"{new_name} says the same as {old_name}"
    lines = [f"from {old_name} to {new_name}: {len(changes)} change{'s' * (len(changes) != 1)}"]
    mark = {"added": "+", "removed": "-", "changed": "~"}
    for c in changes:
        lines.append(f"{mark[c.kind]} {' › '.join(c.where)}")
        lines += ["    " + line for line in c.lines]
    return "\n".join(lines)
