"""OpenSpiel's own checks through the adapter: random simulations with serialization on every game, variant
and player count (simultaneous decisions both ways), and its IS-MCTS playing a game through it."""

import numpy as np
import pytest

from engine import load_game
from engine.interop.open_spiel import load
from tests.interop_helpers import BOUND, CELLS, SIMULTANEOUS, cell_id

FEWEST = [cell for cell in CELLS if cell[2] == min(c[2] for c in CELLS if c[:2] == cell[:2])]

pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize("cell", CELLS, ids=cell_id)
def test_random_simulation_with_serialization_passes(cell):
    name, variant, players = cell
    game = load(name, players=players, variant=variant, max_decisions=BOUND)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("cell", SIMULTANEOUS, ids=cell_id)
def test_a_simultaneous_decision_is_one_simultaneous_node(cell):
    name, variant, players = cell
    game = load(name, players=players, variant=variant, simultaneous=True, max_decisions=BOUND)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_simultaneous_node()


def test_the_game_states_its_facts():
    game = load("goofspiel", players=2)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.max_game_length() == 39  # declared in the rules
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert load("hex").get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION


def test_a_game_definition_given_is_the_one_played():
    rules = load_game("caty-mini", overrides={"constants.string_length": 900})
    game = load(rules, players=2)
    assert game.rules is rules
    assert game.new_initial_state().clone().get_game().rules is rules


def test_the_prizes_are_shuffled_by_explicit_chance_nodes():
    state = load("goofspiel", players=2).new_initial_state()
    sizes = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        sizes.append(len(outcomes))
        state.apply_action(outcomes[-1][0])
    assert sizes == list(range(13, 1, -1))  # one draw a place of the 13 diamonds, Fisher–Yates
    assert state.current_player() == 0


def test_a_copy_of_a_chance_node_sets_nothing_up_again_and_plays_on_alike(monkeypatch):
    """OpenSpiel copies a state (``child``, every search) by making an initial state and copying each attribute
    deeply: neither sets the game up again nor copies the outcomes drawn so far, which never change."""
    game = load("cat-town", players=2)
    state = game.new_initial_state()
    for outcome in range(5):
        state.apply_action(outcome)
    set_up: list = []
    monkeypatch.setattr(type(game.rules), "new_game", lambda *args, **kw: set_up.append(args))
    copy = state.clone()
    assert set_up == [] and copy.pending is state.pending and copy.event is state.event
    monkeypatch.undo()
    picks = np.random.default_rng(0)
    while state.is_chance_node():
        outcome = int(picks.integers(len(state.chance_outcomes())))
        for s in (state, copy):
            s.apply_action(outcome)
    assert not copy.is_chance_node() and copy.state.to_json() == state.state.to_json()


def test_a_resampled_state_is_one_the_seat_cannot_tell_apart():
    game = load("whist", players=4)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.is_chance_node():
        state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
    for _ in range(6):
        state.apply_action(int(rng.choice(state.legal_actions())))
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.legal_actions() == state.legal_actions()
    assert other.observation_tensor(seat) == state.observation_tensor(seat)
    assert other.observation_string((seat + 1) % 4) != state.observation_string((seat + 1) % 4)  # hands dealt again


def sampled(game, seed: int, samples: int = 25):
    """(state, seats) along a random game, chance nodes and the setup included, with every seat; each
    decision followed by a state resampled for the seat to act, with that seat (the copy is a state it
    cannot tell apart; not one of the others: their own log lines are not in it)."""
    state, rng = game.new_initial_state(), np.random.default_rng(seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    everyone = range(game.num_players())
    while not state.is_terminal() and samples:
        yield state, everyone
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            continue
        seat = state.current_player()
        yield state.resample_from_infostate(seat, sampler), [seat]
        state.apply_action(int(rng.choice(state.legal_actions())))
        samples -= 1


@pytest.mark.parametrize("cell", FEWEST, ids=cell_id)
def test_the_information_state_tensor_tells_apart_just_the_states_the_seat_tells_apart(cell):
    """Two states a seat cannot tell apart (the same information-state string) give it the same tensor;
    two it can, different tensors, and that without the information key's bits: the observation, the
    decisions as the seat knows them and the chance node's draws already tell them apart."""
    name, variant, players = cell
    game = load(name, players=players, variant=variant, max_decisions=BOUND)
    key = game.information.part("key")
    tensors: dict[str, bytes] = {}
    strings: dict[bytes, str] = {}
    for seed in range(3):
        for state, seats in sampled(game, seed):
            for seat in seats:
                text, tensor = state.information_state_string(seat), np.array(state.information_state_tensor(seat))
                assert tensor.shape == tuple(game.information_state_tensor_shape())
                assert tensors.setdefault(text, tensor.tobytes()) == tensor.tobytes(), "same string, other tensor"
                readable = np.delete(tensor, np.s_[key.offset : key.offset + key.size]).tobytes()
                assert strings.setdefault(readable, text) == text, "other strings, same tensor"
    assert len(tensors) > players * 10


def test_tabular_q_learning_reads_the_information_state_tensor():
    """OpenSpiel's RL environment hands its agents the information-state tensor (the game provides one);
    its tabular Q-learner keys what it learns by that tensor."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    game = load("goofspiel", players=2)
    env = rl_environment.Environment(game, seed=0)
    assert not env.use_observation
    assert env.observation_spec()["info_state"] == tuple(game.information_state_tensor_shape())
    actions = game.num_distinct_actions()
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=actions) for p in range(2)]
    for _ in range(3):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            step = env.step([agents[seat].step(step).action])
        for agent in agents:
            agent.step(step)
    assert len(agents[0]._q_values) > 10


def test_is_mcts_plays_a_game_through_the_adapter():
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("goofspiel", players=2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert sum(state.returns()) == 0 and max(state.returns()) >= 0
