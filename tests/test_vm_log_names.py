"""Under ``cards_in_logs: name`` the native VM's log lines name cards as the reference's do: by the names the
rules give them, alone, in lists and in records, while ids stay as they are."""

from __future__ import annotations

import json

import pytest
from language_helpers import write_game
from test_log_names import GAME
from test_vm_differential import mini, play

from engine import load_game
from engine.runtime.lower import ir_bytes

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

SEVERAL = GAME.replace(
    "    items: [{id: big-disc, name: Big disc}]",
    "    items: [{id: big-disc, name: Big disc}, {id: dot, name: Small dot}]",
).replace(
    "  end_game\n",
    '  held = [{card: x, n: 1} for x in cards(pile)]\n  log "{cards(board)} and {held} and {top(board)}"\n  end_game\n',
)


@pytest.mark.parametrize("text", [GAME, SEVERAL], ids=["one card", "lists and records of cards"])
def test_the_vm_names_cards_in_logs_as_the_reference_does(tmp_path, text):
    game = load_game(write_game(tmp_path, text), reference=True)
    vm_game = _vm.VmGame(ir_bytes(game))
    for seed in range(3):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        play(ref, vm, seed, every_step=True)
        assert json.loads(vm.to_json()) == ref.to_data()
        copy = json.loads(vm.determinized(1, seed).to_json())
        assert copy == ref.determinized(1, seed).to_data()
    assert any("Big disc" in line for line in ref.log)
    assert all("big-disc" not in line for line in ref.log[1:])


LATER = """\
xs = [1, 2]
n = choose "pick" from [3, 4]
log "{xs} then {n} of {num_players}"
xs = xs + [n]
n = n + 10
log "{xs} then {n}"
n = choose "again" from [5, 6]
log "{xs} and {n}"
"""


def test_a_log_line_reads_as_its_values_were_when_it_was_written_also_once_saved_and_read_back(tmp_path):
    # The VM writes a line's words only when the line is read: what it printed must not change after.
    game = mini(tmp_path, LATER)
    vm_game = _vm.VmGame(ir_bytes(game))
    ref, vm = game.new_game(2, 0), vm_game.new_game(2, 0)
    ref.apply("pick 4")
    vm.apply("pick 4")
    again = vm_game.state_from_json(vm.to_json())  # its lines read back as text
    for state in (ref, vm, again):
        state.apply("again 5")
    said = [line for line in ref.log if ": " not in line]  # not the lines of the seats' choices
    assert said == ["1, 2 then 4 of 2", "1, 2, 4 then 14", "1, 2, 4 and 5"]
    assert json.loads(vm.to_json()) == ref.to_data() == json.loads(again.to_json())
