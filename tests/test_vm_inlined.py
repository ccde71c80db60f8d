"""Calls of small functions — one expression, even one calling other small functions — run on the VM without a
frame of their own, and still give the reference's values and faults."""

from __future__ import annotations

import json

import pytest
from test_vm_differential import mini, play, same_fault_on_every_backend

from engine import RuntimeRuleError
from engine.runtime.lower import ir_bytes

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

SMALL = """\
functions:
  - id: twice
    params: {k: int}
    returns: int
    value: "k + k"
  - id: four_times
    params: {k: int}
    returns: int
    value: "twice(twice(k)) if k > 0 else twice(k) - 1"
  - id: small
    params: {k: int}
    returns: bool
    value: "four_times(k) < 9"
"""


def test_small_functions_calling_small_functions_give_the_references_values(tmp_path):
    game = mini(
        tmp_path, 'n = choose "pick" from [0, 1, 2, 3]\nxs = [four_times(n), twice(n)]\nlog "{small(n)} {xs}"\n', SMALL
    )
    vm_game = _vm.VmGame(ir_bytes(game))
    logs = set()
    for seed in range(8):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        play(ref, vm, seed, every_step=True)
        assert ref.to_data() == json.loads(vm.to_json())
        logs.add(ref.log[-1])
    assert logs >= {"yes -1, 0", "no 12, 6"}


WHERE = """\
functions:
  - id: place
    params: {c: card}
    returns: text
    value: "key_of(zone_of(c))"
  - id: count_of
    params: {c: card}
    returns: int
    value: "size(zone_of(c))"
  - id: first_then
    params: {k: int, j: int}
    returns: int
    value: "k + j"
"""


@pytest.mark.parametrize(
    "program, rules, said",
    [
        ("if n > 5:\n    m = 1\nn = 1 if small(m) else 2\n", SMALL, "'m' has no value yet"),
        ('n = 1\nlog "{place(top(deck))}"\n', WHERE, "zone 'deck' is empty"),
        ("if n > 5:\n    m = 1\nn = first_then(count_of(top(deck)), m)\n", WHERE, "zone 'deck' is empty"),
    ],
    ids=["a local with no value yet", "an argument that faults", "an argument read before a local with no value"],
)
def test_a_small_function_inlined_faults_where_and_as_the_reference_does(tmp_path, program, rules, said):
    """Its arguments are read in order before its expression, even a local it never reads, as a call reads them."""
    assert said in same_fault_on_every_backend(mini(tmp_path, program, rules)).message


REPEATS = """\
functions:
  - id: spread
    params: {k: int}
    returns: "list[int]"
    value: "[i * k + i * k for i in range(3)] + [size(range(k)) + size(range(k))]"
  - id: both
    params: {k: int}
    returns: int
    value: "(size(zone_of(top(deck))) if k > 1 else 0) + (size(zone_of(top(deck))) if k > 2 else 0)"
"""


def test_a_function_repeating_an_expression_gives_the_references_values_and_faults(tmp_path):
    game = mini(tmp_path, 'n = choose "pick" from [0, 1, 2]\nxs = spread(n)\nn = both(n)\nlog "{xs}"\n', REPEATS)
    vm_game = _vm.VmGame(ir_bytes(game))
    logs = set()
    for seed in range(8):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        try:
            play(ref, vm, seed, every_step=True)
        except RuntimeRuleError:
            assert "'deck' is empty" in same_fault_on_every_backend(game, then=lambda s: s.apply("pick 2")).message
            continue
        logs.add(ref.log[-1])
    assert logs == {"0, 0, 0, 0", "0, 2, 4, 2"}


RANKED = """\
zones:
  - {id: hand, per: player, visibility: owner}
components:
  - kind: card
    attributes:
      rank: int
    start: hand(first(players()))
    items:
      - {id: low, rank: 2}
      - {id: high, rank: 7}
play: |
  k = top(hand(me)).rank + first([c for c in cards(hand(me)) if c.rank > 5]).rank
  log "{k}"
  k = first([c for c in cards(hand(me)) if c.rank > 9]).rank
"""


def test_an_attribute_of_a_card_worked_out_is_read_and_of_no_card_faults_as_on_the_reference(tmp_path):
    from test_language import make_game

    game = make_game(tmp_path, RANKED)
    fault = same_fault_on_every_backend(game)
    assert (fault.line, fault.col) == (17, 3), fault
    assert fault.message.startswith("no card to read 'rank' of")
