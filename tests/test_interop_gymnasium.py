"""Gymnasium's env checker through the adapter on every game, variant and player count, and one seat
against the engine's bots."""

import numpy as np
import pytest

from engine.errors import IllegalAction, TabletopError
from engine.interop.gymnasium import make
from tests.interop_helpers import BOUND, CELLS, cell_id

env_checker = pytest.importorskip("gymnasium.utils.env_checker")

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # the checker's advice on unbounded boxes


@pytest.mark.parametrize("cell", CELLS, ids=cell_id)
def test_the_environment_passes_the_env_checker(cell):
    name, variant, players = cell
    # the checker steps with unmasked random actions: an illegal one ends the episode as a loss
    game = make(name, players=players, variant=variant, opponents="random", illegal="lose", max_decisions=BOUND)
    env_checker.check_env(game, skip_render_check=True)


def play(game, seed: int) -> float:
    observation, _ = game.reset(seed=seed)
    while True:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, reward, terminated, truncated, _ = game.step(action)
        if terminated or truncated:
            return reward


def test_the_seat_plays_a_whole_game_against_greedy_bots():
    reward = play(make("caty-mini", players=3, seat=1, opponents="greedy"), seed=2)
    assert reward in (-1.0, 0.5, 2.0)  # a loss, a win shared by two, a win alone (returns at 3 players)


def test_the_same_seed_plays_the_same_episode():
    assert play(make("goofspiel", opponents="greedy"), 7) == play(make("goofspiel", opponents="greedy"), 7)


def test_an_illegal_action_raises_or_loses_as_asked():
    strict, lenient = make("goofspiel", opponents="random"), make("goofspiel", opponents="random", illegal="lose")
    for game in (strict, lenient):
        observation, _ = game.reset(seed=1)
    wrong = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        strict.step(wrong)
    assert lenient.step(wrong)[1:3] == (-1.0, True)


def test_a_wrong_opponent_or_seat_is_one_line():
    with pytest.raises(TabletopError, match="unknown bot 'grredy'"):
        make("goofspiel", opponents="grredy")
    with pytest.raises(TabletopError, match="no seat 2"):
        make("goofspiel", seat=2)
