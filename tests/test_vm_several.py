"""Choosing several things at once runs on the native VM as on the reference: the same option ids (members
in the order of their ids, ways that print alike one option), the chosen list stored, the same logs, saves
and determinized copies."""

from __future__ import annotations

import json
import random

import pytest
from language_helpers import write_game
from test_language_several import DICE
from test_vm_differential import play

from engine import RuntimeRuleError, load_game
from engine.runtime.lower import diagnostic_of, ir_bytes

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

GIFTS = """\
id: gifts
name: Gifts
players: {min: 2, max: 3}
components:
  - kind: chip
    start: box
    items: [{id: a}, {id: b}, {id: c}, {id: d}]
zones:
  - {id: hand, per: player, visibility: owner}
  - {id: pile, visibility: public}
  - {id: box, visibility: hidden}
player_variables:
  given: {type: int}
play: |
  shuffle(box)
  for p in players():
      move(top(box), hand(p))
  move_all(box, hand(me))
  given = choose "give" several from hand(me) where it.id != "d" secretly
  for c in given:
      move(c, pile)
  log "gave {given}"
  for p in players():
      shown = choose "show" several 1 to 2 from [size(hand(p)), 7, 7, 3] by p
      p.given = sum(shown)
  end_game
scoring:
  - {id: shown, points: p.given}
"""


def vm_of(tmp_path, text: str):
    game = load_game(write_game(tmp_path, text), reference=True)
    return game, _vm.VmGame(ir_bytes(game))


@pytest.mark.parametrize("text", [DICE, GIFTS], ids=["dice kept", "cards given"])
def test_choosing_several_plays_alike_on_the_vm(tmp_path, text):
    game, vm_game = vm_of(tmp_path, text)
    for seed in range(6):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        play(ref, vm, seed, every_step=True)
        assert json.loads(vm.to_json()) == ref.to_data()
        assert vm.outcome() == (list(ref.outcome.results), ref.outcome.reason)


def test_the_vm_offers_each_kept_set_once_its_members_in_id_order(tmp_path):
    text = DICE.replace("dice = [random_from(range(1, 7)) for i in range(5)]", "dice = [6, 2, 6, 1, 3]")
    game, vm_game = vm_of(tmp_path, text)
    ref, vm = game.new_game(2, 0), vm_game.new_game(2, 0)
    assert vm.legal_actions() == ref.legal_actions()
    assert len(vm.legal_actions()) == 24 and "keep 1, 2, 3, 6, 6" in vm.legal_actions()
    ref.apply("keep 6, 6")
    vm.apply("keep 6, 6", None)
    assert json.loads(vm.to_json()) == ref.to_data()


def test_a_list_chosen_is_saved_copied_and_continued_alike(tmp_path):
    game, vm_game = vm_of(tmp_path, GIFTS)
    ref, vm = game.new_game(3, 5), vm_game.new_game(3, 5)
    rnd = random.Random(5)
    while not ref.is_terminal:
        for seat in range(3):
            copy = json.loads(vm.determinized(seat, 9).to_json())
            assert copy == ref.determinized(seat, 9).to_data()
        vm = vm_game.state_from_json(json.dumps(ref.to_data()))
        action = rnd.choice(ref.legal_actions())
        ref.apply(action)
        vm.apply(action, None)
        assert json.loads(vm.to_json()) == ref.to_data()
    assert any(line.startswith("gave ") for line in ref.log)


@pytest.mark.parametrize(
    "bounds, said",
    [
        ("0 to 8", "choosing 0 to 8 of 14 items makes 12,911 options, more than 10,000"),
        # bounds past the items are held to none and all (the reference's `subsets`), and named so held
        ("-3 to 12", "choosing 0 to 12 of 14 items makes 16,369 options, more than 10,000"),
    ],
    ids=["within the items", "past them"],
)
def test_more_ways_than_a_decision_weighs_is_the_references_fault_on_the_vm(tmp_path, bounds, said):
    text = DICE.replace("for i in range(5)]", "for i in range(14)]").replace("0 to 5", bounds)
    game, vm_game = vm_of(tmp_path, text)
    with pytest.raises(RuntimeRuleError) as ref_fault:
        game.new_game(2, 0)
    with pytest.raises(_vm.VmRuleError) as vm_fault:
        vm_game.new_game(2, 0)
    assert said in str(ref_fault.value)
    assert diagnostic_of(vm_fault.value) == ref_fault.value.diagnostic


def test_bounds_past_the_items_choose_from_none_to_all_of_them_alike_on_the_vm(tmp_path):
    """The least to choose is at least none and the most at most all (the reference's `subsets`): bounds
    worked out past them offer every way between."""
    text = GIFTS.replace("several 1 to 2 from", "several size(pile) - 9 to 9 from")
    game, vm_game = vm_of(tmp_path, text)
    for seed in range(3):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        play(ref, vm, seed, every_step=True)
        assert json.loads(vm.to_json()) == ref.to_data()
    ref = game.new_game(2, 0)
    ref.apply(ref.legal_actions()[0])
    shown = ref.legal_actions()  # of [3, 7, 7, 3]: none to two threes with none to two sevens
    assert len(shown) == 9 and {"show nothing", "show 3, 3, 7, 7"} <= set(shown)
