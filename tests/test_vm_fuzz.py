"""The VM's entry points take hostile input without harm: an IR or a saved state with any part replaced is
either read (and then plays or fails with an error of the VM's own) or refused in one line; the process never
ends and no Python error other than the VM's escapes."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_paths import places, replaced

from engine import load_game
from engine.runtime.lower import ir_bytes

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

FUZZ = settings(max_examples=250, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


GAME = load_game("goofspiel", reference=True)
IR = json.loads(ir_bytes(GAME))
IR_PLACES = list(places(IR))
SAVED = GAME.new_game(2, 4)
SAVED.apply(SAVED.legal_actions()[0], seat=0)
STATE = SAVED.to_data()
STATE_PLACES = list(places(STATE))


def played(vm_state, seed: int) -> None:
    """A few random decisions: each either plays or fails with the VM's own error."""
    rnd = random.Random(seed)
    for _ in range(30):
        if vm_state.is_terminal():
            vm_state.outcome()
            return
        vm_state.apply(rnd.choice(vm_state.legal_actions()))


@FUZZ
@given(st.sampled_from(IR_PLACES), JUNK)
def test_an_ir_with_any_part_replaced_is_read_or_refused_in_one_line(path, junk):
    text = json.dumps(replaced(IR, path, junk)).encode()
    try:
        vm_game = _vm.VmGame(text)
    except _vm.VmStateError as exc:
        assert "\n" not in str(exc)
        return
    with contextlib.suppress(_vm.VmError):  # a rule failing on the odd values is the VM's own error
        played(vm_game.new_game(2, 1), 1)


@FUZZ
@given(st.sampled_from(STATE_PLACES), JUNK)
def test_a_saved_state_with_any_part_replaced_is_read_or_refused_in_one_line(path, junk):
    vm_game = _vm.VmGame(ir_bytes(GAME))
    try:
        vm_state = vm_game.state_from_json(json.dumps(replaced(STATE, path, junk)))
    except _vm.VmStateError as exc:
        assert "\n" not in str(exc)
        return
    with contextlib.suppress(_vm.VmError):
        vm_state.to_json()
        played(vm_state, 2)
