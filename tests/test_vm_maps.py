"""A map printed in a log line, alone or in a list or record, reads on the native VM as on the reference:
``{'red': 1, "it's": 2}``."""

from __future__ import annotations

import json

import pytest
from test_vm_differential import mini, play

from engine.runtime.lower import ir_bytes

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
    vm_game = _vm.VmGame(ir_bytes(game))
    for seed in range(4):
        ref, vm = game.new_game(2, seed), vm_game.new_game(2, seed)
        play(ref, vm, seed, every_step=True)
        assert json.loads(vm.to_json()) == ref.to_data()
    assert any("{'a': [1], 'b': []}" in line for line in ref.log)
