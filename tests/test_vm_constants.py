"""A function without parameters whose answer is the same in every game of the rules (it reads only constants,
boards, cards and other such functions) is worked out once as the game is lowered for the VM, and the game
plays as the reference plays it; a function that reads the game being played — a zone, a variable, ``me``,
the number of players — is still called each time.
"""

from __future__ import annotations

import json

import pytest
from test_vm_differential import mini, play, same_fault_on_every_backend

from engine.runtime.lower import Lowerer, ir_bytes

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

PLAY = """\
n = choose "pick" from more_evens()
xs = [mine(), seats(), counted(), n] + evens()
log "{xs}"
"""
FUNCTIONS = """\
functions:
  - id: evens
    returns: "list[int]"
    value: "[2 * x for x in range(4)] + [9]"
  - id: more_evens
    returns: "list[int]"
    value: "evens() + [10]"
  - id: mine
    returns: int
    value: "seat_number(me) + 1"
  - id: seats
    returns: int
    value: "num_players() * 10"
  - id: counted
    returns: int
    value: "size(deck)"
"""


def test_a_function_of_the_rules_alone_is_lowered_as_its_answer_and_one_of_the_game_is_still_called(tmp_path):
    game = mini(tmp_path, PLAY, FUNCTIONS)
    lowered = Lowerer(game)
    text = json.dumps(lowered.ir(), separators=(",", ":"))
    assert '["lit",[0,2,4,6,9]]' in text
    assert '["lit",[0,2,4,6,9,10]]' in text
    for name in ("mine", "seats", "counted"):
        assert f'["fn",{lowered.functions[name]},[]]' in text, name
    assert f'["fn",{lowered.functions["evens"]},' not in text


def test_a_game_whose_functions_are_lowered_as_their_answers_plays_as_the_reference(tmp_path):
    game = mini(tmp_path, PLAY, FUNCTIONS)
    vm_game = _vm.VmGame(ir_bytes(game))
    for seed in range(3):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        play(ref, vm, seed, every_step=True)
        assert ref.to_data() == json.loads(vm.to_json())
        assert ref.log[-1] in {f"1, 20, 0, {n}, 0, 2, 4, 6, 9" for n in (0, 2, 4, 6, 9, 10)}


def test_a_function_of_the_rules_alone_that_faults_faults_where_the_game_calls_it_as_on_the_reference(tmp_path):
    game = mini(
        tmp_path, "n = 1\nc = nobody()\n", "functions:\n  - {id: nobody, returns: card, value: 'card_named(\"x\")'}\n"
    )
    fault = same_fault_on_every_backend(game)
    assert "no card has the id 'x'" in fault.message
    assert (fault.line, fault.col) == (13, 3)  # c = nobody()
