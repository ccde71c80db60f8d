"""Clean results of checking a game, kept on disk so a second ``tabletop validate`` does no work.

An entry is keyed by the engine's own source, the checked file and the kind of
check; it lists every file the check read with the SHA-256 of its bytes (and
every file it looked for in vain).  It is used only when every one of those
files still has that content: a stale, unreadable or corrupt entry is ignored
and made again, never trusted.  Only clean results are kept (a result with
problems is worth recomputing).  The folder is ``$TABLETOP_CACHE``, else
``$XDG_CACHE_HOME/tabletop``, else ``~/.cache/tabletop``; ``compiled_cache`` keeps
compiled games beside these entries with the same keys and the same checks.

Both kinds of entry go through one store (``load``, ``store``) that trusts
nothing it did not sign: every entry carries an HMAC-SHA256 of its name and
payload under a key of 32 random bytes kept in the folder, readable by the
user alone, and an entry whose MAC does not verify is never unpickled nor
believed.  A folder that others could write (or that is not the user's) is
not used at all: anyone who can write it could swap the key.  The folder is
made 0700 and entries 0600, written whole by rename.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from engine.errors import WriteError
from engine.load import safe_files

_ENGINE = Path(__file__).resolve().parents[1]
_MAGIC = b"tabletop cache entry 1\n"
_MAC_LENGTH = 64  # hexadecimal digits of an HMAC-SHA256
_KEY_FILE, _KEY_BYTES = "key", 32
_fingerprint: str | None = None
_refused: set[str] = set()  # folders already said to be unsafe: one notice each per process


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


def load(place: Path) -> bytes | None:
    """The payload of the entry at ``place`` if this user's key signed it there, else None."""
    key = _key(place.parent, create=False)
    if key is None:
        return None
    try:
        data = place.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + _MAC_LENGTH
    if not data.startswith(_MAGIC) or data[head : head + 1] != b"\n":
        return None
    mac, payload = data[len(_MAGIC) : head], data[head + 1 :]
    return payload if hmac.compare_digest(mac, _mac(key, place.name, payload)) else None


def store(place: Path, payload: bytes) -> None:
    """Sign ``payload`` and write it at ``place``; best effort: a cache that cannot be written only costs time."""
    key = _key(place.parent, create=True)
    if key is None:
        return
    entry_bytes = _MAGIC + _mac(key, place.name, payload) + b"\n" + payload
    with suppress(WriteError):
        safe_files.write_bytes(place, entry_bytes, durable=False, mode=0o600)  # a torn entry fails its MAC


def _mac(key: bytes, name: str, payload: bytes) -> bytes:
    """Signs the name too: an entry copied over another's name is not that entry."""
    return hmac.new(key, name.encode() + b"\0" + payload, hashlib.sha256).hexdigest().encode()


def _key(where: Path, create: bool) -> bytes | None:
    """The user's key for the entries in ``where``, made if ``create``; None if there is none or ``where`` is unsafe."""
    try:
        if create:
            _make_folder(where)
        if not _private(where):
            return None
        path = where / _KEY_FILE
        key = _read_key(path)
        if key is None and create:
            _new_key(path)
            key = _read_key(path)
    except OSError:
        return None
    return key


def _make_folder(where: Path) -> None:
    """Make ``where`` and its missing parents 0700 (``mkdir(parents=True)`` makes parents by the umask)."""
    if where.is_dir():
        return
    _make_folder(where.parent)
    with suppress(FileExistsError):
        where.mkdir(mode=0o700)


def _private(where: Path) -> bool:
    """Whether ``where`` is a folder of this user's that no one else can write; if not, say so once."""
    try:
        info = os.stat(where)
    except FileNotFoundError:
        return False  # no cache yet
    if stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o022:
        return True
    if str(where) not in _refused:
        _refused.add(str(where))
        print(f"note: no cache used: {where} is not a folder that only you can write", file=sys.stderr)
    return False


def _read_key(path: Path) -> bytes | None:
    """The key at ``path`` if it is a regular file of this user's, of the right size, that no one else can read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
            return None
        key = f.read(_KEY_BYTES + 1)
    return key if len(key) == _KEY_BYTES else None


def _new_key(path: Path) -> None:
    """Make a key 0600, published whole by a link (no one reads it half written); a damaged one is replaced."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_bytes(_KEY_BYTES))
        if os.path.lexists(path):
            os.replace(tmp, path)  # every entry the old key signed is rebuilt
        else:
            with suppress(FileExistsError):  # another process made one meanwhile: theirs is used
                os.link(tmp, path)
    finally:
        with suppress(OSError):
            os.unlink(tmp)


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
    payload = load(place)
    try:
        if payload is not None and unchanged(json.loads(payload)["files"]):
            return []
    except (ValueError, KeyError, TypeError):
        pass  # signed by us, yet not an entry of this kind: check again
    with recording() as files:
        found = check()
    if not found and files:
        store(place, json.dumps({"files": files}).encode())
    return found
