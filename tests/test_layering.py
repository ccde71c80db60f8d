"""Data flows one way through engine/'s folders: every import, lazy ones included, goes down the order.

load → lang → boards → runtime → bots → lab → interop → tools → ui → web → cli.  ``errors`` is below all of them,
and the package's ``__init__`` (the public facade) above; within a stage modules may import each other,
but the whole graph has no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ENGINE = Path(__file__).resolve().parents[1] / "engine"
ORDER = [
    "errors",
    "extras",
    "load",
    "lang",
    "boards",
    "runtime",
    "bots",
    "lab",
    "interop",
    "tools",
    "ui",
    "web",
    "cli",
    "engine",
]


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in ENGINE.rglob("*.py")}


def imports_of(path: Path, known: set[str]) -> set[str]:
    """Engine modules ``path`` imports anywhere in its text, with ``from package import module`` resolved."""
    found = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in _executed(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "engine")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            if base.split(".")[0] != "engine":
                continue
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known)
    return found & known


def _executed(tree: ast.AST):
    """Every node that can run: the bodies of ``if TYPE_CHECKING:`` are for the type checker only."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            yield from (n for branch in node.orelse for n in [branch, *_executed(branch)])
            continue
        yield node
        yield from _executed(node)


def stage(module: str) -> int:
    parts = module.split(".")
    return ORDER.index(parts[1] if len(parts) > 1 else "engine")


def graph() -> nx.DiGraph:
    found = modules()
    g = nx.DiGraph()
    for name, path in found.items():
        g.add_node(name)
        g.add_edges_from((name, target) for target in imports_of(path, set(found)) if target != name)
    return g


def test_every_module_is_in_a_known_stage():
    assert len(modules()) > 40
    for name in modules():
        stage(name)  # raises ValueError for a folder the order does not name


def test_every_import_goes_down_the_order():
    g = graph()
    assert g.number_of_edges() > 100
    upward = [(a, b) for a, b in g.edges if stage(b) > stage(a)]
    assert upward == []


def test_the_import_graph_has_no_cycle():
    cycles = list(nx.simple_cycles(graph()))
    assert cycles == [], cycles[:3]


def test_at_most_six_modules_sit_directly_in_the_package():
    top = [p.name for p in ENGINE.glob("*.py")]
    assert len(top) <= 6, top


@pytest.mark.parametrize("lower", ["load", "lang", "boards"])
def test_nothing_below_the_runtime_imports_it(lower):
    g = graph()
    assert not [(a, b) for a, b in g.edges if a.startswith(f"engine.{lower}") and b.startswith("engine.runtime")]


def test_the_saved_state_check_does_not_import_the_state():
    g = graph()
    assert "engine.runtime.saved_state" in g.successors("engine.runtime.state")
    assert "engine.runtime.state" not in nx.descendants(g, "engine.runtime.saved_state")
