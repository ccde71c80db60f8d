"""Tabletop: tabletop games described as data and run by one interpreter.

from engine import load_game
game = load_game(name)            # a folder of rules/, or a path to a game.yaml
state = game.new_game(players=2, seed=7)
state.apply(state.legal_actions()[0])

The definitions, states and checks load on first use (PEP 562), so a command
that needs none of them (a ``tabletop validate`` answered from the cache) does
not pay for the YAML reader, the schemas, the parser and the graph library.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from engine.errors import (
    BudgetExceeded,
    Diagnostic,
    IllegalAction,
    LoadError,
    RulesError,
    RuntimeRuleError,
    StateError,
    TabletopError,
)

if TYPE_CHECKING:
    from engine.runtime.gamedef import GameDef, load_game
    from engine.runtime.state import ChanceEvent, ChanceNeeded, Outcome, State
    from engine.tools.validate import validate_paths

_LAZY = {
    "ChanceEvent": "runtime.state",
    "ChanceNeeded": "runtime.state",
    "GameDef": "runtime.gamedef",
    "load_game": "runtime.gamedef",
    "Outcome": "runtime.state",
    "State": "runtime.state",
    "validate_paths": "tools.validate",
}

__all__ = [
    "BudgetExceeded",
    "ChanceEvent",
    "ChanceNeeded",
    "Diagnostic",
    "GameDef",
    "IllegalAction",
    "LoadError",
    "Outcome",
    "RulesError",
    "RuntimeRuleError",
    "State",
    "StateError",
    "TabletopError",
    "load_game",
    "validate_paths",
]


def __getattr__(name: str):
    """The public names that live in heavier modules, imported when first asked for."""
    if name not in _LAZY:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value
