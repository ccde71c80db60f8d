"""Under ``cards_in_logs: name`` the native VM's log lines name cards as the reference's do: by the names the
rules give them, alone, in lists and in records, while ids stay as they are."""

from __future__ import annotations

import json

import pytest
from language_helpers import write_game
from test_log_names import GAME
from test_vm_differential import play

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
