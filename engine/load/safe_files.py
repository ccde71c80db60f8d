"""The one home of how the engine reads and writes files it is told about.

Rule files name other files (includes, board files); saves name games. A name in a
file is data, not a licence to read anything: it must stay inside the game's own
folders (no absolute path, no ``..`` out, no symlink out), and what is read must be
a regular file, read in a bounded way (a device or a FIFO never blocks, ``/proc``
files that claim size 0 are still bounded). A refused file is never read, so no
message can echo its content.

Writes go to a temporary file in the same folder, synced, then renamed over the
target: an interrupt or a full disk leaves the previous file whole, never a
partial or empty one.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import stat
from collections.abc import Sequence
from pathlib import Path

from engine.errors import Diagnostic, LoadError, WriteError

__all__ = [
    "MAX_FILE_BYTES",
    "Refused",
    "find_inside",
    "home_of",
    "is_inside",
    "is_name",
    "read_text",
    "write_bytes",
    "write_text",
]

MAX_FILE_BYTES = 2_000_000
_CHUNK = 1 << 16
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


class Refused(Exception):
    """A name in a file that points outside the folders it may use (``code``, ``message``)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def is_name(text: object) -> bool:
    """True for a plain id (a game or variant name): no folder separators, no ``..``."""
    return isinstance(text, str) and _NAME.fullmatch(text) is not None and ".." not in text


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def is_inside(path: str | os.PathLike, roots: Sequence[str | os.PathLike]) -> bool:
    """True if ``path``, links followed, lies in one of ``roots`` (links followed too)."""
    real = os.path.realpath(path)
    return any(_within(real, os.path.realpath(root)) for root in roots)


READS: dict[str, str] | None = None  # while a cache entry is made: path → sha256 of every file read, or ABSENT
ABSENT = ""  # in READS: a file looked for and not found


def find_inside(name: str, roots: Sequence[Path]) -> Path | None:
    """The first existing ``root/name``, provided it stays inside one of ``roots``; None if none exists.

    Raises Refused (E108) for an absolute name, one that climbs out with ``..``, or one
    that is (or passes through) a symlink leading out of every root.
    """
    if os.path.isabs(name):
        raise Refused("E108", f"'{name}' is an absolute path; name files relative to the game's folder")
    for root in roots:
        if not _within(os.path.normpath(os.path.join(os.path.abspath(root), name)), os.path.abspath(root)):
            raise Refused("E108", f"'{name}' leads out of the game's folders")
    for root in roots:
        candidate = Path(root) / name
        if os.path.lexists(candidate):
            if not is_inside(candidate, roots):
                raise Refused("E108", f"'{name}' is a link that leads out of the game's folders")
            return candidate
        if READS is not None:  # a file made here later would be found first: a cached result must see it
            READS[os.path.abspath(candidate)] = ABSENT
    return None


def home_of(path: str | os.PathLike) -> list[str] | None:
    """The folder a game file (``game.yaml``) or a variant (``variants/*.yaml``) must stay in, links followed.

    That is its game's folder.  Other files are named by rule files (``find_inside`` keeps those
    in) or by the user, who may name any file: None.
    """
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.basename(path) == "game.yaml":
        return [folder]
    if os.path.basename(folder) == "variants":
        return [os.path.dirname(folder)]
    return None


def read_text(
    path: str | os.PathLike, shown: str, limit: int = MAX_FILE_BYTES, inside: Sequence[str | os.PathLike] = ()
) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes; LoadError at ``shown`` otherwise.

    With ``inside``, the file must lie in one of those folders, links followed (E108, unread).
    """

    def refuse(code: str, message: str) -> LoadError:
        return LoadError([Diagnostic(shown, 1, 1, code, message)])

    try:
        if inside and not is_inside(path, inside):
            raise refuse("E108", "is a link that leads out of the game's folder; it was not read")
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise refuse("E101", "is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise refuse("E109", "not a regular file (a device, FIFO or socket); it was not read")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between the two looks
                raise refuse("E109", "not a regular file (a device, FIFO or socket); it was not read")
            chunks, size = [], 0
            while size <= limit:
                chunk = os.read(fd, min(_CHUNK, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise refuse("E101", "file not found") from None
    except OSError as exc:
        raise refuse("E101", f"cannot read file: {exc.strerror}") from None
    except ValueError:  # a NUL in the name
        raise refuse("E101", "cannot read file: not a valid file name") from None
    if size > limit:
        raise refuse("E107", f"file is larger than {limit} bytes")
    data = b"".join(chunks)
    if READS is not None:
        READS[os.path.abspath(path)] = hashlib.sha256(data).hexdigest()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise refuse("E102", f"not UTF-8 text ({exc.reason})") from None


def write_text(path: str | os.PathLike, text: str) -> None:
    """Replace the file at ``path`` with ``text`` atomically (see ``write_bytes``)."""
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path: str | os.PathLike, data: bytes, durable: bool = True, mode: int | None = None) -> None:
    """Replace the file at ``path`` with ``data`` atomically; WriteError (one line) if it cannot be done.

    Only a regular file (or nothing) is replaced: a folder or a device such as
    /dev/full is refused rather than swapped for a file.  ``durable=False`` skips
    the syncs, for a cache whose entries carry their own MAC.  The file gets
    ``mode`` if given, else the replaced file's permissions, else the umask's.
    """
    target = os.path.realpath(path)  # through a symlink, keep the link and replace what it names
    try:
        info = os.stat(target)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise WriteError(f"{path}: cannot write: {exc.strerror}") from None
    else:
        if stat.S_ISDIR(info.st_mode):
            raise WriteError(f"{path}: is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise WriteError(f"{path}: not a regular file; only files are written")
        if mode is None:
            mode = stat.S_IMODE(info.st_mode)  # a replaced file keeps its permissions
    folder = os.path.dirname(target)
    tmp = os.path.join(folder, f".{os.path.basename(target)}.{secrets.token_hex(6)}.tmp")
    created = False
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(tmp, flags, 0o666 if mode is None else mode)  # a cache entry is never readable by others
        created = True
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            if durable:
                os.fsync(out.fileno())
        if mode is not None:
            os.chmod(tmp, mode)  # exactly, whatever the umask
        os.replace(tmp, target)
        created = False
    except OSError as exc:
        raise WriteError(f"{path}: cannot write: {exc.strerror or exc}") from None
    finally:
        if created:  # failed or interrupted: the previous file is untouched
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    if not durable:
        return
    with contextlib.suppress(OSError):  # make the rename itself durable
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
