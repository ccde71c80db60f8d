"""Which lint findings a project wants: ``[tool.tabletop.lint]`` in pyproject.toml and inline suppressions.

A rules repository keeps its choices beside its files, as it does for its other linters::

    [tool.tabletop.lint]
    select = ["W"]                 # codes or prefixes of codes to report (default: every warning)
    ignore = ["W303"]
    [tool.tabletop.lint.per-file-ignores]
    "rules/*/variants/*.yaml" = ["W306"]

and a single finding is silenced where it is, with the reason a reviewer needs::

    turns: {type: int}  # tabletop: ignore[W303] shown to the players, read by no rule

Only warnings can be silenced: an error means the game does not load, whatever the configuration says.
A suppression without a reason is itself a warning (W901).
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from engine.errors import Diagnostic, LoadError
from engine.load.documents import data_root
from engine.load.safe_files import read_text
from engine.tools.codes import CODES

__all__ = ["LintConfig", "file_of", "find_config", "reasonless", "suppressions"]

_KEYS = {"select", "ignore", "per-file-ignores"}
_SUPPRESSION = re.compile(r"#\s*tabletop:\s*ignore\[([^\]]*)\](.*)$")


@dataclass(frozen=True)
class LintConfig:
    """The choices of one pyproject.toml (or none: every warning is reported)."""

    root: Path | None = None  # the folder of the pyproject.toml; per-file patterns are relative to it
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def reports(self, d: Diagnostic) -> bool:
        """Whether ``d`` is reported: errors always; warnings as select, ignore and per-file-ignores say."""
        if d.is_error:
            return True
        if self.select and not d.code.startswith(self.select):
            return False
        if d.code.startswith(self.ignore):
            return False
        if self.per_file_ignores and self.root is not None:
            try:
                relative = file_of(d.path).resolve().relative_to(self.root).as_posix()
            except ValueError:  # a file outside the project: its patterns do not name it
                return True
            return not any(
                d.code.startswith(codes) and fnmatch.fnmatch(relative, pattern)
                for pattern, codes in self.per_file_ignores
            )
        return True


def find_config(start: Path) -> LintConfig:
    """The configuration of the nearest pyproject.toml at or above ``start``."""
    folder = start.resolve()
    if not folder.is_dir():
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        found = candidate / "pyproject.toml"
        if found.is_file():
            return _read(found)
    return LintConfig()


def _read(path: Path) -> LintConfig:
    def fail(message: str, line: int = 1, col: int = 1) -> LoadError:
        return LoadError([Diagnostic(str(path), line, col, "E110", message, hint="see `tabletop explain E110`")])

    try:
        data = tomllib.loads(read_text(path, str(path)))
    except tomllib.TOMLDecodeError as exc:
        where = re.search(r"line (\d+), column (\d+)", str(exc))
        raise fail(
            f"not valid TOML: {str(exc).split(' (at')[0]}", *(map(int, where.groups()) if where else ())
        ) from None
    table = data.get("tool", {}).get("tabletop", {}).get("lint", {})
    if not isinstance(table, dict):
        raise fail("[tool.tabletop.lint] must be a table")
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise fail(f"[tool.tabletop.lint] has no setting '{unknown[0]}' (known: {', '.join(sorted(_KEYS))})")
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise fail("[tool.tabletop.lint] per-file-ignores must be a table of pattern = [codes]")
    return LintConfig(
        path.parent.resolve(),
        _codes(table.get("select", []), "select", fail, errors_allowed=True),
        _codes(table.get("ignore", []), "ignore", fail),
        tuple((pattern, _codes(codes, f"per-file-ignores '{pattern}'", fail)) for pattern, codes in per_file.items()),
    )


def _codes(value, where: str, fail, errors_allowed: bool = False) -> tuple[str, ...]:
    """A list of codes or prefixes (W, W3, W306), each naming at least one known code."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise fail(f'[tool.tabletop.lint] {where} must be a list of codes, like ["W303"]')
    for code in value:
        if not any(known.startswith(code) for known in CODES) or not code:
            raise fail(f"[tool.tabletop.lint] {where}: no code starts with '{code}'")
        if code.startswith("E") and not errors_allowed:
            raise fail(
                f"[tool.tabletop.lint] {where}: '{code}' is an error; errors cannot be ignored "
                "(the game would not load)"
            )
    return tuple(value)


def file_of(shown: str) -> Path:
    """The file a diagnostic or document names (shown relative to the working folder or the data root)."""
    path = Path(shown)
    if path.is_absolute() or path.exists():
        return path
    return data_root() / path


def suppressions(lines: list[str], line: int) -> tuple[str, ...]:
    """Codes silenced for a finding at ``line`` (1-based): by a comment on that line, or on a line of its
    own just above it."""
    found: tuple[str, ...] = ()
    for i in (line - 1, line - 2):
        if 0 <= i < len(lines):
            match = _SUPPRESSION.search(lines[i])
            if match and (i == line - 1 or lines[i].lstrip().startswith("#")):
                found += tuple(c.strip() for c in match.group(1).split(",") if c.strip())
    return found


def reasonless(path: str, lines: list[str]) -> list[Diagnostic]:
    """W901 for each suppression comment that gives no reason."""
    out = []
    for number, text in enumerate(lines, 1):
        match = _SUPPRESSION.search(text)
        if match and not match.group(2).strip(" \t-—:;,."):
            out.append(
                Diagnostic(
                    path,
                    number,
                    match.start() + 1,
                    "W901",
                    f"'{match.group(0).strip()}' gives no reason",
                    "warning",
                    "say why after the codes: # tabletop: ignore[W303] shown to the players, read by no rule",
                )
            )
    return out
