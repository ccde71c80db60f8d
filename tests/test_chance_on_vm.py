"""Explicit chance on the VM: a tool that chooses what chance does (OpenSpiel's chance nodes, ``draws=``) plays the
reference's games on the VM — the same draws asked for, the same states, logs and views — and a call short of
outcomes, or given outcomes that do not fit, leaves the state as it was."""

from __future__ import annotations

import json
import random

import pytest
from test_state_on_vm import looks
from test_vm_differential import mini

from engine import IllegalAction, load_game
from engine.errors import RuntimeRuleError, StateError
from engine.runtime.state import ChanceNeeded

pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")
pyspiel = pytest.importorskip("pyspiel")
open_spiel = pytest.importorskip("engine.interop.open_spiel")

# Every shipped game that draws at random, Liar's Dice for its dice, at two table sizes
TABLES = [("cat-town", 2), ("cat-town", 4), ("caty-mini", 2), ("caty-mini", 3), ("cats-mansion", 2)]
TABLES += [("cats-mansion", 3), ("liars-dice", 2), ("liars-dice", 3)]
SEEDS = range(3)
DECISIONS = 60  # of each game compared (its setup and the draws of those decisions)


def node(state) -> dict:
    """What OpenSpiel reads of a node: who is to act, the chance event or the legal actions."""
    player = state.current_player()
    seen = {"player": player, "terminal": state.is_terminal()}
    if state.is_chance_node():
        seen["outcomes"] = state.chance_outcomes()
        seen["event"] = state.event
    elif not state.is_terminal():
        seen["legal"] = state.legal_actions()
    return seen


@pytest.mark.parametrize("name, players", TABLES, ids=[f"{n}-{p}p" for n, p in TABLES])
def test_the_open_spiel_games_with_chance_nodes_play_on_the_vm_as_on_the_reference(name, players):
    on_vm = open_spiel.load(load_game(name), players=players)
    on_python = open_spiel.load(load_game(name, vm=False), players=players)
    assert on_vm.rules.vm and not on_python.rules.vm
    chance_nodes = 0
    for seed in SEEDS:
        picks = random.Random(seed)
        st, ref = on_vm.new_initial_state(), on_python.new_initial_state()
        decisions = 0
        while decisions < DECISIONS and not ref.is_terminal():
            assert node(st) == node(ref)
            if ref.is_chance_node():
                chance_nodes += 1
                outcomes = ref.chance_outcomes()
                action = outcomes[picks.randrange(len(outcomes))][0]
            else:
                assert st.state.vm is not None, "the state is on the VM at every decision"
                assert looks(st.state) == looks(ref.state)
                action = picks.choice(ref.legal_actions())
                decisions += 1
            st.apply_action(action)
            ref.apply_action(action)
        assert node(st) == node(ref) and json.loads(st.state.to_json()) == json.loads(ref.state.to_json())
        assert st.state.vm is not None
    assert chance_nodes > 0


def drawn_apply(state) -> tuple[str, list[int]]:
    """An action of ``state`` whose step draws at random, and all the outcomes it draws (the last of each)."""
    for action in state.legal_actions():
        draws: list[int] = []
        while True:
            try:
                state.clone().apply(action, draws=draws)
                break
            except ChanceNeeded as need:
                draws.append(need.event.size - 1)
        if draws:
            return action, draws
    raise AssertionError("no action draws at random")


def played_to_a_draw(game, seed: int):
    """A game of ``game`` on the VM, played at random up to a decision whose step draws at random."""
    st, moves = game.new_game(2, seed), random.Random(seed)
    for _ in range(200):
        try:
            return st, *drawn_apply(st)
        except AssertionError:
            st.apply(moves.choice(st.legal_actions()))
    raise AssertionError("no draw at random in 200 decisions")


@pytest.mark.parametrize("name", ["cat-town", "liars-dice"])
def test_a_step_given_one_outcome_too_few_leaves_the_state_exactly_as_it_was(name):
    game, reference = load_game(name), load_game(name, vm=False)
    st, action, draws = played_to_a_draw(game, 1)
    ref = reference.state_from_json(st.to_json())
    assert st.vm is not None and ref.vm is None
    before, vm_before = looks(st), st.vm
    with pytest.raises(ChanceNeeded) as need:
        st.apply(action, draws=draws[:-1])
    with pytest.raises(ChanceNeeded) as ref_need:
        ref.apply(action, draws=draws[:-1])
    assert need.value.event == ref_need.value.event and str(need.value) == str(ref_need.value)
    assert st.vm is vm_before and looks(st) == before
    st.apply(action, draws=draws)
    ref.apply(action, draws=draws)
    assert st.vm is not None and looks(st) == looks(ref)


def test_outcomes_that_do_not_fit_a_step_are_refused_in_the_references_words_and_change_nothing():
    game, reference = load_game("cat-town"), load_game("cat-town", vm=False)
    st, action, draws = played_to_a_draw(game, 2)
    ref = reference.state_from_json(st.to_json())
    before = looks(st)
    wrong = [[*draws[:-1], draws[-1] + 1], [-1, *draws[1:]], [*draws, 0]]
    for outcomes in wrong:
        refused = []
        for state in (st, ref):
            with pytest.raises(StateError) as error:
                state.apply(action, draws=outcomes)
            refused.append(str(error.value))
        assert refused[0] == refused[1]
        assert st.vm is not None and looks(st) == before
    assert refused[-1] == "1 outcome(s) given but not drawn: the rules drew fewer times"


def test_a_setup_by_explicit_chance_runs_on_the_vm_and_asks_the_references_draws():
    game, reference = load_game("caty-mini"), load_game("caty-mini", vm=False)
    draws: list[int] = []
    while True:
        try:
            st = game.new_game(2, 0, draws=draws)
            break
        except ChanceNeeded as needed:
            with pytest.raises(ChanceNeeded) as ref_needed:
                reference.new_game(2, 0, draws=draws)
            assert needed.event == ref_needed.value.event
            draws.append(len(draws) % needed.event.size)
    assert draws and st.vm is not None
    assert looks(st) == looks(reference.new_game(2, 0, draws=draws))


OVERFLOW = """\
repeat 3:
    x = choose "side" from ["stay", "go"]
    n = random_from([1, 5, 10]) * 999999999999999999
"""


def test_a_step_by_explicit_chance_that_faults_is_the_references_fault_and_leaves_the_state_as_it_was(tmp_path):
    """Ten times 999,999,999,999,999,999 is past 64 bits: the draw of 10 faults, the draw of 1 does not."""
    path = mini(tmp_path, OVERFLOW).rules.folder / "game.yaml"
    faults = []
    for game in (load_game(path), load_game(path, vm=False)):
        st = game.new_game(2)
        before, go = st.to_json(), st.legal_actions()[1]
        with pytest.raises(RuntimeRuleError) as fault:
            st.apply(go, draws=[2])
        faults.append(fault.value.diagnostic)
        assert st.to_json() == before
        st.apply(go, draws=[0])  # the game goes on, back on the VM where it runs there
        assert (st.vm is not None) == game.vm
    assert faults[0] == faults[1] and "past" in faults[0].message


def test_an_illegal_action_by_explicit_chance_is_refused_in_the_references_words_and_changes_nothing():
    st, ref = load_game("cat-town").new_game(2, 5), load_game("cat-town", vm=False).new_game(2, 5)
    before = looks(st)
    refused = []
    for state in (st, ref):
        with pytest.raises(IllegalAction) as error:
            state.apply("no such action", draws=[0])
        refused.append(str(error.value))
    assert refused[0] == refused[1] and st.vm is not None and looks(st) == before
