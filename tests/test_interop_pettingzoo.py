"""PettingZoo's own checks through the adapter on every game, variant and player count (the AEC
environment and the parallel one), and what an agent reads of a game."""

import numpy as np
import pytest

from engine.interop.pettingzoo import env, parallel_env
from tests.interop_helpers import BOUND, CELLS, SIMULTANEOUS, cell_id

test = pytest.importorskip("pettingzoo.test")

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's advice on Dict observation spaces


@pytest.mark.parametrize("cell", CELLS, ids=cell_id)
def test_the_aec_environment_passes_api_test(cell):
    name, variant, players = cell
    test.api_test(env(name, players=players, variant=variant, max_decisions=BOUND), num_cycles=BOUND)


@pytest.mark.parametrize("cell", CELLS, ids=cell_id)
def test_the_parallel_environment_passes_parallel_api_test(cell):
    name, variant, players = cell
    test.parallel_api_test(parallel_env(name, players=players, variant=variant, max_decisions=BOUND), num_cycles=BOUND)


@pytest.mark.parametrize("cell", SIMULTANEOUS, ids=cell_id)
def test_the_bidders_of_a_round_bid_in_one_parallel_step(cell):
    name, variant, players = cell
    table = parallel_env(name, players=players, variant=variant)
    observations, _ = table.reset(seed=3)
    assert all(o["action_mask"].any() for o in observations.values())  # every seat is asked at once
    actions = {agent: int(np.flatnonzero(o["action_mask"])[0]) for agent, o in observations.items()}
    table.step(actions)
    assert table.table.state.history[-1]["together"]  # the bids were shown together


def test_a_game_ends_with_zero_sum_rewards_and_every_agent_terminated():
    game = env("goofspiel", players=3)
    game.reset(seed=5)
    total = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        total[agent] += reward
        mask = observation["action_mask"]
        game.step(None if terminated or truncated else int(np.flatnonzero(mask)[-1]))
    assert sum(total.values()) == pytest.approx(0.0)
    assert not game.agents


def test_a_long_game_without_a_declared_bound_is_truncated():
    game = env("cats-mansion", players=2, max_decisions=5)
    game.reset(seed=1)
    for _ in range(5):
        game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0]))
    assert all(game.truncations.values()) and not any(game.terminations.values())
