"""Facts about a game at one table size, read from its rules once: what a learning or search tool must
know before it plays (OpenSpiel's game type, a PettingZoo environment's spaces, an episode's cap).

Derived, not declared, where the rules already say it: a zone hidden from a seat, a private player
variable or a secret choice makes information imperfect; a ``simultaneously`` choice makes decisions
simultaneous; an operation that draws at random (``shuffle``, ``random_from``) makes chance.  Only the
longest a game can last is declared (``max_decisions`` in the rules): a bound on a program's length is
not something the rules show.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.lang import ast
from engine.lang.ast import walk_blocks, walk_exprs
from engine.lang.ops import OPS

__all__ = ["GameInfo", "game_info"]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is like at ``players`` seats (``GameDef.info``)."""

    players: int
    perfect_information: bool  # every seat sees every card, variable and choice
    simultaneous: bool  # some decision is taken by several seats at once, in secret
    chance: bool  # the rules draw at random (shuffles, random picks) after the seed
    zero_sum: bool  # ``State.returns()`` add up to zero (always, by ``Outcome.returns``, but against a house)
    min_utility: float  # the least one seat's return can be: a loss
    max_utility: float  # the most: winning alone, ``players − 1`` (1 against a house)
    max_decisions: int | None  # the most decisions a game can take (declared in the rules), None if unbounded
    actions: int  # the size of ``GameDef.action_space(players)``

    def to_data(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__}


def _statements(stmts: list[ast.Stmt]):
    for block in walk_blocks(stmts):
        yield from block


def _expressions(source) -> list[ast.Expr]:
    """Every expression of a program or expression of the rules."""
    if isinstance(source, ast.Expr):
        return list(walk_exprs(source))
    found: list[ast.Expr] = []
    for s in _statements(source):
        for e in s.contents()[0]:
            found += walk_exprs(e)
    return found


def game_info(game, players: int) -> GameInfo:
    """The facts of ``game`` at ``players`` seats (its action space is worked out, so the count is checked)."""
    actions = len(game.action_space(players))
    programs = [source for _, source in game.sources]
    chooses = [s for p in programs if not isinstance(p, ast.Expr) for s in _statements(p) if isinstance(s, ast.Choose)]
    calls = {e.func for p in programs for e in _expressions(p) if isinstance(e, ast.Call)}
    drawing = {name for name in calls if name in OPS and (OPS[name].draws or name == "shuffle")}
    hidden = any(fam.visibility != "public" for fam in game.zone_families.values())
    secret = any(s.secret for s in chooses)
    return GameInfo(
        players=players,
        perfect_information=not (hidden or secret or game.private_player_variables),
        simultaneous=any(s.together for s in chooses),
        chance=bool(drawing),
        zero_sum=game.house is None,  # against a house, each seat wins or loses on its own
        min_utility=-1.0,
        max_utility=1.0 if game.house is not None else float(players - 1),
        max_decisions=game.max_decisions,
        actions=actions,
    )
