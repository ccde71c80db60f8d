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


ARGUMENTS = """\
functions:
  - id: always
    params: {p: player}
    returns: bool
    value: "true"
  - id: ways
    params: {p: player}
    returns: "list[int]"
    value: "[1, 2, 3] if always(p) else [4]"
  - id: twice
    params: {k: int}
    returns: int
    value: "k * 2"
"""
FOLDED = """\
n = choose "pick" from [twice(3), 1]
xs = [k * 5 for k in ways(me)] + [twice(n), twice(size(deck))]
log "{xs}"
"""


def test_a_call_whose_answer_needs_no_argument_of_the_game_and_a_comprehension_over_it_are_lowered_as_their_answer(
    tmp_path,
):
    game = mini(tmp_path, FOLDED, ARGUMENTS)
    lowered = Lowerer(game)
    text = json.dumps(lowered.ir(), separators=(",", ":"))
    assert '["lit",[5,10,15]]' in text  # `ways(me)`: `always` needs nothing of its seat, so neither does `ways`
    assert '["list",[["lit",6],["lit",1]]]' in text  # twice(3): its argument is the same in every game
    twice = lowered.functions["twice"]
    assert f'["fn",{twice},[["var","n"]]]' in text and f'["fn",{twice},[["op","size"' in text
    assert f'["fn",{lowered.functions["ways"]},' not in text
    vm_game = _vm.VmGame(ir_bytes(game))
    for seed in range(3):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        play(ref, vm, seed, every_step=True)
        assert ref.to_data() == json.loads(vm.to_json())
        assert ref.log[-1] in ("5, 10, 15, 12, 0", "5, 10, 15, 2, 0")


@pytest.mark.parametrize(
    "play_text",
    [
        "xs = [1 // (k - k) for k in ways(me)]\n",  # the same in every game, but a fault: left for the game to meet
        "n = 1\nn = 0 if always(item(players(), 1 // (n - n))) else 1\n",  # not needed, still worked out
    ],
    ids=["a comprehension that faults", "an argument not needed that faults"],
)
def test_what_would_fault_is_not_lowered_as_an_answer_and_faults_where_the_game_runs_it(tmp_path, play_text):
    fault = same_fault_on_every_backend(mini(tmp_path, play_text, ARGUMENTS))
    assert "by zero" in fault.message, fault.message
