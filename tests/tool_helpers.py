"""The maintainer tools of tools/ as modules, for the tests that drive them."""

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def load_tool(name: str):
    """tools/<name>.py as a module, without putting tools/ on sys.path."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO / "tools" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while the file runs
        spec.loader.exec_module(module)
    return sys.modules[name]
