"""Compiled game definitions kept on disk, so a second load neither reads YAML, parses nor generates code.

An entry holds one clean ``GameDef`` with its generated functions, keyed like a
``cache`` entry (the engine's own source and schemas, the Python that
marshalled the code, the game and variant files, the overrides, the working
folder that the messages' paths are relative to) and valid only while every
file the build read (rules, includes, boards) still has the SHA-256 it had and
every file it looked for in vain is still missing.  Unpickling runs code, so
an entry goes through ``cache``'s signed store: nothing is unpickled
unless the user's own key signed it, and anything else (a stale, cut short,
forged or unreadable entry, or one holding another type) is rebuilt and
rewritten, never trusted.

Functions cannot be pickled by reference when they are generated (``codegen``)
or made inside another function (labels, checks); they are kept as their
marshalled code, their globals (a module by name, or the generated namespace,
itself kept once) and their closure cells.  The engine's classes, functions
and sentinels are kept by module and name, so they keep their identity.  This
is what ``__pycache__`` does for modules.
"""

from __future__ import annotations

import builtins
import io
import json
import marshal
import pickle
import sys
import types
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any, TypeVar

from engine.load import cache

T = TypeVar("T")
_PLAIN = (int, float, complex, str, bytes, bool, type(None), tuple, frozenset)  # nothing to keep the identity of


def key_of(*parts: object) -> tuple[str, ...]:
    """The parts of an entry's key besides the engine: the Python that marshalled the code, the folders, ``parts``."""
    where = (str(Path.cwd().resolve()), str(Path(__file__).resolve().parents[1]))  # messages' paths depend on both
    return (sys.version, *where, *(json.dumps(p, sort_keys=True, default=repr) for p in parts))


def cached(key: tuple[str, ...], build: Callable[[], T], kind: type[T]) -> T:
    """The ``kind`` a valid entry for ``key`` holds, else ``build()``'s result, kept if it can be."""
    place = cache.entry(*key, suffix=".game")
    found = _read(place, kind)
    if found is not None:
        return found
    with cache.recording() as files:
        made = build()
    if files:
        data = _dump(made)
        if data is not None:
            cache.store(place, json.dumps({"files": files}).encode() + b"\n" + data)
    return made


def _read(place: Path, kind: type[T]) -> T | None:
    """The ``kind`` in the entry at ``place``, or None if there is none that can be trusted."""
    payload = cache.load(place)  # signed by this user's key, so unpickling it runs only our own code
    if payload is None:
        return None
    header, _, data = payload.partition(b"\n")
    try:
        files = json.loads(header)["files"]
    except (ValueError, KeyError, TypeError):
        return None
    if not cache.unchanged(files):
        return None
    try:
        found = _Unpickler(io.BytesIO(data)).load()
    except Exception:  # signed by us, yet it cannot be read back: build instead
        return None
    if not isinstance(found, kind):
        return None
    cache.depend_on(files)
    return found


def _dump(obj: Any) -> bytes | None:
    """The pickled ``obj``, or None if some part of it cannot be kept (then nothing is cached)."""
    out = io.BytesIO()
    try:
        _Pickler(out).dump(obj)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return None
    return out.getvalue()


def _engine_globals() -> dict[int, tuple[str, ...]]:
    """id → ("engine", module, name) of the engine's classes, functions and sentinels; the builtins by a mark.

    Only these keep their identity by name: a module global holding data (a table, a
    cache) may hold something else by the time the entry is read, so data is kept by value.
    """
    found: dict[int, tuple[str, ...]] = {id(vars(builtins)): ("builtins", "dict"), id(builtins): ("builtins", "module")}
    for module_name, module in list(sys.modules.items()):
        if module is None or not _is_engine(module_name):
            continue
        for name, value in vars(module).items():
            if isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)) or type(value) is object:
                found.setdefault(id(value), ("engine", module_name, name))
    return found


def _is_engine(module_name: str) -> bool:
    return module_name == "engine" or module_name.startswith("engine.")


class _Pickler(pickle.Pickler):
    def __init__(self, out: io.BytesIO):
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self.known = _engine_globals()

    def persistent_id(self, obj: Any) -> tuple[str, ...] | None:
        return None if isinstance(obj, _PLAIN) else self.known.get(id(obj))

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, types.FunctionType):
            module = sys.modules.get(obj.__module__)
            if module is not None and getattr(module, obj.__qualname__, None) is obj:
                return NotImplemented  # a module's own function: pickled by name
            globals_ = (
                ("module", obj.__module__)
                if module is not None and obj.__globals__ is vars(module)
                else obj.__globals__
            )
            closure = tuple(obj.__closure__ or ())
            code = marshal.dumps(obj.__code__)
            return _function, (code, globals_, obj.__name__, obj.__defaults__, closure, obj.__kwdefaults__)
        if isinstance(obj, types.CellType):  # made empty, filled after: a closure that reaches itself pickles
            try:
                contents: tuple = (obj.cell_contents,)
            except ValueError:  # a variable not yet assigned
                contents = ()
            return _new_cell, (), contents, None, None, _fill_cell
        return NotImplemented


def _new_cell() -> types.CellType:
    return types.CellType()


def _fill_cell(cell: types.CellType, contents: tuple) -> types.CellType:
    if contents:
        cell.cell_contents = contents[0]
    return cell


def _function(code: bytes, globals_: Any, name: str, defaults, closure, kwdefaults) -> types.FunctionType:
    """A function rebuilt from its marshalled code (see the module docstring)."""
    if isinstance(globals_, tuple):
        globals_ = vars(import_module(globals_[1]))
    fn = types.FunctionType(marshal.loads(code), globals_, name, defaults, closure)
    fn.__kwdefaults__ = kwdefaults
    return fn


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        if pid[0] == "builtins":  # a namespace's __builtins__: the module, or its dict
            return builtins if pid[1] == "module" else vars(builtins)
        _, module_name, name = pid
        if not _is_engine(module_name):
            raise pickle.UnpicklingError(f"not an engine global: {module_name}")
        return getattr(import_module(module_name), name)
