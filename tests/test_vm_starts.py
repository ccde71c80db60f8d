"""Cards placed at random at the start (a kind's ``start: random_from([...])``) are dealt by the VM as by the
reference: the same seed deals the same game (the draws in the history too), every seat knows what its
zones show, a save continues on the other backend, and every seat's determinized copy is the reference's.
A start that fails when it is drawn is the same located fault."""

from __future__ import annotations

import json
import random
import textwrap

import pytest
from test_vm_differential import play, same_fault_on_every_backend

from engine import load_game
from engine.errors import StateError
from engine.runtime.lower import ir_bytes

_vm = pytest.importorskip("engine._vm", reason="the native VM is not built (pip install -e .)")

DEALT = """\
id: dealt
name: Dealt
players: {min: 2, max: 3}
zones:
  - {id: left, visibility: hidden}
  - {id: right, visibility: top}
  - {id: hand, per: player, visibility: owner}
  - {id: pile, visibility: public}
components:
  - kind: stone
    start: "random_from([left, right, hand(first(players()))])"
    items:
      - {id: grey, name: Grey stone, copies: 3}
      - {id: white, name: White stone, copies: 2}
  - kind: coin
    start: left
    items:
      - {id: gold}
      - {id: copper, copies: 2}
play: |
  shuffle(left)
  repeat 3:
      for p in players():
          c = choose "take" from cards(left) + cards(right) + cards(pile) by p secretly
          move(c, hand(p))
          log "{p} took {c}"
          if size(hand(p)) > 1:
              move(top(hand(p)), pile)
scoring:
  - {id: held, points: "size(hand(me))"}
"""


def dealt(tmp_path, text: str = DEALT):
    folder = tmp_path / "rules" / "dealt"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    game = load_game(folder / "game.yaml", reference=True)
    return game, _vm.VmGame(ir_bytes(game))


def copy_or_refusal(state, seat: int, seed: int) -> dict | str:
    """``state.determinized(seat, seed)``'s data, or the message refusing it: a deal that cannot agree with
    what the seat knows is refused alike on both backends."""
    try:
        copy = state.determinized(seat, seed)
    except (StateError, _vm.VmStateError) as refused:
        return str(refused)
    return copy.to_data() if hasattr(copy, "to_data") else json.loads(copy.to_json())


def same_views_and_copies(game, ref, vm, rnd: random.Random) -> int:
    """Views and copies alike on both backends; the number of copies made (not refused)."""
    back = game.state_from_json(vm.to_json())
    for seat in [None, *range(ref.n)]:
        assert back.view(seat) == ref.view(seat), f"the view of seat {seat}"
    made = 0
    for seat in range(ref.n if not ref.is_terminal else 0):
        seed = rnd.getrandbits(31)
        copy = copy_or_refusal(ref, seat, seed)
        assert copy_or_refusal(vm, seat, seed) == copy
        made += isinstance(copy, dict)
    return made


@pytest.mark.parametrize("players", [2, 3])
def test_cards_placed_at_random_at_the_start_are_the_references_for_every_seed(tmp_path, players):
    game, vm_game = dealt(tmp_path)
    starts, copies = set(), 0
    for seed in range(25):
        ref, vm = game.new_game(players, seed), vm_game.new_game(players, seed)
        assert ref.to_data() == json.loads(vm.to_json()), f"seed {seed}: the deal differs"
        copies += same_views_and_copies(game, ref, vm, random.Random(seed))
        starts.add(json.dumps(ref.to_data()["zones"]))
        play(ref, vm, seed, every_step=True)
        assert ref.to_data() == json.loads(vm.to_json()) and ref.log == game.state_from_json(vm.to_json()).log
        assert vm.outcome() == (list(ref.outcome.results), ref.outcome.reason)
    assert len(starts) > 10  # the stones do land in other places seed after seed
    assert copies > 20 * players  # most deals agree with what the seat knows: copies are compared, not refusals


def test_a_game_dealt_at_random_mid_way_with_copies_alike(tmp_path):
    game, vm_game = dealt(tmp_path)
    ref, vm = game.new_game(3, 7), vm_game.new_game(3, 7)
    rnd = random.Random(7)
    copies = 0
    while not ref.is_terminal:
        copies += same_views_and_copies(game, ref, vm, rnd)
        action = rnd.choice(ref.legal_actions())
        ref.apply(action)
        vm.apply(action, None)
    assert ref.to_data() == json.loads(vm.to_json())
    assert copies > 3 * 9 // 2  # of 3 seats at 9 decisions


@pytest.mark.parametrize("first", ["reference", "vm"])
def test_a_save_of_a_game_dealt_at_random_continues_on_the_other_backend(tmp_path, first):
    game, vm_game = dealt(tmp_path)
    ref, vm = game.new_game(2, 3), vm_game.new_game(2, 3)
    play(ref, vm, 3, every_step=False, limit=2)
    saved = ref.to_json() if first == "reference" else vm.to_json()
    on_ref, on_vm = game.state_from_json(saved), vm_game.state_from_json(saved)
    play(on_ref, on_vm, 4, every_step=True)
    assert on_ref.to_data() == json.loads(on_vm.to_json())


def test_a_start_that_fails_when_it_is_drawn_is_the_references_located_fault(tmp_path):
    game, _ = dealt(tmp_path, DEALT.replace("first(players())", "item(players(), 7)"))
    diagnostic = same_fault_on_every_backend(game)
    assert diagnostic.code == "E701" and diagnostic.message.startswith("cannot place 'grey' at the start: ")


@pytest.mark.parametrize(
    "deal",
    [{"cards": [0], "where": "x"}, {"cards": [10**6] * 8, "where": "x"}, {"cards": "all", "where": "x"}, 3],
    ids=["too few starts", "no such function", "not a list", "not a deal"],
)
def test_an_ir_whose_deal_is_hostile_is_refused_in_one_line(tmp_path, deal):
    game, _ = dealt(tmp_path)
    ir = json.loads(ir_bytes(game))
    ir["deal"] = deal
    with pytest.raises(_vm.VmStateError) as refused:
        _vm.VmGame(json.dumps(ir).encode())
    assert "\n" not in str(refused.value) and str(refused.value).startswith("IR refused")
