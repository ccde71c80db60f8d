"""A tabletop game as a PettingZoo environment: ``env(game, players=…, variant=…)`` (AEC: the seats act in
turn, a simultaneous decision one seat after another, unseen) and ``parallel_env(…)`` (every seat to act
acts in one step: the seats of a simultaneous decision together, else the one seat deciding).

Agents are ``player_0``…; an action is an index into ``GameDef.action_space(players)``; an observation
is ``{"observation": float32 tensor (engine.runtime.observe), "action_mask": int8 mask}``.  Rewards are
``State.returns()`` at the end (zero-sum).  A game whose rules declare no ``max_decisions`` is
truncated after ``max_decisions`` decisions (a parameter).
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import numpy as np

from engine.interop import game_of, library
from engine.runtime import observe, rng

pettingzoo: Any = library("pettingzoo", "the PettingZoo adapter")
spaces: Any = library("gymnasium.spaces", "the PettingZoo adapter")

__all__ = ["CUT_OFF", "Table", "TabletopAEC", "TabletopParallel", "env", "parallel_env"]

CUT_OFF = 1000  # decisions after which a game whose rules declare no bound is truncated


class Table:
    """One game at a table, seen as agents see it: the engine's state, observations, masks and the cap."""

    def __init__(self, game, players: int | None, variant: str | None, max_decisions: int | None):
        self.game = game_of(game, variant)
        self.players = players or self.game.min_players
        self.facts = self.game.info(self.players)
        self.limit = self.facts.max_decisions or max_decisions or CUT_OFF
        self.space = self.game.action_space(self.players)
        self.encoding = observe.encoding(self.game, self.players)
        self.agents = [f"player_{p}" for p in range(self.players)]
        self.state = self.game.new_game(self.players)
        self.decisions = 0

    def deal(self, seed: int | None) -> None:
        self.state = self.game.new_game(self.players, seed=rng.fresh_seed() if seed is None else seed)
        self.decisions = 0

    def seat(self, agent: str) -> int:
        return self.agents.index(agent)

    def observe(self, seat: int) -> dict:
        mask = np.zeros(len(self.space), np.int8)
        mask[self.state.legal_action_indices(seat)] = 1
        return {"observation": self.encoding.encode(self.state, seat), "action_mask": mask}

    def play(self, seat: int, action) -> None:
        self.state.apply(self.space[int(action)], seat=seat)
        self.decisions += 1

    @property
    def truncated(self) -> bool:
        return not self.state.is_terminal and self.decisions >= self.limit

    def rewards(self) -> list[float]:
        return self.state.returns() if self.state.is_terminal else [0.0] * self.players

    @functools.cached_property
    def observation_space(self):
        return spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.encoding.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (len(self.space),), np.int8),
            }
        )

    @functools.cached_property
    def action_space(self):
        return spaces.Discrete(len(self.space))


class TabletopAEC(pettingzoo.AECEnv):
    """The seats act one at a time (``State.to_act``'s first): PettingZoo's agent-environment cycle."""

    metadata: ClassVar[dict] = {"render_modes": ["ansi"], "name": "tabletop", "is_parallelizable": False}

    def __init__(self, game, players=None, variant=None, max_decisions=None, render_mode=None):
        super().__init__()
        self.table = Table(game, players, variant, max_decisions)
        self.possible_agents = list(self.table.agents)
        self.render_mode = render_mode

    def observation_space(self, agent):
        return self.table.observation_space

    def action_space(self, agent):
        return self.table.action_space

    def observe(self, agent):
        return self.table.observe(self.table.seat(agent))

    def reset(self, seed=None, options=None):
        self.table.deal(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.table.state.current_player]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        table.play(table.seat(agent), action)
        self._cumulative_rewards[agent] = 0.0
        over, cut = table.state.is_terminal, table.truncated
        rewards = table.rewards()
        for seat, name in enumerate(self.agents):
            self.rewards[name] = rewards[seat]
            self.terminations[name] = over
            self.truncations[name] = cut
        self._accumulate_rewards()
        if not (over or cut):
            self.agent_selection = self.possible_agents[table.state.current_player]

    def render(self):
        return "\n".join(self.table.state.log[-5:])

    def close(self):
        """Nothing to release."""


class TabletopParallel(pettingzoo.ParallelEnv):
    """Every seat to act acts in one step (the others' actions, masked out, are ignored)."""

    metadata: ClassVar[dict] = {"render_modes": ["ansi"], "name": "tabletop"}

    def __init__(self, game, players=None, variant=None, max_decisions=None, render_mode=None):
        self.table = Table(game, players, variant, max_decisions)
        self.possible_agents = list(self.table.agents)
        self.agents = list(self.possible_agents)
        self.render_mode = render_mode

    def observation_space(self, agent):
        return self.table.observation_space

    def action_space(self, agent):
        return self.table.action_space

    def _observations(self) -> dict:
        return {agent: self.table.observe(self.table.seat(agent)) for agent in self.agents}

    def reset(self, seed=None, options=None):
        self.table.deal(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions):
        table = self.table
        for seat in table.state.to_act:
            table.play(seat, actions[self.agents[seat]])
        over, cut = table.state.is_terminal, table.truncated
        rewards = table.rewards()
        observations = self._observations()
        result: tuple[dict, ...] = (
            observations,
            {agent: rewards[table.seat(agent)] for agent in self.agents},
            dict.fromkeys(self.agents, over),
            dict.fromkeys(self.agents, cut),
            {agent: {} for agent in self.agents},
        )
        if over or cut:
            self.agents = []
        return result

    def render(self):
        return "\n".join(self.table.state.log[-5:])

    def close(self):
        """Nothing to release."""


def env(game, players: int | None = None, variant: str | None = None, max_decisions: int | None = None, **kw):
    """The AEC environment of ``game`` (a name, a path or a loaded GameDef) at ``players`` seats."""
    return TabletopAEC(game, players, variant, max_decisions, **kw)


def parallel_env(game, players: int | None = None, variant: str | None = None, max_decisions: int | None = None, **kw):
    """The parallel environment: the seats of a simultaneous decision choose in one step."""
    return TabletopParallel(game, players, variant, max_decisions, **kw)
