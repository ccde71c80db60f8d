"""Optional parts of the engine: a missing library is one line saying what to install, never a traceback."""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.errors import TabletopError


class MissingExtra(TabletopError):
    """An optional library (an extra of the package) is not installed."""


def optional_import(module: str, install: str, purpose: str) -> ModuleType:
    """``module``, imported; if it is missing, a MissingExtra saying what to ``pip install`` (an extra of the
    package such as ``'tabletop[cluster]'``, or a library that no extra needs to hold)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"{purpose} needs {module}, which is not installed: pip install {install}") from None
