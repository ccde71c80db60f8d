"""Clean results of checking a game, kept on disk so a second ``tabletop validate`` does no work.

An entry is keyed by the engine's own source, the checked file and the kind of
check; it lists every file the check read with the SHA-256 of its bytes.  It
is used only when every one of those files still has that content: a stale,
unreadable or corrupt entry is ignored and made again, never trusted.  Only
clean results are kept (a result with problems is worth recomputing, and a
file that was missing then is not among the files read).  The folder is
``$TABLETOP_CACHE``, else ``$XDG_CACHE_HOME/tabletop``, else ``~/.cache/tabletop``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

from . import safe_files

_ENGINE = Path(__file__).resolve().parent
_fingerprint: str | None = None


def folder() -> Path:
    """Where entries are kept."""
    if os.environ.get("TABLETOP_CACHE"):
        return Path(os.environ["TABLETOP_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "tabletop"


def engine_fingerprint() -> str:
    """SHA-256 of the engine's code, grammar and schemas: a new engine never reads an old entry."""
    global _fingerprint
    if _fingerprint is None:
        digest = hashlib.sha256()
        files = sorted(p for p in _ENGINE.rglob("*") if p.suffix in (".py", ".lark"))
        files += sorted((_ENGINE.parent / "schemas").glob("*.json"))
        for path in files:
            digest.update(str(path.relative_to(_ENGINE.parent)).encode() + b"\0" + path.read_bytes())
        _fingerprint = digest.hexdigest()
    return _fingerprint


def _sha(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def checked(path: Path, kind: str, check: Callable[[], list]) -> list:
    """``check()``'s diagnostics for ``path``, or [] straight from a valid entry of an earlier clean check."""
    key = hashlib.sha256(f"{engine_fingerprint()}\0{Path(path).resolve()}\0{kind}".encode()).hexdigest()
    entry = folder() / f"{key}.json"
    try:
        files = json.loads(entry.read_text(encoding="utf-8"))["files"]
        if isinstance(files, dict) and files and all(isinstance(h, str) and _sha(f) == h for f, h in files.items()):
            return []
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # no entry, or one that is not ours: check again
    outer, safe_files.READS = safe_files.READS, {}
    try:
        found = check()
        files = safe_files.READS
    finally:
        safe_files.READS = outer
    if outer is not None:
        outer.update(files)
    if not found and files:
        _write(entry, json.dumps({"files": files}))
    return found


def _write(entry: Path, text: str) -> None:
    """Best effort: a cache that cannot be written only costs the next run its time."""
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary = entry.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, entry)
    except OSError:
        pass
