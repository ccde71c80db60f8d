"""A map printed in a log line, alone or in a list or record, reads on the native VM as on the reference:
``{'red': 1, "it's": 2}``."""

from __future__ import annotations

import json

import pytest
from language_helpers import write_game
from test_language_maps import GAME as MAP_GAME
from test_vm_differential import mini, play, played_alike, same_fault_on_every_backend

from engine import RuntimeRuleError, load_game
from engine.runtime.lower import diagnostic_of, ir_bytes

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

PRINTED = """\
m = {"red": 1, "it's": 2}
more = {"a": [1], "b": []}
n = choose "keep" from [1, 2]
both = [m, {"b": n}]
held = {of: "it's", tally: m, seen: n == 1}
log "{m} {more} {both}"
log "{held}"
"""


def test_maps_print_alike_on_the_vm(tmp_path):
    game = mini(tmp_path, PRINTED)
    ref = played_alike(game, 4)
    assert any("{'a': [1], 'b': []}" in line for line in ref.log)


KEYED = """\
m = {"red": 1}
for k in ["blue", "red", "it's"]:
    m = with_key(m, k, index_of(["red", "blue"], k) + 3)
s = choose "suffix" from ["", "b", "red"]
made = "a" + s
m = with_key(m, made, 7)
m = with_key(m, "red" if made == "ared" else made, 8)
d = choose "drop" from ["blue", "ab", "none"]
gone = without_key(m, d)
kept = choose "keep" from ["red", "ab", "x"]
blue = get(gone, "blue")
has = "ab" in m
log "{m} {keys(gone)} {values(gone)} {get(m, made)} {blue} {has} {made in gone} {get(m, s)} {get(m, kept)} {gone == m}"
xs = [size(keys(m)), get(m, "red")]
n = choose "then" from [1, 2]
"""


def test_maps_with_keys_of_every_kind_play_alike_on_the_vm(tmp_path):
    """Keys written, made while playing ("a" + a choice) and set again keep the order they were first set
    in, print alike in logs and option ids, and go through saves both ways."""
    game = mini(tmp_path, KEYED)
    vm_game = _vm.VmGame(ir_bytes(game))
    lines = set()
    for seed in range(12):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        play(ref, vm, seed, every_step=True)
        assert json.loads(vm.to_json()) == ref.to_data()
        lines.update(line for line in ref.log if line.startswith("{"))
    assert any("'ab': 8" in line for line in lines) and any("'ared': 7" in line for line in lines), lines


def test_a_save_holding_a_key_made_while_playing_continues_on_the_other_backend(tmp_path):
    game = mini(tmp_path, KEYED)
    vm_game = _vm.VmGame(ir_bytes(game))
    ref = game.new_game(2, 0)
    ref.apply("suffix b")
    on_vm = vm_game.state_from_json(ref.to_json())
    assert json.loads(on_vm.to_json()) == ref.to_data()
    for state in (ref, on_vm):
        state.apply("drop ab")
        state.apply("keep ab")
    back = game.state_from_json(on_vm.to_json())
    assert back.to_data() == ref.to_data()
    assert back.log[-1].startswith("{'red': 3, 'blue': 4, \"it's\": 2, 'ab': 8} red, blue, it's 3, 4, 2 8 4 yes no")
    assert back.log[-1].endswith(" no"), "a map one key short of another is not equal to it"


UNWRITTEN = """\
s = choose "suffix" from ["x", "yy"]
made = "z" + s
m = with_key({"red": 1}, made, 7)
m = with_key(m, made, 8)
gone = without_key(m, made)
log "{m} {get(m, made)} {made in m} {gone} {made in gone} {keys(m)}"
n = choose "then" from [1, 2]
"""


def test_a_key_made_of_a_text_the_rules_never_write_is_set_again_found_and_dropped_alike_on_the_vm(tmp_path):
    """A key made while playing that is no text of the rules ("z" + a choice) is one key: set again, read,
    asked for and dropped as the reference's dict does."""
    ref = played_alike(mini(tmp_path, UNWRITTEN), 6)
    suffix = "x" if "suffix x" in [e.get("action") for e in ref.history] else "yy"
    assert f"{{'red': 1, 'z{suffix}': 8}} 8 yes {{'red': 1}} no red, z{suffix}" in ref.log


AS_ANY = "functions:\n  - id: as_any\n    params: {v: any}\n    returns: any\n    value: v\n"


@pytest.mark.parametrize(
    "program, said",
    [
        ('m = {"a": 1}\nm = with_key(m, none, 2)\n', "with_key: no key given"),
        ('m = {"a": 1}\nn = get(m, "a") + get(m, "b")\n', "'+' cannot combine a number and none"),
        ('m = {"a": 1}\nm = with_key(m, as_any(3), 2)\n', "with_key: a key is text, not a number"),
        ('m = {"a": 1}\nm = with_key(m, as_any(1 > 0), 2)\n', "with_key: a key is text, not true/false"),
        ('m = {"a": 1}\nm = with_key(m, as_any([1]), 2)\n', "with_key: a key is text, not a list"),
    ],
    ids=["no key", "no value", "a number passed as any", "a yes/no passed as any", "a list passed as any"],
)
def test_a_map_that_cannot_be_made_is_the_same_located_fault_on_the_vm(tmp_path, program, said):
    """A key whose type is ``any`` is checked when it is set: a map's keys are text on every backend."""
    game = mini(tmp_path, program, AS_ANY)
    assert said in same_fault_on_every_backend(game).message


@pytest.mark.parametrize("answer", ["add red", "add blue"])
def test_maps_keyed_by_an_enums_members_play_alike_on_the_vm(tmp_path, answer):
    """The language's own map game (test_language_maps): keys that are an enum's members, set, dropped and
    set again, read with get, keys, values and ``in``."""
    game = load_game(write_game(tmp_path, MAP_GAME), reference=True)
    ref, vm = game.new_game(2, 0), _vm.VmGame(ir_bytes(game)).new_game(2, 0)
    assert json.loads(vm.to_json()) == ref.to_data()
    ref.apply(answer)
    vm.apply(answer, None)
    assert json.loads(vm.to_json()) == ref.to_data() and ref.is_terminal and vm.is_terminal()
    assert ref.view(0)["variables"]["tally"] == ({"red": 9} if answer == "add red" else {"red": 1, "blue": 9})


def test_a_map_of_as_many_keys_as_the_size_budget_allows_takes_no_new_key_alike_on_the_vm(tmp_path):
    """A map of 100,000 keys (read from a save: a loop would copy it at each of 100,000 keys) is set again at a
    key it has, and a new key is the same located fault on both backends."""
    play = (
        'k = choose "key" from ["k1", "new"]\nm = with_key(m, k, 2)\nlog "{get(m, k)}"\nk = choose "then" from ["a"]\n'
    )
    game = mini(tmp_path, play, 'variables:\n  m: {type: "map[int]"}\n')
    data = game.new_game(2, 0).to_data()
    data["variables"]["m"] = {f"k{i}": 1 for i in range(100_000)}
    saved = json.dumps(data)
    vm_game = _vm.VmGame(ir_bytes(game))
    ref, vm = game.state_from_json(saved), vm_game.state_from_json(saved)
    ref.apply("key k1")
    vm.apply("key k1", None)
    assert json.loads(vm.to_json()) == ref.to_data() and ref.log[-1] == "2"
    ref, vm = game.state_from_json(saved), vm_game.state_from_json(saved)
    with pytest.raises(RuntimeRuleError) as ref_fault:
        ref.apply("key new")
    with pytest.raises(_vm.VmRuleError) as vm_fault:
        vm.apply("key new", None)
    assert "a map of more than 100,000 keys is over the size budget" in ref_fault.value.diagnostic.message
    assert diagnostic_of(vm_fault.value) == ref_fault.value.diagnostic
