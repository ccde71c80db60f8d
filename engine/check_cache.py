"""Clean results of checking a game, kept on disk so a second ``tabletop validate`` does no work.

An entry is keyed by the engine's own source, the checked file and the kind of
check; it lists every file the check read with the SHA-256 of its bytes (and
every file it looked for in vain).  It is used only when every one of those
files still has that content: a stale, unreadable or corrupt entry is ignored
and made again, never trusted.  Only clean results are kept (a result with
problems is worth recomputing).  The folder is ``$TABLETOP_CACHE``, else
``$XDG_CACHE_HOME/tabletop``, else ``~/.cache/tabletop``; ``code_cache`` keeps
compiled games beside these entries with the same keys and the same checks.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from . import safe_files
from .errors import WriteError

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


def entry(*key: str, suffix: str = ".json") -> Path:
    """The file of the entry for ``key`` made by this engine."""
    name = hashlib.sha256("\0".join((engine_fingerprint(),) + key).encode()).hexdigest()
    return folder() / f"{name}{suffix}"


def _sha(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def unchanged(files: object) -> bool:
    """True if ``files`` (path → SHA-256, or ABSENT) is a non-empty record that every file still matches."""
    return (
        isinstance(files, dict)
        and bool(files)
        and all(isinstance(h, str) and _sha(f) == (h or None) for f, h in files.items())
    )


@contextmanager
def recording() -> Iterator[dict[str, str]]:
    """Collect the files read inside the block (also for an enclosing recording, so entries nest)."""
    outer, safe_files.READS = safe_files.READS, {}
    files = safe_files.READS
    try:
        yield files
    finally:
        safe_files.READS = outer
        if outer is not None:
            outer.update(files)


def depend_on(files: dict[str, str]) -> None:
    """Files that a result taken from another cache rests on: an enclosing recording gets them too."""
    if safe_files.READS is not None:
        safe_files.READS.update(files)


def checked(path: Path, kind: str, check: Callable[[], list]) -> list:
    """``check()``'s diagnostics for ``path``, or [] straight from a valid entry of an earlier clean check."""
    place = entry(str(Path(path).resolve()), kind)
    try:
        if unchanged(json.loads(place.read_text(encoding="utf-8"))["files"]):
            return []
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # no entry, or one that is not ours: check again
    with recording() as files:
        found = check()
    if not found and files:
        write(place, json.dumps({"files": files}).encode())
    return found


def write(place: Path, data: bytes) -> None:
    """Best effort: a cache that cannot be written only costs the next run its time."""
    try:
        place.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        safe_files.write_bytes(place, data, durable=False)  # a torn entry fails its checks
    except (OSError, WriteError):
        pass
