"""The VM's entry points take mutated input without harm: an IR (``VmGame(ir)``) or a saved state
(``state_from_json``) with bytes changed, a number nudged past a table's end, a part copied over another,
an item dropped or repeated, is either refused in one line or read, and then plays or fails with a rule or
state error of the VM's own (``VmError``, never an engine bug: what would meet one is refused): the process
never ends, no other exception escapes, nothing hangs (the step budget bounds every program).  Each mutant
``i`` is fixed by its seed; tests/test_vm_fuzz.py replaces parts by random JSON too.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from json_paths import part, places, replaced
from tool_helpers import load_tool

from engine import StateError, load_game
from engine.runtime.lower import ir_bytes

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")
program_gen = load_tool("program_gen")

MUTANTS = 300  # per case: a few seconds of CPU


NUDGES = (1, -1, 1000)
EXTREMES = (-1, 0, 2**16, 2**31, 2**32, 2**63 - 1, -(2**63), 2**64, 10**30)


def mutant(rnd: random.Random, data, paths: list, text: bytes) -> bytes:
    """One mutation of a JSON document: bytes changed, a number nudged, a part copied over another, an item
    dropped or repeated, a text changed, or a part replaced by a small value of another kind."""
    how = rnd.randrange(6)
    if how == 0:
        out = bytearray(text)
        for _ in range(rnd.randint(1, 4)):
            i = rnd.randrange(len(out))
            change = rnd.randrange(3)
            if change == 0:
                out[i] = rnd.randrange(256)
            elif change == 1:
                del out[i]
            else:
                out.insert(i, rnd.choice(b'[]{},:"0123456789-'))
        return bytes(out)
    path = rnd.choice(paths)
    old = part(data, path)
    if how == 1 and isinstance(old, int) and not isinstance(old, bool):
        new = rnd.choice([old + rnd.choice(NUDGES), rnd.choice(EXTREMES)])
    elif how == 2:
        new = copy.deepcopy(part(data, rnd.choice(paths)))
    elif how == 3 and isinstance(old, list) and old:
        new = old[: (k := rnd.randrange(len(old)))] + old[k + 1 :]
    elif how == 4 and isinstance(old, list) and old:
        new = [*old, copy.deepcopy(rnd.choice(old))]
    elif how == 5 and isinstance(old, str):
        new = rnd.choice(["", old + "x", "nowhere", "\u0000", "éé", "0"])
    else:
        new = rnd.choice([None, True, 0, -1, "", [], {}, [[]], 10**30])
    return json.dumps(replaced(data, path, new)).encode()


def played(state, rnd: random.Random) -> None:
    """Some random decisions, copies and reads: each works or fails with the VM's own error."""
    for _ in range(30):
        if state.is_terminal():
            state.outcome()
            state.scores()
            return
        actions = state.legal_actions()
        if not actions:
            return
        state.apply(rnd.choice(actions))
        if rnd.random() < 0.2:
            state.determinized(0, rnd.randrange(1000)).to_json()
        state.to_json()


def generated_game(tmp_path):
    """A generated game with dice, a house and a map that plays some eighty decisions."""
    folder = tmp_path / "rules" / "gen"
    folder.mkdir(parents=True)
    text = program_gen.ProgramGen(random.Random("5/60")).game()  # game 60 of seed 5, without a board
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return load_game(folder / "game.yaml", reference=True)


def game_of(name: str, tmp_path):
    return generated_game(tmp_path) if name == "generated" else load_game(name, reference=True)


GAMES = ["goofspiel", "cat-town", "generated"]


@pytest.mark.parametrize("name", GAMES)
def test_a_mutated_ir_is_refused_in_one_line_or_plays_failing_only_with_the_vms_errors(name, tmp_path):
    game = game_of(name, tmp_path)
    text = ir_bytes(game)
    data = json.loads(text)
    paths = list(places(data))
    seen: Counter = Counter()
    for i in range(MUTANTS):
        rnd = random.Random(f"ir/{name}/{i}")
        try:
            state = _vm.VmGame(mutant(rnd, data, paths, text)).new_game(game.min_players, i)
        except _vm.VmStateError as exc:
            assert "\n" not in str(exc), f"mutant {i}: {exc}"
            seen["refused"] += 1
            continue
        except _vm.VmEngineBug as exc:
            pytest.fail(f"mutant {i} was read, then met an engine bug: {exc}")  # it should have been refused
        except _vm.VmError:
            seen["failed"] += 1
            continue
        try:
            played(state, rnd)
            seen["played"] += 1
        except _vm.VmEngineBug as exc:
            pytest.fail(f"mutant {i} was read, then met an engine bug: {exc}")
        except _vm.VmError:
            seen["failed"] += 1
    assert seen["refused"] > MUTANTS // 4 and seen["played"] > MUTANTS // 10, seen


@pytest.mark.parametrize("name", GAMES)
def test_a_mutated_save_is_refused_in_one_line_or_plays_failing_only_with_the_vms_errors(name, tmp_path):
    game = game_of(name, tmp_path)
    vm_game = _vm.VmGame(ir_bytes(game))
    state, rnd = game.new_game(game.max_players, 3), random.Random(3)
    for _ in range(4):
        if state.is_terminal:
            break
        seat = state.to_act[0]
        state.apply(rnd.choice(state.legal_actions(seat)), seat=seat)
    text = state.to_json().encode()
    data = json.loads(text)
    paths = list(places(data))
    seen: Counter = Counter()
    for i in range(MUTANTS):
        rnd = random.Random(f"save/{name}/{i}")
        try:
            loaded = vm_game.state_from_json(mutant(rnd, data, paths, text).decode("utf-8", "replace"))
        except _vm.VmStateError as exc:
            assert "\n" not in str(exc), f"mutant {i}: {exc}"
            seen["refused"] += 1
            continue
        try:
            played(loaded, rnd)
            seen["played"] += 1
        except _vm.VmEngineBug as exc:
            pytest.fail(f"mutant {i} was read, then met an engine bug: {exc}")  # it should have been refused
        except _vm.VmError:
            seen["failed"] += 1
    assert seen["refused"] > MUTANTS // 4 and seen["played"] > MUTANTS // 10, seen


def cut_short(ir: dict, how: str) -> dict:
    if how == "a scorer's place without its column":
        ir["scoring"][0]["where"] = ir["scoring"][0]["where"][:1]
    elif how == "an assignment to nothing":
        code = next(ins for p in ir["procedures"] for ins in p["code"] if ins[0] == "assign")
        code[1] = []
    elif how == "an operation short of its arguments":
        node = next(part(ir, p) for p in places(ir) if _is_op(part(ir, p)))
        node[2] = node[2][:-1]
    elif how == "an assignment to a player variable of nobody":
        code = next(ins for p in ir["procedures"] for ins in p["code"] if ins[0] == "assign")
        code[1] = ["pvar"]
    elif how == "a loop stepped over a local its start does not keep":
        next(ins for p in ir["procedures"] for ins in p["code"] if ins[0] == "for_step")[1] = 0
    elif how == "a loop stepped over another loop's local":
        code = ir["procedures"][0]["code"]
        first, second, *_ = (ins for ins in code if ins[0] == "for_step")
        second[1] = first[1]
    elif how == "a jump into a loop's body from outside it":
        code = ir["procedures"][0]["code"]
        heads = [pc for pc, ins in enumerate(code) if ins[0] == "for_step"]
        next(ins for ins in code if ins == ["jump", heads[0]])[1] = heads[1] + 1  # the first loop's jump back
    elif how == "a repeat counted down in a local its start does not keep":
        next(ins for p in ir["procedures"] for ins in p["code"] if ins[0] == "repeat_step")[1] = 0
    elif how == "a jump past the end":
        code = ir["procedures"][1]["code"]
        next(ins for ins in code if ins[0] == "jump")[1] = len(code)
    elif how == "a program that runs past its end":
        ir["procedures"][0]["code"].pop()  # the setup's return, and the return's place in the rules
        ir["procedures"][0]["where"].pop()
    elif how == "a choice of every seat at once without its seats":
        chooses = (ins[1] for p in ir["procedures"] for ins in p["code"] if ins[0] == "choose")
        next(c for c in chooses if c["each"] is not None)["by"] = None
    return ir


def _is_op(node) -> bool:
    return isinstance(node, list) and len(node) == 3 and node[0] == "op" and isinstance(node[2], list) and node[2]


CUT_SHORT = [
    "a scorer's place without its column",
    "an assignment to nothing",
    "an assignment to a player variable of nobody",
    "an operation short of its arguments",
    # each of these was read, then met as an engine bug while playing (mutants of the tests above)
    "a loop stepped over a local its start does not keep",
    "a loop stepped over another loop's local",
    "a jump into a loop's body from outside it",
    "a repeat counted down in a local its start does not keep",
    "a jump past the end",
    "a program that runs past its end",
    "a choice of every seat at once without its seats",
]


@pytest.mark.parametrize("how", CUT_SHORT)
def test_an_ir_with_a_part_cut_short_is_refused_in_one_line_not_an_engine_bug(how):
    ir = cut_short(json.loads(ir_bytes(load_game("goofspiel", reference=True))), how)
    with pytest.raises(_vm.VmStateError) as info:
        _vm.VmGame(json.dumps(ir).encode())
    assert "\n" not in str(info.value) and str(info.value).startswith("IR refused")


def lying_save(save: dict, how: str, ir: dict) -> dict:
    zones = save["zones"]
    full = [z for z, cards in zones.items() if cards]
    if how == "a card taken out of its zone":
        zones[full[0]] = zones[full[0]][1:]
    elif how == "a card in two zones":
        zones[full[1]] = [*zones[full[1]], zones[full[0]][0]]
    elif how == "a frame past the end of its procedure":
        frame = save["stack"][0]
        frame[1] = next(len(p["code"]) for p in ir["procedures"] if p["name"] == frame[0])
    elif how == "a decision for a seat past the players":
        save["pending"]["player"] = save["players"]
    elif how == "who knows each card, one card too many":
        save["know"].append(0)
    return save


SAVES_THAT_LIE = {
    "a card taken out of its zone": "a card is nowhere",
    "a card in two zones": "a card is in two places",
    "a frame past the end of its procedure": "is outside 'play'",
    "a decision for a seat past the players": "a decision of no seat",
    "who knows each card, one card too many": "know is not one per card",
}


@pytest.mark.parametrize("how, said", SAVES_THAT_LIE.items(), ids=list(SAVES_THAT_LIE))
def test_a_save_that_cannot_be_a_state_of_the_game_is_refused_in_one_line_by_both_backends(how, said):
    """Read as it is, such a save would leave a card with no place, a frame with no instruction, a decision
    for nobody or who-knows-it for no card: the VM would then fail as an engine bug, or write back another save,
    not refuse this one."""
    game = load_game("goofspiel", reference=True)
    state = game.new_game(2, 3)
    ir = ir_bytes(game)
    text = json.dumps(lying_save(json.loads(state.to_json()), how, json.loads(ir)))
    with pytest.raises(StateError):
        type(state).from_json(game, text)
    with pytest.raises(_vm.VmStateError) as info:
        _vm.VmGame(ir).state_from_json(text)
    assert said in str(info.value) and "\n" not in str(info.value), str(info.value)
