"""One seat of a tabletop game as a Gymnasium environment, the other seats played by the engine's bots:
``make(game, players=…, seat=0, opponents="greedy")``.

The observation is ``{"observation": float32 tensor, "action_mask": int8 mask}`` (also in ``info``); an
action is an index into ``GameDef.action_space(players)``.  The reward is the seat's ``State.returns()``
at the end (win +1 at two players).  An illegal action raises IllegalAction (``illegal="raise"``) or
ends the episode as a loss (``illegal="lose"``).  The opponents (``engine.bots.make``) decide from what
their seats may know; each episode seeds them from its own seed.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.bots import make as make_bot
from engine.errors import IllegalAction, TabletopError
from engine.interop import library
from engine.interop.pettingzoo import Table

gymnasium: Any = library("gymnasium", "the Gymnasium adapter")

__all__ = ["TabletopEnv", "make"]

ILLEGAL = ("raise", "lose")


class TabletopEnv(gymnasium.Env):
    """Seat ``seat`` of a game against bots."""

    metadata: ClassVar[dict] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game,
        players=None,
        seat: int = 0,
        opponents="greedy",
        variant=None,
        illegal: str = "raise",
        max_decisions=None,
        render_mode=None,
    ):
        if illegal not in ILLEGAL:
            raise TabletopError(f"illegal= takes {' or '.join(ILLEGAL)}, not {illegal!r}")
        self.table = Table(game, players, variant, max_decisions)
        n = self.table.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise TabletopError(f"no seat {seat!r}: seats are 0…{n - 1}")
        kinds = [opponents] * n if isinstance(opponents, str) else list(opponents)
        if len(kinds) == n - 1:
            kinds.insert(seat, "")
        if len(kinds) != n:
            raise TabletopError(f"give one bot for all other seats or one for each of the {n - 1}, not {len(kinds)}")
        for s, kind in enumerate(kinds):
            if s != seat:
                make_bot(kind, s, 0, self.table.game)  # BotSpecError now, in one line, not at the first reset
        self.seat, self.kinds, self.illegal, self.render_mode = seat, kinds, illegal, render_mode
        self.observation_space = self.table.observation_space
        self.action_space = self.table.action_space
        self.bots: dict = {}

    def _observation(self) -> tuple[dict, dict]:
        seen = self.table.observe(self.seat)
        return seen, {"action_mask": seen["action_mask"]}

    def _opponents_play(self) -> None:
        """The bots act until this seat is to act or the game is over (or cut off)."""
        table = self.table
        while not table.state.is_terminal and not table.truncated and self.seat not in table.state.to_act:
            other = table.state.current_player
            table.state.apply(self.bots[other].act(table.state), seat=other)
            table.decisions += 1

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self.table.deal(game_seed)
        self.bots = {
            s: make_bot(kind, s, game_seed, self.table.game) for s, kind in enumerate(self.kinds) if s != self.seat
        }
        self._opponents_play()
        return self._observation()

    def step(self, action):
        table = self.table
        try:
            table.play(self.seat, action)
        except IllegalAction:
            if self.illegal == "raise":
                raise
            observation, info = self._observation()
            return observation, table.facts.min_utility, True, False, {**info, "illegal": True}
        self._opponents_play()
        observation, info = self._observation()
        reward = table.rewards()[self.seat]
        return observation, reward, table.state.is_terminal, table.truncated, info

    def render(self):
        return "\n".join(self.table.state.log[-5:])


def make(game, players=None, seat: int = 0, opponents="greedy", **kw) -> TabletopEnv:
    """Seat ``seat`` of ``game`` against ``opponents`` (one bot spec for all, or one per other seat)."""
    return TabletopEnv(game, players, seat, opponents, **kw)
