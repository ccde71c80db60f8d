"""Tabletop: tabletop games described as data and run by one interpreter.

from engine import load_game
game = load_game(name)            # a folder of rules/, or a path to a game.yaml
state = game.new_game(players=2, seed=7)
state.apply(state.legal_actions()[0])
"""

from .errors import (
    BudgetExceeded,
    Diagnostic,
    IllegalAction,
    LoadError,
    RulesError,
    RuntimeRuleError,
    StateError,
    TabletopError,
)
from .gamedef import GameDef, load_game, validate_paths
from .state import Outcome, State

__all__ = [
    "BudgetExceeded",
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
