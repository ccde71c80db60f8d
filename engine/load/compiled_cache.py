"""Checked games kept on disk, so a second load neither reads YAML nor parses nor checks the rules.

An entry holds one ``gamedef.Checked``: the game's facts and tables and its
effect-language texts parsed and checked, plain data with no code in it (the
load compiles the texts to closures again, which costs a few milliseconds).
It is keyed like a ``cache`` entry (the engine's own source and schemas, the
Python that pickled it, the game and variant files, the overrides, the working
folder that the messages' paths are relative to) and valid only while every
file the build read (rules, includes, boards) still has the SHA-256 it had and
every file it looked for in vain is still missing.  An entry goes through
``cache``'s signed store: nothing is unpickled unless the user's own key signed
it, and anything else (a stale, cut short, forged or unreadable entry, or one
holding another type) is rebuilt and rewritten, never trusted.  Even a signed
entry names no class or function outside the engine but paths and fractions:
the unpickler refuses any other, and nothing pickled is code (a function made
at run time cannot be pickled at all, so a game holding one is not kept).
Bytes worked out later from what an entry holds (the game's IR for the native VM)
are added to that entry once, signed with it, so no later load works them out again.
"""

from __future__ import annotations

import io
import json
import pickle
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from engine.load import cache

T = TypeVar("T")


def key_of(*parts: object) -> tuple[str, ...]:
    """The parts of an entry's key besides the engine: the Python that pickled it, the folders, ``parts``."""
    where = (str(Path.cwd().resolve()), str(Path(__file__).resolve().parents[1]))  # messages' paths depend on both
    return (sys.version, *where, *(json.dumps(p, sort_keys=True, default=repr) for p in parts))


@dataclass
class Entry(Generic[T]):
    """What an entry holds, or was built for it: ``value``, and ``later``, the bytes worked out from it after the
    entry was made (None until ``keep_later`` gives them)."""

    value: T
    later: bytes | None
    place: Path
    files: dict[str, str] = field(repr=False)  # what the value rests on; {} when it is not kept
    data: bytes | None = field(repr=False)  # the pickled value; None when it is not kept

    def keep_later(self, later: bytes) -> None:
        """Add ``later`` to the entry beside its value (the same files and the same validity)."""
        self.later = later
        if self.files and self.data is not None:
            _write(self.place, self.files, self.data, later)


def cached(key: tuple[str, ...], build: Callable[[], T], kind: type[T]) -> Entry[T]:
    """The ``kind`` a valid entry for ``key`` holds, else ``build()``'s result, kept if it can be."""
    place = cache.entry(*key, suffix=".game")
    found = _read(place, kind)
    if found is not None:
        return found
    with cache.recording() as files:
        made = build()
    data = _dump(made) if files else None
    if data is not None:
        _write(place, files, data, None)
    return Entry(made, None, place, files, data)


def _write(place: Path, files: dict[str, str], data: bytes, later: bytes | None) -> None:
    """The entry: a header line (the files, how many bytes at the end are ``later``), the pickle, ``later``."""
    header = {"files": files, "later": None if later is None else len(later)}
    cache.store(place, json.dumps(header).encode() + b"\n" + data + (later or b""))


def _read(place: Path, kind: type[T]) -> Entry[T] | None:
    """What the entry at ``place`` holds, or None if there is none that can be trusted."""
    payload = cache.load(place)  # signed by this user's key
    if payload is None:
        return None
    head, _, rest = payload.partition(b"\n")
    try:
        header = json.loads(head)
        files, size = header["files"], header.get("later")
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if not cache.unchanged(files):
        return None
    if size is None:
        data, later = rest, None
    elif isinstance(size, int) and 0 <= size <= len(rest):
        data, later = rest[: len(rest) - size], rest[len(rest) - size :]
    else:
        return None
    try:
        found = _Unpickler(io.BytesIO(data)).load()
    except Exception:  # signed by us, yet it cannot be read back: build instead
        return None
    if not isinstance(found, kind):
        return None
    cache.depend_on(files)
    return Entry(found, later, place, files, data)


def _dump(obj: Any) -> bytes | None:
    """The pickled ``obj``, or None if some part of it cannot be kept as data (then nothing is cached)."""
    try:
        return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return None


_VALUES = frozenset((("pathlib", "PosixPath"), ("pathlib", "WindowsPath"), ("fractions", "Fraction")))  # plain values


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        """Only the engine's own classes and constructors and a few plain values, by name: nothing else."""
        if module != "engine" and not module.startswith("engine.") and (module, name) not in _VALUES:
            raise pickle.UnpicklingError(f"not a name an entry may hold: {module}.{name}")
        return super().find_class(module, name)
