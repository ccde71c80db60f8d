"""Data flows one way: a module never imports, even lazily, one that imports it."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"


def engine_imports(module: Path) -> set[str]:
    """Engine modules ``module`` imports anywhere in its text (relative imports, by their last name)."""
    found = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level > 0 and node.module:
            found.add(node.module.split(".")[-1])
        elif isinstance(node, ast.ImportFrom) and node.level > 0:
            found.update(a.name for a in node.names)
    return found


def test_the_saved_state_check_does_not_import_the_state():
    assert "state_check" in engine_imports(ENGINE / "state.py")
    assert "state" not in engine_imports(ENGINE / "state_check.py")
